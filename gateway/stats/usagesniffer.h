#pragma once

// Finds token usage in response bytes as they pass through, without parsing or buffering the body:
// the last "prompt_tokens": N and "completion_tokens": N seen win (vLLM's final usage chunk, or the
// usage object of a non-streamed reply). A short carry-over handles keys and numbers split across
// reads.
//
// Until usage arrives (and for a node that never sends it) a stream's tokens are estimated by
// counting its chunks that carry text: each choice's content, reasoning or tool-call delta of a chat
// chunk, or text of a completion chunk, counts as one token. vLLM sends one chunk per decoding step
// and skips steps that produced no text, so the estimate is at most the exact count (a reasoning or
// tool parser that holds tokens back, speculative decoding or the final stop token only add to the
// exact figure); the gateway counts the estimate while the stream runs and adds the difference when
// the exact usage arrives.
//
// The Responses and Messages APIs (UsageDialect) name the figures input_tokens and output_tokens, and
// their text arrives as a Responses event's "delta":"…" or a Messages text_delta's "text":"…" (each one
// token, as above). A Messages stream reports output_tokens twice: a provisional figure in message_start
// and the final one in message_delta, so until the second the estimate stands in.
//
// It runs on every body piece a node sends, so it allocates nothing and reads each byte once: one
// pass over the piece's quote characters, each checked against the few keys of interest. A reply that
// is one JSON document (setWholeReply) has no chunks to count, only its figures, whose keys all end in
// _tokens": that pass visits the piece's underscores instead, a handful where a reply has dozens of
// quotes (about 1,500 instructions less per proxied request, docs/PERFORMANCE.md).

#include <QByteArrayView>
#include <array>

namespace switchyard::stats {

// Which API's names the usage and text go by.
enum class UsageDialect {
    Completions, // /v1/chat/completions, /v1/completions, /v1/embeddings: prompt_tokens, completion_tokens
    Responses,   // /v1/responses: input_tokens, output_tokens; text in "delta" events
    Messages,    // /v1/messages: input_tokens, output_tokens (final in message_delta); text_delta events
};

class UsageSniffer final
{
public:
    explicit UsageSniffer(UsageDialect dialect = UsageDialect::Completions) : m_dialect(dialect) {}

    // The node's answer is one JSON document, not an event stream: only the usage figures are read.
    void setWholeReply(bool whole) { m_whole = whole; }
    void feed(QByteArrayView data);
    qint64 promptTokens() const { return m_prompt; }
    // Usage when the node reported it, otherwise the counted stream events (or -1).
    qint64 completionTokens() const
    {
        if (usageReported())
            return m_completion;
        return m_events > 0 ? m_events : m_completion;
    }
    // Whether completionTokens() is the node's own final figure rather than the estimate.
    bool usageReported() const { return m_completion >= 0 && !m_provisional; }
    // The estimate alone: chunks with text so far.
    qint64 countedChunks() const { return m_events; }

    // Longer than any key we look for plus a number, so a match split across two reads is seen whole.
    static constexpr qsizetype Carry = 48;

private:
    // carried: in the joint region, how many of its bytes came from the carry (-1: the new data).
    // scanPiece reads a piece the way this reply is read: scan() a stream, scanFigures() a whole reply.
    void scanPiece(QByteArrayView text, qsizetype carried);
    void scan(QByteArrayView text, qsizetype carried);
    // A whole reply's figures alone, by their keys' underscores; same contract as scan().
    void scanFigures(QByteArrayView text);
    template<typename Event>
    void scanNewApis(QByteArrayView text, qsizetype pos, char first, const Event &event);

    std::array<char, Carry> m_carry{};
    qsizetype m_carryLength = 0;
    qint64 m_prompt = -1;
    qint64 m_completion = -1;
    qint64 m_events = 0;
    bool m_provisional = false; // a Messages stream between message_start and message_delta
    bool m_whole = false;
    UsageDialect m_dialect;
};

} // namespace switchyard::stats
