#pragma once

// The gateway as the app and the panel see it: start, stop, apply a config, and read snapshots.
// Requests are served on worker threads, each with its own event loop; this object lives on the
// thread that created it (the GUI thread in the panel) and never touches a client socket.

#include "common/expected.h"
#include "config/config.h"
#include "config/configdiff.h"
#include "config/configproblem.h"
#include "health/nodehealth.h"
#include "link/gatewaystatus.h"
#include "proxy/gatewaycontrol.h"
#include "proxy/localresponse.h"
#include "routing/routingtable.h"
#include "stats/gatewaystats.h"

#include <QFuture>
#include <QObject>
#include <QString>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QThread;
class QTimer;

namespace switchyard {

namespace server {
class Listener;
class Worker;
} // namespace server
namespace health {
class HealthProber;
}
namespace keys {
class KeyRegistry;
}
namespace history {
class HistoryStore;
}
namespace keys {
class SharedLimits;
}

struct NodeSnapshot
{
    QString name;
    QString baseUrl;
    QStringList models;
    double weight = 0; // sum of the enabled keys' weights
    stats::NodeCountersSnapshot counters;
    health::NodeState state = health::NodeState::Unknown;
    QString stateReason;          // what a person can act on; empty when healthy
    bool draining = false;
    health::ProbeDetails probe;   // what the last active check read (/metrics, /v1/models, /version)
    int ttftEwmaMs = -1;
    stats::HistogramSnapshot ttft;    // cumulative; diff two snapshots for a window
    stats::HistogramSnapshot latency;
};

struct GatewaySnapshot
{
    bool running = false;
    QString listenUrl;
    qint64 requestsTotal = 0;
    qint64 errorsTotal = 0;
    qint64 inFlight = 0;
    int openConnections = 0;
    stats::HistogramSnapshot ttft;
    stats::HistogramSnapshot latency;
    QList<NodeSnapshot> nodes;
};

class Gateway final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Gateway)

public:
    explicit Gateway(QObject *parent = nullptr);
    ~Gateway() override; // stops at once if still running

    struct ApplyResult
    {
        config::ConfigChanges changes;
        QString listenError; // a changed listen address could not be bound: the old one stays
    };
    // Live: requests in flight finish on the table they started with; new ones use the new config.
    // While running, a changed listen address rebinds; if that fails the gateway keeps its old address.
    ApplyResult applyConfig(const config::GatewayConfig &config);
    const config::GatewayConfig &config() const { return m_config; }

    // PUT /api/config: applies a config that arrived over the API (already validated) on this
    // object's thread. The default applies it as is; a config::ConfigController (headless mode and the
    // panel) installs one that saves the file first, so the file stays the truth. `error` set = nothing
    // was applied (e.g. the file could not be saved). An empty handler restores the default.
    struct ConfigUpdate
    {
        ApplyResult result;
        QString savedTo;
        QString error;
    };
    using ConfigUpdateHandler = std::function<ConfigUpdate(const config::GatewayConfig &parsed, const QByteArray &text)>;
    void setConfigUpdateHandler(ConfigUpdateHandler handler) { m_configUpdateHandler = std::move(handler); }
    // What PUT /api/config does with a validated config, on this object's thread: the installed handler
    // (save, then apply), else applyConfig. The panel's local link takes the same way.
    ConfigUpdate updateConfig(const config::GatewayConfig &parsed, const QByteArray &text);

    // A config document arriving from an operator (PUT /api/config, the panel's local link), on this
    // object's thread; the one implementation both take. In order: the text is validated (unless the
    // caller already did: `parsed`), the If-Match precondition is checked against the running config
    // (link::ifMatchAccepts; empty = none), every "********" gets the running secret at its place back
    // (link/maskedsecrets.h), and the result goes through updateConfig.
    struct ConfigPutOutcome
    {
        enum class Kind { Applied, Stale, Invalid, Failed };
        Kind kind = Kind::Failed;
        ConfigUpdate update;             // Applied; Failed: update.error says why
        config::ConfigProblems problems; // Invalid
        QString configHash;              // the running config's hash afterwards (Stale: the one it has)
    };
    ConfigPutOutcome putConfig(const QByteArray &text, const QString &ifMatch,
                               std::optional<config::GatewayConfig> parsed = std::nullopt);

    // Called on worker threads for every finished request; set before start().
    void setRequestLogger(std::function<void(const stats::RequestRecord &)> logger);
    // Linux nice value for the worker threads (0: as the creating thread). The panel sets a positive one
    // so that its GUI thread wins the CPU when the workers saturate the cores: with two cores, GUI lag
    // p99 at full load fell from ~50–110 ms to ~30 ms for a few percent of throughput
    // (docs/PERFORMANCE.md). Applies to workers started after the call.
    void setWorkerNice(int nice) { m_workerNice = nice; }

    // Listens on the config's listen address. Returns the URL ("http://127.0.0.1:8080") or why not.
    Expected<QString, QString> start();
    // Graceful: stop accepting, let in-flight requests finish (bounded by drain_timeout_ms), then
    // close everything; emits stopped() when done. Returns at once.
    void stop();
    // Immediate: in-flight requests are cut. Blocks until the threads have ended (briefly).
    void stopNow();

    bool isRunning() const { return m_running; }
    bool isStopping() const { return m_stopping; }
    // Paused: new proxied requests are answered 503 + Retry-After and /health says "paused", while
    // requests in flight finish and the management API, /v1/models and /metrics keep answering. Kept
    // across stop and start: it is the operator's word, not the listener's state.
    void setPaused(bool paused);
    bool isPaused() const { return m_paused; }
    // What /api/status says of the gateway itself; the workers read the same through the shared state.
    link::RunState runState() const;
    QString listenUrl() const { return m_listenUrl; }
    quint16 port() const { return m_port; }

    GatewaySnapshot snapshot() const;
    // The live state GatewayStatus is built from (link/gatewaystatus.h), as /api/status reads it.
    std::shared_ptr<const routing::RoutingTable> routingTable() const { return m_table; }
    const stats::GatewayStats &stats() const { return *m_stats; }
    // The virtual keys (docs/KEYS.md): made and revoked through /api/keys; kept across restarts of the
    // listener and config changes.
    keys::KeyRegistry &keys() { return *m_keys; }
    // The lasting history (switchyard.history), or null: off, or its file could not be opened (then
    // historyProblem() says why and the gateway serves on without it).
    std::shared_ptr<history::HistoryStore> history() const;
    QString historyProblem() const;
    // With switchyard.redis_url: why the keys' limits are not shared with the other replicas right now
    // (Redis unreachable, refused), or empty (shared, or no Redis set).
    QString redisProblem() const;

    // A drained node takes no new requests; its in-flight ones finish. False to take traffic again.
    // Returns false for an unknown node.
    bool setNodeDraining(const QString &node, bool draining);
    // Runs the node's active checks now instead of at the next interval.
    void probeNow(const QString &node);
    QList<stats::RequestRecord> recentRequests(int max = stats::GatewayStats::RecentRequestsCapacity) const;
    // Per-second samples of the last hour, oldest first; series: a node's name or
    // stats::SecondsHistory::GatewaySeries.
    QList<stats::SecondSample> history(const QString &series, int seconds) const;

