#pragma once

// The panel's only reader of the gateway. On the GUI thread, a few times a second, it takes a
// snapshot() (atomics and a short lock), drains the finished requests the workers pushed into a
// RequestFeed, turns counter deltas into rates, request records into latency percentiles, asks the
// NodeHealthSource for each node's state, and emits one MonitorSample. Every view is fed from that
// signal, so the GUI's work is bounded by the tick rate, not by the request rate.

#include "gateway.h"
#include "nodehealth.h"
#include "requestfeed.h"
#include "ringbuffer.h"

#include <QHash>
#include <QObject>
#include <deque>
#include <memory>
#include <optional>

class QTimer;

namespace switchyard::ui {

struct NodeSample
{
    NodeSnapshot snapshot;   // models: every model of the provider's keys, enabled or not
    NodeHealth health;
    double requestsPerSec = 0; // attempts sent to the node per second (rate window)
    double errorsPerSec = 0;   // failed attempts per second (rate window)
    double tokensPerSec = 0;   // completion tokens per second (rate window)
    std::optional<double> errorRate;    // failed / finished attempts over the health window
    std::optional<double> latencyP50Ms; // end-to-end, successful requests in the latency window
    std::optional<double> latencyP95Ms;
    std::optional<double> ttftP95Ms;
    QList<stats::RequestRecord> recentErrors; // oldest first, at most RecentErrorsPerNode
    bool draining = false; // the gateway sends it no new requests
};

struct MonitorSample
{
    qint64 timeMs = 0; // ms since the epoch
    bool running = false;
    bool stopping = false;
    QString listenUrl;
    qint64 requestsTotal = 0;
    qint64 errorsTotal = 0;
    qint64 inFlight = 0;
    int openConnections = 0;
    double requestsPerSec = 0; // client requests per second (rate window)
    double errorsPerSec = 0;   // client requests answered >= 500 per second
    double tokensPerSec = 0;   // completion tokens per second, all nodes
    // Gateway-wide over the chart latency window (short, so the chart follows changes).
    std::optional<double> latencyP50Ms;
    std::optional<double> latencyP95Ms;
    std::optional<double> ttftP95Ms;
    QList<NodeSample> nodes;
    NodeState worstState = NodeState::Unknown; // over the nodes not draining; Unknown without nodes
};

class GatewayMonitor final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(GatewayMonitor)

public:
    static constexpr int DefaultIntervalMs = 250;
    static constexpr qint64 RateWindowMs = 5'000;
    static constexpr qint64 HealthWindowMs = 30'000;
    static constexpr qint64 LatencyWindowMs = 60'000;
    static constexpr qint64 ChartLatencyWindowMs = 10'000;
    static constexpr int RecentErrorsPerNode = 20;
    static constexpr qsizetype MaxLatencyEntries = 20'000;

    // Takes the gateway's request-logger slot (Gateway::setRequestLogger): create the monitor before
    // the gateway's first start(). The logger only pushes into a bounded, shared RequestFeed, so it
    // stays valid even if the monitor goes first.
    explicit GatewayMonitor(Gateway *gateway, QObject *parent = nullptr);
    ~GatewayMonitor() override;

    void setHealthSource(std::unique_ptr<NodeHealthSource> source);
    const NodeHealthSource *healthSource() const { return m_health.get(); }

    void setInterval(int ms);
    void start();
    void stop();
    bool isActive() const;
    // Takes a sample at once (the timer calls this); emits requestsFinished (if any) and sampled.
    void sampleNow();

    const MonitorSample &latest() const { return m_latest; }

signals:
    // The finished requests since the previous tick, oldest first; dropped = lost to the feed's bound.
    void requestsFinished(const QList<switchyard::stats::RequestRecord> &records, qint64 dropped);
    void sampled(const switchyard::ui::MonitorSample &sample);

private:
    struct Tick
    {
        qint64 timeMs = 0;
        qint64 requestsTotal = 0;
        qint64 errorsTotal = 0;
        QHash<QString, stats::NodeCountersSnapshot> nodes;
    };
    struct LatencyEntry
    {
        qint64 finishMs = 0;
        QString node;
        qint64 durationMs = 0;
        qint64 ttftMs = -1;
    };
    const Tick *tickBefore(qint64 timeMs) const;
    void absorb(const QList<stats::RequestRecord> &records);

    Gateway *m_gateway;
    std::shared_ptr<RequestFeed> m_feed;
    std::unique_ptr<NodeHealthSource> m_health;
    QTimer *m_timer;
    std::deque<Tick> m_ticks;            // the last HealthWindowMs (plus one older), oldest first
    std::deque<LatencyEntry> m_latency;  // successful requests of the last LatencyWindowMs
    QHash<QString, RingBuffer<stats::RequestRecord>> m_errors; // per node
    QHash<QString, QPair<QString, qint64>> m_lastError;        // per node: message, time
    MonitorSample m_latest;
};

// The p-th percentile (0..100, nearest rank) of values; nullopt when empty. Reorders values.
std::optional<double> percentile(std::vector<double> &values, double p);

} // namespace switchyard::ui
