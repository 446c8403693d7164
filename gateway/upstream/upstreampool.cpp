#include "upstreampool.h"

#include <QTimer>

#include <algorithm>

namespace switchyard::upstream {

UpstreamPool::UpstreamPool(QObject *parent) : UpstreamPool(Limits{}, parent)
{
}

UpstreamPool::UpstreamPool(Limits limits, QObject *parent) : QObject(parent), m_limits(limits)
{
    auto *sweep = new QTimer(this);
    // Once a second for the gateway's 30 s; often enough that a short timeout is kept to closely.
    sweep->setInterval(std::clamp(m_limits.idleTimeoutMs / 4, 10, 1000));
    connect(sweep, &QTimer::timeout, this, &UpstreamPool::expireIdle);
    sweep->start();
}

UpstreamPool::~UpstreamPool()
{
    closeIdle();
}

UpstreamConnection *UpstreamPool::acquire(const routing::Endpoint &endpoint, bool forceFresh)
{
    if (!forceFresh) {
        auto it = m_idle.find(endpoint.poolKey());
        if (it != m_idle.end()) {
            auto &queue = it.value();
            // Most recently used first: it is the least likely to have been closed by the node.
            while (!queue.empty()) {
                UpstreamConnection *c = queue.back();
                queue.pop_back();
                if (c->isReusable())
                    return c;
                discard(c);
            }
        }
    }
    auto *c = new UpstreamConnection(endpoint, this);
    ++m_open;
    connect(c, &UpstreamConnection::closedWhileIdle, this, [this](UpstreamConnection *self) {
        // Only an idle connection is ours to drop; one in use is released (and discarded) by its user.
        if (removeIdle(self))
            discard(self);
    });
    return c;
}

void UpstreamPool::release(UpstreamConnection *connection)
{
    if (!connection->isReusable()) {
        discard(connection);
        return;
    }
    auto &queue = m_idle[connection->poolKey()];
    if (int(queue.size()) >= m_limits.maxIdlePerEndpoint) {
        discard(connection);
        return;
    }
    queue.push_back(connection);
}

void UpstreamPool::discard(UpstreamConnection *connection)
{
    --m_open;
    connection->abort();
    connection->deleteLater();
}

bool UpstreamPool::removeIdle(UpstreamConnection *connection)
{
    auto it = m_idle.find(connection->poolKey());
    if (it == m_idle.end())
        return false;
    auto &q = it.value();
    for (auto i = q.begin(); i != q.end(); ++i) {
        if (*i == connection) {
            q.erase(i);
            return true;
        }
    }
    return false;
}

int UpstreamPool::idleCount() const
{
    int n = 0;
    for (const auto &q : m_idle)
        n += int(q.size());
    return n;
}

void UpstreamPool::closeIdle()
{
    for (auto &q : m_idle) {
        for (UpstreamConnection *c : q)
            discard(c);
        q.clear();
    }
}

void UpstreamPool::expireIdle()
{
    for (auto &q : m_idle) {
        while (!q.empty() && q.front()->idleMs() > m_limits.idleTimeoutMs) {
            discard(q.front());
            q.pop_front();
        }
    }
}

} // namespace switchyard::upstream
