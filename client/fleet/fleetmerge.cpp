#include "fleet/fleetmerge.h"

#include <QHash>
#include <QSet>
#include <algorithm>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::client {

namespace {

void addRates(link::Rates &into, const link::Rates &r)
{
    into.requestsPerSecond += r.requestsPerSecond;
    into.errorsPerSecond += r.errorsPerSecond;
    into.tokensPerSecond += r.tokensPerSecond;
}

std::optional<double> worst(std::optional<double> a, std::optional<double> b)
{
    if (!a)
        return b;
    if (!b)
        return a;
    return std::max(*a, *b);
}

void mergeWindow(link::WindowLatency &into, const link::WindowLatency &w)
{
    into.latencyP50Ms = worst(into.latencyP50Ms, w.latencyP50Ms);
    into.latencyP95Ms = worst(into.latencyP95Ms, w.latencyP95Ms);
    into.ttftP95Ms = worst(into.ttftP95Ms, w.ttftP95Ms);
}

// All-time percentiles: p50 weighted by how many requests each gateway measured, p95/p99 the worst.
void mergePercentiles(link::Percentiles &into, const link::Percentiles &p)
{
    if (p.count <= 0)
        return;
    if (into.count <= 0) {
        into = p;
        return;
    }
    if (into.p50 && p.p50)
        into.p50 = (*into.p50 * double(into.count) + *p.p50 * double(p.count)) / double(into.count + p.count);
    else if (!into.p50)
        into.p50 = p.p50;
    into.p95 = worst(into.p95, p.p95);
    into.p99 = worst(into.p99, p.p99);
    into.count += p.count;
}

QString joinDistinct(const QStringList &values)
{
    QStringList distinct;
    for (const QString &v : values) {
        if (!v.isEmpty() && !distinct.contains(v))
            distinct.append(v);
    }
    return distinct.join(u", "_s);
}

} // namespace

int nodeStateSeverity(health::NodeState state)
{
    using health::NodeState;
    switch (state) {
    case NodeState::Down: return 5;
    case NodeState::Degraded: return 4;
    case NodeState::Recovering: return 3;
    case NodeState::Draining: return 2;
    case NodeState::Unknown: return 1;
    case NodeState::Healthy: return 0;
    }
    return 1;
}

link::GatewayStatus mergeStatuses(const QList<FleetMember> &members)
{
    link::GatewayStatus fleet;
    if (members.isEmpty())
        return fleet;
    QStringList versions, listenUrls, hashes;
    bool allPaused = true, allStopping = true;
    fleet.uptimeMs = members.front().status.uptimeMs;
    QHash<QString, qsizetype> nodeAt; // base URL (or name) → row in fleet.nodes
    QHash<QString, QStringList> reasons;
    for (const FleetMember &m : members) {
        const link::GatewayStatus &s = m.status;
        versions.append(s.version);
        listenUrls.append(s.listenUrl);
        hashes.append(s.configHash);
        fleet.uptimeMs = std::min(fleet.uptimeMs, s.uptimeMs);
        fleet.running = fleet.running || s.running;
        fleet.accepting = fleet.accepting || s.accepting;
        allPaused = allPaused && s.paused;
        allStopping = allStopping && s.stopping;
        fleet.configGeneration = std::max(fleet.configGeneration, s.configGeneration);
        fleet.requestsTotal += s.requestsTotal;
        fleet.errorsTotal += s.errorsTotal;
        fleet.inFlight += s.inFlight;
        fleet.openConnections += s.openConnections;
        addRates(fleet.rates, s.rates);
        mergeWindow(fleet.window, s.window);
        mergePercentiles(fleet.ttftAllTime, s.ttftAllTime);
        mergePercentiles(fleet.latencyAllTime, s.latencyAllTime);

        for (const link::NodeStatus &n : s.nodes) {
            const QString key = n.baseUrl.isEmpty() ? n.name : n.baseUrl;
            if (n.state != health::NodeState::Healthy && !n.reason.isEmpty())
                reasons[key].append(members.size() > 1 ? m.name % u": "_s % n.reason : n.reason);
            const auto at = nodeAt.constFind(key);
            if (at == nodeAt.cend()) {
                nodeAt.insert(key, fleet.nodes.size());
                fleet.nodes.append(n);
                continue;
            }
            link::NodeStatus &f = fleet.nodes[*at];
            if (nodeStateSeverity(n.state) > nodeStateSeverity(f.state))
                f.state = n.state;
            f.draining = f.draining || n.draining;
            f.lastCheckMsSinceEpoch = std::max(f.lastCheckMsSinceEpoch, n.lastCheckMsSinceEpoch);
            f.running = worst(f.running, n.running);
            f.waiting = worst(f.waiting, n.waiting);
            f.kvCacheUsage = worst(f.kvCacheUsage, n.kvCacheUsage);
            // One node, read by several gateways: the same counters; the lowest reading is the cautious one.
            if (n.prefixCacheHitRate && (!f.prefixCacheHitRate || *n.prefixCacheHitRate < *f.prefixCacheHitRate))
                f.prefixCacheHitRate = n.prefixCacheHitRate;
            // Each gateway predicts from its own index, for the prompts it sent: the lowest, likewise.
            if (n.predictedPrefixHitRate
                && (!f.predictedPrefixHitRate || *n.predictedPrefixHitRate < *f.predictedPrefixHitRate))
                f.predictedPrefixHitRate = n.predictedPrefixHitRate;
            f.generationTokensTotal = worst(f.generationTokensTotal, n.generationTokensTotal);
            f.inFlight += n.inFlight;
            f.attempts += n.attempts;
            f.successes += n.successes;
            f.failures += n.failures;
            f.promptTokens += n.promptTokens;
            f.completionTokens += n.completionTokens;
            addRates(f.rates, n.rates);
            f.errorRate = worst(f.errorRate, n.errorRate);
            mergeWindow(f.window, n.window);
            mergePercentiles(f.ttftAllTime, n.ttftAllTime);
            mergePercentiles(f.latencyAllTime, n.latencyAllTime);
            if (f.version.isEmpty())
                f.version = n.version;
            for (const QString &model : n.servedModels) {
                if (!f.servedModels.contains(model))
                    f.servedModels.append(model);
            }
        }
    }
    for (link::NodeStatus &n : fleet.nodes) {
        const QString key = n.baseUrl.isEmpty() ? n.name : n.baseUrl;
        n.reason = n.state == health::NodeState::Healthy ? QString() : reasons.value(key).join(u"; "_s);
    }
    fleet.paused = allPaused;
    fleet.stopping = allStopping;
    fleet.version = joinDistinct(versions);
    fleet.listenUrl = joinDistinct(listenUrls);
    // One hash when every gateway runs the same config; none (drift) otherwise, so nothing mistakes the
    // fleet for one config.
    const QString common = hashes.front();
    fleet.configHash = std::all_of(hashes.cbegin(), hashes.cend(), [&](const QString &h) { return h == common; })
                           ? common
                           : QString();
    return fleet;
}

