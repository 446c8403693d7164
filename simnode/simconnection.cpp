#include "simconnection.h"

#include <QDateTime>
#include <QLocale>
#include <QTcpSocket>

namespace switchyard::sim {

namespace {

// uvicorn's Date header, rebuilt at most once a second per thread.
QByteArray httpDate()
{
    thread_local qint64 cachedSecond = -1;
    thread_local QByteArray cached;
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    if (now != cachedSecond) {
        cachedSecond = now;
        cached = QLocale::c()
                     .toString(QDateTime::fromSecsSinceEpoch(now, Qt::UTC), QStringLiteral("ddd, dd MMM yyyy hh:mm:ss 'GMT'"))
                     .toLatin1();
    }
    return cached;
}

} // namespace

SimConnection::SimConnection(QTcpSocket *socket, Handler &handler, int keepAliveTimeoutMs, QObject *parent)
    : QObject(parent), m_socket(socket), m_handler(handler)
{
    // The connection owns its socket, so ~QTcpServer never deletes it behind our back (qt64-notes).
    m_socket->setParent(this);
    m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1); // uvicorn sets TCP_NODELAY
    m_keepAlive.setSingleShot(true);
    m_keepAlive.setInterval(keepAliveTimeoutMs);
    connect(&m_keepAlive, &QTimer::timeout, this, &SimConnection::closeIfIdle);
    connect(m_socket, &QTcpSocket::readyRead, this, &SimConnection::onReadyRead);
    connect(m_socket, &QTcpSocket::disconnected, this, &SimConnection::onDisconnected);
    m_keepAlive.start();
    if (m_socket->state() != QAbstractSocket::ConnectedState)
        QMetaObject::invokeMethod(this, &SimConnection::onDisconnected, Qt::QueuedConnection);
    else if (m_socket->bytesAvailable() > 0)
        QMetaObject::invokeMethod(this, &SimConnection::onReadyRead, Qt::QueuedConnection);
}

SimConnection::~SimConnection()
{
    // The socket dies with us and may emit disconnected() on the way: nobody must hear it.
    m_socket->disconnect(this);
    m_socket->abort();
}

QString SimConnection::peer() const
{
    return m_socket->peerAddress().toString() + u':' + QString::number(m_socket->peerPort());
}

void SimConnection::onReadyRead()
{
    if (m_closing)
        return;
    const qsizetype before = m_buffer.size();
    m_buffer.append(m_socket->readAll());
    m_handler.bytesReceived(m_buffer.size() - before);
    m_keepAlive.stop();
    processBuffer();
}

void SimConnection::processBuffer()
{
    if (m_processing)
        return; // the loop below picks up whatever the handler made possible
    m_processing = true;
    while (!m_exchangeOpen && !m_closing && !m_buffer.isEmpty()) {
        const auto status = m_parser.parse(m_buffer);
        if (status == http::RequestParser::Status::NeedMore) {
            if (m_parser.inBody() && m_parser.current().expectContinue && !m_sentContinue) {
                m_sentContinue = true;
                m_socket->write("HTTP/1.1 100 Continue\r\n\r\n");
            }
            break;
        }
        if (status == http::RequestParser::Status::Error) {
            // uvicorn answers a broken request with a short text/plain error and closes.
            const http::RequestParser::Error &e = m_parser.error();
            m_exchangeOpen = true;
            m_keepAliveAfter = false;
            respond(e.status, "text/plain; charset=utf-8", "Invalid HTTP request received.");
            break;
        }
        http::Request request = m_parser.takeRequest();
        m_sentContinue = false;
        m_exchangeOpen = true;
        m_keepAliveAfter = request.keepAlive;
        m_http10 = request.versionMinor == 0;
        m_tag = 0;
        m_handler.handleRequest(*this, std::move(request));
    }
    m_processing = false;
    if (!m_exchangeOpen && !m_closing)
        m_keepAlive.start();
}

void SimConnection::writeHead(int status, QByteArrayView headers)
{
    QByteArray head;
    head.reserve(160 + headers.size());
    head.append(m_http10 ? "HTTP/1.0 " : "HTTP/1.1 ").append(QByteArray::number(status)).append(' ')
        .append(http::reasonPhrase(status)).append("\r\ndate: ").append(httpDate()).append("\r\nserver: uvicorn\r\n")
        .append(headers);
    if (!m_keepAliveAfter)
        head.append("connection: close\r\n");
    else if (m_http10)
        head.append("connection: keep-alive\r\n");
    head.append("\r\n");
    m_socket->write(head);
}

void SimConnection::respond(int status, QByteArrayView contentType, QByteArrayView body, QByteArrayView extraHeaders)
{
    if (!m_exchangeOpen || m_closing)
        return;
    QByteArray headers = "content-length: " + QByteArray::number(body.size()) + "\r\n";
    if (!contentType.isEmpty())
        headers.append("content-type: ").append(contentType).append("\r\n");
    headers.append(extraHeaders);
    writeHead(status, headers);
    if (!body.isEmpty())
        m_socket->write(body.data(), body.size());
    finishExchange();
}

void SimConnection::beginStream()
{
    if (!m_exchangeOpen || m_closing)
        return;
    m_chunked = !m_http10;
    if (!m_chunked)
        m_keepAliveAfter = false; // HTTP/1.0: the body ends when the connection does
    writeHead(200, m_chunked ? QByteArrayView("content-type: text/event-stream; charset=utf-8\r\n"
                                              "transfer-encoding: chunked\r\n")
                             : QByteArrayView("content-type: text/event-stream; charset=utf-8\r\n"));
}

void SimConnection::streamData(QByteArrayView data)
{
    if (!m_exchangeOpen || m_closing || data.isEmpty())
        return;
    if (m_chunked) {
        QByteArray chunk;
        chunk.reserve(data.size() + 12);
        chunk.append(QByteArray::number(data.size(), 16)).append("\r\n").append(data).append("\r\n");
        m_socket->write(chunk);
    } else {
        m_socket->write(data.data(), data.size());
    }
}

void SimConnection::endStream()
{
    if (!m_exchangeOpen || m_closing)
        return;
    if (m_chunked)
        m_socket->write("0\r\n\r\n");
    m_chunked = false;
    finishExchange();
}

void SimConnection::finishExchange()
{
    m_exchangeOpen = false;
    m_tag = 0;
    if (!m_keepAliveAfter) {
        m_closing = true;
        m_socket->disconnectFromHost(); // flushes what was written, then closes
        return;
    }
    if (m_processing)
        return; // processBuffer's loop continues with the next pipelined request
    processBuffer();
}

void SimConnection::drop()
{
    m_exchangeOpen = false;
    m_tag = 0;
    if (m_closing)
        return;
    m_closing = true;
    m_keepAlive.stop();
    m_socket->disconnectFromHost();
}

void SimConnection::respondRaw(QByteArrayView bytes)
{
    if (!m_closing)
        m_socket->write(bytes.data(), bytes.size());
    drop();
}

void SimConnection::closeIfIdle()
{
    if (!m_exchangeOpen)
        drop();
}

void SimConnection::onDisconnected()
{
    if (m_notified)
        return;
    m_notified = true;
    m_closing = true;
    m_keepAlive.stop();
    const bool open = m_exchangeOpen;
    m_exchangeOpen = false;
    m_handler.connectionClosed(*this, open);
}

} // namespace switchyard::sim
