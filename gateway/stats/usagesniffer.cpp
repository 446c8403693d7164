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
// The Responses and Messages APIs: their figures' names, a Responses event's text (output text,
// reasoning and a function call's arguments all come as "delta":"…"), and a Messages delta's text besides
// "text" (a tool call's JSON and extended thinking).
constexpr QByteArrayView InputKey = "\"input_tokens\"";
constexpr QByteArrayView OutputKey = "\"output_tokens\"";
constexpr QByteArrayView ResponsesDelta = "\"delta\":\"";
constexpr QByteArrayView PartialJsonDelta = "\"partial_json\":\"";
constexpr QByteArrayView ThinkingDelta = "\"thinking\":\"";
// A Messages stream's output_tokens is provisional from message_start until message_delta.
constexpr QByteArrayView MessageStart = "\"message_start\"";
constexpr QByteArrayView MessageDelta = "\"message_delta\"";

// Between a key and its number JSON puts a colon and perhaps a little white space; a token count has
// at most 15 digits. What is longer is no figure: it could not be told apart from bytes cut across
// reads, since the carry that joins two reads holds a key, its separators and its number only.
constexpr qsizetype MaxSeparators = 8;
constexpr qsizetype MaxDigits = 15;
static_assert(UsageSniffer::Carry >= 19 /* "completion_tokens" */ + MaxSeparators + MaxDigits + 2,
              "a figure and the byte after it fit in the carry");

// Reads the integer after a key; complete is false when the number may continue in the next read.
qint64 numberAfter(QByteArrayView text, qsizetype pos, bool *complete)
{
    *complete = true;
    for (qsizetype separators = 0; pos < text.size() && (text[pos] == ' ' || text[pos] == ':'); ++pos) {
        if (++separators > MaxSeparators)
            return -1;
    }
    qint64 n = 0;
    qsizetype digits = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
        if (++digits > MaxDigits)
            return -1;
        n = n * 10 + (text[pos] - '0');
        ++pos;
    }
    *complete = digits > 0 && pos < text.size();
    return digits > 0 ? n : -1;
}

bool matchesAt(QByteArrayView text, qsizetype pos, QByteArrayView key)
{
    return text.size() - pos >= key.size() &&
           std::memcmp(text.data() + pos, key.data(), size_t(key.size())) == 0;
}

// The number after key at pos into *target, when key is there and its number is whole.
void readFigure(QByteArrayView text, qsizetype pos, QByteArrayView key, qint64 *target)
{
    if (!matchesAt(text, pos, key))
        return;
    bool complete = false;
    const qint64 n = numberAfter(text, pos + key.size(), &complete);
    if (n >= 0 && complete)
        *target = n;
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
        scanPiece(QByteArrayView(joined.data(), m_carryLength + head), m_carryLength);
    }
    scanPiece(data, -1);
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

void UsageSniffer::scanPiece(QByteArrayView text, qsizetype carried)
{
    if (m_whole)
        scanFigures(text);
    else
        scan(text, carried);
}

void UsageSniffer::scanFigures(QByteArrayView text)
{
    // Figures are idempotent (the last seen wins), so a key seen again in the joint region does no harm.
    constexpr qsizetype Suffix = sizeof("_tokens\"") - 1; // what every figure's key ends with
    const bool chat = m_dialect == UsageDialect::Completions;
    const QByteArrayView promptKey = chat ? PromptKey : InputKey;
    const QByteArrayView completionKey = chat ? CompletionKey : OutputKey;
    // The key whose underscore is at u: its opening quote sits (key length - Suffix) bytes before.
    const auto figureAt = [&](qsizetype u, QByteArrayView key, qint64 *target) {
        const qsizetype start = u - (key.size() - Suffix);
        if (start >= 0)
            readFigure(text, start, key, target);
    };
    const char *const begin = text.data();
    const char *const end = begin + text.size();
    for (const char *p = begin; p < end; ++p) {
        p = static_cast<const char *>(std::memchr(p, '_', size_t(end - p)));
        if (!p)
            break;
        const qsizetype u = p - begin;
        figureAt(u, promptKey, &m_prompt);
        figureAt(u, completionKey, &m_completion);
    }
}

template<typename Event>
void UsageSniffer::scanNewApis(QByteArrayView text, qsizetype pos, char first, const Event &event)
{
    switch (first) {
    case 'i':
        readFigure(text, pos, InputKey, &m_prompt);
        break;
    case 'o':
        readFigure(text, pos, OutputKey, &m_completion);
        break;
    case 'd':
        if (m_dialect == UsageDialect::Responses)
            event(pos, ResponsesDelta, true);
        break;
    case 't':
        // Responses events repeat the whole text in their *.done events: only Messages counts "text".
        if (m_dialect == UsageDialect::Messages)
            event(pos, CompletionText, true) || event(pos, ThinkingDelta, true);
        break;
    case 'p':
        if (m_dialect == UsageDialect::Messages)
            event(pos, PartialJsonDelta, true);
        break;
    case 'm':
        if (m_dialect == UsageDialect::Messages && matchesAt(text, pos, MessageStart))
            m_provisional = true;
        else if (m_dialect == UsageDialect::Messages && matchesAt(text, pos, MessageDelta))
            m_provisional = false;
        break;
    default:
        break;
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
    for (const char *p = begin; p < end;) {
        p = static_cast<const char *>(std::memchr(p, '"', size_t(end - p)));
        if (!p)
            break;
        const qsizetype pos = p - begin;
        ++p;
        if (p == end)
            break;
        // The character after the quote tells which key this may be.
        if (m_dialect != UsageDialect::Completions) {
            scanNewApis(text, pos, *p, event);
            continue;
        }
        switch (*p) {
        case 'p':
            readFigure(text, pos, PromptKey, &m_prompt);
            break;
        case 'c':
            readFigure(text, pos, CompletionKey, &m_completion);
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
