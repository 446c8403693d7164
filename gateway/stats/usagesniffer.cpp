#include "usagesniffer.h"

#include <cstring>

namespace switchyard::stats {

namespace {
constexpr QByteArrayView PromptKey = "\"prompt_tokens\"";
constexpr QByteArrayView CompletionKey = "\"completion_tokens\"";
// A chunk's text, each of which counts as one token (see the header): chat content, reasoning (vLLM's
// two names for it), a tool call's piece, and a text completion's choice.
constexpr QByteArrayView ContentDelta = "\"delta\":{\"content\":\"";
constexpr QByteArrayView ReasoningContentDelta = "\"delta\":{\"reasoning_content\":\"";
constexpr QByteArrayView ReasoningDelta = "\"delta\":{\"reasoning\":\"";
constexpr QByteArrayView ToolCallsDelta = "\"delta\":{\"tool_calls\":[";
constexpr QByteArrayView CompletionText = "\"text\":\"";

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

bool matchesAt(QByteArrayView text, qsizetype pos, QByteArrayView key)
{
    return text.size() - pos >= key.size() &&
           std::memcmp(text.data() + pos, key.data(), size_t(key.size())) == 0;
}
} // namespace

void UsageSniffer::feed(QByteArrayView data)
{
    // Usage matches are idempotent (the last one wins), so scanning the joint region and then the new
    // data in order keeps "last seen" correct. An event is counted where it is first seen whole: in the
    // joint region only when it starts in the carry and ends in the new data, else in the new data.
    if (m_carryLength > 0 && !data.isEmpty()) {
        std::array<char, 2 * Carry> joined;
        const qsizetype head = std::min(Carry, data.size());
        std::memcpy(joined.data(), m_carry.data(), size_t(m_carryLength));
        std::memcpy(joined.data() + m_carryLength, data.data(), size_t(head));
        scan(QByteArrayView(joined.data(), m_carryLength + head), m_carryLength);
    }
    scan(data, -1);
    // The carry is the last Carry bytes seen, across reads shorter than that too.
    if (data.size() >= Carry) {
        std::memcpy(m_carry.data(), data.data() + data.size() - Carry, size_t(Carry));
        m_carryLength = Carry;
    } else if (!data.isEmpty()) {
        const qsizetype keepOld = std::min(m_carryLength, Carry - data.size());
        std::memmove(m_carry.data(), m_carry.data() + m_carryLength - keepOld, size_t(keepOld));
        std::memcpy(m_carry.data() + keepOld, data.data(), size_t(data.size()));
        m_carryLength = keepOld + data.size();
    }
}

void UsageSniffer::scan(QByteArrayView text, qsizetype carried)
{
    // An event key with the byte after it (a string's first character must show it is not empty).
    const auto event = [&](qsizetype pos, QByteArrayView key, bool needsText) {
        if (!matchesAt(text, pos, key))
            return false;
        const qsizetype end = pos + key.size() + (needsText ? 1 : 0);
        if (end > text.size() || (needsText && text[end - 1] == '"'))
            return false;
        if (carried >= 0 && (pos >= carried || end <= carried))
            return false; // seen whole in an earlier read, or to be seen in this one
        ++m_events;
        return true;
    };
    const char *const begin = text.data();
    const char *const end = begin + text.size();
    bool complete = false;
    for (const char *p = begin; p < end;) {
        p = static_cast<const char *>(std::memchr(p, '"', size_t(end - p)));
        if (!p)
            break;
        const qsizetype pos = p - begin;
        ++p;
        if (p == end)
            break;
        // The character after the quote tells which key this may be.
        switch (*p) {
        case 'p':
            if (matchesAt(text, pos, PromptKey)) {
                const qint64 n = numberAfter(text, pos + PromptKey.size(), &complete);
                if (n >= 0 && complete)
                    m_prompt = n;
            }
            break;
        case 'c':
            if (matchesAt(text, pos, CompletionKey)) {
                const qint64 n = numberAfter(text, pos + CompletionKey.size(), &complete);
                if (n >= 0 && complete)
                    m_completion = n;
            }
            break;
        case 'd':
            // An empty content string (the role-only first event) is no token.
            event(pos, ContentDelta, true) || event(pos, ReasoningContentDelta, true) ||
                event(pos, ReasoningDelta, true) || event(pos, ToolCallsDelta, false);
            break;
        case 't':
            event(pos, CompletionText, true);
            break;
        default:
            break;
        }
    }
}

} // namespace switchyard::stats
