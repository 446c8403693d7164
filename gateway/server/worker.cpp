#include "worker.h"

#include "common/deadlines.h"
#include "server/clientconnection.h"
#include "upstream/upstreampool.h"

#include <QDeadlineTimer>
#include <QTimer>

#include <unistd.h>

namespace switchyard::server {

Worker::Worker(stats::GatewayStats *stats, std::function<void(const stats::RequestRecord &)> logger,
               std::shared_ptr<const routing::RoutingTable> table, QObject *parent)
    : QObject(parent)
{
    m_ctx.table = std::move(table);
    m_ctx.stats = stats;
    m_ctx.requestLogger = std::move(logger);
}

Worker::~Worker()
{
    abortAll();
    qDeleteAll(m_connections);
    m_connections.clear();
    delete m_ctx.pool;
}

void Worker::addConnection(qintptr socketDescriptor, bool overCapacity)
{
    // Created lazily so that they belong to this thread, not the one that constructed the worker.
    if (!m_ctx.pool) {
        m_ctx.pool = new upstream::UpstreamPool(this);
        m_ctx.deadlines = new Deadlines(this); // a child: deleted after the connections, in ~QObject
        m_sweepTimer = new QTimer(this);
        m_sweepTimer->setInterval(250);
        connect(m_sweepTimer, &QTimer::timeout, this, &Worker::sweep);
        m_sweepTimer->start();
    }
    if (m_ctx.draining) {
        ::close(int(socketDescriptor));
        m_ctx.stats->openConnections.fetch_sub(1, std::memory_order_relaxed);
        m_connectionCount.fetch_sub(1, std::memory_order_relaxed);
        return;
    }
    auto *c = new ClientConnection(&m_ctx, this);
    connect(c, &ClientConnection::closed, this, &Worker::connectionClosed, Qt::QueuedConnection);
    m_connections.insert(c);
    if (!c->open(socketDescriptor)) {
        ::close(int(socketDescriptor));
        connectionClosed(c);
        return;
    }
    if (overCapacity)
        c->rejectOverCapacity();
}

void Worker::connectionClosed(ClientConnection *connection)
{
    if (!m_connections.remove(connection))
        return;
    m_connectionCount.fetch_sub(1, std::memory_order_relaxed);
    m_ctx.stats->openConnections.fetch_sub(1, std::memory_order_relaxed);
    connection->deleteLater();
}

void Worker::setRoutingTable(std::shared_ptr<const routing::RoutingTable> table)
{
    // Requests in flight keep the table they started with; new ones use this.
    m_ctx.table = std::move(table);
}

void Worker::drain()
{
    m_ctx.draining = true;
    const auto connections = m_connections;
    for (ClientConnection *c : connections)
        c->drain();
}

void Worker::abortAll()
{
    const auto connections = m_connections;
    for (ClientConnection *c : connections)
        c->abortNow();
    if (m_ctx.pool)
        m_ctx.pool->closeIdle();
}

void Worker::sweep()
{
    const qint64 now = QDeadlineTimer::current().deadline();
    const auto connections = m_connections;
    for (ClientConnection *c : connections)
        c->checkDeadline(now);
}

} // namespace switchyard::server