QList<stats::SecondSample> mergeHistory(const QList<QList<stats::SecondSample>> &series)
{
    struct Sum
    {
        stats::SecondSample s;
        double ttftWeighted = 0, ttftWeight = 0, latencyWeighted = 0, latencyWeight = 0;
    };
    QHash<qint64, Sum> bySecond;
    for (const QList<stats::SecondSample> &one : series) {
        for (const stats::SecondSample &x : one) {
            Sum &sum = bySecond[x.second];
            sum.s.second = x.second;
            sum.s.requests += x.requests;
            sum.s.errors += x.errors;
            sum.s.failedAttempts += x.failedAttempts;
            sum.s.promptTokens += x.promptTokens;
            sum.s.completionTokens += x.completionTokens;
            sum.s.inFlight += x.inFlight;
            sum.s.latencyP95Ms = std::max(sum.s.latencyP95Ms, x.latencyP95Ms);
            // p50s weighted by the requests each gateway finished that second.
            const double w = std::max(1.0f, x.requests);
            if (x.latencyP50Ms >= 0) {
                sum.latencyWeighted += x.latencyP50Ms * w;
                sum.latencyWeight += w;
            }
            if (x.ttftP50Ms >= 0) {
                sum.ttftWeighted += x.ttftP50Ms * w;
                sum.ttftWeight += w;
            }
        }
    }
    QList<stats::SecondSample> out;
    out.reserve(bySecond.size());
    for (auto it = bySecond.cbegin(); it != bySecond.cend(); ++it) {
        stats::SecondSample s = it->s;
        if (it->latencyWeight > 0)
            s.latencyP50Ms = float(it->latencyWeighted / it->latencyWeight);
        if (it->ttftWeight > 0)
            s.ttftP50Ms = float(it->ttftWeighted / it->ttftWeight);
        out.append(s);
    }
    std::sort(out.begin(), out.end(), [](const auto &a, const auto &b) { return a.second < b.second; });
    return out;
}

QList<keys::KeyListing> mergeKeyListings(const QList<QList<keys::KeyListing>> &lists)
{
    QList<keys::KeyListing> out;
    QHash<QString, qsizetype> row;
    for (const QList<keys::KeyListing> &list : lists) {
        for (const keys::KeyListing &k : list) {
            const auto it = row.constFind(k.key.id);
            if (it == row.cend()) {
                row.insert(k.key.id, out.size());
                out.append(k);
                continue;
            }
            keys::KeyListing &m = out[*it];
            if (k.key.revokedMs != 0 && (m.key.revokedMs == 0 || k.key.revokedMs < m.key.revokedMs))
                m.key.revokedMs = k.key.revokedMs; // the first revocation any replica saw
            keys::KeyUsage::Snapshot &u = m.usage;
            const keys::KeyUsage::Snapshot &v = k.usage;
            u.requestsThisMinute = std::max(u.requestsThisMinute, v.requestsThisMinute);
            u.tokensThisMinute = std::max(u.tokensThisMinute, v.tokensThisMinute);
            u.tokensToday = std::max(u.tokensToday, v.tokensToday);
            u.inFlight += v.inFlight;
            u.requests += v.requests;
            u.promptTokens += v.promptTokens;
            u.completionTokens += v.completionTokens;
            u.refused += v.refused;
        }
    }
    return out;
}

QList<stats::RequestRecord> mergeByTime(QList<stats::RequestRecord> records)
{
    std::stable_sort(records.begin(), records.end(), [](const auto &a, const auto &b) {
        return a.startedMsSinceEpoch < b.startedMsSinceEpoch;
    });
    return records;
}

} // namespace switchyard::client
