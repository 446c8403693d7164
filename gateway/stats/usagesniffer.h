#pragma once

// Finds token usage in response bytes as they pass through, without parsing or buffering the body:
// the last "prompt_tokens": N and "completion_tokens": N seen win (vLLM's final usage chunk, or the
// usage object of a non-streamed reply). For streams without usage it counts content events, which
// for vLLM is one token each. A short carry-over handles numbers split across reads.

#include <QByteArray>
#include <QByteArrayView>

namespace switchyard::stats {

class UsageSniffer final
{
public:
    void feed(QByteArrayView data);
    qint64 promptTokens() const { return m_prompt; }
    // Usage when the node reported it, otherwise the counted stream events (or -1).
    qint64 completionTokens() const { return m_completion >= 0 ? m_completion : (m_events > 0 ? m_events : -1); }

private:
    void scan(QByteArrayView text, qsizetype from);

    QByteArray m_carry;
    qint64 m_prompt = -1;
    qint64 m_completion = -1;
    qint64 m_events = 0;
};

} // namespace switchyard::stats
