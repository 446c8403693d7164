#include "nodedescription.h"

#include "simnode/simnode.h"

#include <QLocale>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {
const QString Dash = u"\u2014"_s;
}

NodeDescription NodeDescriber::describe(const link::NodeStatus &n)
{
    NodeDescription d;
    const QLocale l;
    const bool checked = n.lastCheckMsSinceEpoch > 0;
    QStringList lines;
    if (!n.reason.isEmpty())
        lines << tr("Gateway: %1").arg(n.reason);
    else if (n.state == health::NodeState::Healthy)
        lines << tr("Answers its health checks.");
    else if (n.state == health::NodeState::Unknown && !checked)
        lines << tr("Not checked yet.");

    // Traffic, in the gateway's own numbers (the error share over its window).
    QString traffic;
    if (n.attempts == 0 && n.inFlight == 0)
        traffic = tr("No traffic yet.");
    else if (n.errorRate)
        traffic = tr("%1 of the attempts in the last %2 s failed.")
                      .arg(tr("%1 %").arg(l.toString(*n.errorRate * 100, 'f', 0)))
                      .arg(link::ErrorRateWindowSeconds);
    else if (n.inFlight > 0)
        traffic = tr("In flight: %1; none finished in the last %2 s.").arg(n.inFlight).arg(link::ErrorRateWindowSeconds);
    else
        traffic = tr("No requests finished in the last %1 s.").arg(link::ErrorRateWindowSeconds);
    lines << tr("Traffic: %1").arg(traffic);
    d.reason = lines.join(u'\n');

    if (!n.version.isEmpty())
        d.metrics << qMakePair(tr("vLLM version"), n.version);
    if (!n.servedModels.isEmpty())
        d.metrics << qMakePair(tr("Serves"), n.servedModels.join(u", "_s));
    const bool gauges = n.running || n.waiting || n.kvCacheUsage || n.generationTokensTotal;
    if (gauges) {
        auto number = [&l](const std::optional<double> &v) { return v ? l.toString(qint64(*v)) : Dash; };
        d.metrics << qMakePair(tr("Requests running"), number(n.running));
        d.metrics << qMakePair(tr("Requests waiting"), number(n.waiting));
        d.metrics << qMakePair(tr("KV cache usage"),
                               n.kvCacheUsage ? tr("%1 %").arg(l.toString(*n.kvCacheUsage * 100, 'f', 1)) : Dash);
        d.metrics << qMakePair(tr("Generation tokens (total)"), number(n.generationTokensTotal));
    } else if (checked) {
        d.metrics << qMakePair(tr("/metrics"), tr("no vLLM gauges"));
    }
    return d;
}

sim::SimNode *SimulatedNodes::node(const QString &name) const
{
    for (sim::SimNode *n : m_nodes) {
        if (n->options().name == name)
            return n;
    }
    return nullptr;
}

void SimulatedNodes::describe(const QString &name, NodeDescription &d) const
{
    const sim::SimNode *n = node(name);
    if (!n)
        return;
    // Only atomics here (fault(), counters()): SimNode's control mutex may be held by a setFault() that
    // waits for the node's thread, and the GUI thread must not wait with it.
    const sim::FaultMode fault = n->fault();
    d.simulatedFault = sim::faultModeName(fault);
    const sim::SimNode::Counters c = n->counters();
    const QLocale l;
    d.simulation = {
        {tr("Fault mode"), d.simulatedFault},
        {tr("Faults injected"), l.toString(c.faultsInjected)},
        {tr("Requests received"), l.toString(c.requestsReceived)},
        {tr("Client aborts"), l.toString(c.clientAborts)},
        {tr("Open connections"), l.toString(c.openConnections)},
    };
    QString what;
    switch (fault) {
    case sim::FaultMode::Healthy:
        return;
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
    case sim::FaultMode::Garbage:
        what = tr("answers with bytes that are not HTTP");
        break;
    }
    d.reason = tr("Simulated fault '%1': the node %2.").arg(d.simulatedFault, what) + u'\n' + d.reason;
}

} // namespace switchyard::ui
