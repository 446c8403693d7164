#include "gatewaystats.h"

namespace switchyard::stats {

std::shared_ptr<NodeRuntime> GatewayStats::nodeRuntime(const QString &name)
{
    QMutexLocker lock(&m_mutex);
    auto &slot = m_nodes[name];
    if (!slot)
        slot = std::make_shared<NodeRuntime>();
    return slot;
}

void GatewayStats::recordRequest(const RequestRecord &record)
{
    m_recent.append(record);
}

NodeCountersSnapshot snapshotOf(const QString &name, const NodeCounters &c)
{
    return {name, c.requests.load(), c.successes.load(), c.failures.load(), c.inFlight.load(),
            c.promptTokens.load(), c.completionTokens.load(), c.latencyMsSum.load()};
}


} // namespace switchyard::stats
