#include "clientconnection.h"

#include "http/bytewriter.h"
#include "net/plainsocket.h"
#include "proxy/dispatcher.h"
#include "proxy/openaierror.h"
#include "proxy/cors.h"
#include "proxy/proxyexchange.h"

#include <QDateTime>
#include <QDeadlineTimer>
#include <QSslConfiguration>
#include <QSslSocket>
#include <QTcpSocket>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::server {

namespace {
// What a client may have buffered with us while a response is in progress (pipelining): we (or Qt, for
// HTTPS) stop reading the socket beyond this, so the kernel pushes back on the client.
constexpr qint64 ClientReadBufferBytes = 1024 * 1024;
} // namespace

ClientConnection::ClientConnection(WorkerContext *context, QObject *parent)
    : QObject(parent), m_ctx(context),
      m_parser(http::RequestParser::Limits{64 * 1024, context->settings().maxRequestBodyBytes})
{
}

ClientConnection::~ClientConnection()
{
    m_exchange.reset();
    m_finishedExchange.reset();
    if (m_socket) {
        m_socket->disconnect(this);
        m_socket->abort();
        delete m_socket;
    }
    delete m_plain;
}

qint64 ClientConnection::nowMs() const
{
    return QDeadlineTimer::current().deadline();
}

bool ClientConnection::open(qintptr socketDescriptor)
{
    if (!m_ctx->settings().tls.enabled()) {
        m_plain = new net::PlainSocket(socketDescriptor);
        m_plain->setNoDelay();
        m_peerIsLoopback = m_plain->peerAddress().isLoopback();
        m_plain->setReader(this); // called directly, not through a signal
        connect(m_plain, &net::PlainSocket::failed, this, &ClientConnection::onDisconnected);
        connect(m_plain, &net::PlainSocket::bytesWritten, this, [this] {
            if (m_exchange)
                m_exchange->outputDrained();
        });
        m_deadlineMs = nowMs() + m_ctx->settings().idleTimeoutMs;
        return true; // input already waiting makes the read notifier fire at once
    }
    m_ssl = new QSslSocket();
    m_socket = m_ssl;
    if (!m_socket->setSocketDescriptor(socketDescriptor))
        return false;
    m_socket->setReadBufferSize(ClientReadBufferBytes);
    m_peerIsLoopback = m_socket->peerAddress().isLoopback();
    m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    connect(m_socket, &QTcpSocket::readyRead, this, &ClientConnection::onReadyRead);
    connect(m_socket, &QTcpSocket::disconnected, this, &ClientConnection::onDisconnected);
    connect(m_socket, &QTcpSocket::errorOccurred, this, [this](QAbstractSocket::SocketError) {
        // A write to a client that has gone, or a reset: the same as a disconnect for us.
        if (m_socket->state() != QAbstractSocket::ConnectedState || m_socket->error() != QAbstractSocket::RemoteHostClosedError)
            onDisconnected();
    });
    connect(m_socket, &QTcpSocket::bytesWritten, this, [this] {
        if (m_exchange)
            m_exchange->outputDrained();
    });
    // Encrypted bytes reaching the kernel are what frees the backlog the exchange waits on.
    connect(m_ssl, &QSslSocket::encryptedBytesWritten, this, [this] {
        if (m_exchange)
            m_exchange->outputDrained();
    });
    connect(m_ssl, &QSslSocket::encrypted, this, &ClientConnection::onEncrypted);
    // The whole handshake, first byte included, within the handshake timeout: a client that connects
    // and never says anything holds no connection slot for longer.
    m_awaitingTlsHello = true;
    m_handshaking = true;
    m_deadlineMs = nowMs() + m_ctx->settings().tls.handshakeTimeoutMs;
    if (m_socket->bytesAvailable() > 0)
        onReadyRead();
    return true;
}

void ClientConnection::rejectOverCapacity()
{
    if (m_handshaking) {
        m_rejectAfterHandshake = true; // the 503 must be encrypted to be read
        return;
    }
    const proxy::LocalResponse r = proxy::errorResponse(
        503, u"The gateway is at its connection limit; retry shortly"_s, "too_many_connections");
    m_keepAlive = false;
    m_closeAfterResponse = true;
    sendLocal(r.status, r.headerLines + "Retry-After: 1\r\n", r.body);
}

