#pragma once

// What a gateway says about itself in one look: the document GET /api/status serves and the value a
// GatewayLink hands the panel. One builder makes it from the gateway's live state and one parser reads
// it back, so a remote panel sees exactly what the local one sees (toJson → gatewayStatusFromJson is
// exact). Rates come from the per-second history (the last RateWindowSeconds); windowed percentiles
// diff the live histograms against the cumulative sample of PercentileWindowSeconds ago.

#include "common/expected.h"
#include "config/config.h"
#include "health/nodehealth.h"

#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <nlohmann/json.hpp>
#include <optional>

namespace switchyard::routing {
class RoutingTable;
}
namespace switchyard::stats {
class GatewayStats;
}

namespace switchyard::link {

inline constexpr int RateWindowSeconds = 5;
inline constexpr int ErrorRateWindowSeconds = 30;
inline constexpr int PercentileWindowSeconds = 60;

// Since the gateway started counting (all time): what /api/status always served.
struct Percentiles
{
    std::optional<double> p50, p95, p99; // ms; none while nothing was measured
    qint64 count = 0;
    bool operator==(const Percentiles &) const = default;
};

// Per second over the last RateWindowSeconds of the history.
struct Rates
{
    double requestsPerSecond = 0;
    double errorsPerSecond = 0;
    double tokensPerSecond = 0; // completion tokens generated
    bool operator==(const Rates &) const = default;
};

// Over the last PercentileWindowSeconds; none when nothing finished in it.
struct WindowLatency
{
    std::optional<double> latencyP50Ms, latencyP95Ms, ttftP95Ms;
    bool operator==(const WindowLatency &) const = default;
};

struct NodeStatus
{
    QString name;
    QString baseUrl;
    QStringList models;       // what the config's enabled keys serve
    QStringList servedModels; // what the node's /v1/models said
    QString version;          // the node's /version
    double weight = 0;
    health::NodeState state = health::NodeState::Unknown;
    QString reason;
    bool draining = false;
    qint64 lastCheckMsSinceEpoch = 0;
    // vLLM gauges from the node's /metrics; none when the node does not export them.
    std::optional<double> running, waiting, kvCacheUsage, generationTokensTotal;
    // The node's prefix-cache hit rate (0–1) over the last health::PrefixHitWindowMs, from vLLM's
    // prefix_cache counters; none when the node has no such counters.
    std::optional<double> prefixCacheHitRate;
    // Beside it: what the gateway's cache_aware index predicted for the prompts it sent the node over the
    // same window (0–1); none without cache_aware traffic or without the node's counters.
    std::optional<double> predictedPrefixHitRate;
    qint64 inFlight = 0, attempts = 0, successes = 0, failures = 0, promptTokens = 0, completionTokens = 0;
    Rates rates;
    std::optional<double> errorRate; // failed share of attempts over ErrorRateWindowSeconds; none if no attempts
    WindowLatency window;
    Percentiles ttftAllTime, latencyAllTime;
    bool operator==(const NodeStatus &) const = default;
};

struct GatewayStatus
{
    QString version;
    qint64 uptimeMs = 0; // since the gateway's process started
    bool running = false;
    bool accepting = false; // new proxied requests are taken: running, not stopping, not paused
    bool stopping = false;
    bool paused = false;    // POST /api/gateway/pause: new proxied requests get 503 + Retry-After
    QString listenUrl;
    QString configHash;     // SHA-256 hex of the running config (configHash())
    quint64 configGeneration = 0;
    qint64 requestsTotal = 0, errorsTotal = 0, inFlight = 0, openConnections = 0;
    Rates rates;
    WindowLatency window;
    Percentiles ttftAllTime, latencyAllTime;
    QList<NodeStatus> nodes;
    // switchyard.history set but not as it should be (docs/HISTORY.md): what the operator should know.
    QString historyProblem;
    // Request records the history dropped since the gateway started because the disk fell behind.
    qint64 historyDropped = 0;
    // switchyard.redis_url set but Redis not reached: each replica counts the keys' limits alone.
    QString redisProblem;
    // The Redis its keys and limits are shared through ("redis://host:port/db", never a password), empty
    // when it keeps its own: the fleet window manages keys for replicas that name the same one.
    QString keysSharedVia;
    bool operator==(const GatewayStatus &) const = default;
};

// What only the Gateway object knows. It keeps the workers' copy current (proxy/gatewaycontrol.h), so
// /api/status, answered on a worker, says exactly what the Gateway says.
struct RunState
{
    bool running = true;
    bool stopping = false;
    bool paused = false;
    QString listenUrl; // empty: derived from the config's listen address
    QString historyProblem; // the lasting history could not be opened or was started anew: why
    QString redisProblem;   // switchyard.redis_url set, but the keys' limits are not shared now: why
    bool operator==(const RunState &) const = default;
};

// The running config as the canonical JSON document the config loader reads (keys sorted, secrets as
// written: "env.NAME" references kept, literal values masked when maskSecrets).
nlohmann::json configToJson(const config::GatewayConfig &config, bool maskSecrets);
// SHA-256 hex of the unmasked canonical document: changes whenever anything in the config does.
QString configHash(const config::GatewayConfig &config);
// GET /api/config and the local link's fetchConfig: the masked document as the config editor shows it.
QByteArray maskedConfigText(const config::GatewayConfig &config);
// Whether an If-Match precondition (the header's value, or a bare hash from the panel) holds for the
// config with this hash: empty or "*" always; else any of its comma-separated entities, quotes and a
// weak "W/" prefix optional, hex compared without regard to case.
bool ifMatchAccepts(QStringView ifMatch, const QString &hash);

GatewayStatus gatewayStatusOf(const routing::RoutingTable &table, const stats::GatewayStats &stats,
                              const RunState &run);

nlohmann::json toJson(const GatewayStatus &status);
// Unknown fields are ignored (newer gateways add some); a missing or mistyped required one is an error
// naming its place, like "nodes[1].state: missing".
Expected<GatewayStatus, QString> gatewayStatusFromJson(const nlohmann::json &json);

} // namespace switchyard::link

Q_DECLARE_METATYPE(switchyard::link::GatewayStatus)
