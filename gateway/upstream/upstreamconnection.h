#pragma once

// One keep-alive HTTP/1.1 connection to a node (QTcpSocket, or QSslSocket for https). It sends one
// request at a time and reports the response to its current listener as it arrives: the head, then
// body pieces as views into its read buffer, then the end. QNetworkAccessManager is deliberately not
// used: in Qt 6.4 it caps a host at 6 connections and would queue the seventh concurrent stream.
//
// A plain connection that has carried a response is taken over from Qt at its next request: its
// descriptor is read and written directly (net/plainsocket.h), as a client's is. Qt's socket does what
// it is good at, resolving the name, connecting and saying why not; the steady keep-alive path then
// skips its signals and its read and write layers (docs/PERFORMANCE.md, "Per core").

#include "http/httpresponseparser.h"
#include "net/plainsocket.h"
#include "upstream/pinnedcertificate.h"
#include "routing/routingtable.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>

class QTcpSocket;

namespace switchyard::upstream {

enum class UpstreamErrorKind {
    ConnectRefused, // nothing listens (or the node refuses)
    ConnectFailed,  // other connect errors: host not found, unreachable, TLS handshake
    Closed,         // connection closed or reset before the response was complete
    BadResponse,    // not HTTP, or framing we cannot follow
};

struct UpstreamError
{
    UpstreamErrorKind kind = UpstreamErrorKind::Closed;
    QString message;
    bool responseStarted = false; // some response bytes had arrived
    // A TLS handshake refused because the peer's certificate is neither trusted nor pinned: which one it
    // was, so the panel can offer to pin it.
    UntrustedCertificate untrusted;
};

class UpstreamListener
{
public:
    virtual ~UpstreamListener() = default;
    virtual void upstreamConnected() {}
    virtual void upstreamHead(const http::ResponseParser &response) = 0;
    virtual void upstreamBody(QByteArrayView data) = 0;
    virtual void upstreamFinished() = 0;
    virtual void upstreamFailed(const UpstreamError &error) = 0;
};

class UpstreamConnection final : public QObject, private net::PlainSocket::Reader
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UpstreamConnection)

public:
    UpstreamConnection(const routing::Endpoint &endpoint, QObject *parent = nullptr);
    ~UpstreamConnection() override;

    const QString &poolKey() const { return m_poolKey; }
    // True when the connection has carried a response before: a failure before any response byte
    // then most likely means the node had closed it while idle, and a fresh connection is worth one try.
    // Counted in finished responses, not requests sent: a fresh connection whose first request the node
    // received and dropped is not reused, so that request is not sent to the node a second time.
    bool isReused() const { return m_responsesFinished > 0; }
    bool isConnected() const;
    // Idle, connected and with no stray bytes: safe to send the next request on.
    bool isReusable() const;
    qint64 idleMs() const { return m_idleTimer.isValid() ? m_idleTimer.elapsed() : 0; }

    // Sends a request; the listener gets the response. Connects first when needed.
    void send(QByteArray request, UpstreamListener *listener);
    // More of the current request's body, for a request sent before its body had all arrived (an
    // upload forwarded as it comes): written now, or after the connect with the rest.
    void sendMore(QByteArrayView bytes);
    // Stops delivering to the listener and closes the socket (the response is abandoned).
    void abort();
    // When the client cannot keep up, stop reading the node until resume(): TCP pushes back on it.
    void pause();
    void resume();

signals:
    // Emitted while idle in the pool when the node closes the connection.
    void closedWhileIdle(UpstreamConnection *self);

private:
    void plainSocketReadable() override { onReadyRead(); }
    // Between requests on a plain connection: its descriptor from Qt's socket to a PlainSocket.
    void takeOverDescriptor();
    void closeSocket(); // aborts Qt's socket or ours, without a signal from either
    net::ReadOutcome readSome(QByteArray &into);
    void onConnected();
    void onReadyRead();
    void processInput(); // the response bytes in m_in, to the listener
    bool writeRequest(QByteArrayView request); // false when the node had closed the connection
    void onDisconnected();
    void onSocketError();
    void fail(UpstreamErrorKind kind, const QString &message, const UntrustedCertificate &untrusted = {});
    void finishResponse();

    routing::Endpoint m_endpoint;
    QString m_poolKey;
    QTcpSocket *m_socket = nullptr;       // until taken over, and for https
    net::PlainSocket *m_plain = nullptr;  // a plain connection once taken over
    UpstreamListener *m_listener = nullptr;
    QByteArray m_pendingRequest;
    QByteArray m_in;
    http::ResponseParser m_parser;
    bool m_inHead = false;
    bool m_inBody = false;
    bool m_keepAlive = true;
    bool m_paused = false;
    bool m_broken = false;
    bool m_peerClosed = false; // an unbuffered socket read the node's close (Qt does not signal it)
    int m_requestsSent = 0;
    int m_responsesFinished = 0;
    QElapsedTimer m_idleTimer;
};

} // namespace switchyard::upstream
