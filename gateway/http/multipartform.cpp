#include "multipartform.h"

#include "http/httptypes.h"

#include <algorithm>

namespace switchyard::http {

namespace {

bool isBoundaryChar(char c)
{
    // RFC 2046 bchars: DIGIT / ALPHA / "'" / "(" / ")" / "+" / "_" / "," / "-" / "." / "/" / ":" / "=" / "?"
    // and space (not as the last character).
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
        return true;
    switch (c) {
    case '\'':
    case '(':
    case ')':
    case '+':
    case '_':
    case ',':
    case '-':
    case '.':
    case '/':
    case ':':
    case '=':
    case '?':
    case ' ':
        return true;
    default:
        return false;
    }
}

// One "name=value" parameter of a header value, from pos (just after a ';'). The value may be a
// quoted string with backslash escapes. Moves pos past the parameter and its ';'.
struct Parameter
{
    QByteArray name; // lower-case
    QByteArray value;
};

std::optional<Parameter> nextParameter(QByteArrayView v, qsizetype &pos)
{
    while (pos < v.size() && (v[pos] == ' ' || v[pos] == '\t' || v[pos] == ';'))
        ++pos;
    if (pos >= v.size())
        return std::nullopt;
    const qsizetype eq = v.indexOf('=', pos);
    const qsizetype semi = v.indexOf(';', pos);
    if (eq < 0 || (semi >= 0 && semi < eq)) {
        // A bare token (no '='): skip it, it carries no value.
        pos = semi < 0 ? v.size() : semi + 1;
        return Parameter{};
    }
    Parameter p;
    p.name = v.sliced(pos, eq - pos).trimmed().toByteArray().toLower();
    pos = eq + 1;
    while (pos < v.size() && (v[pos] == ' ' || v[pos] == '\t'))
        ++pos;
    if (pos < v.size() && v[pos] == '"') {
        ++pos;
        bool closed = false;
        while (pos < v.size()) {
            const char c = v[pos++];
            if (c == '\\' && pos < v.size()) {
                p.value += v[pos++];
            } else if (c == '"') {
                closed = true;
                break;
            } else {
                p.value += c;
            }
        }
        if (!closed)
            return std::nullopt; // an unterminated quoted string: the header cannot be trusted
        const qsizetype next = v.indexOf(';', pos);
        pos = next < 0 ? v.size() : next + 1;
        return p;
    }
    const qsizetype end = semi < 0 ? v.size() : semi;
    p.value = v.sliced(pos, end - pos).trimmed().toByteArray();
    pos = semi < 0 ? v.size() : semi + 1;
    return p;
}

bool startsWithNoCase(QByteArrayView v, QByteArrayView prefix)
{
    return v.size() >= prefix.size() && v.first(prefix.size()).compare(prefix, Qt::CaseInsensitive) == 0;
}

bool fail(MultipartError *error, const char *message)
{
    if (error)
        error->message = message;
    return false;
}

// The part's header block (without its final CRLF CRLF): Content-Disposition and Content-Type.
bool readPartHeaders(QByteArrayView headers, MultipartPart &part, MultipartError *error)
{
    bool disposition = false;
    qsizetype pos = 0;
    while (pos < headers.size()) {
        qsizetype e = indexOfCrlf(headers, pos);
        if (e < 0)
            e = headers.size();
        const QByteArrayView line = headers.sliced(pos, e - pos);
        pos = e + 2;
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0)
            return fail(error, "a part's header line has no name");
        const QByteArrayView name = line.first(colon).trimmed();
        const QByteArrayView value = line.sliced(colon + 1).trimmed();
        if (name.compare("content-type", Qt::CaseInsensitive) == 0) {
            part.contentType = value.toByteArray();
        } else if (name.compare("content-disposition", Qt::CaseInsensitive) == 0) {
            if (!startsWithNoCase(value, "form-data"))
                return fail(error, "a part's Content-Disposition is not form-data");
            disposition = true;
            qsizetype p = qsizetype(sizeof("form-data") - 1);
            while (p < value.size()) {
                const auto param = nextParameter(value, p);
                if (!param)
                    return fail(error, "a part's Content-Disposition has an unterminated quoted string");
                if (param->name == "name") {
                    part.name = param->value;
                } else if (param->name == "filename") {
                    part.filename = param->value;
                    part.hasFilename = true;
                }
            }
        }
    }
    if (!disposition)
        return fail(error, "a part has no Content-Disposition header");
    if (part.name.isEmpty())
        return fail(error, "a part's Content-Disposition has no name");
    return true;
}

} // namespace