void ClientConnection::startTls()
{
    // Before the handshake the socket is still plain: peeking leaves the bytes for the TLS engine.
    char first = 0;
    if (m_socket->peek(&first, 1) != 1)
        return;
    m_awaitingTlsHello = false;
    if (first == 0x16) { // a TLS handshake record
        const config::TlsSettings &tls = m_ctx->settings().tls;
        QSslConfiguration c = QSslConfiguration::defaultConfiguration();
        c.setLocalCertificateChain(tls.certificateChain);
        c.setPrivateKey(tls.privateKey);
        c.setPeerVerifyMode(QSslSocket::VerifyNone); // clients authenticate with keys, not certificates
        c.setAllowedNextProtocols({QByteArray(QSslConfiguration::NextProtocolHttp1_1)});
        m_ssl->setSslConfiguration(c);
        m_ssl->startServerEncryption();
        return;
    }
    // Plain HTTP on the HTTPS port: say so in words curl shows, rather than a reset the user must puzzle
    // over, and close. Nothing of the request is read or logged.
    m_handshaking = false;
    const QByteArray body = R"({"error":{"message":"This port speaks HTTPS: use https:// to reach the gateway","type":"invalid_request_error","code":"https_required"}})"
                            "\n";
    const QByteArray answer = "HTTP/1.1 400 Bad Request\r\nServer: switchyard\r\nContent-Type: application/json\r\n"
                              "Content-Length: " + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
    send({answer});
    closeAfterWrite();
}

void ClientConnection::onEncrypted()
{
    m_handshaking = false;
    if (m_rejectAfterHandshake) {
        rejectOverCapacity();
        return;
    }
    m_deadlineMs = nowMs() + m_ctx->settings().idleTimeoutMs;
    if (m_socket->bytesAvailable() > 0)
        onReadyRead();
}

qint64 ClientConnection::pendingOutput() const
{
    if (m_plain)
        return m_head.size() + m_plain->bytesToWrite();
    if (!m_socket)
        return 0;
    return m_head.size() + m_socket->bytesToWrite() + (m_ssl ? m_ssl->encryptedBytesToWrite() : 0);
}

bool ClientConnection::send(std::initializer_list<QByteArrayView> pieces)
{
    if (m_plain) {
        if (m_plain->write(pieces))
            return true;
        onDisconnected(); // the client has gone
        return false;
    }
    if (!m_socket)
        return false;
    for (QByteArrayView p : pieces)
        m_socket->write(p.data(), p.size());
    // Send now rather than on the next turn of the event loop: QTcpSocket otherwise only arms a write
    // notifier, costing a poll round trip (and for a stream, each event's delay) per piece.
    m_socket->flush(); // a write error closes us synchronously (errorOccurred)
    return !m_closing;
}

void ClientConnection::resumeReading()
{
    if (m_plain)
        m_plain->setReading(true); // level-triggered: input that waits announces itself at once
    else if (m_socket)
        m_in.append(m_socket->readAll()); // Qt has buffered it meanwhile
}

void ClientConnection::onReadyRead()
{
    if (m_awaitingTlsHello) {
        startTls();
        return;
    }
    if (m_handshaking)
        return; // the TLS engine reads what it needs itself
    if (m_plain) {
        // A plain connection is read even while a response is in progress, so a client that goes away
        // is noticed at once (and its node stops generating), but only up to the pipelining bound.
        const qint64 room = isBusy() ? ClientReadBufferBytes - m_in.size() : ClientReadBufferBytes;
        if (m_closing || room <= 0) {
            m_plain->setReading(false); // resumed when the response is done
            return;
        }
        if (m_plain->read(m_in, room).closed) {
            onDisconnected();
            return;
        }
        processBuffer(); // nothing while busy: answered in order, the next request after this response
        return;
    }
    if (m_closing || (isBusy() && !m_bodyArriving))
        return; // answered in order: the next request is read after this response
    m_in.append(m_socket->readAll());
    processBuffer();
}

