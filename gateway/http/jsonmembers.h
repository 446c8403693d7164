#pragma once

// The top-level members of a JSON object as byte spans, without a DOM and without recursion: how the
// gateway edits one member of a small object (a stream event, the request's stream_options) and
// passes every other byte through as it came. Not a validator: a request body was validated by
// jsonbodyscanner before; a node's event that does not read as an object is left as it is.

#include "http/jsonbodyscanner.h"

#include <QByteArrayView>
#include <utility>

namespace switchyard::http {

struct JsonMember
{
    QByteArrayView key; // as written between the quotes (escapes not decoded)
    Span member;        // from the key's opening quote to the end of the value
    Span value;
};

// Where the JSON value starting at pos (after optional whitespace) ends, or -1 when it does not end
// in text. Strings and nesting are followed; the nesting depth is bounded by MaxJsonDepth.
qsizetype jsonValueEnd(QByteArrayView text, qsizetype pos);

// The index after the whitespace at pos.
qsizetype skipJsonWhitespace(QByteArrayView text, qsizetype pos);

// Calls visit(const JsonMember &) for each member of the object in text (which may have whitespace
// around it), in order, until it returns false. Returns false when text is not an object (read that
// far), true when the whole object was read or the visitor stopped.
template <typename Visit>
bool forEachJsonMember(QByteArrayView text, Visit &&visit)
{
    qsizetype pos = skipJsonWhitespace(text, 0);
    if (pos >= text.size() || text[pos] != '{')
        return false;
    pos = skipJsonWhitespace(text, pos + 1);
    if (pos < text.size() && text[pos] == '}')
        return true;
    for (;;) {
        if (pos >= text.size() || text[pos] != '"')
            return false;
        const qsizetype keyEnd = jsonValueEnd(text, pos);
        if (keyEnd < 0)
            return false;
        JsonMember m;
        m.key = text.sliced(pos + 1, keyEnd - pos - 2);
        m.member.begin = pos;
        pos = skipJsonWhitespace(text, keyEnd);
        if (pos >= text.size() || text[pos] != ':')
            return false;
        pos = skipJsonWhitespace(text, pos + 1);
        const qsizetype valueEnd = jsonValueEnd(text, pos);
        if (valueEnd < 0)
            return false;
        m.value = {pos, valueEnd};
        m.member.end = valueEnd;
        if (!visit(std::as_const(m)))
            return true;
        pos = skipJsonWhitespace(text, valueEnd);
        if (pos < text.size() && text[pos] == ',') {
            pos = skipJsonWhitespace(text, pos + 1);
            continue;
        }
        return pos < text.size() && text[pos] == '}';
    }
}

} // namespace switchyard::http
