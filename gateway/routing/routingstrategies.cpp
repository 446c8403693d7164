// The routing strategies: how RoutingTable orders a pool's candidates once smooth weighted round-robin
// has given its order (docs/ROUTING.md, "Strategies"). Every strategy only reorders: the exchange still
// visits the candidates in order, skipping those health or drain do not admit, so a strategy's first
// choice that is drained or ejected simply passes to the next one — for session_affinity that is the
// session's next node by rendezvous, so a node that leaves moves only its own sessions.

#include "routing/rendezvous.h"
#include "routing/routingtable.h"

#include "common/clock.h"
#include "stats/noderuntime.h"

#include <algorithm>
#include <cmath>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::routing {

double RoutingTable::entryWeight(const PoolEntry &e) const
{
    return std::max(0.01, m_nodes[size_t(e.node)].provider.keys[size_t(e.key)].weight);
}

void RoutingTable::applyStrategy(Route &route, QByteArrayView model, const RouteRequest &request) const
{
    const config::GatewaySettings &s = m_config.settings;
    if (route.candidates.size() < 2) {
        route.reason = u"only node"_s;
        return;
    }
    // No per-model strategies (the usual case): no string conversion or lookup per request.
    const config::RoutingStrategy strategy =
        s.strategyByModel.isEmpty() ? s.defaultStrategy
                                    : s.strategyByModel.value(QString::fromUtf8(model), s.defaultStrategy);
    applyStrategy(route, strategy, model, request);
}

void RoutingTable::applyStrategy(Route &route, config::RoutingStrategy strategy, QByteArrayView model,
                                 const RouteRequest &request) const
{
    switch (strategy) {
    case config::RoutingStrategy::WeightedRoundRobin:
        route.reason = u"weighted"_s;
        return;
    case config::RoutingStrategy::LeastOutstanding:
    case config::RoutingStrategy::LoadAware:
        orderByLoad(route, strategy);
        return;
    case config::RoutingStrategy::SessionAffinity:
        if (!request.sessionKey.isEmpty()) {
            orderBySession(route, request.sessionKey);
            return;
        }
        // No session key: the fallback strategy decides (never session_affinity itself: the loader
        // refuses that), and the reason says so.
        if (m_config.settings.affinity.fallbackStrategy != config::RoutingStrategy::SessionAffinity)
            applyStrategy(route, m_config.settings.affinity.fallbackStrategy, model, request);
        route.reason = u"fallback: "_s % (route.reason.isEmpty() ? u"weighted"_s : route.reason);
        return;
    case config::RoutingStrategy::CacheAware:
        orderByCache(route, model, request.prompt);
        return;
    }
}

