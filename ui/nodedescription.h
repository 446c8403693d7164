#pragma once

// What the Nodes view says about one node beyond its numbers: the gateway's verdict and its reason in
// sentences, a line on its recent traffic, and the highlights of its last health check, all read from
// the node's link::NodeStatus (the same for a local and a remote gateway). For the built-in demo,
// SimulatedNodes adds what the simulated node says about itself (which fault it plays), so an operator
// trying failover sees cause and effect.

#include "link/gatewaystatus.h"

#include <QCoreApplication>
#include <QList>
#include <QPair>
#include <QString>
#include <vector>

namespace switchyard::sim {
class SimNode;
}

namespace switchyard::ui {

struct NodeDescription
{
    QString reason;                            // why, in a sentence or a few lines (tooltip, detail pane)
    QList<QPair<QString, QString>> metrics;    // the last check's highlights: label, value
    QList<QPair<QString, QString>> simulation; // demo nodes: what the simulated node says about itself
    QString simulatedFault;                    // demo nodes: sim::faultModeName of the current mode
};

struct NodeDescriber
{
    Q_DECLARE_TR_FUNCTIONS(switchyard::ui::NodeDescriber)

public:
    static NodeDescription describe(const link::NodeStatus &node);
};

// The demo's simulated nodes of this process (they must outlive this).
class SimulatedNodes final
{
    Q_DECLARE_TR_FUNCTIONS(switchyard::ui::SimulatedNodes)

public:
    SimulatedNodes() = default;
    explicit SimulatedNodes(std::vector<sim::SimNode *> nodes) : m_nodes(std::move(nodes)) { }

    bool isEmpty() const { return m_nodes.empty(); }
    bool contains(const QString &name) const { return node(name) != nullptr; }
    sim::SimNode *node(const QString &name) const;
    // Adds the simulated node's fault and counters; the state stays the gateway's (a simulated fault
    // shows once the gateway notices).
    void describe(const QString &name, NodeDescription &description) const;

private:
    std::vector<sim::SimNode *> m_nodes;
};

} // namespace switchyard::ui
