#pragma once

// Finds token usage in response bytes as they pass through, without parsing or buffering the body:
// the last "prompt_tokens": N and "completion_tokens": N seen win (vLLM's final usage chunk, or the
// usage object of a non-streamed reply). For streams without usage it counts content events, which
// for vLLM is one token each. A short carry-over handles numbers split across reads.
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

    // Longer than any key we look for plus a number, so a match split across two reads is seen whole.
    static constexpr qsizetype Carry = 48;

private:
    void scan(QByteArrayView text, bool countEvents);

    std::array<char, Carry> m_carry{};
    qsizetype m_carryLength = 0;
    qint64 m_prompt = -1;
    qint64 m_completion = -1;
    qint64 m_events = 0;
};

} // namespace switchyard::stats