void RoutingTable::orderByLoad(Route &route, config::RoutingStrategy strategy) const
{
    route.reason = strategy == config::RoutingStrategy::LoadAware ? u"load aware"_s : u"least outstanding"_s;
    // Scores are read once per candidate; stable sorting keeps the weighted order among equals, so
    // idle pools still rotate by weight.
    std::vector<std::pair<double, PoolEntry>> scored;
    scored.reserve(route.candidates.size());
    for (const PoolEntry &e : route.candidates) {
        const stats::NodeRuntime &rt = *m_nodes[size_t(e.node)].runtime;
        const double inFlight = double(rt.counters.inFlight.load(std::memory_order_relaxed));
        double score = inFlight;
        if (strategy == config::RoutingStrategy::LoadAware) {
            // Work the node already has (its own queue counts double: those requests wait for a slot),
            // inflated by how full its KV cache is and how slow its first tokens have been lately.
            const int waiting = std::max(0, rt.health.waiting.load(std::memory_order_relaxed));
            const int running = std::max(0, rt.health.running.load(std::memory_order_relaxed));
            const int kv = std::max(0, rt.health.kvCachePermille.load(std::memory_order_relaxed));
            const int ttft = std::max(0, rt.health.ttftEwmaMs.load(std::memory_order_relaxed));
            score = (inFlight + 2.0 * waiting + 0.5 * running) * (1.0 + kv / 1000.0) * (1.0 + ttft / 2000.0) +
                    ttft / 1000.0;
        }
        scored.push_back({score / entryWeight(e), e});
    }
    std::stable_sort(scored.begin(), scored.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    for (size_t i = 0; i < scored.size(); ++i)
        route.candidates[i] = scored[i].second;
}

void RoutingTable::orderBySession(Route &route, QByteArrayView sessionKey) const
{
    // A node's weight for the model is the sum of its keys serving it, the same whichever key the
    // weighted order happened to list: a session's node must not depend on the rotation's position.
    std::vector<RendezvousNode> nodes;
    nodes.reserve(route.candidates.size());
    const QString model = QString::fromUtf8(route.upstreamModel);
    for (const PoolEntry &e : route.candidates) {
        const Node &node = m_nodes[size_t(e.node)];
        double weight = 0;
        for (const config::KeyConfig &k : node.provider.keys) {
            if (k.enabled && k.weight > 0 && k.servesModel(model))
                weight += k.weight;
        }
        nodes.push_back({node.nameHash, std::max(0.01, weight)});
    }
    const std::vector<int> order = rendezvousOrder(sessionKey, nodes);
    std::vector<PoolEntry> ordered;
    ordered.reserve(order.size());
    for (int i : order)
        ordered.push_back(route.candidates[size_t(i)]);
    route.candidates = std::move(ordered);
    route.reason = u"session"_s;

    // Bounded load, as cache_aware's balance test: when the session's node (the first one admitted)
    // carries more than balance_abs_threshold requests beyond the idlest admitted node and more than
    // balance_rel_threshold times its load, this turn goes to the idlest. A few sessions hash unevenly
    // (16 over two nodes: 10 to 6 as often as not); this keeps the split near 60/40 at most, and
    // the session returns to its node once the load allows. Replicas still agree whenever in balance.
    const qint64 now = Clock::nowMs();
    double maxWeight = 0;
    for (const PoolEntry &e : route.candidates)
        maxWeight = std::max(maxWeight, entryWeight(e));
    int home = -1, idlest = -1;
    double homeLoad = 0, idlestLoad = INFINITY;
    for (size_t i = 0; i < route.candidates.size(); ++i) {
        const PoolEntry &e = route.candidates[i];
        const stats::NodeRuntime &rt = *m_nodes[size_t(e.node)].runtime;
        if (rt.health.isDraining() || !rt.health.isAvailable(now))
            continue;
        const double load = balanceLoad(e, maxWeight);
        if (home < 0) {
            home = int(i);
            homeLoad = load;
        }
        if (load < idlestLoad) {
            idlest = int(i);
            idlestLoad = load;
        }
    }
    if (home >= 0 && idlest != home && outOfBalance(homeLoad, idlestLoad)) {
        const PoolEntry moved = route.candidates[size_t(idlest)];
        route.candidates.erase(route.candidates.begin() + idlest);
        route.candidates.insert(route.candidates.begin(), moved);
        route.reason = u"session, balance"_s;
    }
}

double RoutingTable::balanceLoad(const PoolEntry &e, double maxWeight) const
{
    // Requests in flight through this gateway plus the node's own queue, scaled by weight: a 3:1 node
    // may carry three times as much.
    const stats::NodeRuntime &rt = *m_nodes[size_t(e.node)].runtime;
    const double raw = double(rt.counters.inFlight.load(std::memory_order_relaxed)) +
                       double(std::max(0, rt.health.waiting.load(std::memory_order_relaxed)));
    return raw * maxWeight / entryWeight(e);
}

bool RoutingTable::outOfBalance(double busier, double idler) const
{
    // SGLang's test: out of balance when the busier has more than balance_abs_threshold requests beyond
    // the idler and more than balance_rel_threshold times its load.
    const config::AffinitySettings &a = m_config.settings.affinity;
    return busier - idler > a.balanceAbsThreshold && busier > idler * a.balanceRelThreshold;
}

void RoutingTable::orderByCache(Route &route, QByteArrayView model, QByteArrayView prompt) const
{
    const config::AffinitySettings &a = m_config.settings.affinity;
    const qint64 now = Clock::nowMs();
    struct Candidate
    {
        PoolEntry entry;
        bool eligible = false;
        double load = 0; // balanceLoad: in flight plus the node's own queue, by weight
        qint64 matched = 0;
    };
    double maxWeight = 0;
    for (const PoolEntry &e : route.candidates)
        maxWeight = std::max(maxWeight, entryWeight(e));
    std::vector<Candidate> c;
    c.reserve(route.candidates.size());
    bool anyEligible = false;
    for (const PoolEntry &e : route.candidates) {
        const stats::NodeRuntime &rt = *m_nodes[size_t(e.node)].runtime;
        Candidate x{e};
        // Only the nodes that would be admitted count: an ejected node's empty queue is not spare room.
        x.eligible = !rt.health.isDraining() && rt.health.isAvailable(now);
        x.load = balanceLoad(e, maxWeight);
        anyEligible = anyEligible || x.eligible;
        c.push_back(x);
    }
    if (!anyEligible) {
        for (Candidate &x : c)
            x.eligible = true; // nothing is admitted: the exchange's last resort decides, in load order
    }
    double minLoad = INFINITY, maxLoad = 0;
    for (const Candidate &x : c) {
        if (x.eligible) {
            minLoad = std::min(minLoad, x.load);
            maxLoad = std::max(maxLoad, x.load);
        }
    }
    const bool imbalanced = outOfBalance(maxLoad, minLoad);

    std::shared_ptr<const PromptKey> key;
    if (!prompt.isEmpty())
        key = std::make_shared<const PromptKey>(PrefixIndex::keyFor(model, prompt));
    int chosen = -1;
    if (!imbalanced && key && !key->isEmpty()) {
        for (size_t i = 0; i < c.size(); ++i) {
            if (!c[i].eligible)
                continue;
            c[i].matched = m_prefixIndex->matchedBytes(*key, m_nodes[size_t(c[i].entry.node)].nameHash);
            // The longest match; among equals the less loaded, then the weighted order.
            if (c[i].matched > 0 &&
                (chosen < 0 || c[i].matched > c[size_t(chosen)].matched ||
                 (c[i].matched == c[size_t(chosen)].matched && c[i].load < c[size_t(chosen)].load)))
                chosen = int(i);
        }
        if (chosen >= 0) {
            const double share =
                double(c[size_t(chosen)].matched) / double(std::max<qint64>(1, key->indexedBytes));
            if (share >= a.cacheThreshold)
                route.reason = u"prefix "_s % QString::number(int(std::floor(share * 100))) % u'%';
            else
                chosen = -1;
        }
    }
    if (chosen < 0) {
        route.reason = imbalanced ? u"balance"_s : u"least loaded"_s;
        for (size_t i = 0; i < c.size(); ++i) {
            if (c[i].eligible && (chosen < 0 || c[i].load < c[size_t(chosen)].load))
                chosen = int(i);
        }
    }
    // The choice first, then the other admitted nodes by load, then the rest (the exchange's last resort).
    const int chosenNode = chosen >= 0 ? c[size_t(chosen)].entry.node : -1;
    std::stable_sort(c.begin(), c.end(), [&](const Candidate &x, const Candidate &y) {
        const bool xFirst = x.entry.node == chosenNode, yFirst = y.entry.node == chosenNode;
        if (xFirst != yFirst)
            return xFirst;
        if (x.eligible != y.eligible)
            return x.eligible;
        return x.eligible && x.load < y.load;
    });
    for (size_t i = 0; i < c.size(); ++i)
        route.candidates[i] = c[i].entry;
    route.prompt = key;
    route.prefixIndex = key ? m_prefixIndex : nullptr;
}

} // namespace switchyard::routing