signals:
    void runningChanged(bool running);
    void stopped();
    // A config arrived over PUT /api/config and was applied (summary: what changed, in words).
    void configUpdatedOverApi(const QString &summary, const QString &savedTo);
    void pausedChanged(bool paused);

private:
    void finishStop();
    // Creates a listener on the accept thread; nullptr and error set on failure.
    server::Listener *listenOn(const config::GatewaySettings &settings, QString *error, quint16 *port,
                               QString *url);
    // The listen URL with the scheme the settings' TLS asks for.
    static QString listenUrlFor(const config::GatewaySettings &settings, const QString &url);
    int openConnections() const;
    void sampleHistory();
    // Any thread: hands a management command to this object's thread (PUT /api/config, probe, pause).
    QFuture<proxy::LocalResponse> runFromApi(proxy::GatewayCommand command);
    // This object's thread: what the command does and the answer to send.
    proxy::LocalResponse execute(proxy::GatewayCommand &command);
    // After every change of running, stopping, paused or the address: the workers' copy.
    void publishRunState();

    config::GatewayConfig m_config;
    std::shared_ptr<const routing::RoutingTable> m_table;
    // cache_aware's memory of which node saw which prompt: one per gateway, shared by its workers and
    // kept across configs so a re-apply does not forget what the nodes that stay have cached.
    std::shared_ptr<routing::PrefixIndex> m_prefixIndex = std::make_shared<routing::PrefixIndex>();
    std::unique_ptr<stats::GatewayStats> m_stats;
    std::function<void(const stats::RequestRecord &)> m_logger;
    ConfigUpdateHandler m_configUpdateHandler;
    int m_workerNice = 0;

    std::vector<QThread *> m_workerThreads;
    std::vector<server::Worker *> m_workers;
    QThread *m_acceptThread = nullptr;
    server::Listener *m_listener = nullptr;
    QTimer *m_drainTimer = nullptr;
    QTimer *m_historyTimer = nullptr;
    QThread *m_healthThread = nullptr;
    health::HealthProber *m_prober = nullptr;
    qint64 m_drainDeadlineMs = 0;
    quint64 m_generation = 0;
    bool m_running = false;
    bool m_stopping = false;
    bool m_paused = false;
    std::shared_ptr<proxy::SharedRunState> m_runState = std::make_shared<proxy::SharedRunState>();
    // Outlives restarts of the listener: a response created before a restart is still found after it.
    std::shared_ptr<proxy::ResponseIdMemory> m_responseIds;
    std::shared_ptr<keys::KeyRegistry> m_keys;
    // Opens, reopens or closes the history when switchyard.history changed (the Gateway's thread).
    void syncHistory(const config::HistorySettings &before);
    struct HistorySlot;
    std::shared_ptr<HistorySlot> m_history; // shared with the workers and the keys' persistence
    // Starts, restarts or stops sharing the keys through Redis when switchyard.redis_url changed.
    void syncRedis(const QString &before);
    std::unique_ptr<keys::SharedLimits> m_sharedLimits; // null unless switchyard.redis_url is set
    QString m_listenUrl;
    quint16 m_port = 0;
};

} // namespace switchyard
