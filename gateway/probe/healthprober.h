#pragma once

// Active health checks: every interval, each node is asked GET /health, then GET /metrics (vLLM's
// Prometheus text: queue, KV cache, token counters), GET /v1/models (what it really serves, against
// what the config expects) and, once, GET /version. The verdict goes to the node's NodeHealth, which
// routing reads. Runs on its own thread with its own connections; a node that hangs costs one
// bounded timeout, never a worker's time.

#include "routing/routingtable.h"

#include <QHash>
#include <QObject>
#include <memory>

class QTimer;

namespace switchyard::health {

class NodeProbe;

class HealthProber final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HealthProber)

public:
    explicit HealthProber(QObject *parent = nullptr);
    ~HealthProber() override;

    // Run on the prober's thread (invoke queued).
    void setTable(std::shared_ptr<const routing::RoutingTable> table);
    void probeNow(const QString &node);

private:
    void tick();

    std::shared_ptr<const routing::RoutingTable> m_table;
    QHash<QString, NodeProbe *> m_probes;
    QTimer *m_timer = nullptr;
};

} // namespace switchyard::health
