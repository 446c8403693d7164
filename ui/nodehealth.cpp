#include "nodehealth.h"

#include "simnode/simnode.h"

#include <QDateTime>
#include <QLocale>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

QString nodeStateName(NodeState state)
{
    switch (state) {
    case NodeState::Unknown:
        return QCoreApplication::translate("switchyard::ui::NodeState", "Unknown");
    case NodeState::Healthy:
        return QCoreApplication::translate("switchyard::ui::NodeState", "Healthy");
    case NodeState::Degraded:
        return QCoreApplication::translate("switchyard::ui::NodeState", "Degraded");
    case NodeState::Down:
        return QCoreApplication::translate("switchyard::ui::NodeState", "Down");
    case NodeState::Recovering:
        return QCoreApplication::translate("switchyard::ui::NodeState", "Recovering");
    case NodeState::Draining:
        return QCoreApplication::translate("switchyard::ui::NodeState", "Draining");
    }
    return {};
}

int nodeStateSeverity(NodeState state)
{
    switch (state) {
    case NodeState::Healthy:
        return 0;
    case NodeState::Draining:
        return 1;
    case NodeState::Unknown:
        return 2;
    case NodeState::Recovering:
        return 3;
    case NodeState::Degraded:
        return 4;
    case NodeState::Down:
        return 5;
    }
    return 0;
}

NodeState fromGatewayState(health::NodeState state)
{
    switch (state) {
    case health::NodeState::Unknown:
        return NodeState::Unknown;
    case health::NodeState::Healthy:
        return NodeState::Healthy;
    case health::NodeState::Degraded:
        return NodeState::Degraded;
    case health::NodeState::Down:
        return NodeState::Down;
    case health::NodeState::Recovering:
        return NodeState::Recovering;
    case health::NodeState::Draining:
        return NodeState::Draining;
    }
    return NodeState::Unknown;
}

NodeHealth TrafficHealthSource::health(const NodeObservation &o) const
{
    NodeHealth h;
    const qint64 finished = o.successes + o.failures;
    const qint64 seconds = qMax<qint64>(1, (o.windowMs + 500) / 1000);
    if (finished == 0) {
        h.state = NodeState::Unknown;
        if (o.snapshot.counters.inFlight > 0)
            h.reason = tr("In flight: %1; none finished in the last %2 s.").arg(o.snapshot.counters.inFlight).arg(seconds);
        else if (o.snapshot.counters.requests == 0)
            h.reason = tr("No traffic yet.");
        else
            h.reason = tr("No requests finished in the last %1 s.").arg(seconds);
    } else if (o.failures == finished) {
        h.state = NodeState::Down;
        h.reason = tr("Attempts in the last %1 s: %2, all failed.").arg(seconds).arg(finished);
    } else if (o.failures > 0) {
        h.state = NodeState::Degraded;
        h.reason = tr("Attempts in the last %1 s: %2, of which %3 failed.").arg(seconds).arg(finished).arg(o.failures);
    } else {
        h.state = NodeState::Healthy;
        h.reason = tr("Attempts in the last %1 s: %2, all answered.").arg(seconds).arg(finished);
    }
    if (!o.lastError.isEmpty() && h.state != NodeState::Healthy)
        h.reason += u'\n' + tr("Last error: %1").arg(o.lastError);
    return h;
}

