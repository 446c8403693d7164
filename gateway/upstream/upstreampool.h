#pragma once

// Keep-alive connections to the nodes, one pool per worker thread (so no locks): a request takes an
// idle connection to its node or opens a new one, and gives it back when the response ended cleanly.
// Idle connections are bounded per node and closed after a while; a node closing one is noticed.

#include "upstream/upstreamconnection.h"

#include <QHash>
#include <QObject>
#include <deque>

namespace switchyard::upstream {

class UpstreamPool final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UpstreamPool)

public:
    static constexpr int MaxIdlePerEndpoint = 64;
    static constexpr int IdleTimeoutMs = 30000;

    struct Limits
    {
        int maxIdlePerEndpoint = MaxIdlePerEndpoint; // idle connections kept per node; more are closed
        int idleTimeoutMs = IdleTimeoutMs;           // an idle connection unused this long is closed
    };

    explicit UpstreamPool(QObject *parent = nullptr);
    // Other limits than the gateway's: tests use a short idle timeout rather than wait 30 s for it.
    explicit UpstreamPool(Limits limits, QObject *parent = nullptr);
    ~UpstreamPool() override;

    // An idle connection to the endpoint, or a new one (not yet connected). Owned by the pool.
    UpstreamConnection *acquire(const routing::Endpoint &endpoint, bool forceFresh = false);
    // Back to the pool when reusable, otherwise destroyed.
    void release(UpstreamConnection *connection);
    // Destroys a connection that failed or was abandoned.
    void discard(UpstreamConnection *connection);

    int idleCount() const;
    int openCount() const { return m_open; }
    void closeIdle();

private:
    void expireIdle();
    bool removeIdle(UpstreamConnection *connection);

    Limits m_limits;
    QHash<QString, std::deque<UpstreamConnection *>> m_idle;
    int m_open = 0;
};

} // namespace switchyard::upstream