std::optional<QByteArray> multipartBoundary(QByteArrayView contentType)
{
    const qsizetype semi = contentType.indexOf(';');
    const QByteArrayView type = (semi < 0 ? contentType : contentType.first(semi)).trimmed();
    if (type.compare("multipart/form-data", Qt::CaseInsensitive) != 0 || semi < 0)
        return std::nullopt;
    qsizetype pos = semi + 1;
    std::optional<QByteArray> boundary;
    while (pos < contentType.size()) {
        const auto p = nextParameter(contentType, pos);
        if (!p)
            return std::nullopt;
        if (p->name == "boundary" && !boundary)
            boundary = p->value;
    }
    if (!boundary || boundary->isEmpty() || boundary->size() > 70 || boundary->endsWith(' '))
        return std::nullopt;
    for (char c : *boundary) {
        if (!isBoundaryChar(c))
            return std::nullopt;
    }
    return boundary;
}

const MultipartPart *MultipartForm::part(QByteArrayView name) const
{
    for (const MultipartPart &p : parts) {
        if (p.name == name)
            return &p;
    }
    return nullptr;
}

namespace {

// The one reader behind both: `whole` says whether running out of bytes is an error (the whole body)
// or only where the prefix ends (the form so far, incomplete).
std::optional<MultipartForm> readForm(QByteArrayView body, QByteArrayView boundary, bool whole,
                                      MultipartError *error)
{
    const auto soFar = [whole, error](MultipartForm &form, const char *message) -> std::optional<MultipartForm> {
        if (whole) {
            fail(error, message);
            return std::nullopt;
        }
        form.complete = false;
        return std::move(form);
    };
    if (boundary.isEmpty()) {
        fail(error, "the multipart boundary is empty");
        return std::nullopt;
    }
    const QByteArray delimiter = "\r\n--" + boundary.toByteArray();  // CRLF "--" boundary
    const QByteArrayView dash = QByteArrayView(delimiter).sliced(2); // the first may open the body
    // pos: where "--boundary" of the next delimiter starts.
    qsizetype pos = 0;
    MultipartForm form;
    if (!body.startsWith(dash)) {
        const qsizetype first = body.indexOf(delimiter); // a preamble before the first delimiter
        if (first < 0) {
            // A prefix: the preamble or the first delimiter may still be arriving.
            return soFar(form, "the body does not contain the boundary from Content-Type");
        }
        pos = first + 2;
    }
    for (;;) {
        qsizetype at = pos + dash.size();
        if (at + 2 > body.size() && !whole)
            return soFar(form, nullptr); // what follows the delimiter has not arrived
        if (body.sliced(at).startsWith("--"))
            return form; // the closing delimiter; an epilogue after it is ignored (RFC 2046)
        while (at < body.size() && (body[at] == ' ' || body[at] == '\t'))
            ++at; // transport padding
        if (at + 2 > body.size() && !whole)
            return soFar(form, nullptr);
        if (!body.sliced(at).startsWith("\r\n")) {
            fail(error, "a boundary delimiter is not followed by CRLF");
            return std::nullopt;
        }
        if (form.parts.size() >= MaxParts) {
            fail(error, "the form has too many parts");
            return std::nullopt;
        }
        const qsizetype headersStart = at + 2;
        MultipartPart part;
        qsizetype valueStart = 0;
        if (!whole && headersStart + 2 > body.size())
            return soFar(form, nullptr);
        if (body.sliced(headersStart).startsWith("\r\n")) {
            valueStart = headersStart + 2; // no headers at all: readPartHeaders says what is missing
        } else {
            // Looked for only as far as headers may reach: a part without a blank line is not scanned to the
            // end.
            const qsizetype reach = std::min(body.size(), headersStart + MaxPartHeaderBytes + 4);
            const qsizetype headEnd = indexOfHeadEnd(body.first(reach), headersStart);
            if (headEnd < 0 && reach == body.size() && !whole)
                return soFar(form, nullptr); // the headers are still arriving
            if (headEnd < 0 || headEnd - headersStart > MaxPartHeaderBytes) {
                const bool cut = headEnd < 0 && reach < body.size();
                fail(error,
                     headEnd < 0 && !cut ? "a part's headers do not end" : "a part's headers are too long");
                return std::nullopt;
            }
            valueStart = headEnd + 4;
        }
        if (!readPartHeaders(body.sliced(headersStart, valueStart - 2 - headersStart), part, error))
            return std::nullopt;
        const qsizetype next = body.indexOf(delimiter, valueStart);
        if (next < 0) {
            if (!whole) {
                part.value = {valueStart, -1};
                form.arriving = std::move(part);
            }
            return soFar(form, "the body ends before the closing boundary");
        }
        part.value = {valueStart, next};
        form.parts.push_back(std::move(part));
        pos = next + 2;
    }
}

} // namespace

std::optional<MultipartForm> parseMultipartForm(QByteArrayView body, QByteArrayView boundary,
                                                MultipartError *error)
{
    return readForm(body, boundary, true, error);
}

std::optional<MultipartForm> parseMultipartPrefix(QByteArrayView prefix, QByteArrayView boundary,
                                                  MultipartError *error)
{
    return readForm(prefix, boundary, false, error);
}

} // namespace switchyard::http
