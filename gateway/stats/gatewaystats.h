#pragma once

// The gateway-wide counters the worker threads update on the request path (relaxed atomics, no locks),
// each node's runtime state by name (stats/noderuntime.h), and the bounded log of recent requests. The UI
// and /api/status read them as snapshots, a few times a second. Tokens are counted per node only (as
// they stream, proxy/proxyexchange); the gateway's token totals and Tokens/s are the sum of its nodes'.

#include "stats/histogram.h"
#include "stats/noderuntime.h"
#include "stats/recentrequests.h"
#include "stats/recordsink.h"
#include "stats/requestrecord.h"
#include "stats/secondshistory.h"

#include <QHash>
#include <QList>
#include <QMutex>
#include <QString>
#include <atomic>
#include <memory>

namespace switchyard::stats {

struct NodeCountersSnapshot
{
    QString name;
    qint64 requests = 0, successes = 0, failures = 0, inFlight = 0, promptTokens = 0, completionTokens = 0;
    qint64 latencyMsSum = 0;
};

NodeCountersSnapshot snapshotOf(const QString &name, const NodeCounters &c);

class GatewayStats final
{
    Q_DISABLE_COPY_MOVE(GatewayStats)

public:
    static constexpr int RecentRequestsCapacity = 1000;

    GatewayStats() = default;

    // The runtime state of a node by name; the same object across config changes, so totals continue.
    std::shared_ptr<NodeRuntime> nodeRuntime(const QString &name);

    void recordRequest(const RequestRecord &record);
    // The lasting history's writer, or null; may change while workers record (a config applied).
    void setRecordSink(std::shared_ptr<RecordSink> sink) { m_sink.store(std::move(sink), std::memory_order_release); }

    std::atomic<qint64> requestsTotal{0};
    std::atomic<qint64> errorsTotal{0}; // requests answered with status >= 500 (or aborted mid-way)
    std::atomic<qint64> inFlight{0};
    std::atomic<int> openConnections{0};
    // Records the lasting history could not take since the gateway started (its writer fell behind the
    // disk): the requests were served, their records are missing from the history.
    std::atomic<qint64> historyDropped{0};
    Histogram ttft;    // gateway-wide, requests answered 2xx
    Histogram latency;

    // Up to max most recent records, oldest first.
    QList<RequestRecord> recentRequests(int max = RecentRequestsCapacity) const { return m_recent.latest(max); }
    const RecentRequests &recent() const { return m_recent; }
    // Per-second rates of the last hour, filled by the gateway's one-second sampler.
    SecondsHistory history;

private:
    mutable QMutex m_mutex; // guards m_nodes: looked up when a config is applied, not per request
    QHash<QString, std::shared_ptr<NodeRuntime>> m_nodes;
    RecentRequests m_recent{RecentRequestsCapacity};
    std::atomic<std::shared_ptr<RecordSink>> m_sink;
};

} // namespace switchyard::stats
