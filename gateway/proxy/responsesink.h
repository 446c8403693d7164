#pragma once

// Where a proxied response goes: the client connection. The exchange never sees the client socket;
// the connection frames the body (Content-Length, chunked, or until close for HTTP/1.0 clients).

#include <QByteArray>
#include <QByteArrayView>

namespace switchyard::proxy {

class Exchange;

class ResponseSink
{
public:
    virtual ~ResponseSink() = default;
    // headerLines: "Name: value\r\n"… (no framing headers); contentLength < 0 = length unknown.
    virtual void sendResponseHead(int status, const QByteArray &headerLines, qint64 contentLength) = 0;
    virtual void sendResponseBody(QByteArrayView data) = 0;
    virtual void endResponse() = 0;
    // The response cannot be completed properly: close the connection so the client sees it cut.
    virtual void abortResponse() = 0;
    // Bytes written to the client but not yet taken by the kernel: back-pressure.
    virtual qint64 outputBacklog() const = 0;
    // The exchange is over (after end/abort, or after the client went away); the sink may delete it.
    virtual void exchangeFinished(Exchange *exchange) = 0;
};

} // namespace switchyard::proxy