void ClientConnection::processBuffer()
{
    // An upload's body is read on while its exchange runs (or after it answered early, to be dropped).
    while (!m_closing && (!isBusy() || m_bodyArriving) && !m_in.isEmpty()) {
        if (m_requestStartMs < 0) {
            m_requestStartMs = nowMs();
            m_deadlineMs = m_requestStartMs + m_ctx->settings().headerTimeoutMs;
        }
        const bool wasInBody = m_parser.inBody();
        const qsizetype before = m_in.size();
        const auto status = m_parser.parse(m_in);
        if (status == http::RequestParser::Status::Error) {
            failParse(m_parser.error().status, m_parser.error().message);
            return;
        }
        if (status == http::RequestParser::Status::NeedMore) {
            if (m_parser.inBody()) {
                // A body must keep coming: each piece extends the deadline.
                if (!wasInBody || m_in.size() != before)
                    m_deadlineMs = nowMs() + m_ctx->settings().headerTimeoutMs;
                if (m_parser.current().expectContinue && !m_sentContinue) {
                    m_sentContinue = true;
                    if (!send({"HTTP/1.1 100 Continue\r\n\r\n"}))
                        return;
                }
                if (!wasInBody && !m_bodyArriving && m_parser.fixedBodyLength() > 0
                    && proxy::takesBodyAsItArrives(m_parser.current().method, m_parser.current().path)) {
                    startRequestAtHead();
                    if (m_closing)
                        return;
                }
                if (m_bodyArriving)
                    passBodyOn(m_parser.takeBodySoFar(), false);
            }
            return;
        }
        m_sentContinue = false;
        if (m_bodyArriving) {
            passBodyOn(m_parser.takeRequest().body, true);
            continue; // a pipelined request waits in the loop's condition until the exchange is done
        }
        handleRequest(m_parser.takeRequest());
    }
}

void ClientConnection::startRequestAtHead()
{
    http::Request head = m_parser.current(); // its body so far follows through passBodyOn
    head.body.clear();
    head.bodyArriving = m_parser.fixedBodyLength();
    m_bodyArriving = true; // before dispatching: an answer given at once resumes reading the body
    handleRequest(std::move(head));
    if (m_bodyArriving && !m_closing) { // (an answer given at once may have read the whole body already)
        m_requestStartMs = nowMs(); // the body is still a request being received (checkDeadline)
        m_deadlineMs = m_requestStartMs + m_ctx->settings().headerTimeoutMs;
    }
}

void ClientConnection::passBodyOn(QByteArray piece, bool complete)
{
    if (complete) {
        m_bodyArriving = false;
        m_requestStartMs = -1;
        // From here the exchange's own timeouts run, or the connection idles for the next request.
        m_deadlineMs = m_exchange ? 0 : nowMs() + m_ctx->settings().idleTimeoutMs;
    }
    if (m_exchange && (!piece.isEmpty() || complete))
        m_exchange->requestBodyArrived(piece, complete);
}

void ClientConnection::handleRequest(http::Request request)
{
    m_deadlineMs = 0; // the exchange has its own timeouts
    m_responseBegun = false;
    m_finishedExchange.reset(); // the previous request's; no longer on any stack
    m_keepAlive = request.keepAlive && !m_ctx->draining;
    m_http10 = request.versionMinor == 0;
    m_headRequest = request.method == "HEAD";
    const qint64 startedMs = QDateTime::currentMSecsSinceEpoch();
    m_requestStartMs = -1;

    proxy::ExchangeContext ctx;
    ctx.table = m_ctx->table;
    ctx.pool = m_ctx->pool;
    ctx.deadlines = m_ctx->deadlines;
    ctx.stats = m_ctx->stats;
    ctx.control = &m_ctx->control;
    request.fromLoopback = m_peerIsLoopback;
    m_corsHeaders = proxy::corsHeaders(request, m_ctx->settings());
    stats::GatewayStats *stats = m_ctx->stats;
    // Two pointers fit std::function's inline storage: no allocation per request. The worker context
    // outlives every exchange of its connections.
    WorkerContext *workerContext = m_ctx;
    ctx.onFinished = [stats, workerContext](const stats::RequestRecord &r) {
        stats->inFlight.fetch_sub(1, std::memory_order_relaxed);
        if (r.status >= 500 || r.status == 0 || r.cutMidAnswer()) // a stream the node cut failed too
            stats->errorsTotal.fetch_add(1, std::memory_order_relaxed);
        if (r.status >= 200 && r.status < 300) {
            if (r.ttftMs >= 0)
                stats->ttft.record(r.ttftMs);
            stats->latency.record(r.durationMs);
        }
        stats->recordRequest(r);
        if (workerContext->requestLogger)
            workerContext->requestLogger(r);
    };
    // Probes and scrapes (/health, /metrics, /api/*) are not client traffic: they neither count nor log.
    const bool management = !proxy::countsAsClientTraffic(request.path);
    if (!management) {
        stats->requestsTotal.fetch_add(1, std::memory_order_relaxed);
        stats->inFlight.fetch_add(1, std::memory_order_relaxed); // a proxied exchange's onFinished takes it back
    }

    proxy::Dispatch d = proxy::dispatchRequest(request, ctx, this);
    if (d.local) {
        if (!management) {
            stats->inFlight.fetch_sub(1, std::memory_order_relaxed);
            logLocal(request, d.local->status, d.local->body, startedMs);
        }
        sendLocal(d.local->status, d.local->headerLines, d.local->body);
        return;
    }
    m_exchange = std::move(d.exchange);
    m_exchange->start();
}

