#include "http/jsonmembers.h"

namespace switchyard::http {

namespace {
// pos at the opening quote; the index after the closing one, or -1.
qsizetype stringEnd(QByteArrayView text, qsizetype pos)
{
    for (++pos; pos < text.size(); ++pos) {
        const char c = text[pos];
        if (c == '\\')
            ++pos;
        else if (c == '"')
            return pos + 1;
    }
    return -1;
}
} // namespace

qsizetype skipJsonWhitespace(QByteArrayView text, qsizetype pos)
{
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\n' || text[pos] == '\r'))
        ++pos;
    return pos;
}

qsizetype jsonValueEnd(QByteArrayView text, qsizetype pos)
{
    pos = skipJsonWhitespace(text, pos);
    if (pos >= text.size())
        return -1;
    const char first = text[pos];
    if (first == '"')
        return stringEnd(text, pos);
    if (first == '{' || first == '[') {
        int depth = 0;
        while (pos < text.size()) {
            const char c = text[pos];
            if (c == '"') {
                pos = stringEnd(text, pos);
                if (pos < 0)
                    return -1;
                continue;
            }
            if (c == '{' || c == '[') {
                if (++depth > MaxJsonDepth)
                    return -1;
            } else if (c == '}' || c == ']') {
                if (--depth == 0)
                    return pos + 1;
            }
            ++pos;
        }
        return -1;
    }
    // A number or a literal: up to the next delimiter.
    const qsizetype start = pos;
    while (pos < text.size()) {
        const char c = text[pos];
        if (c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r')
            break;
        ++pos;
    }
    return pos > start ? pos : -1;
}

} // namespace switchyard::http
