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
    QMutexLocker lock(&m_mutex);
    m_recent.push_back(record);
    if (m_recent.size() > size_t(RecentRequestsCapacity))
        m_recent.pop_front();
}

NodeCountersSnapshot snapshotOf(const QString &name, const NodeCounters &c)
{
    return {name, c.requests.load(), c.successes.load(), c.failures.load(), c.inFlight.load(),
            c.promptTokens.load(), c.completionTokens.load(), c.latencyMsSum.load()};
}

QList<RequestRecord> GatewayStats::recentRequests(int max) const
{
    QMutexLocker lock(&m_mutex);
    QList<RequestRecord> out;
    const size_t n = std::min(m_recent.size(), size_t(std::max(0, max)));
    out.reserve(qsizetype(n));
    for (size_t i = m_recent.size() - n; i < m_recent.size(); ++i)
        out.append(m_recent[i]);
    return out;
}

} // namespace switchyard::stats
