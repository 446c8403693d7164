#pragma once

// A worker thread's root object: it owns the client connections handed to it by the listener, the
// thread's upstream pool, and its copy of the routing table. Everything here runs on that thread;
// other threads talk to it only through queued calls.

#include "server/workercontext.h"

#include <QObject>
#include <QSet>
#include <atomic>

class QTimer;

namespace switchyard::server {

class ClientConnection;

class Worker final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Worker)

public:
    Worker(stats::GatewayStats *stats, std::function<void(const stats::RequestRecord &)> logger,
           std::shared_ptr<const routing::RoutingTable> table, QObject *parent = nullptr);
    ~Worker() override;

    // Thread-safe reads for the listener's balancing and the gateway's drain.
    int connectionCount() const { return m_connectionCount.load(std::memory_order_relaxed); }
    // Counted by the listener before the socket is queued here, so balancing sees it at once.
    void reserveConnection() { m_connectionCount.fetch_add(1, std::memory_order_relaxed); }

    // These run on the worker's thread (invoke them queued).
    void addConnection(qintptr socketDescriptor, bool overCapacity);
    void setRoutingTable(std::shared_ptr<const routing::RoutingTable> table);
    // Before the worker moves to its thread.
    void setGatewayControl(proxy::GatewayControl control) { m_ctx.control = std::move(control); }
    void drain();
    void abortAll();

private:
    void sweep();
    void connectionClosed(ClientConnection *connection);

    WorkerContext m_ctx;
    QSet<ClientConnection *> m_connections;
    std::atomic<int> m_connectionCount{0};
    QTimer *m_sweepTimer = nullptr;
};

} // namespace switchyard::server
