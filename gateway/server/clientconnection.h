#pragma once

// One client connection on a worker thread: reads requests (keep-alive, pipelined, answered strictly in
// order), dispatches each, and frames the response. Slow or silent clients are closed by the worker's
// sweep through deadline(): a request head must arrive within the header timeout of its first byte, a
// body must keep making progress, and an idle keep-alive connection lives for the idle timeout.
// With switchyard.tls the socket is a QSslSocket: the first byte tells a TLS client (who then has the
// handshake timeout to finish its handshake) from a plain HTTP one (who is told to use https and closed).

#include "http/httprequestparser.h"
#include "net/plainsocket.h"
#include "proxy/responsesink.h"
#include "server/workercontext.h"

#include <QElapsedTimer>
#include <QObject>
#include <initializer_list>
#include <memory>

class QSslSocket;
class QTcpSocket;

namespace switchyard::proxy {
class Exchange;
}

namespace switchyard::server {

class ClientConnection final : public QObject, public proxy::ResponseSink, private net::PlainSocket::Reader
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClientConnection)

public:
    ClientConnection(WorkerContext *context, QObject *parent = nullptr);
    ~ClientConnection() override;

    bool open(qintptr socketDescriptor);
    // Answers 503 and closes: used when the connection cap is reached.
    void rejectOverCapacity();

    bool isBusy() const { return m_exchange != nullptr || m_respondingLocally; }
    // Called by the worker's sweep; closes the connection when its current deadline has passed.
    void checkDeadline(qint64 nowMs);
    // Graceful stop: close now if idle, else after the current response.
    void drain();
    void abortNow();

    // ResponseSink
    void sendResponseHead(int status, const QByteArray &headerLines, qint64 contentLength) override;
    void sendResponseBody(QByteArrayView data) override;
    void endResponse() override;
    void abortResponse() override;
    qint64 outputBacklog() const override;
    void exchangeFinished(proxy::Exchange *exchange) override;

signals:
    void closed(ClientConnection *self);

private:
    void plainSocketReadable() override { onReadyRead(); }
    void onReadyRead();
    void startTls();
    void onEncrypted();
    qint64 pendingOutput() const; // not yet handed to the kernel, encrypted or not
    // Hands the pieces to the socket at once, in one system call for a plain connection. False when
    // that found the client gone (we are closing then).
    bool send(std::initializer_list<QByteArrayView> pieces);
    // After a response: take in what the client sent meanwhile (pipelining).
    void resumeReading();
    void onDisconnected();
    void processBuffer();
    void handleRequest(http::Request request);
    // An upload dispatched at its head (proxy::takesBodyAsItArrives): its body goes on as it arrives.
    void startRequestAtHead();
    // Hands the body bytes the parser read to the exchange (or drops them once it has finished).
    void passBodyOn(QByteArray piece, bool complete);
    void sendLocal(int status, const QByteArray &headerLines, const QByteArray &body);
    void failParse(int status, const QByteArray &message);
    void closeAfterWrite();
    void closeConnection();
    void logLocal(const http::Request &request, int status, const QByteArray &body, qint64 startedMs);
    qint64 nowMs() const;

    WorkerContext *m_ctx;
    net::PlainSocket *m_plain = nullptr; // a plain-HTTP client's connection (net/plainsocket.h)
    QTcpSocket *m_socket = nullptr;      // HTTPS: the QSslSocket (m_ssl), else null
    QSslSocket *m_ssl = nullptr;
    bool m_awaitingTlsHello = false; // HTTPS: no byte seen yet
    bool m_handshaking = false;    // HTTPS: the handshake has not finished
    bool m_rejectAfterHandshake = false; // HTTPS over the connection cap: the 503 follows the handshake
    http::RequestParser m_parser;
    QByteArray m_in;
    std::unique_ptr<proxy::Exchange> m_exchange;
    std::unique_ptr<proxy::Exchange> m_finishedExchange; // deleted when the next request starts
    QByteArray m_head;        // a response head waiting for its first body bytes, to go out with them
    QByteArray m_corsHeaders; // for every response to the current request (proxy/cors.h)
    bool m_respondingLocally = false;
    bool m_keepAlive = true;       // of the request being answered
    bool m_http10 = false;
    bool m_headRequest = false;
    bool m_chunkedOut = false;
    bool m_closeAfterResponse = false;
    bool m_closing = false;
    bool m_sentContinue = false;
    bool m_bodyArriving = false;   // the request was dispatched at its head and its body still comes
    bool m_responseBegun = false;  // a response head went out for the request being answered
    bool m_closedEmitted = false;
    bool m_peerIsLoopback = false; // looked up once per connection, not per request
    qint64 m_deadlineMs = 0;       // 0 = none (a response is in progress)
    qint64 m_requestStartMs = -1;  // first byte of the request being read
};

} // namespace switchyard::server
