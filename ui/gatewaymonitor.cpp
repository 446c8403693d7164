#include "gatewaymonitor.h"

#include <QDateTime>
#include <QTimer>
#include <algorithm>
#include <cmath>

namespace switchyard::ui {

std::optional<double> percentile(std::vector<double> &values, double p)
{
    if (values.empty())
        return std::nullopt;
    const double rank = std::ceil(p / 100.0 * double(values.size()));
    const size_t index = size_t(std::clamp(rank, 1.0, double(values.size()))) - 1;
    std::nth_element(values.begin(), values.begin() + qptrdiff(index), values.end());
    return values[index];
}

GatewayMonitor::GatewayMonitor(Gateway *gateway, QObject *parent)
    : QObject(parent), m_gateway(gateway), m_feed(std::make_shared<RequestFeed>()),
      m_health(std::make_unique<GatewayHealthSource>()), m_timer(new QTimer(this))
{
    std::weak_ptr<RequestFeed> feed = m_feed;
    m_gateway->setRequestLogger([feed](const stats::RequestRecord &r) {
        if (auto f = feed.lock())
            f->push(r);
    });
    m_timer->setInterval(DefaultIntervalMs);
    connect(m_timer, &QTimer::timeout, this, &GatewayMonitor::sampleNow);
}

GatewayMonitor::~GatewayMonitor() = default;

void GatewayMonitor::setHealthSource(std::unique_ptr<NodeHealthSource> source)
{
    m_health = source ? std::move(source) : std::make_unique<GatewayHealthSource>();
}

void GatewayMonitor::setInterval(int ms)
{
    m_timer->setInterval(qMax(20, ms));
}

void GatewayMonitor::start()
{
    m_timer->start();
}

void GatewayMonitor::stop()
{
    m_timer->stop();
}

bool GatewayMonitor::isActive() const
{
    return m_timer->isActive();
}

const GatewayMonitor::Tick *GatewayMonitor::tickBefore(qint64 timeMs) const
{
    // The newest tick at or before timeMs; the oldest one when the history is shorter than that.
    const Tick *best = m_ticks.empty() ? nullptr : &m_ticks.front();
    for (const Tick &t : m_ticks) {
        if (t.timeMs > timeMs)
            break;
        best = &t;
    }
    return best;
}

void GatewayMonitor::absorb(const QList<stats::RequestRecord> &records)
{
    for (const stats::RequestRecord &r : records) {
        const qint64 finish = r.startedMsSinceEpoch + r.durationMs;
        if (r.node.isEmpty())
            continue; // answered by the gateway itself (/v1/models, 404s): no node to judge
        const bool ok = r.status >= 200 && r.status < 400;
        if (ok) {
            m_latency.push_back({finish, r.node, r.durationMs, r.ttftMs});
            if (qsizetype(m_latency.size()) > MaxLatencyEntries)
                m_latency.pop_front();
        }
        if (!ok || !r.error.isEmpty()) {
            auto it = m_errors.find(r.node);
            if (it == m_errors.end())
                it = m_errors.insert(r.node, RingBuffer<stats::RequestRecord>(RecentErrorsPerNode));
            it->push(r);
            m_lastError.insert(r.node, {r.error.isEmpty() ? tr("HTTP %1").arg(r.status) : r.error, finish});
        }
    }
}

void GatewayMonitor::sampleNow()
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    qint64 dropped = 0;
    const QList<stats::RequestRecord> records = m_feed->takeAll(&dropped);
    absorb(records);
    while (!m_latency.empty() && m_latency.front().finishMs < now - LatencyWindowMs)
        m_latency.pop_front();

    const GatewaySnapshot snap = m_gateway->snapshot();
    Tick tick;
    tick.timeMs = now;
    tick.requestsTotal = snap.requestsTotal;
    tick.errorsTotal = snap.errorsTotal;
    for (const NodeSnapshot &n : snap.nodes)
        tick.nodes.insert(n.name, n.counters);

    const Tick *rateBase = tickBefore(now - RateWindowMs);
    const Tick *healthBase = tickBefore(now - HealthWindowMs);
    const double rateSeconds = rateBase ? double(now - rateBase->timeMs) / 1000.0 : 0;
    auto perSecond = [rateSeconds](qint64 delta) { return rateSeconds > 0 ? double(qMax<qint64>(0, delta)) / rateSeconds : 0.0; };

