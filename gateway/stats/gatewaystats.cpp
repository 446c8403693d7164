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
    // The sink is loaded once per request. (libstdc++'s atomic shared_ptr takes a spin bit for the load,
    // and the history's queue a short lock: neither waits on the disk.)
    if (const std::shared_ptr<RecordSink> sink = m_sink.load(std::memory_order_acquire)) {
        if (!sink->append(record))
            historyDropped.fetch_add(1, std::memory_order_relaxed);
    }
}

NodeCountersSnapshot snapshotOf(const QString &name, const NodeCounters &c)
{
    return {name, c.requests.load(), c.successes.load(), c.failures.load(), c.inFlight.load(),
            c.promptTokens.load(), c.completionTokens.load(), c.latencyMsSum.load()};
}


} // namespace switchyard::stats