void ClientConnection::logLocal(const http::Request &request, int status, const QByteArray &body, qint64 startedMs)
{
    stats::RequestRecord r;
    r.startedMsSinceEpoch = startedMs;
    r.method = request.method;
    r.path = request.path;
    r.status = status;
    r.durationMs = QDateTime::currentMSecsSinceEpoch() - startedMs;
    if (status >= 400)
        r.error = proxy::upstreamErrorMessage(body);
    if (status >= 500)
        m_ctx->stats->errorsTotal.fetch_add(1, std::memory_order_relaxed);
    m_ctx->stats->recordRequest(r);
    if (m_ctx->requestLogger)
        m_ctx->requestLogger(r);
}

void ClientConnection::sendLocal(int status, const QByteArray &headerLines, const QByteArray &body)
{
    m_respondingLocally = true;
    sendResponseHead(status, headerLines, body.size());
    sendResponseBody(body);
    m_respondingLocally = false;
    endResponse();
}

void ClientConnection::failParse(int status, const QByteArray &message)
{
    // After a framing error the byte stream cannot be trusted: answer and close.
    m_corsHeaders.clear();
    m_keepAlive = false;
    m_closeAfterResponse = true;
    m_http10 = false;
    m_headRequest = false;
    const proxy::LocalResponse r = proxy::errorResponse(status, QString::fromUtf8(message), "invalid_request");
    http::Request pseudo;
    pseudo.method = "-";
    pseudo.path = "-";
    logLocal(pseudo, status, r.body, QDateTime::currentMSecsSinceEpoch());
    sendLocal(r.status, r.headerLines, r.body);
}

void ClientConnection::sendResponseHead(int status, const QByteArray &headerLines, qint64 contentLength)
{
    if (m_closing)
        return;
    m_responseBegun = true;
    const bool keepAlive = m_keepAlive && !m_closeAfterResponse && !m_ctx->draining;
    QByteArray head;
    {
        http::ByteWriter w(head, 160 + headerLines.size() + m_corsHeaders.size());
        w.put("HTTP/1.1 ").decimal(status).put(' ').put(http::reasonPhrase(status));
        w.put("\r\nServer: switchyard\r\n").put(headerLines).put(m_corsHeaders);
        m_chunkedOut = false;
        if (contentLength >= 0) {
            w.put("Content-Length: ").decimal(contentLength).put("\r\n");
        } else if (!m_http10) {
            w.put("Transfer-Encoding: chunked\r\n");
            m_chunkedOut = true;
        } else {
            m_closeAfterResponse = true; // HTTP/1.0 without a length: the close ends the body
        }
        if (!keepAlive || m_closeAfterResponse)
            w.put("Connection: close\r\n");
        else if (m_http10)
            w.put("Connection: keep-alive\r\n");
        w.put("\r\n");
    }
    if (!keepAlive)
        m_closeAfterResponse = true;
    // A body of known length follows at once (a node sends such a head with its body): head and body go
    // out in one system call. A stream's head goes now, so the client sees the answer begin before the
    // first token.
    m_head = std::move(head);
    if (contentLength < 0) {
        const QByteArray h = std::exchange(m_head, {});
        send({h});
    }
}

void ClientConnection::sendResponseBody(QByteArrayView data)
{
    if (m_closing || data.isEmpty() || m_headRequest)
        return;
    const QByteArray head = std::exchange(m_head, {});
    if (m_chunkedOut) {
        char sizeLine[24];
        const int n = std::snprintf(sizeLine, sizeof sizeLine, "%llx\r\n", static_cast<unsigned long long>(data.size()));
        send({head, QByteArrayView(sizeLine, n), data, "\r\n"});
    } else {
        send({head, data});
    }
}

void ClientConnection::endResponse()
{
    if (m_closing)
        return;
    const QByteArray head = std::exchange(m_head, {});
    const bool lastChunk = m_chunkedOut && !m_headRequest;
    m_chunkedOut = false;
    send({head, lastChunk ? QByteArrayView("0\r\n\r\n") : QByteArrayView()});
    if (m_closing)
        return;
    if (m_respondingLocally)
        return; // sendLocal calls endResponse again once it is done
    if (m_closeAfterResponse) {
        closeAfterWrite();
        return;
    }
    m_deadlineMs = nowMs() + m_ctx->settings().idleTimeoutMs;
    if (!m_exchange) {
        // Continue with a pipelined request, if any (deferred when an exchange is still unwinding).
        resumeReading();
        processBuffer();
    }
}