NodeHealth GatewayHealthSource::health(const NodeObservation &o) const
{
    const NodeSnapshot &s = o.snapshot;
    const health::ProbeDetails &p = s.probe;
    const NodeHealth traffic = m_traffic.health(o);
    NodeHealth h;
    h.state = fromGatewayState(s.state);
    const bool checked = p.lastCheckMsSinceEpoch > 0;
    QStringList lines;
    if (!s.stateReason.isEmpty())
        lines << tr("Gateway: %1").arg(s.stateReason);
    else if (h.state == NodeState::Healthy)
        lines << tr("Answers its health checks.");
    else if (h.state == NodeState::Unknown && !checked)
        lines << tr("Not checked yet.");
    if (h.state == NodeState::Unknown && traffic.state != NodeState::Unknown)
        h.state = traffic.state; // traffic has spoken before the first check
    lines << tr("Traffic: %1").arg(traffic.reason);
    h.reason = lines.join(u'\n');

    const QLocale l;
    if (p.running >= 0)
        h.running = int(p.running);
    if (p.waiting >= 0)
        h.waiting = int(p.waiting);
    if (p.kvCacheUsage >= 0)
        h.kvCacheUsage = p.kvCacheUsage;
    if (checked) {
        h.lastCheckMs = p.lastCheckMsSinceEpoch;
        if (p.lastCheckDurationMs >= 0)
            h.metrics << qMakePair(tr("Check took"), tr("%1 ms").arg(l.toString(p.lastCheckDurationMs)));
    }
    if (!p.version.isEmpty())
        h.metrics << qMakePair(tr("vLLM version"), p.version);
    if (!p.servedModels.isEmpty())
        h.metrics << qMakePair(tr("Serves"), p.servedModels.join(u", "_s));
    if (p.hasMetrics) {
        auto number = [&l](double v) { return v < 0 ? u"\u2014"_s : l.toString(qint64(v)); };
        h.metrics << qMakePair(tr("Requests running"), number(p.running));
        h.metrics << qMakePair(tr("Requests waiting"), number(p.waiting));
        h.metrics << qMakePair(tr("KV cache usage"),
                               p.kvCacheUsage < 0 ? u"\u2014"_s : tr("%1 %").arg(l.toString(p.kvCacheUsage * 100, 'f', 1)));
        h.metrics << qMakePair(tr("Prompt tokens (total)"), number(p.promptTokensTotal));
        h.metrics << qMakePair(tr("Generation tokens (total)"), number(p.generationTokensTotal));
        h.metrics << qMakePair(tr("Requests succeeded (total)"), number(p.requestsSucceededTotal));
        h.metrics << qMakePair(tr("Preemptions (total)"), number(p.preemptionsTotal));
    } else if (checked) {
        h.metrics << qMakePair(tr("/metrics"), tr("no vLLM gauges"));
    }
    if (s.ttftEwmaMs >= 0)
        h.metrics << qMakePair(tr("Recent time to first token"), tr("%1 ms").arg(l.toString(s.ttftEwmaMs)));
    return h;
}

sim::SimNode *DemoHealthSource::node(const QString &name) const
{
    for (sim::SimNode *n : m_nodes) {
        if (n->options().name == name)
            return n;
    }
    return nullptr;
}

NodeHealth DemoHealthSource::health(const NodeObservation &o) const
{
    NodeHealth h = m_gateway.health(o);
    const sim::SimNode *n = node(o.snapshot.name);
    if (!n)
        return h;
    // Only atomics here (fault(), counters()): SimNode's control mutex may be held by a setFault() that
    // waits for the node's thread, and the GUI thread must not wait with it.
    const sim::FaultMode fault = n->fault();
    h.simulatedFault = sim::faultModeName(fault);
    const sim::SimNode::Counters c = n->counters();
    const QLocale l;
    h.simulation = {
        {tr("Fault mode"), h.simulatedFault},
        {tr("Faults injected"), l.toString(c.faultsInjected)},
        {tr("Requests received"), l.toString(c.requestsReceived)},
        {tr("Client aborts"), l.toString(c.clientAborts)},
        {tr("Open connections"), l.toString(c.openConnections)},
    };
    QString what;
    switch (fault) {
    case sim::FaultMode::Healthy:
        return h;
    case sim::FaultMode::Error500:
        what = tr("answers inference requests with HTTP 500");
        break;
    case sim::FaultMode::Hang:
        what = tr("accepts requests but never answers (hang)");
        break;
    case sim::FaultMode::Refuse:
        what = tr("refuses connections");
        break;
    case sim::FaultMode::DropStream:
        what = tr("cuts streams after a few tokens");
        break;
    case sim::FaultMode::Slow:
        what = tr("runs several times slower than normal");
        break;
    case sim::FaultMode::EngineDead:
        what = tr("engine dead: requests fail with errors");
        break;
    }
    h.reason = tr("Simulated fault '%1': the node %2.").arg(h.simulatedFault, what) + u'\n' + h.reason;
    return h;
}

} // namespace switchyard::ui
