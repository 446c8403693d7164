#include "gateway.h"

#include "history/historystore.h"

#include "common/clock.h"
#include "keys/keyregistry.h"
#include "keys/sharedlimits.h"
#include "net/epolldispatcher.h"
#include "redis/redisconnection.h"
#include "probe/healthprober.h"
#include "server/listener.h"
#include "config/configloader.h"
#include "link/maskedsecrets.h"
#include "proxy/configresponses.h"
#include "proxy/responseidmemory.h"
#include "proxy/statusapi.h"
#include "server/worker.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QHostAddress>
#include <QThread>
#include <QDateTime>
#include <QPromise>

#include <sys/resource.h>
#include <unistd.h>
#include <QTimer>

using namespace Qt::Literals::StringLiterals;

namespace switchyard {

// The history as the workers and the keys reach it: swapped whole when another path is applied.
struct Gateway::HistorySlot
{
    std::atomic<std::shared_ptr<history::HistoryStore>> store;
    QMutex mutex; // guards problem
    QString problem;

    std::shared_ptr<history::HistoryStore> get() const { return store.load(std::memory_order_acquire); }
    QString why()
    {
        const QMutexLocker lock(&mutex);
        return problem;
    }
};

Gateway::Gateway(QObject *parent)
    : QObject(parent), m_stats(std::make_unique<stats::GatewayStats>()),
      m_responseIds(std::make_shared<proxy::ResponseIdMemory>()), m_keys(std::make_shared<keys::KeyRegistry>()),
      m_history(std::make_shared<HistorySlot>())
{
    // A key made or changed is written to the history, when there is one (queued: never waits on disk).
    m_keys->setPersistence([slot = std::weak_ptr<HistorySlot>(m_history)](const keys::VirtualKey &key) {
        if (const auto s = slot.lock()) {
            if (const auto store = s->get())
                store->saveKey(key);
        }
    });
    qRegisterMetaType<stats::RequestRecord>();
    // Health checks run whether or not the gateway listens: the panel shows nodes before it starts.
    m_healthThread = new QThread();
    m_healthThread->setObjectName(u"switchyard-health"_s);
    m_prober = new health::HealthProber();
    m_prober->moveToThread(m_healthThread);
    m_healthThread->start();
    applyConfig(m_config);
    publishRunState();
    // The last hour, second by second (stats/secondshistory.h); cheap enough to run always.
    m_historyTimer = new QTimer(this);
    m_historyTimer->setInterval(1000);
    connect(m_historyTimer, &QTimer::timeout, this, &Gateway::sampleHistory);
    m_historyTimer->start();
}

Gateway::~Gateway()
{
    stopNow();
    m_sharedLimits.reset();
    m_stats->setRecordSink(nullptr);
    m_history->store.store(nullptr); // its destructor writes what is queued
    health::HealthProber *p = m_prober;
    QMetaObject::invokeMethod(p, [p] { delete p; }, Qt::BlockingQueuedConnection);
    m_healthThread->quit();
    m_healthThread->wait();
    delete m_healthThread;
}

void Gateway::setRequestLogger(std::function<void(const stats::RequestRecord &)> logger)
{
    m_logger = std::move(logger);
}

Gateway::ApplyResult Gateway::applyConfig(const config::GatewayConfig &config)
{
    ApplyResult result;
    result.changes = config::diffConfigs(m_config, config);
    const config::GatewaySettings previous = m_config.settings;
    m_config = config;
    syncHistory(previous.history);
    syncRedis(previous.redisUrl);
    publishRunState(); // a history problem shows in /api/status at once
    const bool addressChanged = previous.listenHost != m_config.settings.listenHost
                                || previous.listenPort != m_config.settings.listenPort;
    if (m_running && result.changes.listenChanged && !addressChanged) {
        // Only TLS changed: the port stays bound, and connections accepted from now on follow the new
        // table (clientconnection.cpp reads the TLS setting per connection).
        m_listenUrl = listenUrlFor(m_config.settings, m_listenUrl);
    } else if (m_running && result.changes.listenChanged) {
        QString error, url;
        quint16 port = 0;
        if (server::Listener *next = listenOn(m_config.settings, &error, &port, &url)) {
            server::Listener *old = m_listener;
            QMetaObject::invokeMethod(old, [old] { delete old; }, Qt::BlockingQueuedConnection);
            m_listener = next;
            m_port = port;
            m_listenUrl = url;
            publishRunState();
        } else {
            result.listenError = error;
            m_config.settings.listenHost = previous.listenHost;
            m_config.settings.listenPort = previous.listenPort;
            m_config.settings.tls = previous.tls;
        }
    }
    stats::GatewayStats *stats = m_stats.get();
    m_table = routing::RoutingTable::build(
        m_config, [stats](const QString &name) { return stats->nodeRuntime(name); }, ++m_generation,
        m_prefixIndex);
    health::HealthPolicy policy;
    policy.consecutiveFailures = m_config.settings.ejectionConsecutiveFailures;
    policy.cooldownInitialMs = m_config.settings.ejectionCooldownMs;
    policy.cooldownMaxMs = std::max(m_config.settings.ejectionCooldownMs, m_config.settings.ejectionCooldownMaxMs);
    policy.errorRate = m_config.settings.ejectionErrorRate;
    policy.errorRateMinRequests = m_config.settings.ejectionErrorRateMinRequests;
    policy.errorRateWindowMs = m_config.settings.ejectionErrorRateWindowMs;
    for (const routing::Node &n : m_table->nodes())
        n.runtime->health.setPolicy(policy);
    for (server::Worker *w : m_workers) {
        QMetaObject::invokeMethod(w, [w, table = m_table] { w->setRoutingTable(table); }, Qt::QueuedConnection);
    }
    health::HealthProber *p = m_prober;
    QMetaObject::invokeMethod(p, [p, table = m_table] { p->setTable(table); }, Qt::QueuedConnection);
    sampleHistory(); // a node just added starts its history from now, not from the next tick
    return result;
}

namespace {

// Not a SQLite database, or one SQLite calls malformed: worth moving aside. (A newer schema, a directory
// that cannot be made or a locked file are not: moving them would lose nothing broken.)
bool isDamagedDatabase(const QString &path, const QString &error)
{
    QFile f(path);
    if (!f.exists() || !f.open(QIODevice::ReadOnly))
        return false;
    const QByteArray head = f.read(16);
    if (f.size() > 0 && head != QByteArrayView("SQLite format 3\0", 16))
        return true;
    return error.contains(u"malformed"_s, Qt::CaseInsensitive) || error.contains(u"not a database"_s, Qt::CaseInsensitive);
}

// A day limit holds across a restart: each limited key's tokens of today, summed from the history.
void carryOverTokensToday(const history::HistoryStore &store, keys::KeyRegistry &registry)
{
    constexpr qint64 DayMs = 86'400'000;
    const qint64 now = registry.nowMs();
    for (const keys::KeyListing &k : registry.list()) {
        if (k.key.limits.tokensPerDay == 0 || !k.key.isActive(now))
            continue;
        const auto sums = store.rollups(now - now % DayMs, now + 1, 24 * 60, {}, {}, k.key.id);
        qint64 tokens = 0;
        if (sums) {
            for (const history::RollupPoint &p : *sums)
                tokens += p.promptTokens + p.completionTokens;
        }
        if (tokens > 0)
            registry.carryOverToday(k.key.id, tokens);
    }
}

} // namespace

std::shared_ptr<history::HistoryStore> Gateway::history() const
{
    return m_history->get();
}

QString Gateway::historyProblem() const
{
    return m_history->why();
}

QString Gateway::redisProblem() const
{
    return m_sharedLimits ? m_sharedLimits->state().problem : QString();
}

void Gateway::syncRedis(const QString &before)
{
    const QString &want = m_config.settings.redisUrl;
    if (want == before && (m_sharedLimits != nullptr) == !want.isEmpty())
        return;
    m_sharedLimits.reset(); // the old connection's thread stops (within its timeout)
    const auto address = redis::parseRedisUrl(want);
    if (want.isEmpty() || !address)
        return; // the config reader refused a URL it cannot read
    // The sharing thread's news reaches /api/status through this object's thread. (The thread is stopped
    // before this object goes, and a queued call to a deleted object is dropped.)
    m_sharedLimits = std::make_unique<keys::SharedLimits>(m_keys, *address, keys::SharedLimits::Options{}, [this] {
        QMetaObject::invokeMethod(this, [this] { publishRunState(); }, Qt::QueuedConnection);
    });
}

void Gateway::syncHistory(const config::HistorySettings &before)
{
    const config::HistorySettings &want = m_config.settings.history;
    const std::shared_ptr<history::HistoryStore> open = m_history->get();
    // Unchanged and as wanted. (The same config applied again after the file could not be opened tries
    // again: the operator may have fixed it.)
    if (want == before && (open || !want.enabled()))
        return;
    // Another path, other limits, or off: the old store writes what it has queued and closes.
    m_stats->setRecordSink(nullptr);
    m_history->store.store(nullptr);
    {
        const QMutexLocker lock(&m_history->mutex);
        m_history->problem.clear();
    }
    if (!want.enabled())
        return;
    history::HistoryOptions options;
    options.maxAgeDays = want.maxAgeDays;
    options.maxBytes = want.maxSizeMb * 1024 * 1024;
    auto opened = history::HistoryStore::open(want.path, options);
    QString movedAside;
    if (!opened && isDamagedDatabase(want.path, opened.error())) {
        // A damaged file is kept for whoever wants to look into it, out of the way, and a new history
        // starts: the gateway's requests from now on are not lost because old ones were.
        movedAside = want.path % u".damaged-"_s % QDateTime::currentDateTimeUtc().toString(u"yyyyMMdd-HHmmss"_s);
        if (QFile::rename(want.path, movedAside)) {
            QFile::remove(want.path % u"-wal"_s);
            QFile::remove(want.path % u"-shm"_s);
            qWarning().noquote() << "switchyard: the history file" << want.path << "was damaged (" << opened.error()
                                 << "); kept as" << movedAside << "and started anew";
            opened = history::HistoryStore::open(want.path, options);
        } else {
            movedAside.clear();
        }
    }
    if (opened && !movedAside.isEmpty()) {
        const QMutexLocker lock(&m_history->mutex);
        m_history->problem = u"The history file was damaged; it was kept as "_s % movedAside %
                             u" and a new history started"_s;
    }
    if (!opened) {
        // A broken history never takes the gateway down: it serves on, in memory, and says why.
        qWarning().noquote() << "switchyard: no lasting history:" << opened.error();
        const QMutexLocker lock(&m_history->mutex);
        m_history->problem = opened.error();
        return;
    }
    std::shared_ptr<history::HistoryStore> store = std::move(*opened);
    // The keys of an earlier run come back; keys made meanwhile (another path applied) are written over.
    if (m_keys->list().empty()) {
        if (auto stored = store->loadKeys()) {
            m_keys->load(*stored);
            carryOverTokensToday(*store, *m_keys);
        } else
            qWarning().noquote() << "switchyard: virtual keys not loaded:" << stored.error();
    } else {
        for (const keys::KeyListing &k : m_keys->list())
            store->saveKey(k.key);
    }
    m_history->store.store(store);
    m_stats->setRecordSink(std::move(store));
}

bool Gateway::setNodeDraining(const QString &node, bool draining)
{
    const int i = m_table->nodeIndex(node);
    if (i < 0)
        return false;
    m_table->nodes()[size_t(i)].runtime->health.setDraining(draining);
    return true;
}

void Gateway::setPaused(bool paused)
{
    if (m_paused == paused)
        return;
    m_paused = paused;
    publishRunState(); // before anyone hears of it: a request after the answer sees it paused
    emit pausedChanged(paused);
}

link::RunState Gateway::runState() const
{
    link::RunState r;
    r.running = m_running;
    r.stopping = m_stopping;
    r.paused = m_paused;
    r.listenUrl = m_listenUrl;
    r.historyProblem = m_history->why();
    r.redisProblem = redisProblem();
    return r;
}

void Gateway::publishRunState()
{
    m_runState->set(runState());
}

void Gateway::probeNow(const QString &node)
{
    health::HealthProber *p = m_prober;
    QMetaObject::invokeMethod(p, [p, node] { p->probeNow(node); }, Qt::QueuedConnection);
}

Expected<QString, QString> Gateway::start()
{
    if (m_running)
        return m_listenUrl;
    if (m_stopping)
        stopNow();
    const config::GatewaySettings &s = m_config.settings;
    const int workers = s.workerThreads > 0 ? s.workerThreads : std::max(1, QThread::idealThreadCount());
    for (int i = 0; i < workers; ++i) {
        auto *thread = new QThread();
        thread->setObjectName(u"switchyard-worker-"_s % QString::number(i));
        if (net::EpollDispatcher::wanted()) {
            // The worker's event loop on epoll (net/epolldispatcher.h); the thread owns and deletes it.
            auto *dispatcher = new net::EpollDispatcher();
            if (dispatcher->isValid())
                thread->setEventDispatcher(dispatcher);
            else
                delete dispatcher;
        }
        auto *worker = new server::Worker(m_stats.get(), m_logger, m_table);
        worker->setGatewayControl(
            {m_runState, [this](proxy::GatewayCommand command) { return runFromApi(std::move(command)); },
             m_responseIds, m_keys, [slot = m_history] { return slot->get(); },
             [slot = m_history] { return slot->why(); }});
        worker->moveToThread(thread);
        thread->start();
        if (m_workerNice != 0) {
            const int nice = m_workerNice;
            // On Linux a thread id addresses that one thread: run it on the worker's own thread.
            QMetaObject::invokeMethod(worker, [nice] { setpriority(PRIO_PROCESS, id_t(gettid()), nice); },
                                      Qt::QueuedConnection);
        }
        m_workerThreads.push_back(thread);
        m_workers.push_back(worker);
    }
    m_acceptThread = new QThread();
    m_acceptThread->setObjectName(u"switchyard-accept"_s);
    m_acceptThread->start();

    QString error, url;
    quint16 port = 0;
    m_listener = listenOn(s, &error, &port, &url);
    if (!m_listener) {
        m_running = true; // let stopNow() tear the threads down
        stopNow();
        return unexpected(error);
    }
    m_port = port;
    m_listenUrl = url;
    m_running = true;
    publishRunState();
    emit runningChanged(true);
    return m_listenUrl;
}

server::Listener *Gateway::listenOn(const config::GatewaySettings &s, QString *error, quint16 *port, QString *url)
{
    // Checked here too, not only in the loader: --listen and the panel's overrides come this way.
    if (const QString why = config::exposureProblem(s); !why.isEmpty()) {
        *error = u"Refusing to listen: "_s % why;
        return nullptr;
    }
    QHostAddress address;
    if (s.listenHost == u"localhost")
        address = QHostAddress(QHostAddress::LocalHost);
    else if (!address.setAddress(s.listenHost)) {
        *error = u"Cannot listen on '"_s % s.listenHost % u"': not an IP address"_s;
        return nullptr;
    }
    // The listener is created here, moved to the accept thread, and listens there: its socket notifier
    // must belong to the thread that runs it. The caller waits the microseconds a bind takes.
    bool listening = false;
    QString why;
    auto *listener = new server::Listener(m_workers, m_stats.get(), s.maxConnections);
    listener->moveToThread(m_acceptThread);
    QMetaObject::invokeMethod(
        listener,
        [&] {
            listening = listener->listen(address, s.listenPort);
            if (listening)
                *port = listener->serverPort();
            else
                why = listener->errorString();
        },
        Qt::BlockingQueuedConnection);
    if (!listening) {
        QMetaObject::invokeMethod(listener, [listener] { delete listener; }, Qt::BlockingQueuedConnection);
        *error = u"Cannot listen on "_s % s.listenHost % u':' % QString::number(s.listenPort) % u": "_s % why;
        return nullptr;
    }
    const QString host = address.protocol() == QAbstractSocket::IPv6Protocol ? u'[' % address.toString() % u']'
                                                                              : address.toString();
    *url = (s.tls.enabled() ? u"https://"_s : u"http://"_s) % host % u':' % QString::number(*port);
    return listener;
}

QString Gateway::listenUrlFor(const config::GatewaySettings &s, const QString &url)
{
    QString out = url;
    if (s.tls.enabled() && out.startsWith(u"http://"_s))
        out.replace(0, 4, u"https"_s);
    else if (!s.tls.enabled() && out.startsWith(u"https://"_s))
        out.replace(0, 5, u"http"_s);
    return out;
}

int Gateway::openConnections() const
{
    int n = 0;
    for (const server::Worker *w : m_workers)
        n += w->connectionCount();
    return n;
}

void Gateway::stop()
{
    if (!m_running || m_stopping)
        return;
    m_stopping = true;
    publishRunState();
    // Stop accepting first, so no connection arrives after the workers started draining.
    if (m_listener) {
        server::Listener *l = m_listener;
        QMetaObject::invokeMethod(l, [l] { delete l; }, Qt::BlockingQueuedConnection);
        m_listener = nullptr;
    }
    for (server::Worker *w : m_workers)
        QMetaObject::invokeMethod(w, [w] { w->drain(); }, Qt::QueuedConnection);
    m_drainDeadlineMs = QDeadlineTimer::current().deadline() + std::max(0, m_config.settings.drainTimeoutMs);
    if (!m_drainTimer) {
        m_drainTimer = new QTimer(this);
        m_drainTimer->setInterval(20);
        connect(m_drainTimer, &QTimer::timeout, this, [this] {
            if (openConnections() == 0 || QDeadlineTimer::current().deadline() >= m_drainDeadlineMs) {
                m_drainTimer->stop();
                finishStop();
            }
        });
    }
    m_drainTimer->start();
}

void Gateway::stopNow()
{
    if (!m_running && !m_stopping)
        return;
    if (m_drainTimer)
        m_drainTimer->stop();
    if (m_listener) {
        server::Listener *l = m_listener;
        QMetaObject::invokeMethod(l, [l] { delete l; }, Qt::BlockingQueuedConnection);
        m_listener = nullptr;
    }
    finishStop();
}

void Gateway::finishStop()
{
    const bool wasRunning = m_running;
    // Each worker is deleted on its own thread: its sockets and timers belong there.
    for (size_t i = 0; i < m_workers.size(); ++i) {
        server::Worker *w = m_workers[i];
        QMetaObject::invokeMethod(w, [w] { delete w; }, Qt::BlockingQueuedConnection);
        m_workerThreads[i]->quit();
        m_workerThreads[i]->wait();
        delete m_workerThreads[i];
    }
    m_workers.clear();
    m_workerThreads.clear();
    if (m_acceptThread) {
        m_acceptThread->quit();
        m_acceptThread->wait();
        delete m_acceptThread;
        m_acceptThread = nullptr;
    }
    m_stats->openConnections.store(0);
    m_running = false;
    m_stopping = false;
    m_listenUrl.clear();
    m_port = 0;
    publishRunState();
    if (wasRunning) {
        emit runningChanged(false);
        emit stopped();
    }
}

GatewaySnapshot Gateway::snapshot() const
{
    GatewaySnapshot s;
    s.running = m_running;
    s.listenUrl = m_listenUrl;
    s.requestsTotal = m_stats->requestsTotal.load();
    s.errorsTotal = m_stats->errorsTotal.load();
    s.inFlight = m_stats->inFlight.load();
    s.openConnections = m_stats->openConnections.load();
    s.ttft = m_stats->ttft.snapshot();
    s.latency = m_stats->latency.snapshot();
    const qint64 now = Clock::nowMs(); // the time health verdicts are kept in
    for (const routing::Node &n : m_table->nodes()) {
        NodeSnapshot ns;
        ns.name = n.name;
        ns.baseUrl = n.provider.network.baseUrl;
        for (const config::KeyConfig &k : n.provider.keys) {
            if (!k.enabled)
                continue;
            ns.weight += k.weight;
            for (const QString &m : k.models) {
                if (!ns.models.contains(m))
                    ns.models.append(m);
            }
        }
        ns.counters = stats::snapshotOf(n.name, n.runtime->counters); // the table's node holds its runtime
        const health::NodeHealth &h = n.runtime->health;
        ns.state = h.state(now);
        ns.stateReason = h.reason(now);
        ns.draining = h.isDraining();
        ns.probe = h.details();
        ns.ttftEwmaMs = h.ttftEwmaMs.load();
        ns.ttft = n.runtime->ttft.snapshot();
        ns.latency = n.runtime->latency.snapshot();
        s.nodes.append(ns);
    }
    return s;
}

Gateway::ConfigUpdate Gateway::updateConfig(const config::GatewayConfig &parsed, const QByteArray &text)
{
    if (m_configUpdateHandler)
        return m_configUpdateHandler(parsed, text);
    ConfigUpdate update;
    update.result = applyConfig(parsed);
    return update;
}

Gateway::ConfigPutOutcome Gateway::putConfig(const QByteArray &text, const QString &ifMatch,
                                             std::optional<config::GatewayConfig> parsed)
{
    ConfigPutOutcome out;
    out.configHash = link::configHash(m_config);
    if (!parsed) {
        auto read = config::parseConfig(text);
        if (!read) {
            out.kind = ConfigPutOutcome::Kind::Invalid;
            out.problems = read.error();
            return out;
        }
        parsed = std::move(*read);
    }
    // Checked here, in the step that applies: of two PUTs made against one hash, the second finds the
    // first one's config running and is refused.
    if (!link::ifMatchAccepts(ifMatch, out.configHash)) {
        out.kind = ConfigPutOutcome::Kind::Stale;
        return out;
    }
    const auto restored = link::restoreMaskedSecrets(text, m_config);
    if (!restored) {
        out.kind = ConfigPutOutcome::Kind::Invalid;
        out.problems = restored.error();
        return out;
    }
    if (*restored != text) { // the secrets are part of the config: read it again with them
        auto reread = config::parseConfig(*restored);
        if (!reread) {
            out.kind = ConfigPutOutcome::Kind::Invalid;
            out.problems = reread.error();
            return out;
        }
        parsed = std::move(*reread);
    }
    out.update = updateConfig(*parsed, *restored);
    out.kind = out.update.error.isEmpty() ? ConfigPutOutcome::Kind::Applied : ConfigPutOutcome::Kind::Failed;
    out.configHash = link::configHash(m_config);
    return out;
}

proxy::LocalResponse Gateway::execute(proxy::GatewayCommand &command)
{
    if (auto *put = std::get_if<proxy::ConfigPutCommand>(&command)) {
        const ConfigPutOutcome out = putConfig(put->text, put->ifMatch, std::move(put->parsed));
        switch (out.kind) {
        case ConfigPutOutcome::Kind::Stale:
            return proxy::configStaleResponse(out.configHash);
        case ConfigPutOutcome::Kind::Invalid:
            return proxy::configProblemsResponse(out.problems);
        case ConfigPutOutcome::Kind::Failed:
            return proxy::errorResponse(500, out.update.error, "config_not_applied");
        case ConfigPutOutcome::Kind::Applied:
            break;
        }
        const ApplyResult &r = out.update.result;
        emit configUpdatedOverApi(r.changes.isEmpty() ? tr("no changes") : r.changes.summary(), out.update.savedTo);
        return proxy::configAppliedResponse(r.changes, m_generation, r.listenError, out.update.savedTo,
                                            out.configHash);
    }
    if (auto *probe = std::get_if<proxy::ProbeCommand>(&command)) {
        // The worker knew the node; a config applied since may have removed it.
        if (m_table->nodeIndex(probe->node) < 0)
            return proxy::errorResponse(404, u"No node named '"_s % probe->node % u"'"_s, "node_not_found");
        probeNow(probe->node);
        return proxy::probeStartedResponse(probe->node);
    }
    const auto &pause = std::get<proxy::PauseCommand>(command);
    setPaused(pause.paused);
    return proxy::pauseResponse(m_paused, m_running && !m_stopping && !m_paused);
}

QFuture<proxy::LocalResponse> Gateway::runFromApi(proxy::GatewayCommand command)
{
    // The promise travels with the queued call: if this object is gone before it runs, the call is
    // dropped with it, the promise ends without a result, and the worker answers 503.
    auto promise = std::make_shared<QPromise<proxy::LocalResponse>>();
    promise->start();
    QFuture<proxy::LocalResponse> future = promise->future();
    QMetaObject::invokeMethod(
        this,
        [this, promise, command = std::move(command)]() mutable {
            promise->addResult(execute(command));
            promise->finish();
        },
        Qt::QueuedConnection);
    return future;
}

void Gateway::sampleHistory()
{
    QHash<QString, stats::CumulativeSample> series;
    stats::CumulativeSample all;
    all.requests = m_stats->requestsTotal.load();
    all.errors = m_stats->errorsTotal.load();
    all.inFlight = m_stats->inFlight.load();
    all.ttft = m_stats->ttft.snapshot();
    all.latency = m_stats->latency.snapshot();
    for (const routing::Node &n : m_table->nodes()) {
        const stats::NodeCounters &c = n.runtime->counters;
        stats::CumulativeSample s;
        s.requests = c.requests.load();
        s.errors = c.failures.load();
        s.failedAttempts = s.errors;
        all.failedAttempts += s.failedAttempts; // the gateway's errors are failed requests, these every failed attempt
        s.promptTokens = c.promptTokens.load();
        s.completionTokens = c.completionTokens.load();
        s.inFlight = c.inFlight.load();
        const int hitPermille = n.runtime->health.prefixHitPermille.load(std::memory_order_relaxed);
        s.prefixHitRate = hitPermille < 0 ? -1.0 : hitPermille / 1000.0;
        s.ttft = n.runtime->ttft.snapshot();
        s.latency = n.runtime->latency.snapshot();
        all.promptTokens += s.promptTokens;
        all.completionTokens += s.completionTokens;
        series.insert(n.name, s);
    }
    series.insert(stats::SecondsHistory::GatewaySeries, all);
    m_stats->history.record(QDateTime::currentSecsSinceEpoch(), series);
}

QList<stats::SecondSample> Gateway::history(const QString &series, int seconds) const
{
    return m_stats->history.last(series, seconds);
}

QList<stats::RequestRecord> Gateway::recentRequests(int max) const
{
    return m_stats->recentRequests(max);
}

} // namespace switchyard
