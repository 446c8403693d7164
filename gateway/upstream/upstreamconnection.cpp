#include "upstreamconnection.h"

#include "net/socketreader.h"

#include <QSslSocket>
#include <QTcpSocket>

#include <fcntl.h>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::upstream {

namespace {
// Bounds what we buffer from a node when the client reads slower than the node writes (and what one
// read takes from an unbuffered socket before the response is passed on).
constexpr qint64 SocketReadBufferBytes = 256 * 1024;
} // namespace

UpstreamConnection::UpstreamConnection(const routing::Endpoint &endpoint, QObject *parent)
    : QObject(parent), m_endpoint(endpoint), m_poolKey(endpoint.poolKey())
{
}

UpstreamConnection::~UpstreamConnection()
{
    m_listener = nullptr;
    closeSocket();
}

void UpstreamConnection::closeSocket()
{
    // Whichever socket carries the connection now; neither reports anything more to us.
    if (m_socket) {
        m_socket->disconnect(this);
        m_socket->abort();
    }
    if (m_plain)
        m_plain->abort();
}

bool UpstreamConnection::isConnected() const
{
    if (m_plain)
        return m_plain->isOpen();
    return m_socket && m_socket->state() == QAbstractSocket::ConnectedState;
}

bool UpstreamConnection::isReusable() const
{
    if (!isConnected())
        return false;
    // Unbuffered, stray bytes or the node's close are read as they come (onReadyRead) and mark the
    // connection broken: no need to ask the kernel (an ioctl) per request.
    const bool nothingStray =
        m_plain || net::isUnbuffered(m_socket) ? !m_peerClosed : m_socket->bytesAvailable() == 0;
    return !m_broken && m_keepAlive && !m_listener && nothingStray && m_in.isEmpty();
}

void UpstreamConnection::takeOverDescriptor()
{
    // Only between requests, never inside one of Qt's socket signals: Qt is done with the socket. A
    // copy of the descriptor keeps the connection open while Qt's socket closes its own.
    const int fd = ::fcntl(int(m_socket->socketDescriptor()), F_DUPFD_CLOEXEC, 0);
    if (fd < 0)
        return; // out of descriptors: Qt's socket carries on
    QTcpSocket *qt = std::exchange(m_socket, nullptr);
    qt->disconnect(this);
    qt->abort();
    qt->deleteLater();
    m_plain = new net::PlainSocket(fd, this);
    m_plain->setReader(this);
    // Output the node did not take at once failed later: it reset or closed the connection.
    connect(m_plain, &net::PlainSocket::failed, this, [this] {
        m_peerClosed = true;
        onDisconnected();
    });
}

net::ReadOutcome UpstreamConnection::readSome(QByteArray &into)
{
    return m_plain ? m_plain->read(into, SocketReadBufferBytes) : net::readAvailable(m_socket, into, SocketReadBufferBytes);
}

void UpstreamConnection::send(QByteArray request, UpstreamListener *listener)
{
    m_listener = listener;
    m_parser.reset();
    m_inHead = true;
    m_inBody = false;
    m_paused = false;
    m_in.clear();
    m_idleTimer.invalidate();
    if (isConnected()) {
        // (Not while Qt still holds output the kernel did not take: it would be lost with Qt's socket.)
        if (m_socket && !m_endpoint.tls && net::isUnbuffered(m_socket) && m_socket->bytesToWrite() == 0)
            takeOverDescriptor();
        ++m_requestsSent;
        writeRequest(request);
        return;
    }
    m_pendingRequest = std::move(request);
    if (m_endpoint.tls) {
        auto *ssl = new QSslSocket(this);
        m_socket = ssl;
        connect(ssl, &QSslSocket::encrypted, this, &UpstreamConnection::onConnected);
        connect(ssl, &QSslSocket::sslErrors, this, [this, ssl](const QList<QSslError> &errors) {
            const QSslCertificate peer = ssl->peerCertificate();
            if (judgePeer(errors, peer, m_endpoint.pinnedSha256) != PeerVerdict::Refused) {
                ssl->ignoreSslErrors(); // the pinned certificate: the handshake goes on
                return;
            }
            const UntrustedCertificate untrusted = describeUntrusted(peer, errors);
            fail(UpstreamErrorKind::ConnectFailed, untrustedMessage(untrusted), untrusted);
        });
    } else {
        m_socket = new QTcpSocket(this);
        connect(m_socket, &QTcpSocket::connected, this, &UpstreamConnection::onConnected);
    }
    m_peerClosed = false;
    m_socket->setReadBufferSize(SocketReadBufferBytes);
    connect(m_socket, &QTcpSocket::readyRead, this, &UpstreamConnection::onReadyRead);
    connect(m_socket, &QTcpSocket::disconnected, this, &UpstreamConnection::onDisconnected);
    connect(m_socket, &QTcpSocket::errorOccurred, this, &UpstreamConnection::onSocketError);
    if (m_endpoint.tls)
        static_cast<QSslSocket *>(m_socket)->connectToHostEncrypted(m_endpoint.host, m_endpoint.port);
    else
        m_socket->connectToHost(m_endpoint.host, m_endpoint.port,
                                QIODevice::ReadWrite | QIODevice::Unbuffered); // net/socketreader.h
}

