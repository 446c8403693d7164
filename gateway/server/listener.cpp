#include "listener.h"

#include "server/worker.h"
#include "stats/gatewaystats.h"

#include <unistd.h>

namespace switchyard::server {

Listener::Listener(std::vector<Worker *> workers, stats::GatewayStats *stats, int maxConnections, QObject *parent)
    : QTcpServer(parent), m_workers(std::move(workers)), m_stats(stats), m_maxConnections(maxConnections)
{
    setMaxPendingConnections(1024);
    // Qt listens with a backlog of 50: a burst of connections (hundreds of clients starting at once, or a
    // flood) overflowed it and the kernel dropped SYNs, costing good clients a 1 s (then 3 s, …) connect
    // retry while the accept thread was only busy for microseconds. The kernel caps this at somaxconn.
    setListenBacklogSize(1024);
}

Listener::~Listener()
{
    close();
}

void Listener::incomingConnection(qintptr socketDescriptor)
{
    const int open = m_stats->openConnections.fetch_add(1, std::memory_order_relaxed);
    // Far beyond the cap, even a 503 costs too much: just close.
    if (open >= m_maxConnections + 256) {
        ::close(int(socketDescriptor));
        m_stats->openConnections.fetch_sub(1, std::memory_order_relaxed);
        return;
    }
    Worker *best = m_workers.front();
    for (Worker *w : m_workers) {
        if (w->connectionCount() < best->connectionCount())
            best = w;
    }
    best->reserveConnection();
    const bool over = open >= m_maxConnections;
    QMetaObject::invokeMethod(best, [best, socketDescriptor, over] { best->addConnection(socketDescriptor, over); },
                              Qt::QueuedConnection);
}

} // namespace switchyard::server
