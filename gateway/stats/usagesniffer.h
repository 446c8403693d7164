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
// It runs on every body piece a node sends, so it allocates nothing and reads each byte once: one
// pass over the piece's quote characters, each checked against the few keys of interest.

#include <QByteArrayView>
#include <array>

namespace switchyard::stats {

class UsageSniffer final
{
public:
    void feed(QByteArrayView data);
    qint64 promptTokens() const { return m_prompt; }
    // Usage when the node reported it, otherwise the counted stream events (or -1).
    qint64 completionTokens() const
    {
        return m_completion >= 0 ? m_completion : (m_events > 0 ? m_events : -1);
    }
    // Whether completionTokens() is the node's own figure rather than the estimate.
    bool usageReported() const { return m_completion >= 0; }
    // The estimate alone: chunks with text so far.
    qint64 countedChunks() const { return m_events; }

    // Longer than any key we look for plus a number, so a match split across two reads is seen whole.
    static constexpr qsizetype Carry = 48;

private:
    // carried: in the joint region, how many of its bytes came from the carry (-1: the new data).
    void scan(QByteArrayView text, qsizetype carried);

    std::array<char, Carry> m_carry{};
    qsizetype m_carryLength = 0;
    qint64 m_prompt = -1;
    qint64 m_completion = -1;
    qint64 m_events = 0;
};

} // namespace switchyard::stats
