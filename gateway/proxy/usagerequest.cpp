#include "proxy/usagerequest.h"

#include "http/jsonmembers.h"

namespace switchyard::proxy {

namespace {
constexpr QByteArrayView Member = ",\"stream_options\":{\"include_usage\":true}";
constexpr QByteArrayView Object = "{\"include_usage\":true}";

// Replaces [begin, end) of body with text and moves the spans after the edit along.
QByteArray splice(QByteArrayView body, qsizetype begin, qsizetype end, QByteArrayView text, http::ScannedBody &scan)
{
    QByteArray out;
    out.reserve(body.size() - (end - begin) + text.size());
    out.append(body.first(begin)).append(text).append(body.sliced(end));
    const qsizetype delta = text.size() - (end - begin);
    for (http::Span *s : {&scan.modelValue, &scan.fallbacksMember, &scan.streamOptionsValue}) {
        if (!s->isValid() || s->begin < end)
            continue;
        s->begin += delta;
        s->end += delta;
    }
    if (scan.streamOptionsValue.isValid() && scan.streamOptionsValue.begin <= begin &&
        scan.streamOptionsValue.end >= end)
        scan.streamOptionsValue.end += delta; // the edit was inside stream_options
    scan.includeUsage = true;
    return out;
}
} // namespace

bool streamCanCarryUsage(QByteArrayView path)
{
    const qsizetype query = path.indexOf('?');
    const QByteArrayView p = query >= 0 ? path.first(query) : path;
    return p == "/v1/chat/completions" || p == "/v1/completions";
}

std::optional<QByteArray> bodyAskingForUsage(QByteArrayView body, http::ScannedBody &scan)
{
    if (!scan.valid || !scan.isObject || !scan.stream || scan.includeUsage)
        return std::nullopt;
    if (!scan.streamOptionsValue.isValid()) {
        // Add the member after the last one: the body is a validated object with at least "stream".
        qsizetype close = body.size() - 1;
        while (close > 0 && body[close] != '}')
            --close;
        qsizetype last = close - 1;
        while (last > 0 && (body[last] == ' ' || body[last] == '\t' || body[last] == '\n' || body[last] == '\r'))
            --last;
        if (close <= 0 || body[last] == '{')
            return std::nullopt;
        return splice(body, last + 1, last + 1, Member, scan);
    }
    const http::Span v = scan.streamOptionsValue;
    const QByteArrayView options = body.sliced(v.begin, v.end - v.begin);
    if (options == "null")
        return splice(body, v.begin, v.end, Object, scan);
    http::Span includeUsage;
    qsizetype firstMember = -1;
    const bool object = http::forEachJsonMember(options, [&](const http::JsonMember &m) {
        if (firstMember < 0)
            firstMember = m.member.begin;
        if (m.key == "include_usage")
            includeUsage = m.value; // repeated: a node reads the last copy
        return true;
    });
    if (!object)
        return std::nullopt;
    if (includeUsage.isValid())
        return splice(body, v.begin + includeUsage.begin, v.begin + includeUsage.end, "true", scan);
    if (firstMember < 0) // {} with whatever whitespace
        return splice(body, v.begin, v.end, Object, scan);
    return splice(body, v.begin + firstMember, v.begin + firstMember, "\"include_usage\":true,", scan);
}

} // namespace switchyard::proxy
