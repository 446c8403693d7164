#pragma once

// Reads a multipart/form-data body (RFC 7578) far enough to route it: the boundary from the request's
// Content-Type, then each part's name, filename and where its value lies in the body. Nothing is copied
// or decoded; an upload's audio bytes are only skipped over. The gateway uses it for
// /v1/audio/transcriptions and /v1/audio/translations, whose `model` form field routes the request and
// is replaced for pins by splicing (see proxy/audioupload), so every other byte reaches the node as the
// client sent it.
//
// Strict where leniency would misread a body: delimiters are CRLF "--" boundary as the RFC writes them
// (only the first may start the body without the CRLF), a part's headers end at an empty line, and a
// body that does not end with the closing delimiter is rejected. Bounded: at most MaxParts parts and
// MaxPartHeaderBytes of headers per part.

#include "http/jsonbodyscanner.h"

#include <QByteArray>
#include <QByteArrayView>
#include <optional>
#include <vector>

namespace switchyard::http {

// The boundary parameter of a "multipart/form-data; boundary=…" Content-Type (quoted or not), or
// nullopt when the type is another one or the boundary is missing, empty, longer than RFC 2046's 70
// characters or holds characters a boundary may not.
std::optional<QByteArray> multipartBoundary(QByteArrayView contentType);

struct MultipartPart
{
    QByteArray name;     // Content-Disposition's name="…"
    QByteArray filename; // its filename="…", empty for a plain field
    bool hasFilename = false;
    QByteArray contentType; // the part's own Content-Type, empty when absent
    Span value;             // the part's bytes in the body, between its headers and the next delimiter
};

struct MultipartForm
{
    std::vector<MultipartPart> parts;
    // Read from a prefix of the body (parseMultipartPrefix): false until the closing delimiter arrived,
    // and the part whose headers arrived but whose value has not ended yet (its value.end is -1).
    bool complete = true;
    std::optional<MultipartPart> arriving;
    // The first part with this name, or nullptr.
    const MultipartPart *part(QByteArrayView name) const;
};

struct MultipartError
{
    QByteArray message; // for the client: what is wrong, in words
};

constexpr int MaxParts = 256;
constexpr qsizetype MaxPartHeaderBytes = 8 * 1024;

// Parses the whole body. The value spans index into body.
std::optional<MultipartForm> parseMultipartForm(QByteArrayView body, QByteArrayView boundary,
                                                MultipartError *error = nullptr);

// Parses as much of a body as has arrived: the parts that ended, and the one arriving. An error only
// for what no further byte could mend; a body that stops short is incomplete, not wrong. An upload is
// routed from this while its audio is still on the way (proxy/uploadexchange).
std::optional<MultipartForm> parseMultipartPrefix(QByteArrayView prefix, QByteArrayView boundary,
                                                  MultipartError *error = nullptr);

} // namespace switchyard::http
