#include "link/gatewaystatus.h"

#include "common/clock.h"
#include "link/maskedsecrets.h"
#include "redis/redisconnection.h"
#include "routing/routingtable.h"
#include "stats/gatewaystats.h"
#include "stats/noderuntime.h"

#include <QCryptographicHash>
#include <QDateTime>

using namespace Qt::Literals::StringLiterals;
using nlohmann::json;

namespace switchyard::link {

namespace {

// Uptime counts from when this code was loaded: in a headless gateway that is the process start.
const qint64 ProcessStartMs = QDateTime::currentMSecsSinceEpoch();

const health::NodeState AllStates[] = {health::NodeState::Unknown,  health::NodeState::Healthy,
                                       health::NodeState::Degraded, health::NodeState::Down,
                                       health::NodeState::Recovering, health::NodeState::Draining};

std::string str(const QString &s)
{
    return s.toStdString();
}

json strings(const QStringList &list)
{
    json a = json::array();
    for (const QString &s : list)
        a.push_back(str(s));
    return a;
}

json opt(const std::optional<double> &v)
{
    return v ? json(*v) : json(nullptr);
}

std::optional<double> nonNegative(double v)
{
    return v < 0 ? std::nullopt : std::optional<double>(v);
}

Percentiles percentilesOf(const stats::HistogramSnapshot &h)
{
    Percentiles p;
    p.count = h.count;
    if (h.count) {
        p.p50 = h.percentile(0.5);
        p.p95 = h.percentile(0.95);
        p.p99 = h.percentile(0.99);
    }
    return p;
}

json providerToJson(const config::ProviderConfig &p, bool maskSecrets)
{
    json keys = json::array();
    for (const config::KeyConfig &k : p.keys) {
        // A reference is no secret and survives a round trip; a literal value is one.
        const QString value = !k.valueRef.isEmpty() ? k.valueRef
                              : maskSecrets && !k.value.isEmpty() ? QString(MaskedSecret)
                                                                  : k.value;
        keys.push_back({{"name", str(k.name)}, {"value", str(value)}, {"models", strings(k.models)},
                        {"weight", k.weight}, {"enabled", k.enabled}});
    }
    json headers = json::object();
    for (const auto &[name, value] : p.network.extraHeaders)
        headers[name.toStdString()] = maskSecrets ? std::string(MaskedSecret.data()) : value.toStdString();
    const config::AllowedRequests &a = p.allowed;
    return {{"keys", keys},
            {"network_config",
             {{"base_url", str(p.network.baseUrl)},
              {"default_request_timeout_in_seconds", p.network.requestTimeoutSeconds},
              {"max_retries", p.network.maxRetries},
              {"retry_backoff_initial", p.network.retryBackoffInitialMs},
              {"retry_backoff_max", p.network.retryBackoffMaxMs},
              {"stream_idle_timeout_in_seconds", p.network.streamIdleTimeoutSeconds},
              {"extra_headers", headers}}},
            {"custom_provider_config",
             {{"base_provider_type", str(p.baseProviderType)},
              {"allowed_requests",
               {{"chat_completion", a.chatCompletion}, {"chat_completion_stream", a.chatCompletionStream},
                {"text_completion", a.textCompletion}, {"text_completion_stream", a.textCompletionStream},
                {"embedding", a.embedding}, {"list_models", a.listModels},
                {"responses", a.responses}, {"responses_stream", a.responsesStream}, // Responses and Messages APIs
                {"count_tokens", a.countTokens},
                // vLLM's own endpoints and audio uploads
                {"transcription", a.transcription}, {"transcription_stream", a.transcriptionStream},
                {"translation", a.translation}, {"translation_stream", a.translationStream},
                {"rerank", a.rerank}, {"tokenize", a.tokenize}, {"score", a.score}, {"pooling", a.pooling},
                {"classify", a.classify}}}}},
            {"concurrency_and_buffer_size", {{"concurrency", p.concurrency}, {"buffer_size", p.bufferSize}}}};
}

// switchyard.routing as the loader reads it back: the strategies, and session_affinity's and
// cache_aware's settings where they differ from the defaults (so configs that do not use them keep
// their hash). Switchyard's own keys: the Bifrost export leaves the whole `switchyard` object out.
json routingToJson(const config::GatewaySettings &s, json models)
{
    json out = {{"default_strategy", config::strategyName(s.defaultStrategy)}, {"models", std::move(models)}};
    const config::AffinitySettings &a = s.affinity;
    const config::AffinitySettings d;
    if (a.sessionHeader != d.sessionHeader)
        out["session_header"] = a.sessionHeader.toStdString();
    if (a.fallbackStrategy != d.fallbackStrategy)
        out["fallback_strategy"] = config::strategyName(a.fallbackStrategy);
    if (a.cacheThreshold != d.cacheThreshold)
        out["cache_threshold"] = a.cacheThreshold;
    if (a.balanceAbsThreshold != d.balanceAbsThreshold)
        out["balance_abs_threshold"] = a.balanceAbsThreshold;
    if (a.balanceRelThreshold != d.balanceRelThreshold)
        out["balance_rel_threshold"] = a.balanceRelThreshold;
    if (a.cacheIndexMaxEntries != d.cacheIndexMaxEntries)
        out["cache_index_max_entries"] = a.cacheIndexMaxEntries;
    if (a.cacheIndexMaxAgeMs != d.cacheIndexMaxAgeMs)
        out["cache_index_max_age_ms"] = a.cacheIndexMaxAgeMs;
    return out;
}

json settingsToJson(const config::GatewaySettings &s, bool maskSecrets)
{
    json models = json::object();
    for (auto it = s.strategyByModel.cbegin(); it != s.strategyByModel.cend(); ++it)
        models[str(it.key())] = config::strategyName(it.value());
    // As for provider keys: a reference is no secret and survives a round trip; a literal key is one.
    const auto keyList = [maskSecrets](const QStringList &keys, const QStringList &refs) {
        json a = json::array();
        for (qsizetype i = 0; i < keys.size(); ++i) {
            const QString ref = refs.value(i);
            a.push_back(!ref.isEmpty() ? str(ref) : maskSecrets ? std::string(MaskedSecret.data()) : str(keys[i]));
        }
        return a;
    };
    const json apiKeys = keyList(s.apiKeys, s.apiKeyRefs);
    const json adminKeys = keyList(s.adminKeys, s.adminKeyRefs);
    const QString host = s.listenHost.contains(u':') ? u'[' % s.listenHost % u']' : s.listenHost;
    json out = {{"listen", str(host % u':' % QString::number(s.listenPort))},
            {"worker_threads", s.workerThreads},
            {"max_connections", s.maxConnections},
            {"max_request_body_bytes", s.maxRequestBodyBytes},
            {"header_timeout_ms", s.headerTimeoutMs},
            {"idle_timeout_ms", s.idleTimeoutMs},
            {"connect_timeout_ms", s.connectTimeoutMs},
            {"response_header_timeout_ms", s.responseHeaderTimeoutMs},
            {"drain_timeout_ms", s.drainTimeoutMs},
            {"health_check_interval_ms", s.healthCheckIntervalMs},
            {"ejection_consecutive_failures", s.ejectionConsecutiveFailures},
            {"ejection_cooldown_ms", s.ejectionCooldownMs},
            {"ejection_cooldown_max_ms", s.ejectionCooldownMaxMs},
            {"ejection_error_rate", s.ejectionErrorRate},
            {"ejection_error_rate_min_requests", s.ejectionErrorRateMinRequests},
            {"ejection_error_rate_window_ms", s.ejectionErrorRateWindowMs},
            {"routing", routingToJson(s, models)},
            {"api_keys", apiKeys},
            {"admin_keys", adminKeys},
            {"metrics_without_key", s.metricsWithoutKey},
            {"allow_unauthenticated_network_access", s.allowUnauthenticatedNetworkAccess},
            {"cors_origins", strings(s.corsOrigins)}};
    // Paths, not secrets: the key stays in its file. Absent when off, so configs without TLS keep their hash.
    if (s.tls.enabled())
        out["tls"] = {{"cert_file", str(s.tls.certFile)},
                      {"key_file", str(s.tls.keyFile)},
                      {"handshake_timeout_ms", s.tls.handshakeTimeoutMs}};
    // Absent when off, as tls: a config without history keeps its hash, and one with it round-trips.
    if (s.history.enabled())
        out["history"] = {{"path", str(s.history.path)},
                          {"max_age_days", s.history.maxAgeDays},
                          {"max_size_mb", s.history.maxSizeMb}};
    // A URL with a password is a secret; one without is an address the operator wants to see.
    if (!s.redisUrl.isEmpty()) {
        const auto parsed = redis::parseRedisUrl(s.redisUrl);
        const bool hasPassword = parsed && !parsed->password.isEmpty();
        out["redis_url"] = !s.redisUrlRef.isEmpty()        ? str(s.redisUrlRef)
                           : maskSecrets && hasPassword ? std::string(MaskedSecret.data())
                                                        : str(s.redisUrl);
    }
    return out;
}

// The rates of the last RateWindowSeconds of a series' history (0 while it has none).
Rates ratesOf(const stats::SecondsHistory &history, const QString &series)
{
    Rates r;
    const QList<stats::SecondSample> samples = history.last(series, RateWindowSeconds);
    if (samples.isEmpty())
        return r;
    for (const stats::SecondSample &s : samples) {
        r.requestsPerSecond += s.requests;
        r.errorsPerSecond += s.errors;
        r.tokensPerSecond += s.completionTokens;
    }
    const double n = double(samples.size());
    r.requestsPerSecond /= n;
    r.errorsPerSecond /= n;
    r.tokensPerSecond /= n;
    return r;
}

WindowLatency windowOf(const stats::SecondsHistory &history, const QString &series,
                       const stats::HistogramSnapshot &ttftNow, const stats::HistogramSnapshot &latencyNow)
{
    WindowLatency w;
    const std::optional<stats::CumulativeSample> before = history.cumulativeAgo(series, PercentileWindowSeconds);
    const stats::HistogramSnapshot ttft = before ? ttftNow - before->ttft : ttftNow;
    const stats::HistogramSnapshot latency = before ? latencyNow - before->latency : latencyNow;
    if (latency.count) {
        w.latencyP50Ms = latency.percentile(0.5);
        w.latencyP95Ms = latency.percentile(0.95);
    }
    if (ttft.count)
        w.ttftP95Ms = ttft.percentile(0.95);
    return w;
}

NodeStatus nodeStatusOf(const routing::Node &n, const stats::GatewayStats &stats, qint64 now)
{
    NodeStatus s;
    const health::NodeHealth &h = n.runtime->health;
    const health::ProbeDetails d = h.details();
    const stats::NodeCounters &c = n.runtime->counters;
    s.name = n.name;
    s.baseUrl = n.provider.network.baseUrl;
    for (const config::KeyConfig &k : n.provider.keys) {
        if (!k.enabled)
            continue;
        s.weight += k.weight;
        s.models.append(k.models); // as /api/status always listed them: per key, repeats included
    }
    s.servedModels = d.servedModels;
    s.version = d.version;
    s.state = h.state(now);
    s.reason = h.reason(now);
    s.draining = h.isDraining();
    s.lastCheckMsSinceEpoch = d.lastCheckMsSinceEpoch;
    s.running = nonNegative(d.running);
    s.waiting = nonNegative(d.waiting);
    s.kvCacheUsage = nonNegative(d.kvCacheUsage);
    s.generationTokensTotal = nonNegative(d.generationTokensTotal);
    s.prefixCacheHitRate = nonNegative(d.prefixCacheHitRate);
    s.predictedPrefixHitRate = nonNegative(d.predictedPrefixHitRate);
    s.inFlight = c.inFlight.load();
    s.attempts = c.requests.load();
    s.successes = c.successes.load();
    s.failures = c.failures.load();
    s.promptTokens = c.promptTokens.load();
    s.completionTokens = c.completionTokens.load();
    s.rates = ratesOf(stats.history, n.name);
    if (const auto before = stats.history.cumulativeAgo(n.name, ErrorRateWindowSeconds)) {
        const qint64 attempts = s.attempts - before->requests;
        if (attempts > 0)
            s.errorRate = double(std::max<qint64>(0, s.failures - before->errors)) / double(attempts);
    }
    const stats::HistogramSnapshot ttft = n.runtime->ttft.snapshot();
    const stats::HistogramSnapshot latency = n.runtime->latency.snapshot();
    s.window = windowOf(stats.history, n.name, ttft, latency);
    s.ttftAllTime = percentilesOf(ttft);
    s.latencyAllTime = percentilesOf(latency);
    return s;
}

json toJson(const Percentiles &p)
{
    return {{"p50", opt(p.p50)}, {"p95", opt(p.p95)}, {"p99", opt(p.p99)}, {"count", p.count}};
}

json toJson(const Rates &r)
{
    return {{"window_s", RateWindowSeconds},
            {"requests_per_s", r.requestsPerSecond},
            {"errors_per_s", r.errorsPerSecond},
            {"tokens_per_s", r.tokensPerSecond}};
}

json toJson(const WindowLatency &w)
{
    return {{"window_s", PercentileWindowSeconds},
            {"latency_p50_ms", opt(w.latencyP50Ms)},
            {"latency_p95_ms", opt(w.latencyP95Ms)},
            {"ttft_p95_ms", opt(w.ttftP95Ms)}};
}

json toJson(const NodeStatus &n)
{
    return {{"name", str(n.name)},
            {"base_url", str(n.baseUrl)},
            {"state", health::nodeStateName(n.state)},
            {"reason", str(n.reason)},
            {"draining", n.draining},
            {"weight", n.weight},
            {"models", strings(n.models)},
            {"served_models", strings(n.servedModels)},
            {"version", str(n.version)},
            {"last_check_ms_since_epoch", n.lastCheckMsSinceEpoch},
            {"in_flight", n.inFlight},
            {"attempts", n.attempts},
            {"successes", n.successes},
            {"failures", n.failures},
            {"prompt_tokens", n.promptTokens},
            {"completion_tokens", n.completionTokens},
            {"rates", toJson(n.rates)},
            {"error_rate", {{"window_s", ErrorRateWindowSeconds}, {"share", opt(n.errorRate)}}},
            {"window", toJson(n.window)},
            {"ttft_ms", toJson(n.ttftAllTime)},
            {"latency_ms", toJson(n.latencyAllTime)},
            {"vllm",
             {{"num_requests_running", opt(n.running)},
              {"num_requests_waiting", opt(n.waiting)},
              {"kv_cache_usage_perc", opt(n.kvCacheUsage)},
              {"generation_tokens_total", opt(n.generationTokensTotal)},
              {"prefix_cache_hit_rate", opt(n.prefixCacheHitRate)},
              {"predicted_prefix_hit_rate", opt(n.predictedPrefixHitRate)},
              {"prefix_cache_window_s", health::PrefixHitWindowMs / 1000}}}};
}

// Reads one object's members, remembering the first problem with its place in the document.
class Reader final
{
public:
    Reader(const json &object, QString path, QString *error) : m_j(object), m_path(std::move(path)), m_error(error)
    {
        if (!m_j.is_object())
            fail({}, u"not an object"_s);
    }

