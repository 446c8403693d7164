#pragma once

// The accepting socket. It lives on its own thread, does nothing but accept, and hands each socket
// descriptor to the worker with the fewest connections. Over the connection cap, a connection is still
// handed over, to be answered 503 and closed: a clear status rather than a silent reset.

#include <QTcpServer>
#include <atomic>
#include <vector>

namespace switchyard::stats {
class GatewayStats;
}

namespace switchyard::server {

class Worker;

class Listener final : public QTcpServer
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Listener)

public:
    Listener(std::vector<Worker *> workers, stats::GatewayStats *stats, int maxConnections, QObject *parent = nullptr);
    ~Listener() override;

protected:
    void incomingConnection(qintptr socketDescriptor) override;

private:
    std::vector<Worker *> m_workers;
    stats::GatewayStats *m_stats;
    int m_maxConnections;
};

} // namespace switchyard::server