void ClientConnection::abortResponse()
{
    closeConnection();
}

qint64 ClientConnection::outputBacklog() const
{
    return pendingOutput();
}

void ClientConnection::exchangeFinished(proxy::Exchange *exchange)
{
    if (m_exchange.get() != exchange)
        return;
    // The exchange may be on the stack of its own callback: keep it until the next request (or the
    // connection's end) instead of posting a deleteLater per request.
    m_finishedExchange = std::move(m_exchange);
    const bool open = m_plain ? m_plain->isOpen() : m_socket && m_socket->state() == QAbstractSocket::ConnectedState;
    if (!m_closing && !m_closeAfterResponse && open) {
        // An upload answered before its body was all read: the rest must still come, then is dropped.
        m_deadlineMs = nowMs() + (m_bodyArriving ? m_ctx->settings().headerTimeoutMs : m_ctx->settings().idleTimeoutMs);
        // A pipelined request that arrived while we were busy is already buffered, and no readyRead will
        // announce it again: continue with it from the event loop. Otherwise the next readyRead brings
        // the next request, and there is nothing to post.
        if (m_plain && m_in.isEmpty()) {
            m_plain->setReading(true); // the next request announces itself
            return;
        }
        if (!m_plain && m_in.isEmpty() && m_socket->bytesAvailable() == 0)
            return;
        QMetaObject::invokeMethod(this, [this] {
            if (!m_closing && !isBusy()) {
                resumeReading();
                processBuffer();
            }
        }, Qt::QueuedConnection);
    }
}

void ClientConnection::onDisconnected()
{
    if (m_exchange) {
        // Tell the exchange first: it must close the node's connection so generation stops there too.
        auto ex = std::move(m_exchange);
        ex->clientGone();
        ex.release()->deleteLater();
    }
    closeConnection();
}

void ClientConnection::checkDeadline(qint64 now)
{
    if (m_deadlineMs == 0 || now < m_deadlineMs)
        return;
    if (m_closing) { // a response that the client would not read in time
        closeConnection();
        return;
    }
    if (m_bodyArriving) {
        // An upload that stopped coming: its node is told (the exchange stops), and the client is
        // answered 408 unless an answer already began.
        if (m_exchange) {
            auto ex = std::move(m_exchange);
            ex->clientGone();
            ex.release()->deleteLater();
        }
        m_bodyArriving = false;
        if (m_responseBegun) {
            closeConnection();
            return;
        }
    }
    if (m_requestStartMs >= 0) {
        failParse(408, "request not received in time");
        return;
    }
    closeConnection(); // idle keep-alive connection
}

void ClientConnection::drain()
{
    m_ctx->draining = true;
    if (!isBusy())
        closeConnection();
    else
        m_closeAfterResponse = true;
}

void ClientConnection::abortNow()
{
    if (m_exchange) {
        auto ex = std::move(m_exchange);
        ex->gatewayStopping();
        ex.release()->deleteLater();
        // Hand the closing words (an error event, or a 503) to the kernel before the abort below: the
        // thread may end right after, and nothing else would write them.
        if (!m_head.isEmpty()) {
            const QByteArray head = std::exchange(m_head, {});
            send({head});
        }
        if (m_socket)
            m_socket->flush();
    }
    closeConnection();
}

void ClientConnection::closeAfterWrite()
{
    if (m_closing)
        return;
    m_closing = true;
    m_deadlineMs = 0;
    if (pendingOutput() == 0) {
        closeConnection();
        return;
    }
    // Let the response reach the client, but bounded: a client that never reads is cut after 10 s.
    const auto closeWhenWritten = [this] {
        if (pendingOutput() == 0)
            closeConnection();
    };
    if (m_plain) {
        connect(m_plain, &net::PlainSocket::bytesWritten, this, closeWhenWritten);
    } else {
        connect(m_socket, &QTcpSocket::bytesWritten, this, closeWhenWritten);
        if (m_ssl)
            connect(m_ssl, &QSslSocket::encryptedBytesWritten, this, closeWhenWritten);
    }
    m_deadlineMs = nowMs() + 10000;
}

void ClientConnection::closeConnection()
{
    if (!m_socket && !m_plain)
        return;
    m_closing = true;
    m_deadlineMs = 0;
    if (m_plain) {
        m_plain->disconnect(this);
        m_plain->abort();
    } else {
        m_socket->disconnect(this);
        m_socket->abort();
    }
    if (!m_closedEmitted) {
        m_closedEmitted = true;
        emit closed(this);
    }
}

} // namespace switchyard::server