void UpstreamConnection::onConnected()
{
    m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    m_socket->setSocketOption(QAbstractSocket::KeepAliveOption, 1);
    if (!m_pendingRequest.isEmpty()) {
        ++m_requestsSent;
        const QByteArray request = std::move(m_pendingRequest);
        m_pendingRequest.clear();
        if (!writeRequest(request))
            return;
    }
    if (m_listener)
        m_listener->upstreamConnected();
}

void UpstreamConnection::sendMore(QByteArrayView bytes)
{
    if (!m_listener || m_broken || bytes.isEmpty())
        return;
    if (!isConnected() || !m_pendingRequest.isEmpty()) { // (TLS: connected, the handshake still going)
        m_pendingRequest.append(bytes); // goes out with the head once connected
        return;
    }
    writeRequest(bytes);
}

bool UpstreamConnection::writeRequest(QByteArrayView request)
{
    if (m_plain) {
        // What the kernel does not take now goes out as the node reads (PlainSocket keeps it).
        if (m_plain->write({request}))
            return true;
        m_peerClosed = true; // the node has closed or reset this connection
        onDisconnected();
        return false;
    }
    const qint64 written = m_socket->write(request.data(), request.size());
    if (written < 0 && net::isUnbuffered(m_socket)) {
        // The node has closed this connection: a buffered socket would say so itself (errorOccurred), an
        // unbuffered one only through this result. Nothing of the request was taken.
        m_peerClosed = true;
        onDisconnected();
        return false;
    }
    m_socket->flush(); // now, not on the next turn of the event loop (a failure reports synchronously)
    return true;
}

void UpstreamConnection::abort()
{
    m_listener = nullptr;
    m_broken = true;
    closeSocket();
}

void UpstreamConnection::pause()
{
    m_paused = true;
    if (m_plain)
        m_plain->setReading(false); // level-triggered: unread input would announce itself again at once
}

void UpstreamConnection::resume()
{
    if (!m_paused)
        return;
    m_paused = false;
    if (m_plain && !m_peerClosed)
        m_plain->setReading(true);
    onReadyRead();
}

void UpstreamConnection::onReadyRead()
{
    const bool unbuffered = m_plain || (m_socket && net::isUnbuffered(m_socket));
    if (!m_listener) {
        // Bytes from a node while idle are a protocol violation; the connection is not reusable.
        if (!unbuffered) {
            if (m_socket->bytesAvailable() > 0)
                m_broken = true;
            return;
        }
        if (m_peerClosed)
            return;
        QByteArray stray;
        const net::ReadOutcome r = readSome(stray);
        if (r.bytes > 0)
            m_broken = true;
        if (r.closed) {
            m_peerClosed = true;
            onDisconnected(); // the node ended the keep-alive
        }
        return;
    }
    if (m_paused)
        return; // unread (pause() turned reading off), the kernel's buffer fills and the node is pushed back
    if (!unbuffered) {
        m_in.append(m_socket->readAll());
        processInput();
        return;
    }
    if (m_peerClosed) {
        processInput(); // what was read before the close (onDisconnected drains with this)
        return;
    }
    const net::ReadOutcome r = readSome(m_in);
    if (r.closed)
        m_peerClosed = true;
    processInput();
    // The listener callbacks above never delete us (the pool uses deleteLater).
    if (r.closed)
        onDisconnected();
}