    const json *member(const char *name, bool required = true)
    {
        if (!m_j.is_object())
            return nullptr;
        const auto it = m_j.find(name);
        if (it == m_j.end() || (it->is_null() && required)) {
            if (required)
                fail(name, u"missing"_s);
            return nullptr;
        }
        return &*it;
    }
    QString path(const char *name) const { return m_path.isEmpty() ? QString::fromUtf8(name) : m_path % u'.' % QString::fromUtf8(name); }

    template <typename T>
    void number(const char *name, T &out)
    {
        if (const json *v = member(name)) {
            if (v->is_number())
                out = v->get<T>();
            else
                fail(name, u"not a number"_s);
        }
    }
    void optNumber(const char *name, std::optional<double> &out)
    {
        const json *v = member(name, false);
        if (!v || v->is_null())
            out.reset();
        else if (v->is_number())
            out = v->get<double>();
        else
            fail(name, u"not a number or null"_s);
    }
    void boolean(const char *name, bool &out)
    {
        if (const json *v = member(name)) {
            if (v->is_boolean())
                out = v->get<bool>();
            else
                fail(name, u"not true or false"_s);
        }
    }
    void string(const char *name, QString &out)
    {
        if (const json *v = member(name)) {
            if (v->is_string())
                out = QString::fromStdString(v->get<std::string>());
            else
                fail(name, u"not a string"_s);
        }
    }
    void strings(const char *name, QStringList &out)
    {
        if (const json *v = member(name)) {
            if (!v->is_array())
                return fail(name, u"not an array"_s);
            for (const json &s : *v) {
                if (!s.is_string())
                    return fail(name, u"holds something that is not a string"_s);
                out.append(QString::fromStdString(s.get<std::string>()));
            }
        }
    }
    void fail(const char *name, const QString &what)
    {
        if (m_error->isEmpty()) {
            const QString where = name ? path(name) : m_path;
            *m_error = (where.isEmpty() ? QString() : where % u": "_s) % what;
        }
    }

private:
    const json &m_j;
    QString m_path;
    QString *m_error;
};

void readPercentiles(Reader &parent, const char *name, Percentiles &p, QString *error)
{
    if (const json *v = parent.member(name)) {
        Reader r(*v, parent.path(name), error);
        r.optNumber("p50", p.p50);
        r.optNumber("p95", p.p95);
        r.optNumber("p99", p.p99);
        r.number("count", p.count);
    }
}

void readRates(Reader &parent, Rates &out, QString *error)
{
    if (const json *v = parent.member("rates")) {
        Reader r(*v, parent.path("rates"), error);
        r.number("requests_per_s", out.requestsPerSecond);
        r.number("errors_per_s", out.errorsPerSecond);
        r.number("tokens_per_s", out.tokensPerSecond);
    }
}

void readWindow(Reader &parent, WindowLatency &out, QString *error)
{
    if (const json *v = parent.member("window")) {
        Reader r(*v, parent.path("window"), error);
        r.optNumber("latency_p50_ms", out.latencyP50Ms);
        r.optNumber("latency_p95_ms", out.latencyP95Ms);
        r.optNumber("ttft_p95_ms", out.ttftP95Ms);
    }
}

NodeStatus readNode(const json &j, const QString &path, QString *error)
{
    NodeStatus n;
    Reader r(j, path, error);
    r.string("name", n.name);
    r.string("base_url", n.baseUrl);
    QString state;
    r.string("state", state);
    bool known = false;
    for (health::NodeState s : AllStates) {
        if (state == QLatin1StringView(health::nodeStateName(s))) {
            n.state = s;
            known = true;
        }
    }
    if (!known && !state.isEmpty())
        r.fail("state", u"unknown state \""_s % state % u'"');
    r.string("reason", n.reason);
    r.boolean("draining", n.draining);
    r.number("weight", n.weight);
    r.strings("models", n.models);
    r.strings("served_models", n.servedModels);
    r.string("version", n.version);
    r.number("last_check_ms_since_epoch", n.lastCheckMsSinceEpoch);
    r.number("in_flight", n.inFlight);
    r.number("attempts", n.attempts);
    r.number("successes", n.successes);
    r.number("failures", n.failures);
    r.number("prompt_tokens", n.promptTokens);
    r.number("completion_tokens", n.completionTokens);
    readRates(r, n.rates, error);
    if (const json *e = r.member("error_rate")) {
        Reader er(*e, r.path("error_rate"), error);
        er.optNumber("share", n.errorRate);
    }
    readWindow(r, n.window, error);
    readPercentiles(r, "ttft_ms", n.ttftAllTime, error);
    readPercentiles(r, "latency_ms", n.latencyAllTime, error);
    if (const json *v = r.member("vllm")) {
        Reader vr(*v, r.path("vllm"), error);
        vr.optNumber("num_requests_running", n.running);
        vr.optNumber("num_requests_waiting", n.waiting);
        vr.optNumber("kv_cache_usage_perc", n.kvCacheUsage);
        vr.optNumber("generation_tokens_total", n.generationTokensTotal);
        vr.optNumber("prefix_cache_hit_rate", n.prefixCacheHitRate);
        vr.optNumber("predicted_prefix_hit_rate", n.predictedPrefixHitRate); // absent from older gateways: none
    }
    return n;
}

} // namespace

json configToJson(const config::GatewayConfig &config, bool maskSecrets)
{
    json providers = json::object();
    for (const config::ProviderConfig &p : config.providers)
        providers[str(p.name)] = providerToJson(p, maskSecrets);
    return {{"providers", providers}, {"switchyard", settingsToJson(config.settings, maskSecrets)}};
}

QString configHash(const config::GatewayConfig &config)
{
    // nlohmann::json keeps members sorted, so equal configs dump to equal text.
    const std::string text = configToJson(config, false).dump();
    return QString::fromLatin1(
        QCryptographicHash::hash(QByteArrayView(text.data(), qsizetype(text.size())), QCryptographicHash::Sha256)
            .toHex());
}

QByteArray maskedConfigText(const config::GatewayConfig &config)
{
    const std::string text = configToJson(config, true).dump(2, ' ', false, json::error_handler_t::replace);
    return QByteArray(text.data(), qsizetype(text.size()));
}

bool ifMatchAccepts(QStringView ifMatch, const QString &hash)
{
    if (ifMatch.trimmed().isEmpty())
        return true;
    for (QStringView entity : ifMatch.split(u',')) {
        entity = entity.trimmed();
        if (entity.startsWith(u"W/"))
            entity = entity.sliced(2);
        if (entity.size() >= 2 && entity.startsWith(u'"') && entity.endsWith(u'"'))
            entity = entity.sliced(1, entity.size() - 2);
        if (entity == u"*" || entity.compare(hash, Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}

GatewayStatus gatewayStatusOf(const routing::RoutingTable &table, const stats::GatewayStats &stats, const RunState &run)
{
    GatewayStatus s;
    s.version = QStringLiteral(SWITCHYARD_VERSION);
    s.uptimeMs = QDateTime::currentMSecsSinceEpoch() - ProcessStartMs;
    s.running = run.running;
    s.stopping = run.stopping;
    s.paused = run.paused;
    s.accepting = run.running && !run.stopping && !run.paused;
    s.historyProblem = run.historyProblem;
    s.redisProblem = run.redisProblem;
    const config::GatewaySettings &settings = table.config().settings;
    if (!settings.redisUrl.isEmpty()) {
        if (const auto redis = redis::parseRedisUrl(settings.redisUrl))
            s.keysSharedVia = redis->display();
    }
    // Port 0 asked for an ephemeral port the config does not know: then only the Gateway can say.
    s.listenUrl = !run.listenUrl.isEmpty() || !run.running || settings.listenPort == 0
                      ? run.listenUrl
                      : u"http://"_s % (settings.listenHost.contains(u':') ? u'[' % settings.listenHost % u']'
                                                                            : settings.listenHost)
                            % u':' % QString::number(settings.listenPort);
    s.configHash = configHash(table.config());
    s.configGeneration = table.generation();
    s.requestsTotal = stats.requestsTotal.load();
    s.errorsTotal = stats.errorsTotal.load();
    s.inFlight = stats.inFlight.load();
    s.openConnections = stats.openConnections.load();
    s.historyDropped = stats.historyDropped.load(std::memory_order_relaxed);
    s.rates = ratesOf(stats.history, stats::SecondsHistory::GatewaySeries);
    const stats::HistogramSnapshot ttft = stats.ttft.snapshot();
    const stats::HistogramSnapshot latency = stats.latency.snapshot();
    s.window = windowOf(stats.history, stats::SecondsHistory::GatewaySeries, ttft, latency);
    s.ttftAllTime = percentilesOf(ttft);
    s.latencyAllTime = percentilesOf(latency);
    const qint64 now = Clock::nowMs(); // the time health verdicts are kept in
    for (const routing::Node &n : table.nodes())
        s.nodes.append(nodeStatusOf(n, stats, now));
    return s;
}

json toJson(const GatewayStatus &s)
{
    json nodes = json::array();
    for (const NodeStatus &n : s.nodes)
        nodes.push_back(toJson(n));
    return {{"gateway",
             {{"version", str(s.version)},
              {"uptime_ms", s.uptimeMs},
              {"running", s.running},
              {"accepting", s.accepting},
              {"stopping", s.stopping},
              {"paused", s.paused},
              {"listen_url", str(s.listenUrl)},
              {"config_hash", str(s.configHash)},
              {"requests_total", s.requestsTotal},
              {"errors_total", s.errorsTotal},
              {"in_flight", s.inFlight},
              {"open_connections", s.openConnections},
              {"rates", toJson(s.rates)},
              {"window", toJson(s.window)},
              {"ttft_ms", toJson(s.ttftAllTime)},
              {"latency_ms", toJson(s.latencyAllTime)},
              {"history_problem", s.historyProblem.isEmpty() ? json(nullptr) : json(str(s.historyProblem))},
              {"history_dropped", s.historyDropped},
              {"redis_problem", s.redisProblem.isEmpty() ? json(nullptr) : json(str(s.redisProblem))},
              {"keys_shared_via", s.keysSharedVia.isEmpty() ? json(nullptr) : json(str(s.keysSharedVia))}}},
            {"config_generation", s.configGeneration},
            {"nodes", nodes}};
}

Expected<GatewayStatus, QString> gatewayStatusFromJson(const json &j)
{
    GatewayStatus s;
    QString error;
    Reader top(j, {}, &error);
    top.number("config_generation", s.configGeneration);
    if (const json *g = top.member("gateway")) {
        Reader r(*g, u"gateway"_s, &error);
        r.string("version", s.version);
        r.number("uptime_ms", s.uptimeMs);
        r.boolean("running", s.running);
        r.boolean("accepting", s.accepting);
        r.boolean("stopping", s.stopping);
        if (r.member("paused", false)) // gateways before pause/resume do not send it
            r.boolean("paused", s.paused);
        r.string("listen_url", s.listenUrl);
        r.string("config_hash", s.configHash);
        if (const json *h = r.member("history_problem", false); h && h->is_string()) // null or absent: none
            r.string("history_problem", s.historyProblem);
        if (const json *h = r.member("redis_problem", false); h && h->is_string())
            r.string("redis_problem", s.redisProblem);
        if (const json *h = r.member("keys_shared_via", false); h && h->is_string()) // null: its own keys
            r.string("keys_shared_via", s.keysSharedVia);
        if (r.member("history_dropped", false)) // gateways before the counter do not send it
            r.number("history_dropped", s.historyDropped);
        r.number("requests_total", s.requestsTotal);
        r.number("errors_total", s.errorsTotal);
        r.number("in_flight", s.inFlight);
        r.number("open_connections", s.openConnections);
        readRates(r, s.rates, &error);
        readWindow(r, s.window, &error);
        readPercentiles(r, "ttft_ms", s.ttftAllTime, &error);
        readPercentiles(r, "latency_ms", s.latencyAllTime, &error);
    }
    if (const json *nodes = top.member("nodes")) {
        if (!nodes->is_array())
            top.fail("nodes", u"not an array"_s);
        else
            for (size_t i = 0; i < nodes->size() && error.isEmpty(); ++i)
                s.nodes.append(readNode((*nodes)[i], u"nodes["_s % QString::number(i) % u']', &error));
    }
    if (!error.isEmpty())
        return unexpected(u"Not a Switchyard gateway status: "_s % error);
    return s;
}

} // namespace switchyard::link
