#pragma once

// One client connection of the simulated node, speaking HTTP/1.1 the way uvicorn does: requests are
// parsed incrementally (pipelined ones are answered in order, one exchange at a time), responses carry
// uvicorn's headers, streams use chunked transfer coding, and an idle connection is closed after the
// keep-alive timeout. What a request means is the handler's business.

#include "http/httprequestparser.h"

#include <QObject>
#include <QTimer>

class QTcpSocket;

namespace switchyard::sim {

class SimConnection final : public QObject
{
    Q_OBJECT

public:
    class Handler
    {
    public:
        // A complete request. The connection is busy until the handler answers it with respond() or
        // beginStream() … endStream(), or cuts it with drop(); it may do so now or later.
        virtual void handleRequest(SimConnection &connection, http::Request request) = 0;
        // The connection is gone (client closed, error, or our own close). exchangeOpen: a request was
        // still unanswered. Called once; the handler then deletes the connection (deleteLater).
        virtual void connectionClosed(SimConnection &connection, bool exchangeOpen) = 0;
        // Bytes read from the client, as they arrive: requests not yet complete included.
        virtual void bytesReceived(qint64 bytes) { Q_UNUSED(bytes); }

    protected:
        ~Handler() = default;
    };

    // Takes ownership of socket.
    SimConnection(QTcpSocket *socket, Handler &handler, int keepAliveTimeoutMs, QObject *parent);
    ~SimConnection() override;
    Q_DISABLE_COPY_MOVE(SimConnection)

    bool exchangeOpen() const { return m_exchangeOpen; }
    bool isClosed() const { return m_closing; }
    // The handler's handle on the open exchange (e.g. its sequence id); 0 = none.
    quint64 tag() const { return m_tag; }
    void setTag(quint64 tag) { m_tag = tag; }
    QString peer() const;

    // A whole response; ends the exchange. contentType empty = no content-type header.
    void respond(int status, QByteArrayView contentType, QByteArrayView body, QByteArrayView extraHeaders = {});
    // A streamed 200 response: text/event-stream, chunked.
    void beginStream();
    void streamData(QByteArrayView data);
    void endStream();
    // Closes the connection after what was written so far, without finishing the response (fault
    // injection). The exchange counts as closed by us, not as a client abort.
    void drop();
    // Writes bytes that are not an HTTP response, then drop() (the `garbage` fault).
    void respondRaw(QByteArrayView bytes);
    // Closes the connection if no exchange is open.
    void closeIfIdle();

private:
    void onReadyRead();
    void onDisconnected();
    void processBuffer();
    void finishExchange();
    void writeHead(int status, QByteArrayView headers);

    QTcpSocket *m_socket;
    Handler &m_handler;
    http::RequestParser m_parser;
    QByteArray m_buffer;
    QTimer m_keepAlive;
    quint64 m_tag = 0;
    bool m_exchangeOpen = false;
    bool m_keepAliveAfter = true; // the open exchange allows another request on this connection
    bool m_chunked = false;       // the open stream uses chunked coding (HTTP/1.1)
    bool m_http10 = false;
    bool m_sentContinue = false;
    bool m_processing = false;    // inside processBuffer: guards against re-entry from the handler
    bool m_closing = false;
    bool m_notified = false;
};

} // namespace switchyard::sim
