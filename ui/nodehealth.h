#pragma once

// How healthy a node is, as the panel shows it. This is the one seam where node health enters the
// panel: the GatewayMonitor asks its NodeHealthSource once per node per tick, and nothing else in ui/
// derives a state. Sources:
//  - GatewayHealthSource (the default): the gateway's own verdict (active checks of /health, /metrics,
//    /v1/models; passive ejection from real traffic; drain), its reason, and what /metrics said.
//  - DemoHealthSource: the same, plus what the built-in demo's simulated nodes say about themselves
//    (which fault is being simulated), so an operator trying failover sees cause and effect.
//  - TrafficHealthSource: a judgement from the outcome of recent attempts alone; used for the traffic
//    summary line and while the gateway has not checked a node yet.

#include "gateway.h"

#include <QCoreApplication>
#include <QList>
#include <QPair>
#include <QString>
#include <optional>
#include <vector>

namespace switchyard::sim {
class SimNode;
}

namespace switchyard::ui {

enum class NodeState { Unknown, Healthy, Degraded, Down, Recovering, Draining };

QString nodeStateName(NodeState state); // translated

// Worse states rank higher: Down > Degraded > Recovering > Unknown > Draining > Healthy.
int nodeStateSeverity(NodeState state);

// The gateway's state in the panel's terms.
NodeState fromGatewayState(health::NodeState state);

struct NodeHealth
{
    NodeState state = NodeState::Unknown;
    QString reason;                          // why, in a sentence or a few lines (tooltip, detail pane)
    std::optional<int> running;              // vLLM num_requests_running
    std::optional<int> waiting;              // vLLM num_requests_waiting
    std::optional<double> kvCacheUsage;      // vLLM kv_cache_usage_perc, 0..1
    std::optional<qint64> lastCheckMs;       // when the node itself was last checked (ms since epoch)
    QList<QPair<QString, QString>> metrics;  // highlights for the detail pane: label, value
    QList<QPair<QString, QString>> simulation; // demo nodes: what the simulated node says about itself
    QString simulatedFault;                  // demo nodes: sim::faultModeName of the current mode
};

// What the panel observed of one node over a recent window: the input of every health source.
struct NodeObservation
{
    NodeSnapshot snapshot;     // includes the gateway's verdict (state, reason, probe details)
    qint64 nowMs = 0;
    qint64 windowMs = 0;       // the span the counts below cover (shorter right after start)
    qint64 successes = 0;      // attempts that finished in the window, answered
    qint64 failures = 0;       // attempts that finished in the window, failed
    QString lastError;         // the latest error the request log attributed to this node
    qint64 lastErrorMs = 0;
};

class NodeHealthSource
{
public:
    virtual ~NodeHealthSource() = default;
    virtual NodeHealth health(const NodeObservation &observation) const = 0;
};

// Judges a node by the outcome of the attempts the gateway sent it: all failed = Down, some failed =
// Degraded, all answered = Healthy, none finished = Unknown. Passive only.
class TrafficHealthSource final : public NodeHealthSource
{
    Q_DECLARE_TR_FUNCTIONS(switchyard::ui::TrafficHealthSource)

public:
    NodeHealth health(const NodeObservation &observation) const override;
};

// The gateway's verdict and its last check's details; the traffic summary is added to the reason.
// Until the gateway has checked a node (state Unknown), the traffic judgement stands in.
class GatewayHealthSource final : public NodeHealthSource
{
    Q_DECLARE_TR_FUNCTIONS(switchyard::ui::GatewayHealthSource)

public:
    NodeHealth health(const NodeObservation &observation) const override;

private:
    TrafficHealthSource m_traffic;
};

// The built-in demo: the gateway's verdict, plus which fault each simulated node is playing (and how
// many it injected). The state stays the gateway's: a simulated fault shows once the gateway notices.
class DemoHealthSource final : public NodeHealthSource
{
    Q_DECLARE_TR_FUNCTIONS(switchyard::ui::DemoHealthSource)

public:
    explicit DemoHealthSource(std::vector<sim::SimNode *> nodes) : m_nodes(std::move(nodes)) { }
    NodeHealth health(const NodeObservation &observation) const override;
    sim::SimNode *node(const QString &name) const;

private:
    std::vector<sim::SimNode *> m_nodes;
    GatewayHealthSource m_gateway;
};

} // namespace switchyard::ui
