#include "config/configreader.h"

#include "config/configlimits.h"
#include "config/didyoumean.h"
#include "config/listenaddress.h"
#include "config/memberreader.h"
#include "config/tlsfiles.h"
#include "redis/redisconnection.h"

#include <QDir>

#include <QUrl>

#include <algorithm>
#include <cmath>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::config {

namespace {

bool isTokenChar(char16_t c)
{
    // RFC 9110 tchar
    if ((c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9'))
        return true;
    return QStringView(u"!#$%&'*+-.^_`|~").contains(QChar(c));
}

// Headers the gateway writes itself: a second copy from extra_headers would corrupt message framing
// (request smuggling) or the connection's lifetime, so they are rejected rather than silently dropped.
bool isGatewayOwnedHeader(const QString &name)
{
    static const QStringList owned = {u"host"_s,       u"content-length"_s, u"transfer-encoding"_s,
                                      u"connection"_s, u"keep-alive"_s,     u"upgrade"_s,
                                      u"te"_s,         u"trailer"_s,        u"proxy-connection"_s};
    return owned.contains(name.toLower());
}

const QStringList &settingsFields()
{
    static const QStringList fields = {u"listen"_s,
                                       u"worker_threads"_s,
                                       u"max_connections"_s,
                                       u"max_request_body_bytes"_s,
                                       u"header_timeout_ms"_s,
                                       u"idle_timeout_ms"_s,
                                       u"connect_timeout_ms"_s,
                                       u"response_header_timeout_ms"_s,
                                       u"drain_timeout_ms"_s,
                                       u"health_check_interval_ms"_s,
                                       u"ejection_consecutive_failures"_s,
                                       u"ejection_cooldown_ms"_s,
                                       u"ejection_cooldown_max_ms"_s,
                                       u"ejection_error_rate"_s,
                                       u"ejection_error_rate_min_requests"_s,
                                       u"ejection_error_rate_window_ms"_s,
                                       u"routing"_s,
                                       u"api_keys"_s,
                                       u"admin_keys"_s,
                                       u"metrics_without_key"_s,
                                       u"allow_unauthenticated_network_access"_s,
                                       u"cors_origins"_s,
                                       u"tls"_s,
                                       u"history"_s,
                                       u"redis_url"_s};
    return fields;
}

const QStringList &historyFields()
{
    static const QStringList fields = {u"path"_s, u"max_age_days"_s, u"max_size_mb"_s};
    return fields;
}

const QStringList &tlsFields()
{
    static const QStringList fields = {u"cert_file"_s, u"key_file"_s, u"handshake_timeout_ms"_s};
    return fields;
}

const QStringList &routingFields()
{
    static const QStringList fields = {u"default_strategy"_s,        u"models"_s,
                                       u"session_header"_s,          u"fallback_strategy"_s,
                                       u"cache_threshold"_s,         u"balance_abs_threshold"_s,
                                       u"balance_rel_threshold"_s,   u"cache_index_max_entries"_s,
                                       u"cache_index_max_age_ms"_s};
    return fields;
}

const QStringList &strategyNames()
{
    static const QStringList names = {u"weighted_round_robin"_s, u"least_outstanding"_s, u"load_aware"_s,
                                      u"session_affinity"_s, u"cache_aware"_s};
    return names;
}

// The config schema, member by member: Bifrost's `providers` and the gateway's own `switchyard` object.
class ConfigReader final : public MemberReader
{
public:
    ConfigReader(const EnvLookup &env, ConfigProblems &problems) : MemberReader(env, problems) {}

    GatewayConfig readDocument(const Json &doc)
    {
        GatewayConfig cfg;
        if (!doc.is_object()) {
            fail({}, u"the document must be a JSON object, not "_s + typeName(doc));
            return cfg;
        }
        const Json *providers = member(doc, "providers");
        if (!providers) {
            fail(u"providers"_s, u"is required: an object with one member per provider"_s);
        } else if (!providers->is_object()) {
            failType(u"providers"_s, Kind::Object, *providers);
        } else if (providers->empty()) {
            fail(u"providers"_s, u"must hold at least one provider"_s);
        } else {
            for (auto it = providers->begin(); it != providers->end(); ++it)
                cfg.providers.push_back(readProvider(fromStd(it.key()), it.value()));
        }
        if (const Json *sy = get(doc, {}, "switchyard", Kind::Object))
            cfg.settings = readSettings(*sy, u"switchyard"_s);
        return cfg;
    }

private:
    ProviderConfig readProvider(const QString &name, const Json &v)
    {
        const QString path = memberPath(u"providers"_s, name);
        ProviderConfig p;
        p.name = name;
        if (name.isEmpty())
            fail(path, u"a provider needs a non-empty name"_s);
        else if (name.contains(u'/'))
            fail(path,
                 u"a provider name must not contain '/': clients address models as \"provider/model\""_s);
        if (!v.is_object()) {
            failType(path, Kind::Object, v);
            return p;
        }

        if (const Json *keys =
                get(v, path, "keys", Kind::Array, true, u": an array of keys, each with name and weight"_s))
            p.keys = readKeys(*keys, memberPath(path, "keys"));

        const QString netPath = memberPath(path, "network_config");
        const Json *net = member(v, "network_config");
        if (!net)
            fail(netPath + u".base_url"_s,
                 u"is required: the provider's address, like \"http://192.168.200.101:8030\""_s);
        else if (!net->is_object())
            failType(netPath, Kind::Object, *net);
        else
            p.network = readNetwork(*net, netPath);

        readCustomProvider(v, path, p);

        const QString cbPath = memberPath(path, "concurrency_and_buffer_size");
        if (const Json *cb = get(v, path, "concurrency_and_buffer_size", Kind::Object)) {
            readInt(*cb, cbPath, "concurrency", 1, 1'000'000, p.concurrency);
            readInt(*cb, cbPath, "buffer_size", 1, 1'000'000, p.bufferSize);
        }

        // Ignoring a proxy would silently send traffic around it; refuse instead.
        const QString proxyPath = memberPath(path, "proxy_config");
        if (const Json *proxy = get(v, path, "proxy_config", Kind::Object)) {
            if (const auto type = string(*proxy, proxyPath, "type");
                type && *type != u"none"_s && !type->isEmpty())
                fail(memberPath(proxyPath, "type"),
                     u"proxy type "_s + jsonQuoted(*type) +
                         u" is not supported: Switchyard connects to providers directly"_s);
        }
        return p;
    }

    // A provider's keys; two keys of one provider must not share a name.
    std::vector<KeyConfig> readKeys(const Json &keys, const QString &keysPath)
    {
        std::vector<KeyConfig> out;
        if (keys.empty())
            fail(keysPath, u"must hold at least one key: a key lists the models the provider serves"_s);
        QMap<QString, std::size_t> firstIndexByName;
        for (std::size_t i = 0; i < keys.size(); ++i) {
            const QString keyPath = indexPath(keysPath, i);
            KeyConfig key = readKey(keys[i], keyPath);
            if (!key.name.isEmpty()) {
                const auto seen = firstIndexByName.constFind(key.name);
                if (seen != firstIndexByName.cend())
                    fail(keyPath + u".name"_s, u"duplicate key name "_s + jsonQuoted(key.name) +
                                                   u": keys["_s + QString::number(qulonglong(*seen)) +
                                                   u"] and keys["_s + QString::number(qulonglong(i)) +
                                                   u"]"_s);
                else
                    firstIndexByName.insert(key.name, i);
            }
            out.push_back(std::move(key));
        }
        return out;
    }

    // custom_provider_config: which API the provider speaks, and which requests it takes.
    void readCustomProvider(const Json &v, const QString &path, ProviderConfig &p)
    {
        const QString customPath = memberPath(path, "custom_provider_config");
        if (const Json *custom = get(v, path, "custom_provider_config", Kind::Object)) {
            if (const auto type = string(*custom, customPath, "base_provider_type", true)) {
                if (*type != u"openai"_s)
                    fail(memberPath(customPath, "base_provider_type"),
                         u"unsupported base_provider_type "_s + jsonQuoted(*type) +
                             u": Switchyard speaks only the OpenAI API (\"openai\")"_s);
                p.baseProviderType = *type;
            }
            if (const Json *allowed = get(*custom, customPath, "allowed_requests", Kind::Object))
                p.allowed = readAllowed(*allowed, memberPath(customPath, "allowed_requests"));
            if (const auto streamUsage = boolean(*custom, customPath, "stream_usage"))
                p.streamUsage = *streamUsage;
        } else if (!member(v, "custom_provider_config") && p.name != u"openai"_s) {
            // Without custom_provider_config Bifrost reads the name as one of its built-in providers
            // (anthropic, bedrock, …), whose APIs Switchyard does not speak.
            fail(customPath,
                 u"is required: "_s + jsonQuoted(p.name) +
                     u" is not a built-in OpenAI provider, and Switchyard proxies only OpenAI-compatible"
                     u" servers (set base_provider_type to \"openai\")"_s);
        }
    }

    KeyConfig readKey(const Json &v, const QString &path)
    {
        KeyConfig key;
        if (!v.is_object()) {
            failType(path, Kind::Object, v);
            return key;
        }
        if (const auto name = string(v, path, "name", true)) {
            if (name->isEmpty())
                fail(memberPath(path, "name"), u"must not be empty"_s);
            key.name = *name;
        }
        if (const auto value = string(v, path, "value")) {
            if (value->startsWith(u"env."_s))
                key.valueRef = *value;
            if (const auto resolved = resolveSecret(*value, memberPath(path, "value")))
                key.value = *resolved;
        }
        // Absent models = every model (Bifrost's default); an explicit [] = none.
        key.models = QStringList{u"*"_s};
        if (const Json *models = get(v, path, "models", Kind::Array)) {
            key.models.clear();
            const QString modelsPath = memberPath(path, "models");
            forEachString(*models, modelsPath, [&](const QString &mPath, const QString &model) {
                if (model.isEmpty())
                    fail(mPath, u"must not be empty"_s);
                else
                    key.models.append(model);
            });
        }
        if (const Json *w = get(v, path, "weight", Kind::Number, true,
                                u" (Bifrost requires it; 1 gives equal shares)"_s)) {
            const double weight = w->get<double>();
            if (!std::isfinite(weight) || weight < 0)
                fail(memberPath(path, "weight"), u"must be 0 or more (got "_s + fromStd(w->dump()) + u")"_s);
            else
                key.weight = weight;
        }
        if (const auto enabled = boolean(v, path, "enabled"))
            key.enabled = *enabled;
        return key;
    }

    std::optional<QString> checkBaseUrl(const QString &text, const QString &path)
    {
        QString t = text;
        while (t.endsWith(u'/'))
            t.chop(1);
        if (t.isEmpty()) {
            fail(path, u"must not be empty: the provider's address, like \"http://192.168.200.101:8030\""_s);
            return std::nullopt;
        }
        const QUrl url(t, QUrl::StrictMode);
        const QString scheme = url.scheme().toLower();
        const QString lower = t.toLower();
        if (!lower.startsWith(u"http://"_s) && !lower.startsWith(u"https://"_s)) {
            fail(path, jsonQuoted(text) + u" must start with http:// or https://"_s);
            return std::nullopt;
        }
        if (!url.isValid() || t.contains(u' ')) {
            // QUrl appends a dump of its parser state ("; source was …"); the first clause is the reason.
            const QString reason = url.errorString().section(u"; "_s, 0, 0);
            fail(path, jsonQuoted(text) + u" is not a valid URL"_s +
                           (reason.isEmpty() ? QString() : u": "_s + reason));
            return std::nullopt;
        }
        if (url.host().isEmpty()) {
            fail(path, jsonQuoted(text) + u" has no host"_s);
            return std::nullopt;
        }
        if (!url.userInfo().isEmpty()) {
            fail(path,
                 jsonQuoted(text) + u" must not carry user:password (put credentials in keys[].value)"_s);
            return std::nullopt;
        }
        if (url.hasQuery() || url.hasFragment()) {
            fail(path, jsonQuoted(text) +
                           u" must not have a query or fragment: request paths are appended to it"_s);
            return std::nullopt;
        }
        return t;
    }

    NetworkConfig readNetwork(const Json &v, const QString &path)
    {
        NetworkConfig n;
        if (const auto url = string(v, path, "base_url", true))
            if (const auto checked = checkBaseUrl(*url, memberPath(path, "base_url")))
                n.baseUrl = *checked;
        readInt(v, path, "default_request_timeout_in_seconds", 1, kDaySeconds, n.requestTimeoutSeconds);
        readInt(v, path, "max_retries", 0, 100, n.maxRetries);
        readInt(v, path, "stream_idle_timeout_in_seconds", 1, kDaySeconds, n.streamIdleTimeoutSeconds);

        const auto initial = durationMs(v, path, "retry_backoff_initial");
        const auto max = durationMs(v, path, "retry_backoff_max");
        if (initial)
            n.retryBackoffInitialMs = int(*initial);
        if (max)
            n.retryBackoffMaxMs = int(*max);
        const bool initialOk = initial || !member(v, "retry_backoff_initial");
        const bool maxOk = max || !member(v, "retry_backoff_max");
        if (initialOk && maxOk && n.retryBackoffInitialMs > n.retryBackoffMaxMs)
            fail(memberPath(path, "retry_backoff_initial"),
                 u"must not exceed retry_backoff_max ("_s + QString::number(n.retryBackoffInitialMs) +
                     u" ms > "_s + QString::number(n.retryBackoffMaxMs) + u" ms"_s +
                     (max ? QString() : u", the default"_s) + u")"_s);

        const QString headersPath = memberPath(path, "extra_headers");
        if (const Json *headers = get(v, path, "extra_headers", Kind::Object)) {
            for (auto it = headers->begin(); it != headers->end(); ++it) {
                const QString name = fromStd(it.key());
                const QString hPath = memberPath(headersPath, name);
                const bool crlf = name.contains(u'\r') || name.contains(u'\n');
                if (crlf) {
                    fail(hPath, u"header name contains CR or LF (header injection)"_s);
                } else if (name.isEmpty() || !std::all_of(name.cbegin(), name.cend(),
                                                          [](QChar c) { return isTokenChar(c.unicode()); })) {
                    fail(hPath,
                         u"invalid header name "_s + jsonQuoted(name) + u": use letters, digits and -"_s);
                } else if (isGatewayOwnedHeader(name)) {
                    fail(hPath, u"header "_s + name + u" is set by the gateway and cannot be overridden"_s);
                }
                if (!it.value().is_string()) {
                    failType(hPath, Kind::String, it.value());
                    continue;
                }
                const QString value = fromStd(it.value().get_ref<const std::string &>());
                if (value.contains(u'\r') || value.contains(u'\n')) {
                    fail(hPath, u"header value contains CR or LF (header injection)"_s);
                    continue;
                }
                if (value.contains(QChar(0))) {
                    fail(hPath, u"header value contains a NUL character"_s);
                    continue;
                }
                n.extraHeaders.emplace_back(name.toUtf8(), value.toUtf8());
            }
        }
        return n;
    }

    AllowedRequests readAllowed(const Json &v, const QString &path)
    {
        // Present = only what is set to true. A missing *_stream flag follows its non-stream flag: the
        // article's two-node config (docs/CONFIG.md) lists only chat_completion and text_completion and is
        // expected to stream.
        AllowedRequests a;
        a.chatCompletion = boolean(v, path, "chat_completion").value_or(false);
        a.chatCompletionStream = boolean(v, path, "chat_completion_stream").value_or(a.chatCompletion);
        a.textCompletion = boolean(v, path, "text_completion").value_or(false);
        a.textCompletionStream = boolean(v, path, "text_completion_stream").value_or(a.textCompletion);
        a.embedding = boolean(v, path, "embedding").value_or(false);
        a.listModels = boolean(v, path, "list_models").value_or(false);
        // The Responses and Messages APIs (Bifrost's names).
        a.responses = boolean(v, path, "responses").value_or(false);
        a.responsesStream = boolean(v, path, "responses_stream").value_or(a.responses);
        a.countTokens = boolean(v, path, "count_tokens").value_or(false);
        // vLLM's own endpoints and audio uploads. Translation is Switchyard's key (Bifrost has none): absent,
        // it follows transcription, the same kind of work on the same audio models.
        a.transcription = boolean(v, path, "transcription").value_or(false);
        a.transcriptionStream = boolean(v, path, "transcription_stream").value_or(a.transcription);
        a.translation = boolean(v, path, "translation").value_or(a.transcription);
        a.translationStream = boolean(v, path, "translation_stream").value_or(a.translation);
        a.rerank = boolean(v, path, "rerank").value_or(false);
        a.tokenize = boolean(v, path, "tokenize").value_or(false);
        a.score = boolean(v, path, "score").value_or(false);
        a.pooling = boolean(v, path, "pooling").value_or(false);
        a.classify = boolean(v, path, "classify").value_or(false);
        return a;
    }

    std::optional<RoutingStrategy> strategy(const Json &v, const QString &path)
    {
        if (!v.is_string()) {
            failType(path, Kind::String, v);
            return std::nullopt;
        }
        const QString name = fromStd(v.get_ref<const std::string &>());
        for (const RoutingStrategy s : {RoutingStrategy::WeightedRoundRobin, RoutingStrategy::LeastOutstanding,
                                        RoutingStrategy::LoadAware, RoutingStrategy::SessionAffinity,
                                        RoutingStrategy::CacheAware}) {
            if (name == QLatin1StringView(strategyName(s)))
                return s;
        }
        const QString hint = didYouMean(name, strategyNames());
        fail(path, u"unknown routing strategy "_s + jsonQuoted(name) +
                       (hint.isEmpty() ? u" (expected weighted_round_robin, least_outstanding, load_aware, "
                                         "session_affinity or cache_aware)"_s
                                       : hint));
        return std::nullopt;
    }

    // A share or a factor: a number within [min, max], else a problem that says what it is for.
    void readNumber(const Json &v, const QString &path, const char *key, double min, double max,
                    const QString &range, double &target)
    {
        if (const Json *n = get(v, path, key, Kind::Number)) {
            const double d = n->get<double>();
            if (d >= min && d <= max && std::isfinite(d))
                target = d;
            else
                fail(memberPath(path, key), u"must be "_s + range + u" (got "_s + fromStd(n->dump()) + u")"_s);
        }
    }

    // session_affinity's and cache_aware's settings, beside the strategies in switchyard.routing.
    void readAffinity(const Json &routing, const QString &routingPath, AffinitySettings &a)
    {
        if (const auto header = string(routing, routingPath, "session_header")) {
            const bool token = !header->isEmpty() && std::all_of(header->cbegin(), header->cend(), [](QChar c) {
                return isTokenChar(c.unicode());
            });
            if (token)
                a.sessionHeader = header->toLower().toLatin1();
            else
                fail(memberPath(routingPath, "session_header"),
                     jsonQuoted(*header) + u" is not a header name; use letters, digits and -, like \"X-Session-Id\""_s);
        }
        const QString fallbackPath = memberPath(routingPath, "fallback_strategy");
        if (const Json *f = member(routing, "fallback_strategy")) {
            if (const auto st = strategy(*f, fallbackPath)) {
                if (*st == RoutingStrategy::SessionAffinity)
                    fail(fallbackPath, u"is what session_affinity does without a session key, so it cannot be "
                                       "session_affinity itself"_s);
                else
                    a.fallbackStrategy = *st;
            }
        }
        readNumber(routing, routingPath, "cache_threshold", 0.0, 1.0,
                   u"between 0 and 1, the share of the prompt a node must already have seen"_s, a.cacheThreshold);
        readInt(routing, routingPath, "balance_abs_threshold", 0, 1'000'000, a.balanceAbsThreshold);
        readNumber(routing, routingPath, "balance_rel_threshold", 1.0, 1000.0,
                   u"between 1 and 1000, how many times the idlest node's load the busiest may carry"_s,
                   a.balanceRelThreshold);
        readInt(routing, routingPath, "cache_index_max_entries", 16, 100'000'000, a.cacheIndexMaxEntries);
        readInt(routing, routingPath, "cache_index_max_age_ms", 1000, 7 * kDayMs, a.cacheIndexMaxAgeMs);
    }

    GatewaySettings readSettings(const Json &v, const QString &path)
    {
        GatewaySettings s;
        rejectUnknownFields(v, path, settingsFields());
        if (const auto listen = string(v, path, "listen")) {
            const auto address = parseListenAddress(*listen);
            if (address) {
                s.listenHost = address->host;
                s.listenPort = address->port;
            } else {
                fail(memberPath(path, "listen"), address.error());
            }
        }
        readLimits(v, path, s);
        readEjection(v, path, s);
        if (const Json *routing = get(v, path, "routing", Kind::Object))
            readRouting(*routing, memberPath(path, "routing"), s);

        if (const Json *keys = get(v, path, "api_keys", Kind::Array))
            s.apiKeys = readApiKeys(*keys, memberPath(path, "api_keys"), &s.apiKeyRefs);
        if (const Json *keys = get(v, path, "admin_keys", Kind::Array))
            s.adminKeys = readApiKeys(*keys, memberPath(path, "admin_keys"), &s.adminKeyRefs);
        if (const auto open = boolean(v, path, "metrics_without_key"))
            s.metricsWithoutKey = *open;
        if (const auto allow = boolean(v, path, "allow_unauthenticated_network_access"))
            s.allowUnauthenticatedNetworkAccess = *allow;
        if (const Json *origins = get(v, path, "cors_origins", Kind::Array))
            s.corsOrigins = readCorsOrigins(*origins, memberPath(path, "cors_origins"));
        if (const Json *tls = get(v, path, "tls", Kind::Object))
            s.tls = readTls(*tls, memberPath(path, "tls"));
        if (const Json *history = get(v, path, "history", Kind::Object))
            s.history = readHistory(*history, memberPath(path, "history"));
        if (const auto url = string(v, path, "redis_url"))
            readRedisUrl(*url, memberPath(path, "redis_url"), s);

        if (const QString why = exposureProblem(s);
            !why.isEmpty() && !hasProblemAt(memberPath(path, "listen")))
            fail(memberPath(path, "listen"), why);
        return s;
    }

    // Threads, connections, request size and the time limits of a request's way through the gateway.
    void readLimits(const Json &v, const QString &path, GatewaySettings &s)
    {
        readInt(v, path, "worker_threads", 0, 256, s.workerThreads);
        readInt(v, path, "max_connections", 1, 1'000'000, s.maxConnections);
        readInt(v, path, "max_request_body_bytes", 1, 4LL * 1024 * 1024 * 1024, s.maxRequestBodyBytes);
        readInt(v, path, "header_timeout_ms", 1, kDayMs, s.headerTimeoutMs);
        readInt(v, path, "idle_timeout_ms", 1, kDayMs, s.idleTimeoutMs);
        readInt(v, path, "connect_timeout_ms", 1, kDayMs, s.connectTimeoutMs);
        readInt(v, path, "response_header_timeout_ms", 0, kDayMs, s.responseHeaderTimeoutMs);
        readInt(v, path, "drain_timeout_ms", 0, kDayMs, s.drainTimeoutMs);
        readInt(v, path, "health_check_interval_ms", 1, kDayMs, s.healthCheckIntervalMs);
    }

    // When a failing node is taken out of rotation, and for how long.
    void readEjection(const Json &v, const QString &path, GatewaySettings &s)
    {
        readInt(v, path, "ejection_consecutive_failures", 1, 1000, s.ejectionConsecutiveFailures);
        readInt(v, path, "ejection_cooldown_ms", 1, kDayMs, s.ejectionCooldownMs);
        readInt(v, path, "ejection_cooldown_max_ms", 1, kDayMs, s.ejectionCooldownMaxMs);
        if (const Json *rate = get(v, path, "ejection_error_rate", Kind::Number)) {
            const double r = rate->get<double>();
            if (r >= 0.0 && r <= 1.0)
                s.ejectionErrorRate = r;
            else
                fail(memberPath(path, "ejection_error_rate"),
                     u"must be between 0 (off) and 1, a share of failed requests (got "_s +
                         fromStd(rate->dump()) + u")"_s);
        }
        readInt(v, path, "ejection_error_rate_min_requests", 1, 1'000'000, s.ejectionErrorRateMinRequests);
        readInt(v, path, "ejection_error_rate_window_ms", 1000, 60000, s.ejectionErrorRateWindowMs);
    }

    // switchyard.routing: the default strategy, the strategy per model and the affinity strategies' settings.
    void readRouting(const Json &routing, const QString &routingPath, GatewaySettings &s)
    {
        rejectUnknownFields(routing, routingPath, routingFields());
        if (const Json *d = member(routing, "default_strategy"))
            if (const auto st = strategy(*d, memberPath(routingPath, "default_strategy")))
                s.defaultStrategy = *st;
        const QString modelsPath = memberPath(routingPath, "models");
        if (const Json *models = get(routing, routingPath, "models", Kind::Object)) {
            for (auto it = models->begin(); it != models->end(); ++it) {
                const QString model = fromStd(it.key());
                const QString mPath = memberPath(modelsPath, model);
                if (model.isEmpty()) {
                    fail(mPath, u"a model name must not be empty"_s);
                    continue;
                }
                if (const auto st = strategy(it.value(), mPath))
                    s.strategyByModel.insert(model, *st);
            }
        }
        readAffinity(routing, routingPath, s.affinity);
    }

    // switchyard.api_keys and admin_keys: the keys clients and operators send, literal or "env.NAME".
    QStringList readApiKeys(const Json &keys, const QString &keysPath, QStringList *refs)
    {
        QStringList out;
        forEachString(keys, keysPath, [&](const QString &kPath, const QString &text) {
            const auto resolved = resolveSecret(text, kPath);
            if (!resolved)
                return;
            // An empty client key would make "Authorization: Bearer " a valid credential.
            if (resolved->isEmpty())
                fail(kPath, u"an API key must not be empty"_s);
            else {
                out.append(*resolved);
                refs->append(text.startsWith(u"env."_s) ? text : QString());
            }
        });
        return out;
    }

    // switchyard.redis_url: literal or "env.NAME"; an empty string is the same as none.
    void readRedisUrl(const QString &written, const QString &urlPath, GatewaySettings &s)
    {
        const auto resolved = resolveSecret(written, urlPath);
        if (!resolved || resolved->isEmpty())
            return;
        if (const auto address = redis::parseRedisUrl(*resolved); !address) {
            // The URL itself is not quoted: it may hold a password.
            fail(urlPath, address.error());
            return;
        }
        s.redisUrl = *resolved;
        s.redisUrlRef = written.startsWith(u"env."_s) ? written : QString();
    }

    // switchyard.history: where the lasting request history and the virtual keys are kept.
    HistorySettings readHistory(const Json &v, const QString &historyPath)
    {
        HistorySettings h;
        rejectUnknownFields(v, historyPath, historyFields());
        readInt(v, historyPath, "max_age_days", 1, 3650, h.maxAgeDays);
        readInt(v, historyPath, "max_size_mb", 1, 1'048'576, h.maxSizeMb);
        const auto file = string(v, historyPath, "path", true);
        if (!file)
            return h;
        if (file->isEmpty() || !QDir::isAbsolutePath(*file)) {
            fail(memberPath(historyPath, "path"),
                 jsonQuoted(*file) + u" is not an absolute path; write one like \"/var/lib/switchyard/history.db\""_s);
            return h;
        }
        h.path = QDir::cleanPath(*file);
        return h;
    }

    // switchyard.tls: the certificate and key files, read now so that a wrong file is a problem of the
    // config rather than a failed handshake for every client later.
    TlsSettings readTls(const Json &v, const QString &tlsPath)
    {
        TlsSettings tls;
        rejectUnknownFields(v, tlsPath, tlsFields());
        readInt(v, tlsPath, "handshake_timeout_ms", 1, 600000, tls.handshakeTimeoutMs);
        const auto certFile = tlsPathMember(v, tlsPath, "cert_file");
        const auto keyFile = tlsPathMember(v, tlsPath, "key_file");
        if (certFile) {
            const auto chain = readCertificateChain(*certFile);
            if (chain)
                tls.certificateChain = *chain;
            else
                fail(memberPath(tlsPath, "cert_file"), chain.error());
        }
        if (keyFile) {
            const auto key = readPrivateKey(*keyFile);
            if (key)
                tls.privateKey = *key;
            else
                fail(memberPath(tlsPath, "key_file"), key.error());
        }
        if (!tls.certificateChain.isEmpty() && !tls.privateKey.isNull() &&
            !keyMatchesCertificate(tls.privateKey, tls.certificateChain.first()))
            fail(memberPath(tlsPath, "key_file"),
                 *keyFile + u" is not the key of the certificate in cert_file (their public keys differ)"_s);
        if (certFile && keyFile) {
            tls.certFile = *certFile;
            tls.keyFile = *keyFile;
        }
        return tls;
    }

    // A file of switchyard.tls: required, and absolute, because a config is also read where its file is
    // not (PUT /api/config, the panel's editor) and a relative path would mean something else there.
    std::optional<QString> tlsPathMember(const Json &v, const QString &tlsPath, const char *key)
    {
        const auto file = string(v, tlsPath, key, true);
        if (!file)
            return std::nullopt;
        if (file->isEmpty()) {
            fail(memberPath(tlsPath, key), u"must name a PEM file"_s);
            return std::nullopt;
        }
        if (!QDir::isAbsolutePath(*file)) {
            fail(memberPath(tlsPath, key), jsonQuoted(*file) +
                                               u" is relative; write the absolute path, like "
                                               "\"/etc/switchyard/tls/fullchain.pem\""_s);
            return std::nullopt;
        }
        return QDir::cleanPath(*file);
    }

    // switchyard.cors_origins: "scheme://host[:port]" each, or "*".
    QStringList readCorsOrigins(const Json &origins, const QString &corsPath)
    {
        QStringList out;
        forEachString(origins, corsPath, [&](const QString &oPath, const QString &origin) {
            const QUrl url(origin, QUrl::StrictMode);
            const bool valid = origin == u"*"_s ||
                               (url.isValid() && (url.scheme() == u"http"_s || url.scheme() == u"https"_s) &&
                                !url.host().isEmpty() && url.path().isEmpty() && !url.hasQuery() &&
                                !url.hasFragment() && url.userInfo().isEmpty());
            if (valid)
                out.append(origin);
            else
                fail(oPath, jsonQuoted(origin) +
                                u" is not an origin; write \"https://host[:port]\" (no path) or \"*\""_s);
        });
        return out;
    }
};

} // namespace

GatewayConfig readConfig(const Json &doc, const EnvLookup &env, ConfigProblems &problems)
{
    return ConfigReader(env, problems).readDocument(doc);
}

} // namespace switchyard::config