void UpstreamConnection::processInput()
{
    if (!m_listener || m_paused)
        return;
    if (m_inHead) {
        const auto s = m_parser.parseHead(m_in);
        if (s == http::ResponseParser::Status::NeedMore)
            return;
        if (s == http::ResponseParser::Status::Error) {
            fail(UpstreamErrorKind::BadResponse, QString::fromUtf8(m_parser.errorString()));
            return;
        }
        m_inHead = false;
        m_keepAlive = m_parser.keepAlive();
        UpstreamListener *l = m_listener;
        l->upstreamHead(m_parser);
        if (m_listener != l)
            return; // the listener aborted or moved on
        if (s == http::ResponseParser::Status::BodyComplete) {
            finishResponse();
            return;
        }
        m_inBody = true;
    }
    if (m_inBody && !m_in.isEmpty()) {
        qsizetype consumed = 0;
        UpstreamListener *l = m_listener;
        bool listenerGone = false;
        const auto s = m_parser.feedBody(m_in, consumed, [&](QByteArrayView piece) {
            if (!listenerGone) {
                l->upstreamBody(piece);
                listenerGone = m_listener != l;
            }
        });
        if (listenerGone)
            return;
        m_in.remove(0, consumed);
        if (s == http::ResponseParser::Status::Error) {
            fail(UpstreamErrorKind::BadResponse, QString::fromUtf8(m_parser.errorString()));
            return;
        }
        if (s == http::ResponseParser::Status::BodyComplete) {
            if (!m_in.isEmpty())
                m_broken = true; // bytes beyond the response: do not reuse
            finishResponse();
        }
    }
}

void UpstreamConnection::finishResponse()
{
    m_inBody = false;
    ++m_responsesFinished;
    UpstreamListener *l = m_listener;
    m_listener = nullptr;
    m_idleTimer.start();
    if (l)
        l->upstreamFinished();
}

void UpstreamConnection::onDisconnected()
{
    m_peerClosed = true; // whatever is left is in m_in: the drain below must not read again
    if (m_listener && m_inBody && m_parser.finishOnClose()) {
        // Drain what is left; the close ends a body that had no length.
        onReadyRead();
        if (m_listener && m_inBody) {
            m_keepAlive = false;
            finishResponse();
            return;
        }
    }
    if (m_listener && m_inHead && !m_in.isEmpty()) {
        // Bytes that never formed a response head, then a close: say so rather than "closed", the
        // operator is looking for a node (or something else on its port) that does not speak HTTP.
        fail(UpstreamErrorKind::BadResponse,
             u"malformed response: connection closed after "_s % QString::number(m_in.size())
                 % u" bytes that are not an HTTP response head"_s);
        return;
    }
    if (m_listener) {
        fail(UpstreamErrorKind::Closed, u"connection closed by the node"_s);
        return;
    }
    m_broken = true;
    emit closedWhileIdle(this);
}

void UpstreamConnection::onSocketError()
{
    if (!m_socket)
        return;
    const auto err = m_socket->error();
    if (err == QAbstractSocket::RemoteHostClosedError) {
        if (m_socket->state() != QAbstractSocket::ConnectedState || !m_listener)
            return; // onDisconnected handles it
    }
    if (!m_listener) {
        m_broken = true;
        emit closedWhileIdle(this);
        return;
    }
    switch (err) {
    case QAbstractSocket::ConnectionRefusedError:
        fail(UpstreamErrorKind::ConnectRefused, u"connection refused"_s);
        break;
    case QAbstractSocket::HostNotFoundError:
        fail(UpstreamErrorKind::ConnectFailed, u"host not found: "_s % m_endpoint.host);
        break;
    case QAbstractSocket::SslHandshakeFailedError:
        // Nothing was sent: a connect failure (a server that speaks plain HTTP on that port answers the
        // handshake with bytes that are no TLS record).
        fail(UpstreamErrorKind::ConnectFailed, u"TLS handshake failed: "_s % m_socket->errorString());
        break;
    case QAbstractSocket::RemoteHostClosedError:
        // Often reported before the disconnect itself: the same verdict as a close (the end of a body
        // framed by the close, bytes that are no HTTP, or a plain close).
        onDisconnected();
        break;
    default:
        if (m_socket->state() != QAbstractSocket::ConnectedState && m_requestsSent == 0)
            fail(UpstreamErrorKind::ConnectFailed, m_socket->errorString());
        else
            fail(UpstreamErrorKind::Closed, m_socket->errorString());
        break;
    }
}

void UpstreamConnection::fail(UpstreamErrorKind kind, const QString &message, const UntrustedCertificate &untrusted)
{
    m_broken = true;
    UpstreamListener *l = m_listener;
    m_listener = nullptr;
    const bool started = !m_inHead;
    closeSocket();
    if (l)
        l->upstreamFailed({kind, message, started, untrusted});
}

} // namespace switchyard::upstream
