#pragma once

// A TCP pass-through on loopback between a client under test and a gateway, counting what goes by: the
// bytes each way, the connections, and the requests by their first line ("GET /api/status"), so a test
// can tell how often a panel polls and what it sends without changing either side. Point the client at
// url(); point the proxy at a new port with setTarget() when the gateway comes back elsewhere.

#include <QByteArray>
#include <QHash>
#include <QObject>
#include <QTcpServer>
#include <QUrl>

namespace switchyard::testing {

class CountingProxy final : public QObject
{
    Q_DISABLE_COPY_MOVE(CountingProxy)

public:
    explicit CountingProxy(quint16 target, QObject *parent = nullptr);

    bool listen() { return m_server.listen(QHostAddress::LocalHost, 0); }
    QUrl url() const;
    void setTarget(quint16 target) { m_target = target; }

    // "METHOD /path" (query left off) → how many requests began with it.
    int requests(const QByteArray &methodAndPath) const { return m_requests.value(methodAndPath); }
    // Whether any request carried this header line (e.g. "authorization: Bearer …"; compared lowercased).
    bool sawHeader(const QByteArray &line) const;

    qint64 toGateway = 0, fromGateway = 0;
    int connections = 0;

private:
    void countRequests(QByteArray &pending, const QByteArray &bytes);

    quint16 m_target;
    QTcpServer m_server;
    QHash<QByteArray, int> m_requests;
    QByteArray m_headers; // the head lines seen, lowercased, bounded
};

} // namespace switchyard::testing
