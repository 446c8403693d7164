#pragma once

// Incremental HTTP/1.1 request parser for the gateway's client side. It takes bytes from the front of
// the connection's buffer, so pipelined requests are parsed one after another. Limits are enforced as
// bytes arrive, never after buffering: a header block over the limit fails with 431 as soon as the
// limit is crossed, a body over the limit with 413 as soon as its length is known.
//
// Framing is strict where leniency enables request smuggling: Transfer-Encoding together with
// Content-Length, differing duplicate Content-Length values, a Transfer-Encoding other than a final
// "chunked", and obsolete header line folding are all rejected with 400.

#include "chunkeddecoder.h"
#include "httptypes.h"

#include <utility>

namespace switchyard::http {

class RequestParser final
{
public:
    struct Limits
    {
        qsizetype maxHeaderBytes = 64 * 1024;
        qsizetype maxBodyBytes = 32 * 1024 * 1024;
    };
    enum class Status { NeedMore, Complete, Error };
    struct Error
    {
        int status = 400;
        QByteArray message;
    };

    RequestParser() = default;
    explicit RequestParser(Limits limits) : m_limits(limits) {}

    // Parses from the front of buffer, removing what it consumed. Call again after Complete to parse
    // a pipelined request already in the buffer.
    Status parse(QByteArray &buffer);

    // True once a request head has been parsed and its body is still expected; the server uses this to
    // answer "Expect: 100-continue" and to apply the body timeout instead of the header timeout.
    bool inBody() const { return m_state != State::Head; }
    // The request being parsed (head available once inBody()), and after Complete the finished one.
    const Request &current() const { return m_request; }
    Request takeRequest();
    // In the body of a request with a Content-Length: its length, else -1 (no body yet, or chunked).
    qsizetype fixedBodyLength() const { return m_state == State::FixedBody ? m_bodyLength : -1; }
    // The body bytes read since the last call, for a request whose body goes on as it arrives: what
    // the parser holds is then only what arrived since. The rest comes with takeRequest() at Complete.
    QByteArray takeBodySoFar() { return std::exchange(m_request.body, QByteArray()); }
    const Error &error() const { return m_error; }

private:
    enum class State { Head, FixedBody, ChunkedBody, Failed };

    Status fail(int status, QByteArray message);
    Status parseHead(QByteArray &buffer, qsizetype headEnd);

    Limits m_limits;
    State m_state = State::Head;
    qsizetype m_scanFrom = 0; // where to resume looking for the end of the header block
    qsizetype m_bodyRemaining = 0;
    qsizetype m_bodyLength = 0; // a Content-Length body's
    ChunkedDecoder m_chunked;
    Request m_request;
    Error m_error;
};

} // namespace switchyard::http
