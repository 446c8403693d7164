#pragma once

// The immutable routing table built from one GatewayConfig. Workers hold it by shared_ptr: applying a
// new config builds a new table and hands it to every worker, while requests already in flight keep the
// table they started with. Only the schedules' cursors change after construction (atomically).

#include "config/config.h"
#include "routing/prefixindex.h"
#include "routing/weightedschedule.h"

#include <functional>

#include <QByteArray>
#include <QHash>
#include <QString>
#include <memory>
#include <optional>
#include <vector>

// Only named here: the table hands each node its runtime state and the strategies read the load from it
// (in routingtable.cpp). Whoever reads a node's counters or health includes stats/noderuntime.h, so the
// health prober, which needs the table, does not get the health folder back through routing.
namespace switchyard::stats {
struct NodeRuntime;
}

namespace switchyard::routing {

struct Endpoint
{
    bool tls = false;
    QString host;
    quint16 port = 80;
    QByteArray hostHeader; // "host:port" as sent in Host
    QByteArray basePath;   // path prefix of base_url without trailing slash, e.g. "" or "/proxy"
    // https only: SHA-256 (32 bytes) of the one certificate trusted besides those the system trusts
    // (upstream/pinnedcertificate.h); empty = the system's trust alone.
    QByteArray pinnedSha256;
    // "http://host:port": which pooled connections may serve this endpoint. Built once by
    // parseEndpoint, not per request (the pool looks it up for every request it sends).
    QString key;
    const QString &poolKey() const { return key; }
};

struct Node
{
    QString name; // the provider name
    QByteArray nameUtf8; // the same, as the X-Switchyard-Node header sends it (built once, not per answer)
    config::ProviderConfig provider;
    Endpoint endpoint;
    quint64 nameHash = 0; // stableHash64 of the name: rendezvous scores and prefix-index keys
    std::vector<QByteArray> authorization; // per key: "Bearer <value>" or empty
    QByteArray extraHeaderBlock;            // "Name: value\r\n"… prebuilt once
    std::shared_ptr<stats::NodeRuntime> runtime;
};

struct PoolEntry
{
    int node = -1;
    int key = -1;
};

// Where one request may go: the nodes to try in order (each at most once per round) and the model
// name to send them.
struct Route
{
    std::vector<PoolEntry> candidates;
    QByteArray upstreamModel;
    bool pinned = false;
    // Why the first candidate is first, for the request log and the Requests view: "weighted",
    // "least outstanding", "load aware", "session", "fallback", "prefix 87%", "least loaded",
    // "balance", "pinned".
    QString reason;
    // cache_aware: the prompt as the index knows it, and the index to tell which node served it
    // (ProxyExchange, once a node's answer is on its way to the client).
    std::shared_ptr<const PromptKey> prompt;
    std::shared_ptr<PrefixIndex> prefixIndex;
    // Also counts what the index predicted for that node (NodeCounters::predictedPrefixBytes).
    void recordServedBy(const Node &node) const;
};

// What of the request the strategies read besides its model (all views into the request's bytes).
struct RouteRequest
{
    QByteArrayView sessionKey; // session_affinity: header, else prompt_cache_key, else user; empty = none
    QByteArrayView prompt;     // cache_aware: the raw `messages`/`prompt`/`input` value; empty = none
};

struct ResolveError
{
    int status = 404;
    QString message;
    QByteArray code; // OpenAI error code, e.g. "model_not_found"
};

class RoutingTable final
{
public:
    using RuntimeLookup = std::function<std::shared_ptr<stats::NodeRuntime>(const QString &node)>;
    // runtimeFor gives each node its runtime state (kept across configs by the caller); may be empty.
    // prefixIndex: cache_aware's index, kept by the gateway across configs (a table built without one
    // makes its own).
    static std::shared_ptr<const RoutingTable> build(const config::GatewayConfig &config,
                                                     const RuntimeLookup &runtimeFor = {},
                                                     quint64 generation = 0,
                                                     std::shared_ptr<PrefixIndex> prefixIndex = {});

    const config::GatewayConfig &config() const { return m_config; }
    // Counts applied configs: tells scripts and the panel which one is live.
    quint64 generation() const { return m_generation; }
    const std::vector<Node> &nodes() const { return m_nodes; }
    int nodeIndex(const QString &name) const { return m_nodeByName.value(name, -1); }

    // "provider/model" pins a provider (the model part goes upstream); anything else is a bare model
    // routed to the weighted pool of every provider whose keys serve it. Candidate order follows the
    // pool's smooth weighted round-robin from the next position, reordered by the model's strategy.
    std::optional<Route> resolve(QByteArrayView model, ResolveError *error, const RouteRequest &request = {}) const;
    const std::shared_ptr<PrefixIndex> &prefixIndex() const { return m_prefixIndex; }

    struct ModelInfo
    {
        QString id;
        QStringList providers;
    };
    // Every concrete model both bare and as provider/model, de-duplicated, in config order.
    QList<ModelInfo> models() const;

private:
    struct Pool
    {
        std::vector<PoolEntry> entries;
        WeightedSchedule schedule;
    };
    // model: the name the node is asked for (shared, not copied, when it is the pool's own key).
    Route routeFromPool(const Pool &pool, const QByteArray &model, const RouteRequest &request) const;
    // Reorders the weighted candidates by the model's strategy and says why.
    void applyStrategy(Route &route, QByteArrayView model, const RouteRequest &request) const;
    void applyStrategy(Route &route, config::RoutingStrategy strategy, QByteArrayView model,
                       const RouteRequest &request) const;
    void orderByLoad(Route &route, config::RoutingStrategy strategy) const;
    void orderBySession(Route &route, QByteArrayView sessionKey) const;
    void orderByCache(Route &route, QByteArrayView model, QByteArrayView prompt) const;
    double entryWeight(const PoolEntry &e) const;
    double balanceLoad(const PoolEntry &e, double maxWeight) const;
    bool outOfBalance(double busier, double idler) const;

    config::GatewayConfig m_config;
    quint64 m_generation = 0;
    std::vector<Node> m_nodes;
    QHash<QString, int> m_nodeByName;
    QHash<QByteArray, Pool> m_pools; // bare model → pool (wildcard keys included)
    Pool m_wildcardPool;             // keys serving "*": used for models nobody lists
    std::shared_ptr<PrefixIndex> m_prefixIndex;
};

// Parses a base_url into an endpoint; nullopt if it is not http(s)://host[:port][/path].
std::optional<Endpoint> parseEndpoint(const QString &baseUrl);

} // namespace switchyard::routing
