#include "routingtable.h"

#include "routing/stablehash.h"
#include "stats/noderuntime.h"

#include <QUrl>

#include <algorithm>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::routing {

void Route::recordServedBy(const Node &node) const
{
    if (!prompt || !prefixIndex)
        return;
    // Before the prompt is recorded for the node (after it, the whole prompt matches).
    if (node.runtime) {
        node.runtime->counters.predictedPrefixBytes.fetch_add(prefixIndex->matchedBytes(*prompt, node.nameHash),
                                                              std::memory_order_relaxed);
        node.runtime->counters.routedPromptBytes.fetch_add(prompt->indexedBytes, std::memory_order_relaxed);
    }
    prefixIndex->record(*prompt, node.nameHash);
}

std::optional<Endpoint> parseEndpoint(const QString &baseUrl)
{
    const QUrl url(baseUrl, QUrl::StrictMode);
    if (!url.isValid() || url.host().isEmpty())
        return std::nullopt;
    Endpoint e;
    const QString scheme = url.scheme().toLower();
    if (scheme == u"https")
        e.tls = true;
    else if (scheme != u"http")
        return std::nullopt;
    e.host = url.host();
    e.port = quint16(url.port(e.tls ? 443 : 80));
    const bool ipv6 = e.host.contains(u':');
    const QByteArray hostPart = ipv6 ? QByteArray('[' + e.host.toLatin1() + ']') : e.host.toLatin1();
    e.hostHeader = hostPart + ':' + QByteArray::number(e.port);
    QByteArray path = url.path(QUrl::FullyEncoded).toLatin1();
    while (path.endsWith('/'))
        path.chop(1);
    e.basePath = path;
    e.key = (e.tls ? u"https://"_s : u"http://"_s) % e.host % u':' % QString::number(e.port);
    return e;
}

std::shared_ptr<const RoutingTable> RoutingTable::build(const config::GatewayConfig &config,
                                                        const RuntimeLookup &runtimeFor, quint64 generation,
                                                        std::shared_ptr<PrefixIndex> prefixIndex)
{
    auto table = std::make_shared<RoutingTable>();
    table->m_config = config;
    table->m_generation = generation;
    const config::AffinitySettings &affinity = config.settings.affinity;
    const PrefixIndex::Limits limits{affinity.cacheIndexMaxEntries, affinity.cacheIndexMaxAgeMs};
    if (prefixIndex)
        prefixIndex->setLimits(limits);
    else
        prefixIndex = std::make_shared<PrefixIndex>(limits);
    table->m_prefixIndex = std::move(prefixIndex);
    std::vector<double> wildcardWeights;
    QHash<QByteArray, std::vector<double>> weights;
    QList<QByteArray> modelOrder;

    for (const config::ProviderConfig &p : config.providers) {
        const std::optional<Endpoint> ep = parseEndpoint(p.network.baseUrl);
        if (!ep)
            continue; // the loader rejects such configs; a table built anyway skips the node
        Node node;
        node.name = p.name;
        node.nameUtf8 = p.name.toUtf8();
        node.nameHash = stableHash64(node.nameUtf8);
        node.provider = p;
        node.endpoint = *ep;
        node.runtime = runtimeFor ? runtimeFor(p.name) : std::make_shared<stats::NodeRuntime>();
        for (const config::KeyConfig &k : p.keys)
            node.authorization.push_back(k.value.isEmpty() ? QByteArray() : "Bearer " + k.value.toUtf8());
        for (const auto &[name, value] : p.network.extraHeaders)
            node.extraHeaderBlock += name + ": " + value + "\r\n";
        const int nodeIndex = int(table->m_nodes.size());
        table->m_nodeByName.insert(p.name, nodeIndex);
        table->m_nodes.push_back(std::move(node));

        for (int k = 0; k < int(p.keys.size()); ++k) {
            const config::KeyConfig &key = p.keys[size_t(k)];
            if (!key.enabled || key.weight <= 0)
                continue;
            for (const QString &m : key.models) {
                if (m == u"*") {
                    table->m_wildcardPool.entries.push_back({nodeIndex, k});
                    wildcardWeights.push_back(key.weight);
                    continue;
                }
                const QByteArray model = m.toUtf8();
                if (!table->m_pools.contains(model))
                    modelOrder.append(model);
                table->m_pools[model].entries.push_back({nodeIndex, k});
                weights[model].push_back(key.weight);
            }
        }
    }
    // A provider serving "*" also serves every model that others list by name.
    for (const QByteArray &model : std::as_const(modelOrder)) {
        Pool &pool = table->m_pools[model];
        std::vector<double> &w = weights[model];
        for (size_t i = 0; i < table->m_wildcardPool.entries.size(); ++i) {
            pool.entries.push_back(table->m_wildcardPool.entries[i]);
            w.push_back(wildcardWeights[i]);
        }
        pool.schedule = WeightedSchedule(w);
    }
    table->m_wildcardPool.schedule = WeightedSchedule(wildcardWeights);
    return table;
}

