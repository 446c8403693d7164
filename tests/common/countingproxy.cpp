#include "countingproxy.h"

#include <QTcpSocket>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::testing {

namespace {
constexpr qsizetype MaxHeadBytes = 1 << 20;
}

CountingProxy::CountingProxy(quint16 target, QObject *parent) : QObject(parent), m_target(target)
{
    connect(&m_server, &QTcpServer::newConnection, this, [this] {
        while (QTcpSocket *in = m_server.nextPendingConnection()) {
            ++connections;
            auto *out = new QTcpSocket(in);
            auto *pending = new QByteArray; // the part of a request head not yet complete
            connect(in, &QObject::destroyed, [pending] { delete pending; });
            out->connectToHost(QHostAddress::LocalHost, m_target);
            connect(in, &QTcpSocket::readyRead, out, [this, in, out, pending] {
                const QByteArray b = in->readAll();
                toGateway += b.size();
                countRequests(*pending, b);
                out->write(b);
            });
            connect(out, &QTcpSocket::readyRead, in, [this, in, out] {
                const QByteArray b = out->readAll();
                fromGateway += b.size();
                in->write(b);
            });
            connect(out, &QTcpSocket::disconnected, in, &QTcpSocket::disconnectFromHost);
            connect(out, &QTcpSocket::errorOccurred, in, &QTcpSocket::disconnectFromHost);
            connect(in, &QTcpSocket::disconnected, in, &QObject::deleteLater);
        }
    });
}

QUrl CountingProxy::url() const
{
    return QUrl(u"http://127.0.0.1:%1"_s.arg(m_server.serverPort()));
}

bool CountingProxy::sawHeader(const QByteArray &line) const
{
    return m_headers.contains(QByteArray("\r\n" + line.toLower() + "\r\n"));
}

// Good enough for the clients under test: each request's head is found at the start of the stream or
// after the previous request's body (the panel's management requests are GETs and small PUTs, whose
// bodies hold no blank line followed by a request line).
void CountingProxy::countRequests(QByteArray &pending, const QByteArray &bytes)
{
    pending += bytes;
    for (;;) {
        const qsizetype end = pending.indexOf("\r\n\r\n");
        if (end < 0)
            break;
        QByteArray head = pending.left(end + 2);
        pending.remove(0, end + 4);
        const qsizetype lineEnd = head.indexOf("\r\n");
        const QList<QByteArray> parts = head.left(lineEnd).split(' ');
        if (parts.size() >= 2) {
            QByteArray path = parts[1];
            if (const qsizetype q = path.indexOf('?'); q >= 0)
                path.truncate(q);
            ++m_requests[parts[0] + ' ' + path];
        }
        if (m_headers.size() < MaxHeadBytes)
            m_headers += "\r\n" + head.toLower();
    }
    if (pending.size() > MaxHeadBytes)
        pending.clear();
}

} // namespace switchyard::testing
