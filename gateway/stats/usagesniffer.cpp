#include "usagesniffer.h"

namespace switchyard::stats {

namespace {
// Longer than any key we look for plus a number, so a match split across two reads is seen whole.
constexpr qsizetype Carry = 48;

// Reads the integer after a key; complete is false when the number may continue in the next read.
qint64 numberAfter(QByteArrayView text, qsizetype pos, bool *complete)
{
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == ':'))
        ++pos;
    qint64 n = 0;
    qsizetype digits = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9' && digits < 15) {
        n = n * 10 + (text[pos] - '0');
        ++pos;
        ++digits;
    }
    *complete = digits > 0 && pos < text.size();
    return digits > 0 ? n : -1;
}
} // namespace

void UsageSniffer::feed(QByteArrayView data)
{
    // Matches are idempotent (the last one wins), so scanning the joint region and then the new data
    // in order keeps "last seen" correct; events are counted on the new data only.
    if (!m_carry.isEmpty()) {
        QByteArray joined = m_carry;
        joined.append(data.first(std::min(Carry, data.size())));
        scan(joined, 0);
    }
    scan(data, 0);
    static constexpr QByteArrayView contentDelta = "\"delta\":{\"content\":\"";
    static constexpr QByteArrayView reasoningDelta = "\"delta\":{\"reasoning_content\":\"";
    for (qsizetype p = data.indexOf(contentDelta); p >= 0; p = data.indexOf(contentDelta, p + 1)) {
        const qsizetype v = p + contentDelta.size();
        if (v < data.size() && data[v] != '"')
            ++m_events;
    }
    for (qsizetype p = data.indexOf(reasoningDelta); p >= 0; p = data.indexOf(reasoningDelta, p + 1))
        ++m_events;
    m_carry = data.last(std::min(Carry, data.size())).toByteArray();
}

void UsageSniffer::scan(QByteArrayView text, qsizetype from)
{
    static constexpr QByteArrayView prompt = "\"prompt_tokens\"";
    static constexpr QByteArrayView completion = "\"completion_tokens\"";
    bool complete = false;
    for (qsizetype p = text.indexOf(prompt, from); p >= 0; p = text.indexOf(prompt, p + 1)) {
        const qint64 n = numberAfter(text, p + prompt.size(), &complete);
        if (n >= 0 && complete)
            m_prompt = n;
    }
    for (qsizetype p = text.indexOf(completion, from); p >= 0; p = text.indexOf(completion, p + 1)) {
        const qint64 n = numberAfter(text, p + completion.size(), &complete);
        if (n >= 0 && complete)
            m_completion = n;
    }
}

} // namespace switchyard::stats