Route RoutingTable::routeFromPool(const Pool &pool, const QByteArray &model, const RouteRequest &request) const
{
    Route route;
    route.upstreamModel = model;
    if (pool.schedule.isEmpty())
        return route;
    const quint64 start = pool.schedule.claim();
    const int period = pool.schedule.period();
    // Walk one period from the claimed position, keeping the first entry of each node: that is the
    // order in which failover visits the pool's nodes, still following the weights.
    for (int i = 0; i < period; ++i) {
        const PoolEntry &e = pool.entries[size_t(pool.schedule.at(start + quint64(i)))];
        bool seen = false;
        for (const PoolEntry &c : route.candidates)
            seen = seen || c.node == e.node;
        if (!seen)
            route.candidates.push_back(e);
        if (route.candidates.size() == pool.entries.size())
            break;
    }
    applyStrategy(route, model, request);
    return route;
}

std::optional<Route> RoutingTable::resolve(QByteArrayView model, ResolveError *error,
                                          const RouteRequest &request) const
{
    const qsizetype slash = model.indexOf('/');
    if (slash > 0) {
        const QString provider = QString::fromUtf8(model.first(slash));
        const auto it = m_nodeByName.constFind(provider);
        if (it != m_nodeByName.constEnd()) {
            const QByteArrayView upstreamModel = model.sliced(slash + 1);
            const Node &node = m_nodes[size_t(*it)];
            const QString m = QString::fromUtf8(upstreamModel);
            for (int k = 0; k < int(node.provider.keys.size()); ++k) {
                const config::KeyConfig &key = node.provider.keys[size_t(k)];
                if (key.enabled && key.servesModel(m)) {
                    Route r;
                    r.pinned = true;
                    r.reason = u"pinned"_s; // a pin bypasses every strategy
                    r.upstreamModel = upstreamModel.toByteArray();
                    r.candidates.push_back({*it, k});
                    return r;
                }
            }
            if (error) {
                *error = {404,
                          u"The model '%1' is not served by provider '%2' (no enabled key lists it)"_s.arg(m, provider),
                          "model_not_found"};
            }
            return std::nullopt;
        }
    }
    // Looked up without a copy of the name (this Qt's QHash wants a QByteArray key); the route then
    // shares the pool's own copy of it.
    const auto pit = m_pools.constFind(QByteArray::fromRawData(model.data(), model.size()));
    if (pit != m_pools.constEnd() && !pit->schedule.isEmpty())
        return routeFromPool(*pit, pit.key(), request);
    if (!m_wildcardPool.schedule.isEmpty())
        return routeFromPool(m_wildcardPool, model.toByteArray(), request);
    if (error) {
        *error = {404,
                  u"The model '%1' does not exist: no provider serves it (use a configured model, "
                  "or 'provider/model' to pin a node)"_s.arg(QString::fromUtf8(model)),
                  "model_not_found"};
    }
    return std::nullopt;
}

QList<RoutingTable::ModelInfo> RoutingTable::models() const
{
    QList<ModelInfo> out;
    QHash<QString, qsizetype> index;
    auto add = [&](const QString &id, const QString &provider) {
        const auto it = index.constFind(id);
        if (it == index.constEnd()) {
            index.insert(id, out.size());
            out.append({id, {provider}});
        } else if (!out[*it].providers.contains(provider)) {
            out[*it].providers.append(provider);
        }
    };
    // One walk over the keys: bare names (the pools) first in the answer, then "provider/model" (pins).
    QList<ModelInfo> pinned;
    for (const Node &node : m_nodes) {
        for (const config::KeyConfig &key : node.provider.keys) {
            if (!key.enabled)
                continue;
            for (const QString &m : key.models) {
                if (m == u"*")
                    continue;
                add(m, node.name);
                const QString id = node.name % u'/' % m;
                if (std::none_of(pinned.cbegin(), pinned.cend(), [&](const ModelInfo &x) { return x.id == id; }))
                    pinned.append({id, {node.name}});
            }
        }
    }
    out.append(pinned);
    return out;
}

} // namespace switchyard::routing