    MonitorSample s;
    s.timeMs = now;
    s.running = snap.running;
    s.stopping = m_gateway->isStopping();
    s.listenUrl = snap.listenUrl;
    s.requestsTotal = snap.requestsTotal;
    s.errorsTotal = snap.errorsTotal;
    s.inFlight = snap.inFlight;
    s.openConnections = snap.openConnections;
    if (rateBase) {
        s.requestsPerSec = perSecond(snap.requestsTotal - rateBase->requestsTotal);
        s.errorsPerSec = perSecond(snap.errorsTotal - rateBase->errorsTotal);
    }

    // Latency percentiles, per node over the long window and gateway-wide over the chart window.
    QHash<QString, std::vector<double>> durations, ttfts;
    std::vector<double> chartDurations, chartTtfts;
    for (const LatencyEntry &e : m_latency) {
        durations[e.node].push_back(double(e.durationMs));
        if (e.ttftMs >= 0)
            ttfts[e.node].push_back(double(e.ttftMs));
        if (e.finishMs >= now - ChartLatencyWindowMs) {
            chartDurations.push_back(double(e.durationMs));
            if (e.ttftMs >= 0)
                chartTtfts.push_back(double(e.ttftMs));
        }
    }
    s.latencyP95Ms = percentile(chartDurations, 95);
    s.latencyP50Ms = percentile(chartDurations, 50);
    s.ttftP95Ms = percentile(chartTtfts, 95);

    const config::GatewayConfig &cfg = m_gateway->config();
    int worst = -1;
    for (const NodeSnapshot &n : snap.nodes) {
        NodeSample ns;
        ns.snapshot = n;
        if (const config::ProviderConfig *p = cfg.provider(n.name)) {
            for (const config::KeyConfig &k : p->keys) {
                for (const QString &m : k.models) {
                    if (!ns.snapshot.models.contains(m))
                        ns.snapshot.models.append(m);
                }
            }
        }
        ns.draining = n.draining;
        const stats::NodeCountersSnapshot &c = n.counters;
        if (rateBase) {
            const stats::NodeCountersSnapshot b = rateBase->nodes.value(n.name, stats::NodeCountersSnapshot{});
            ns.requestsPerSec = perSecond(c.requests - b.requests);
            ns.errorsPerSec = perSecond(c.failures - b.failures);
            ns.tokensPerSec = perSecond(c.completionTokens - b.completionTokens);
            s.tokensPerSec += ns.tokensPerSec;
        }
        NodeObservation o;
        o.snapshot = ns.snapshot;
        o.nowMs = now;
        if (healthBase) {
            const stats::NodeCountersSnapshot b = healthBase->nodes.value(n.name, stats::NodeCountersSnapshot{});
            o.windowMs = now - healthBase->timeMs;
            o.successes = qMax<qint64>(0, c.successes - b.successes);
            o.failures = qMax<qint64>(0, c.failures - b.failures);
            if (o.successes + o.failures > 0)
                ns.errorRate = double(o.failures) / double(o.successes + o.failures);
        }
        const auto last = m_lastError.constFind(n.name);
        if (last != m_lastError.constEnd() && last->second >= now - HealthWindowMs) {
            o.lastError = last->first;
            o.lastErrorMs = last->second;
        }
        ns.health = m_health->health(o);
        if (!ns.draining && nodeStateSeverity(ns.health.state) > worst) {
            worst = nodeStateSeverity(ns.health.state);
            s.worstState = ns.health.state;
        }
        std::vector<double> &d = durations[n.name];
        ns.latencyP95Ms = percentile(d, 95);
        ns.latencyP50Ms = percentile(d, 50);
        ns.ttftP95Ms = percentile(ttfts[n.name], 95);
        const auto errs = m_errors.constFind(n.name);
        if (errs != m_errors.constEnd()) {
            for (qsizetype i = 0; i < errs->size(); ++i)
                ns.recentErrors.append(errs->at(i));
        }
        s.nodes.append(ns);
    }

    m_ticks.push_back(std::move(tick));
    // Keep the newest tick older than the health window as the base for the next deltas.
    while (m_ticks.size() > 2 && m_ticks[1].timeMs <= now - HealthWindowMs)
        m_ticks.pop_front();

    m_latest = s;
    if (!records.isEmpty() || dropped > 0)
        emit requestsFinished(records, dropped);
    emit sampled(m_latest);
}

} // namespace switchyard::ui
