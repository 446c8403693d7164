// The configuration loader: the article's Bifrost JSON, defaults, env references, every kind of mistake
// (each reported with its path, all at once), export to Bifrost, and listen addresses.
#include "config/configloader.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace switchyard::config;
using namespace Qt::Literals::StringLiterals;
using Json = nlohmann::ordered_json;

namespace {

EnvLookup fakeEnv(const QMap<QString, QString> &vars)
{
    return [vars](const QString &name) -> std::optional<QString> {
        const auto it = vars.constFind(name);
        if (it == vars.cend())
            return std::nullopt;
        return *it;
    };
}

const EnvLookup noEnv = fakeEnv({});

QString dataFile(const char *name)
{
    return QStringLiteral(SWITCHYARD_CONFIG_TESTDATA) + u'/' + QString::fromUtf8(name);
}

QByteArray readData(const char *name)
{
    QFile f(dataFile(name));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot open test data %s", name);
    return f.readAll();
}

QString describe(const ConfigProblems &problems)
{
    QStringList lines;
    for (const ConfigProblem &p : problems)
        lines.append(p.toString());
    return lines.join(u'\n');
}

bool hasProblem(const ConfigProblems &problems, const QString &path, const QString &fragment)
{
    for (const ConfigProblem &p : problems) {
        if (p.path == path && p.message.contains(fragment))
            return true;
    }
    return false;
}

// A small valid document the mistake rows mutate one place at a time.
const char *const kMinimal =
    "{\"providers\": {\"p1\": {"
    "\"keys\": [{\"name\": \"k1\", \"value\": \"v\", \"models\": [\"m\"], \"weight\": 1}],"
    "\"network_config\": {\"base_url\": \"http://10.0.0.1:8000\"},"
    "\"custom_provider_config\": {\"base_provider_type\": \"openai\"}}}}";

Json minimal()
{
    return Json::parse(kMinimal);
}

QByteArray dump(const Json &j)
{
    const std::string s = j.dump(2);
    return QByteArray(s.data(), qsizetype(s.size()));
}

// Every field of a provider in one string, so two parses can be compared whole.
QString describe(const ProviderConfig &p)
{
    QString s = p.name + u'|' + p.baseProviderType + u'|' + QString::number(p.concurrency) + u'|' +
                QString::number(p.bufferSize) + u'|';
    for (const KeyConfig &k : p.keys)
        s += u"key("_s + k.name + u',' + k.value + u',' + k.valueRef + u',' + k.models.join(u';') + u',' +
             QString::number(k.weight) + u',' + (k.enabled ? u"on"_s : u"off"_s) + u')';
    const NetworkConfig &n = p.network;
    s += u'|' + n.baseUrl + u'|' + QString::number(n.requestTimeoutSeconds) + u'|' +
         QString::number(n.maxRetries) + u'|' + QString::number(n.retryBackoffInitialMs) + u'|' +
         QString::number(n.retryBackoffMaxMs) + u'|' + QString::number(n.streamIdleTimeoutSeconds) + u'|';
    for (const auto &[name, value] : n.extraHeaders)
        s += QString::fromUtf8(name) + u'=' + QString::fromUtf8(value) + u';';
    for (RequestKind kind :
         {RequestKind::ChatCompletion, RequestKind::ChatCompletionStream, RequestKind::TextCompletion,
          RequestKind::TextCompletionStream, RequestKind::Embedding, RequestKind::ListModels})
        s += p.allowed.allows(kind) ? u'1' : u'0';
    return s;
}

} // namespace

class TestConfigLoader final : public QObject
{
    Q_OBJECT

private slots:
    void seedLoadsVerbatim()
    {
        const auto cfg = loadConfigFile(dataFile("seed-bifrost.json"), noEnv);
        QVERIFY2(cfg.hasValue(), qPrintable(cfg.hasValue() ? QString() : describe(cfg.error())));
        QCOMPARE(cfg->providers.size(), std::size_t(2));
        const char *const names[] = {"vllm-server1", "vllm-server2"};
        const char *const keyNames[] = {"s1-key", "s2-key"};
        const char *const urls[] = {"http://192.168.200.101:8030", "http://192.168.200.102:8030"};
        for (int i = 0; i < 2; ++i) {
            const ProviderConfig &p = cfg->providers[std::size_t(i)];
            QCOMPARE(p.name, QString::fromUtf8(names[i]));
            QCOMPARE(p.keys.size(), std::size_t(1));
            QCOMPARE(p.keys[0].name, QString::fromUtf8(keyNames[i]));
            QCOMPARE(p.keys[0].value, u"dummy"_s);
            QVERIFY(p.keys[0].valueRef.isEmpty());
            QCOMPARE(p.keys[0].models, QStringList{u"nemotron-3-super"_s});
            QCOMPARE(p.keys[0].weight, 1.0);
            QVERIFY(p.keys[0].enabled);
            QVERIFY(p.keys[0].servesModel(u"nemotron-3-super"_s));
            QVERIFY(!p.keys[0].servesModel(u"other"_s));
            QCOMPARE(p.network.baseUrl, QString::fromUtf8(urls[i]));
            QCOMPARE(p.network.requestTimeoutSeconds, 120);
            QCOMPARE(p.network.maxRetries, 2);
            QCOMPARE(p.network.retryBackoffInitialMs, 500);
            QCOMPARE(p.network.retryBackoffMaxMs, 5000);
            QCOMPARE(p.network.streamIdleTimeoutSeconds, 60);
            QCOMPARE(p.baseProviderType, u"openai"_s);
            QVERIFY(p.allowed.allows(RequestKind::ChatCompletion));
            QVERIFY(p.allowed.allows(RequestKind::ChatCompletionStream));
            QVERIFY(p.allowed.allows(RequestKind::TextCompletion));
            QVERIFY(p.allowed.allows(RequestKind::TextCompletionStream));
            QVERIFY(!p.allowed.allows(RequestKind::Embedding));
            QVERIFY(!p.allowed.allows(RequestKind::ListModels));
            QCOMPARE(p.concurrency, 1000);
            QCOMPARE(p.bufferSize, 5000);
        }
        QVERIFY(cfg->provider(u"vllm-server2"_s) == &cfg->providers[1]);
        QCOMPARE(cfg->settings.listenPort, GatewaySettings{}.listenPort);
    }

    void defaultsApplied()
    {
        const QByteArray doc = "{\"providers\": {\"p\": {\"keys\": [{\"name\": \"k\", \"weight\": 2.5}],"
                               "\"network_config\": {\"base_url\": \"https://h.example:1/v1//\"},"
                               "\"custom_provider_config\": {\"base_provider_type\": \"openai\"}}}}";
        const auto cfg = parseConfig(doc, noEnv);
        QVERIFY2(cfg.hasValue(), qPrintable(cfg.hasValue() ? QString() : describe(cfg.error())));
        const ProviderConfig &p = cfg->providers.at(0);
        const KeyConfig &k = p.keys.at(0);
        QCOMPARE(k.models, QStringList{u"*"_s}); // absent models = every model
        QVERIFY(k.servesModel(u"anything"_s));
        QCOMPARE(k.value, QString());
        QCOMPARE(k.valueRef, QString());
        QCOMPARE(k.weight, 2.5);
        QVERIFY(k.enabled);
        QCOMPARE(p.network.baseUrl, u"https://h.example:1/v1"_s); // trailing slashes removed
        QCOMPARE(p.network.requestTimeoutSeconds, 30);
        QCOMPARE(p.network.maxRetries, 0);
        QCOMPARE(p.network.retryBackoffInitialMs, 500);
        QCOMPARE(p.network.retryBackoffMaxMs, 5000);
        QCOMPARE(p.network.streamIdleTimeoutSeconds, 60);
        QVERIFY(p.network.extraHeaders.empty());
        for (RequestKind kind :
             {RequestKind::ChatCompletion, RequestKind::ChatCompletionStream, RequestKind::TextCompletion,
              RequestKind::TextCompletionStream, RequestKind::Embedding, RequestKind::ListModels})
            QVERIFY2(p.allowed.allows(kind), flagName(kind)); // absent allowed_requests = everything
        QCOMPARE(p.concurrency, 1000);
        QCOMPARE(p.bufferSize, 5000);

        const GatewaySettings &s = cfg->settings;
        const GatewaySettings d;
        QCOMPARE(s.listenHost, u"127.0.0.1"_s);
        QCOMPARE(s.listenPort, quint16(8080));
        QCOMPARE(s.workerThreads, d.workerThreads);
        QCOMPARE(s.maxConnections, d.maxConnections);
        QCOMPARE(s.maxRequestBodyBytes, d.maxRequestBodyBytes);
        QCOMPARE(s.headerTimeoutMs, d.headerTimeoutMs);
        QCOMPARE(s.idleTimeoutMs, d.idleTimeoutMs);
        QCOMPARE(s.connectTimeoutMs, d.connectTimeoutMs);
        QCOMPARE(s.responseHeaderTimeoutMs, d.responseHeaderTimeoutMs);
        QCOMPARE(s.drainTimeoutMs, d.drainTimeoutMs);
        QCOMPARE(s.healthCheckIntervalMs, d.healthCheckIntervalMs);
        QCOMPARE(s.defaultStrategy, RoutingStrategy::WeightedRoundRobin);
        QVERIFY(s.strategyByModel.isEmpty());
        QVERIFY(s.apiKeys.isEmpty());
    }

    void explicitValuesAndNulls()
    {
        Json j = minimal();
        Json &p = j["providers"]["p1"];
        p["keys"][0]["models"] = Json::array(); // [] = no model
        p["keys"][0]["enabled"] = false;
        p["keys"][0]["weight"] = 0;
        p["keys"][0]["some_future_field"] = {{"x", 1}}; // unknown fields inside a key are ignored
        p["network_config"] = {{"base_url", "http://[::1]:9000/"},
                               {"default_request_timeout_in_seconds", 7},
                               {"max_retries", 3},
                               {"retry_backoff_initial", 250},
                               {"retry_backoff_max", "1m"},
                               {"stream_idle_timeout_in_seconds", 9},
                               {"extra_headers", {{"X-Team", "blue"}, {"X-Trace", "on"}}},
                               {"insecure_skip_verify", true}};
        p["concurrency_and_buffer_size"] = {{"concurrency", 4}, {"buffer_size", 8}};
        p["custom_provider_config"]["allowed_requests"] = {{"chat_completion", true},
                                                           {"chat_completion_stream", false},
                                                           {"embedding", true},
                                                           {"responses", true}};
        p["proxy_config"] = {{"type", "none"}};
        p["send_back_raw_response"] = nullptr;
        j["client"] = {{"drop_excess_requests", false}}; // other Bifrost sections are ignored
        j["governance"] = Json::array();
        j["switchyard"] = nullptr; // null = absent, as in Go

        const auto cfg = parseConfig(dump(j), noEnv);
        QVERIFY2(cfg.hasValue(), qPrintable(cfg.hasValue() ? QString() : describe(cfg.error())));
        const ProviderConfig &pc = cfg->providers.at(0);
        QVERIFY(pc.keys[0].models.isEmpty());
        QVERIFY(!pc.keys[0].servesModel(u"m"_s));
        QVERIFY(!pc.keys[0].enabled);
        QCOMPARE(pc.keys[0].weight, 0.0);
        QCOMPARE(pc.network.baseUrl, u"http://[::1]:9000"_s);
        QCOMPARE(pc.network.requestTimeoutSeconds, 7);
        QCOMPARE(pc.network.maxRetries, 3);
        QCOMPARE(pc.network.retryBackoffInitialMs, 250);
        QCOMPARE(pc.network.retryBackoffMaxMs, 60000);
        QCOMPARE(pc.network.streamIdleTimeoutSeconds, 9);
        QCOMPARE(pc.network.extraHeaders.size(), std::size_t(2));
        QCOMPARE(pc.network.extraHeaders[0].first, QByteArray("X-Team"));
        QCOMPARE(pc.network.extraHeaders[0].second, QByteArray("blue"));
        QCOMPARE(pc.network.extraHeaders[1].first, QByteArray("X-Trace"));
        QCOMPARE(pc.concurrency, 4);
        QCOMPARE(pc.bufferSize, 8);
        QVERIFY(pc.allowed.allows(RequestKind::ChatCompletion));
        QVERIFY(!pc.allowed.allows(RequestKind::ChatCompletionStream)); // explicit false wins over following
        QVERIFY(!pc.allowed.allows(RequestKind::TextCompletion));
        QVERIFY(!pc.allowed.allows(RequestKind::TextCompletionStream));
        QVERIFY(pc.allowed.allows(RequestKind::Embedding));
        QVERIFY(!pc.allowed.allows(RequestKind::ListModels));
        // Bifrost's names for the Responses (and Messages) API: responses_stream follows responses.
        QVERIFY(pc.allowed.allows(RequestKind::Responses));
        QVERIFY(pc.allowed.allows(RequestKind::ResponsesStream));
        QVERIFY(!pc.allowed.allows(RequestKind::CountTokens));
    }

    // vLLM's own endpoints and audio uploads: Bifrost's keys (transcription, rerank) and Switchyard's
    // (translation follows transcription; tokenize, score, pooling, classify default to false).
    void allowedRequestsForVllmEndpoints()
    {
        Json j = minimal();
        j["providers"]["p1"]["custom_provider_config"]["allowed_requests"] = {
            {"chat_completion", true}, {"transcription", true}, {"transcription_stream", false},
            {"rerank", true}, {"pooling", true}};
        const auto cfg = parseConfig(dump(j), noEnv);
        QVERIFY2(cfg.hasValue(), qPrintable(cfg.hasValue() ? QString() : describe(cfg.error())));
        const AllowedRequests &a = cfg->providers.at(0).allowed;
        QVERIFY(a.allows(RequestKind::Transcription));
        QVERIFY(!a.allows(RequestKind::TranscriptionStream));
        QVERIFY(a.allows(RequestKind::Translation));        // follows transcription
        QVERIFY(a.allows(RequestKind::TranslationStream));  // follows translation
        QVERIFY(a.allows(RequestKind::Rerank));
        QVERIFY(a.allows(RequestKind::Pooling));
        QVERIFY(!a.allows(RequestKind::Tokenize));
        QVERIFY(!a.allows(RequestKind::Score));
        QVERIFY(!a.allows(RequestKind::Classify));
        QCOMPARE(QByteArray(flagName(RequestKind::TranscriptionStream)), QByteArray("transcription_stream"));
        QCOMPARE(QByteArray(flagName(RequestKind::Tokenize)), QByteArray("tokenize"));
        // Absent allowed_requests: everything, these included.
        const auto open = parseConfig(dump(minimal()), noEnv);
        QVERIFY(open.hasValue());
        for (RequestKind kind : {RequestKind::Transcription, RequestKind::TranscriptionStream, RequestKind::Translation,
                                 RequestKind::TranslationStream, RequestKind::Rerank, RequestKind::Tokenize,
                                 RequestKind::Score, RequestKind::Pooling, RequestKind::Classify})
            QVERIFY2(open->providers.at(0).allowed.allows(kind), flagName(kind));
    }

    void providerNamedOpenAiNeedsNoCustomConfig()
    {
        Json j = minimal();
        Json p = j["providers"]["p1"];
        p.erase("custom_provider_config");
        j["providers"] = {{"openai", p}};
        const auto cfg = parseConfig(dump(j), noEnv);
        QVERIFY2(cfg.hasValue(), qPrintable(cfg.hasValue() ? QString() : describe(cfg.error())));
        QCOMPARE(cfg->providers.at(0).baseProviderType, u"openai"_s);
    }

    void providerOrderFollowsFile()
    {
        Json j = minimal();
        const Json p = j["providers"]["p1"];
        j["providers"] = Json::object();
        for (const char *name : {"zeta", "alpha", "mid"})
            j["providers"][name] = p;
        const auto cfg = parseConfig(dump(j), noEnv);
        QVERIFY(cfg.hasValue());
        QCOMPARE(cfg->providers.at(0).name, u"zeta"_s);
        QCOMPARE(cfg->providers.at(1).name, u"alpha"_s);
        QCOMPARE(cfg->providers.at(2).name, u"mid"_s);
    }

    void switchyardSettings()
    {
        Json j = minimal();
        j["switchyard"] = {
            {"listen", "0.0.0.0:9090"},
            {"worker_threads", 3},
            {"max_connections", 100},
            {"max_request_body_bytes", 1048576},
            {"header_timeout_ms", 1500},
            {"idle_timeout_ms", 2500},
            {"connect_timeout_ms", 700},
            {"response_header_timeout_ms", 9000},
            {"drain_timeout_ms", 0},
            {"health_check_interval_ms", 250},
            {"routing",
             {{"default_strategy", "least_outstanding"},
              {"models", {{"nemotron-3-super", "load_aware"}, {"org/m", "weighted_round_robin"}}}}},
            {"api_keys", {"sk-literal", "env.CLIENT_KEY"}}};
        const auto cfg = parseConfig(dump(j), fakeEnv({{u"CLIENT_KEY"_s, u"sk-from-env"_s}}));
        QVERIFY2(cfg.hasValue(), qPrintable(cfg.hasValue() ? QString() : describe(cfg.error())));
        const GatewaySettings &s = cfg->settings;
        QCOMPARE(s.listenHost, u"0.0.0.0"_s);
        QCOMPARE(s.listenPort, quint16(9090));
        QCOMPARE(s.workerThreads, 3);
        QCOMPARE(s.maxConnections, 100);
        QCOMPARE(s.maxRequestBodyBytes, qint64(1048576));
        QCOMPARE(s.headerTimeoutMs, 1500);
        QCOMPARE(s.idleTimeoutMs, 2500);
        QCOMPARE(s.connectTimeoutMs, 700);
        QCOMPARE(s.responseHeaderTimeoutMs, 9000);
        QCOMPARE(s.drainTimeoutMs, 0);
        QCOMPARE(s.healthCheckIntervalMs, 250);
        QCOMPARE(s.defaultStrategy, RoutingStrategy::LeastOutstanding);
        QCOMPARE(s.strategyByModel.size(), 2);
        QCOMPARE(s.strategyByModel.value(u"nemotron-3-super"_s), RoutingStrategy::LoadAware);
        QCOMPARE(s.strategyByModel.value(u"org/m"_s), RoutingStrategy::WeightedRoundRobin);
        QCOMPARE(s.apiKeys, (QStringList{u"sk-literal"_s, u"sk-from-env"_s}));
        QVERIFY(s.affinity == AffinitySettings()); // not written: the defaults
    }

    // session_affinity's and cache_aware's settings, and the strategies by their names.
    void affinitySettings()
    {
        Json j = minimal();
        j["switchyard"]["routing"] = {{"default_strategy", "session_affinity"},
                                      {"models", {{"big", "cache_aware"}}},
                                      {"session_header", "X-Conversation"},
                                      {"fallback_strategy", "cache_aware"},
                                      {"cache_threshold", 0.7},
                                      {"balance_abs_threshold", 8},
                                      {"balance_rel_threshold", 1.5},
                                      {"cache_index_max_entries", 50000},
                                      {"cache_index_max_age_ms", 120000}};
        const auto cfg = parseConfig(dump(j), noEnv);
        QVERIFY2(cfg.hasValue(), qPrintable(cfg.hasValue() ? QString() : describe(cfg.error())));
        const GatewaySettings &s = cfg->settings;
        QCOMPARE(s.defaultStrategy, RoutingStrategy::SessionAffinity);
        QCOMPARE(s.strategyByModel.value(u"big"_s), RoutingStrategy::CacheAware);
        QCOMPARE(s.affinity.sessionHeader, QByteArray("x-conversation")); // headers compare in lower case
        QCOMPARE(s.affinity.fallbackStrategy, RoutingStrategy::CacheAware);
        QCOMPARE(s.affinity.cacheThreshold, 0.7);
        QCOMPARE(s.affinity.balanceAbsThreshold, 8);
        QCOMPARE(s.affinity.balanceRelThreshold, 1.5);
        QCOMPARE(s.affinity.cacheIndexMaxEntries, qint64(50000));
        QCOMPARE(s.affinity.cacheIndexMaxAgeMs, qint64(120000));
        // Switchyard's own keys: the Bifrost export leaves them out with the rest of `switchyard`.
        const auto exported = exportBifrostConfig(dump(j));
        QVERIFY(exported.hasValue());
        QVERIFY(!exported->contains("cache_threshold"));
        QVERIFY(!exported->contains("session_affinity"));
    }

    void envReferences()
    {
        Json j = minimal();
        j["providers"]["p1"]["keys"][0]["value"] = "env.S1_KEY";
        const QByteArray doc = dump(j);

        const auto ok = parseConfig(doc, fakeEnv({{u"S1_KEY"_s, u"secret-1"_s}}));
        QVERIFY2(ok.hasValue(), qPrintable(ok.hasValue() ? QString() : describe(ok.error())));
        QCOMPARE(ok->providers[0].keys[0].value, u"secret-1"_s);
        QCOMPARE(ok->providers[0].keys[0].valueRef, u"env.S1_KEY"_s);

        // Set but empty is a value (no Authorization header), not a missing variable.
        const auto empty = parseConfig(doc, fakeEnv({{u"S1_KEY"_s, QString()}}));
        QVERIFY(empty.hasValue());
        QCOMPARE(empty->providers[0].keys[0].value, QString());

        const auto missing = parseConfig(doc, fakeEnv({{u"OTHER"_s, u"x"_s}}));
        QVERIFY(!missing.hasValue());
        QCOMPARE(missing.error().size(), 1);
        QCOMPARE(missing.error()[0].path, u"providers.p1.keys[0].value"_s);
        QVERIFY2(missing.error()[0].message.contains(u"S1_KEY"_s), qPrintable(missing.error()[0].message));
        QVERIFY(missing.error()[0].toString().startsWith(u"providers.p1.keys[0].value: "_s));

        j["switchyard"] = {{"api_keys", {"env.NOPE"}}};
        const auto missingApiKey = parseConfig(dump(j), fakeEnv({{u"S1_KEY"_s, u"s"_s}}));
        QVERIFY(!missingApiKey.hasValue());
        QVERIFY2(hasProblem(missingApiKey.error(), u"switchyard.api_keys[0]"_s, u"NOPE"_s),
                 qPrintable(describe(missingApiKey.error())));

        // A Redis URL with its password kept in the environment: the reference is what the file keeps.
        j["switchyard"] = {{"redis_url", "env.REDIS_URL"}};
        const auto redis = parseConfig(dump(j), fakeEnv({{u"S1_KEY"_s, u"s"_s}, {u"REDIS_URL"_s, u"redis://:pw@10.0.0.9"_s}}));
        QVERIFY2(redis.hasValue(), qPrintable(redis.hasValue() ? QString() : describe(redis.error())));
        QCOMPARE(redis->settings.redisUrl, u"redis://:pw@10.0.0.9"_s);
        QCOMPARE(redis->settings.redisUrlRef, u"env.REDIS_URL"_s);
        // A bad URL in the environment is named by the config's path, without the URL (it may hold a password).
        const auto badRedis = parseConfig(dump(j), fakeEnv({{u"S1_KEY"_s, u"s"_s}, {u"REDIS_URL"_s, u"rediss://:pw@h"_s}}));
        QVERIFY(!badRedis.hasValue());
        QVERIFY2(hasProblem(badRedis.error(), u"switchyard.redis_url"_s, u"TLS"_s), qPrintable(describe(badRedis.error())));
        QVERIFY(!describe(badRedis.error()).contains(u":pw@"_s));
    }

    void processEnvironmentReadsTheRealOne()
    {
        const char *name = "SWITCHYARD_TST_CONFIGLOADER_VAR";
        qunsetenv(name);
        const EnvLookup env = processEnvironment();
        QVERIFY(!env(QString::fromUtf8(name)).has_value());
        qputenv(name, "value-1");
        QCOMPARE(env(QString::fromUtf8(name)), std::optional<QString>(u"value-1"_s));
        qunsetenv(name);
    }

    void mistakes_data()
    {
        QTest::addColumn<QString>("pointer");  // JSON pointer into the minimal document
        QTest::addColumn<QByteArray>("value"); // JSON to put there; empty = remove the member
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("fragment");

        const QString key = u"providers.p1.keys[0]"_s;
        const QString net = u"providers.p1.network_config"_s;
        const QString custom = u"providers.p1.custom_provider_config"_s;
        auto row = [](const char *name, const char *pointer, const QByteArray &value, const QString &path,
                      const QString &fragment) {
            QTest::newRow(name) << QString::fromUtf8(pointer) << value << path << fragment;
        };
        row("document not an object", "", "[1]", QString(), u"must be a JSON object, not an array"_s);
        row("providers missing", "/providers", "", u"providers"_s, u"is required"_s);
        row("providers not an object", "/providers", "[]", u"providers"_s,
            u"must be an object, not an array"_s);
        row("providers empty", "/providers", "{}", u"providers"_s, u"at least one provider"_s);
        row("provider not an object", "/providers/p1", "true", u"providers.p1"_s,
            u"must be an object, not a boolean"_s);
        row("unknown base_provider_type", "/providers/p1/custom_provider_config/base_provider_type",
            "\"anthropic\"", custom + u".base_provider_type"_s,
            u"unsupported base_provider_type \"anthropic\""_s);
        row("base_provider_type missing", "/providers/p1/custom_provider_config/base_provider_type", "",
            custom + u".base_provider_type"_s, u"is required"_s);
        row("custom_provider_config missing", "/providers/p1/custom_provider_config", "", custom,
            u"is required"_s);
        row("custom_provider_config wrong type", "/providers/p1/custom_provider_config", "\"openai\"", custom,
            u"must be an object, not a string"_s);
        row("allowed flag wrong type", "/providers/p1/custom_provider_config/allowed_requests",
            "{\"chat_completion\": \"yes\"}", custom + u".allowed_requests.chat_completion"_s,
            u"must be a boolean"_s);
        row("weight negative", "/providers/p1/keys/0/weight", "-1", key + u".weight"_s,
            u"must be 0 or more (got -1)"_s);
        row("weight missing", "/providers/p1/keys/0/weight", "", key + u".weight"_s, u"is required"_s);
        row("weight null", "/providers/p1/keys/0/weight", "null", key + u".weight"_s, u"is required"_s);
        row("weight string", "/providers/p1/keys/0/weight", "\"1\"", key + u".weight"_s,
            u"must be a number, not a string"_s);
        row("key name missing", "/providers/p1/keys/0/name", "", key + u".name"_s, u"is required"_s);
        row("key name empty", "/providers/p1/keys/0/name", "\"\"", key + u".name"_s, u"must not be empty"_s);
        row("key name wrong type", "/providers/p1/keys/0/name", "7", key + u".name"_s,
            u"must be a string, not a number"_s);
        row("key value wrong type", "/providers/p1/keys/0/value", "123", key + u".value"_s,
            u"must be a string"_s);
        row("env ref without name", "/providers/p1/keys/0/value", "\"env.\"", key + u".value"_s,
            u"valid environment variable"_s);
        row("models wrong type", "/providers/p1/keys/0/models", "\"m\"", key + u".models"_s,
            u"must be an array, not a string"_s);
        row("model entry wrong type", "/providers/p1/keys/0/models", "[\"m\", 5]", key + u".models[1]"_s,
            u"must be a string"_s);
        row("enabled wrong type", "/providers/p1/keys/0/enabled", "\"yes\"", key + u".enabled"_s,
            u"must be a boolean"_s);
        row("key not an object", "/providers/p1/keys/0", "\"k1\"", key, u"must be an object, not a string"_s);
        row("keys missing", "/providers/p1/keys", "", u"providers.p1.keys"_s, u"is required"_s);
        row("keys empty", "/providers/p1/keys", "[]", u"providers.p1.keys"_s, u"at least one key"_s);
        row("keys wrong type", "/providers/p1/keys", "{}", u"providers.p1.keys"_s,
            u"must be an array, not an object"_s);
        row("duplicate key names", "/providers/p1/keys",
            "[{\"name\": \"a\", \"weight\": 1}, {\"name\": \"b\", \"weight\": 1}, {\"name\": \"a\", "
            "\"weight\": 1}]",
            u"providers.p1.keys[2].name"_s, u"duplicate key name \"a\": keys[0] and keys[2]"_s);
        row("network_config missing", "/providers/p1/network_config", "", net + u".base_url"_s,
            u"is required"_s);
        row("network_config wrong type", "/providers/p1/network_config", "[]", net, u"must be an object"_s);
        row("base_url missing", "/providers/p1/network_config/base_url", "", net + u".base_url"_s,
            u"is required"_s);
        row("base_url wrong type", "/providers/p1/network_config/base_url", "8000", net + u".base_url"_s,
            u"must be a string"_s);
        row("base_url empty", "/providers/p1/network_config/base_url", "\"\"", net + u".base_url"_s,
            u"must not be empty"_s);
        row("base_url no scheme", "/providers/p1/network_config/base_url", "\"10.0.0.1:8000\"",
            net + u".base_url"_s, u"must start with http:// or https://"_s);
        row("base_url ftp", "/providers/p1/network_config/base_url", "\"ftp://h\"", net + u".base_url"_s,
            u"must start with http:// or https://"_s);
        row("base_url no host", "/providers/p1/network_config/base_url", "\"http://:8000\"",
            net + u".base_url"_s, u"has no host"_s);
        row("base_url bad port", "/providers/p1/network_config/base_url", "\"http://h:99999\"",
            net + u".base_url"_s, u"is not a valid URL"_s);
        row("base_url space", "/providers/p1/network_config/base_url", "\"http://h x:80\"",
            net + u".base_url"_s, u"is not a valid URL"_s);
        row("base_url query", "/providers/p1/network_config/base_url", "\"http://h/v1?x=1\"",
            net + u".base_url"_s, u"query or fragment"_s);
        row("base_url credentials", "/providers/p1/network_config/base_url", "\"http://u:p@h\"",
            net + u".base_url"_s, u"user:password"_s);
        row("timeout zero", "/providers/p1/network_config/default_request_timeout_in_seconds", "0",
            net + u".default_request_timeout_in_seconds"_s, u"must be between 1 and 86400 (got 0)"_s);
        row("timeout string", "/providers/p1/network_config/default_request_timeout_in_seconds", "\"120\"",
            net + u".default_request_timeout_in_seconds"_s, u"must be a number, not a string"_s);
        row("timeout fraction", "/providers/p1/network_config/default_request_timeout_in_seconds", "1.5",
            net + u".default_request_timeout_in_seconds"_s, u"whole number"_s);
        row("max_retries negative", "/providers/p1/network_config/max_retries", "-1", net + u".max_retries"_s,
            u"between 0 and 100"_s);
        row("stream idle zero", "/providers/p1/network_config/stream_idle_timeout_in_seconds", "0",
            net + u".stream_idle_timeout_in_seconds"_s, u"must be between 1 and 86400"_s);
        row("backoff bad string", "/providers/p1/network_config/retry_backoff_initial", "\"soon\"",
            net + u".retry_backoff_initial"_s, u"\"soon\""_s);
        row("backoff no unit", "/providers/p1/network_config/retry_backoff_max", "\"5\"",
            net + u".retry_backoff_max"_s, u"missing unit"_s);
        row("backoff unknown unit", "/providers/p1/network_config/retry_backoff_max", "\"5d\"",
            net + u".retry_backoff_max"_s, u"unknown unit \"d\""_s);
        row("backoff negative", "/providers/p1/network_config/retry_backoff_initial", "\"-1s\"",
            net + u".retry_backoff_initial"_s, u"must not be negative"_s);
        row("backoff boolean", "/providers/p1/network_config/retry_backoff_initial", "true",
            net + u".retry_backoff_initial"_s, u"duration string"_s);
        row("backoff initial over default max", "/providers/p1/network_config/retry_backoff_initial",
            "\"10s\"", net + u".retry_backoff_initial"_s,
            u"must not exceed retry_backoff_max (10000 ms > 5000 ms, the default)"_s);
        row("extra_headers wrong type", "/providers/p1/network_config/extra_headers", "[\"X-A: 1\"]",
            net + u".extra_headers"_s, u"must be an object, not an array"_s);
        row("header value CRLF", "/providers/p1/network_config/extra_headers",
            "{\"X-A\": \"a\\r\\nInjected: 1\"}", net + u".extra_headers.X-A"_s, u"CR or LF"_s);
        row("header value LF", "/providers/p1/network_config/extra_headers", "{\"X-A\": \"a\\nb\"}",
            net + u".extra_headers.X-A"_s, u"CR or LF"_s);
        row("header name CRLF", "/providers/p1/network_config/extra_headers", "{\"X-A\\r\\nEvil\": \"v\"}",
            net + u".extra_headers[\"X-A\\r\\nEvil\"]"_s, u"CR or LF"_s);
        row("header name invalid", "/providers/p1/network_config/extra_headers", "{\"X A\": \"v\"}",
            net + u".extra_headers[\"X A\"]"_s, u"invalid header name"_s);
        row("header value not string", "/providers/p1/network_config/extra_headers", "{\"X-A\": 1}",
            net + u".extra_headers.X-A"_s, u"must be a string"_s);
        row("header owned by gateway", "/providers/p1/network_config/extra_headers",
            "{\"Content-Length\": \"5\"}", net + u".extra_headers.Content-Length"_s, u"set by the gateway"_s);
        row("concurrency zero", "/providers/p1/concurrency_and_buffer_size", "{\"concurrency\": 0}",
            u"providers.p1.concurrency_and_buffer_size.concurrency"_s, u"between 1 and"_s);
        row("buffer_size wrong type", "/providers/p1/concurrency_and_buffer_size",
            "{\"buffer_size\": \"big\"}", u"providers.p1.concurrency_and_buffer_size.buffer_size"_s,
            u"must be a number"_s);
        row("proxy not supported", "/providers/p1/proxy_config",
            "{\"type\": \"http\", \"url\": \"http://proxy:3128\"}", u"providers.p1.proxy_config.type"_s,
            u"not supported"_s);
        row("switchyard wrong type", "/switchyard", "[]", u"switchyard"_s,
            u"must be an object, not an array"_s);
        row("switchyard typo", "/switchyard", "{\"worker_thread\": 2}", u"switchyard.worker_thread"_s,
            u"unknown field (did you mean \"worker_threads\"?)"_s);
        row("switchyard camelCase", "/switchyard", "{\"maxConnections\": 2}", u"switchyard.maxConnections"_s,
            u"did you mean \"max_connections\"?"_s);
        row("switchyard unknown", "/switchyard", "{\"zzz\": 2}", u"switchyard.zzz"_s,
            u"unknown field; known fields: listen,"_s);
        row("listen without port", "/switchyard", "{\"listen\": \"localhost\"}", u"switchyard.listen"_s,
            u"missing port"_s);
        row("listen wrong type", "/switchyard", "{\"listen\": 8080}", u"switchyard.listen"_s,
            u"must be a string"_s);
        row("worker_threads negative", "/switchyard", "{\"worker_threads\": -1}",
            u"switchyard.worker_threads"_s, u"between 0 and 256"_s);
        row("max_connections wrong type", "/switchyard", "{\"max_connections\": \"many\"}",
            u"switchyard.max_connections"_s, u"must be a number, not a string"_s);
        row("header timeout zero", "/switchyard", "{\"header_timeout_ms\": 0}",
            u"switchyard.header_timeout_ms"_s, u"between 1 and"_s);
        row("error rate above 1", "/switchyard", "{\"ejection_error_rate\": 1.5}",
            u"switchyard.ejection_error_rate"_s, u"must be between 0 (off) and 1"_s);
        row("error rate window too long", "/switchyard", "{\"ejection_error_rate_window_ms\": 120000}",
            u"switchyard.ejection_error_rate_window_ms"_s, u"must be between 1000 and 60000"_s);
        row("network listen without keys", "/switchyard", "{\"listen\": \"0.0.0.0:8080\"}",
            u"switchyard.listen"_s, u"reachable from the network"_s);
        row("cors origin with path", "/switchyard", "{\"cors_origins\": [\"http://a.example/x\"]}",
            u"switchyard.cors_origins[0]"_s, u"is not an origin"_s);
        row("routing wrong type", "/switchyard", "{\"routing\": \"load_aware\"}", u"switchyard.routing"_s,
            u"must be an object"_s);
        row("routing unknown field", "/switchyard", "{\"routing\": {\"default_strategi\": \"load_aware\"}}",
            u"switchyard.routing.default_strategi"_s, u"did you mean \"default_strategy\"?"_s);
        row("routing bad strategy", "/switchyard", "{\"routing\": {\"default_strategy\": \"round_robin\"}}",
            u"switchyard.routing.default_strategy"_s, u"unknown routing strategy \"round_robin\""_s);
        row("routing model strategy", "/switchyard", "{\"routing\": {\"models\": {\"m\": \"fastest\"}}}",
            u"switchyard.routing.models.m"_s, u"weighted_round_robin, least_outstanding, load_aware, "
                                               "session_affinity or cache_aware"_s);
        row("cache threshold above 1", "/switchyard", "{\"routing\": {\"cache_threshold\": 1.5}}",
            u"switchyard.routing.cache_threshold"_s, u"must be between 0 and 1"_s);
        row("cache threshold not a number", "/switchyard", "{\"routing\": {\"cache_threshold\": \"half\"}}",
            u"switchyard.routing.cache_threshold"_s, u"must be a number, not a string"_s);
        row("balance rel below 1", "/switchyard", "{\"routing\": {\"balance_rel_threshold\": 0.5}}",
            u"switchyard.routing.balance_rel_threshold"_s, u"must be between 1 and 1000"_s);
        row("balance abs negative", "/switchyard", "{\"routing\": {\"balance_abs_threshold\": -1}}",
            u"switchyard.routing.balance_abs_threshold"_s, u"between 0 and"_s);
        row("index too small", "/switchyard", "{\"routing\": {\"cache_index_max_entries\": 3}}",
            u"switchyard.routing.cache_index_max_entries"_s, u"between 16 and"_s);
        row("index age too short", "/switchyard", "{\"routing\": {\"cache_index_max_age_ms\": 10}}",
            u"switchyard.routing.cache_index_max_age_ms"_s, u"between 1000 and"_s);
        row("session header with a space", "/switchyard", "{\"routing\": {\"session_header\": \"X Session\"}}",
            u"switchyard.routing.session_header"_s, u"is not a header name"_s);
        row("fallback is session_affinity", "/switchyard",
            "{\"routing\": {\"fallback_strategy\": \"session_affinity\"}}",
            u"switchyard.routing.fallback_strategy"_s, u"cannot be session_affinity itself"_s);
        row("fallback typo", "/switchyard", "{\"routing\": {\"fallback_strategy\": \"cache_awar\"}}",
            u"switchyard.routing.fallback_strategy"_s, u"did you mean \"cache_aware\"?"_s);
        row("api_keys wrong type", "/switchyard", "{\"api_keys\": \"sk\"}", u"switchyard.api_keys"_s,
            u"must be an array"_s);
        row("api_key not a string", "/switchyard", "{\"api_keys\": [\"a\", 1]}", u"switchyard.api_keys[1]"_s,
            u"must be a string"_s);
        row("api_key empty", "/switchyard", "{\"api_keys\": [\"\"]}", u"switchyard.api_keys[0]"_s,
            u"must not be empty"_s);
        row("redis_url not a URL", "/switchyard", "{\"redis_url\": \"10.0.0.9:6379\"}", u"switchyard.redis_url"_s,
            u"redis://"_s);
        row("redis_url with TLS", "/switchyard", "{\"redis_url\": \"rediss://10.0.0.9:6380\"}",
            u"switchyard.redis_url"_s, u"TLS"_s);
        row("redis_url database", "/switchyard", "{\"redis_url\": \"redis://10.0.0.9/31\"}", u"switchyard.redis_url"_s,
            u"0 to 15"_s);
        row("redis_url wrong type", "/switchyard", "{\"redis_url\": 6379}", u"switchyard.redis_url"_s,
            u"must be a string"_s);
    }

    void mistakes()
    {
        QFETCH(QString, pointer);
        QFETCH(QByteArray, value);
        QFETCH(QString, path);
        QFETCH(QString, fragment);

        Json doc = minimal();
        const Json::json_pointer ptr(pointer.toStdString());
        if (value.isEmpty())
            doc[ptr.parent_pointer()].erase(ptr.back());
        else
            doc[ptr] = Json::parse(value.toStdString());

        const auto result = parseConfig(dump(doc), noEnv);
        QVERIFY(!result.hasValue());
        const ConfigProblems &problems = result.error();
        QVERIFY2(problems.size() == 1, qPrintable(describe(problems)));
        QCOMPARE(problems[0].path, path);
        QVERIFY2(problems[0].message.contains(fragment), qPrintable(problems[0].toString()));
        QCOMPARE(problems[0].line, 0);
        QCOMPARE(problems[0].toString(),
                 path.isEmpty() ? problems[0].message : path + u": "_s + problems[0].message);
    }

    void providerNames()
    {
        Json j = minimal();
        const Json p = j["providers"]["p1"];
        j["providers"] = {{"a/b", p}, {"", p}, {"dotted.name", p}};
        const auto r = parseConfig(dump(j), noEnv);
        QVERIFY(!r.hasValue());
        QVERIFY2(hasProblem(r.error(), u"providers[\"a/b\"]"_s, u"must not contain '/'"_s),
                 qPrintable(describe(r.error())));
        QVERIFY2(hasProblem(r.error(), u"providers[\"\"]"_s, u"non-empty name"_s),
                 qPrintable(describe(r.error())));
        QCOMPARE(r.error().size(), 2); // a dotted name is fine, only quoted in paths
    }

    void builtInProviderRejected()
    {
        Json j = minimal();
        Json p = j["providers"]["p1"];
        p.erase("custom_provider_config");
        j["providers"] = {{"anthropic", p}};
        const auto r = parseConfig(dump(j), noEnv);
        QVERIFY(!r.hasValue());
        QVERIFY2(hasProblem(r.error(), u"providers.anthropic.custom_provider_config"_s, u"is required"_s),
                 qPrintable(describe(r.error())));
    }

    void backoffValues_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<int>("ms");
        QTest::newRow("number") << QByteArray("250") << 250;
        QTest::newRow("zero") << QByteArray("0") << 0;
        QTest::newRow("string zero") << QByteArray("\"0\"") << 0;
        QTest::newRow("ms") << QByteArray("\"500ms\"") << 500;
        QTest::newRow("s") << QByteArray("\"2s\"") << 2000;
        QTest::newRow("fraction") << QByteArray("\"1.5s\"") << 1500;
        QTest::newRow("leading dot") << QByteArray("\".5s\"") << 500;
        QTest::newRow("m") << QByteArray("\"1m\"") << 60000;
        QTest::newRow("compound") << QByteArray("\"1m30s\"") << 90000;
        QTest::newRow("us") << QByteArray("\"3000us\"") << 3;
        QTest::newRow("micro sign") << QByteArray("\"4000\xc2\xb5s\"") << 4;
        QTest::newRow("ns") << QByteArray("\"2000000ns\"") << 2;
        QTest::newRow("plus") << QByteArray("\"+1s\"") << 1000;
    }

    void backoffValues()
    {
        QFETCH(QByteArray, json);
        QFETCH(int, ms);
        Json j = minimal();
        j["providers"]["p1"]["network_config"]["retry_backoff_initial"] = Json::parse(json.toStdString());
        j["providers"]["p1"]["network_config"]["retry_backoff_max"] = "1h";
        const auto cfg = parseConfig(dump(j), noEnv);
        QVERIFY2(cfg.hasValue(), qPrintable(cfg.hasValue() ? QString() : describe(cfg.error())));
        QCOMPARE(cfg->providers[0].network.retryBackoffInitialMs, ms);
        QCOMPARE(cfg->providers[0].network.retryBackoffMaxMs, 3600000);
    }

    void backoffTooLarge()
    {
        Json j = minimal();
        j["providers"]["p1"]["network_config"]["retry_backoff_max"] = "25h";
        const auto r = parseConfig(dump(j), noEnv);
        QVERIFY(!r.hasValue());
        QVERIFY2(hasProblem(r.error(), u"providers.p1.network_config.retry_backoff_max"_s, u"24h"_s),
                 qPrintable(describe(r.error())));
    }

    void syntaxErrorHasLineAndColumn()
    {
        const QByteArray doc = "{\n  \"providers\": {\n    \"p\": nope\n  }\n}\n";
        const auto r = parseConfig(doc, noEnv);
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().size(), 1);
        const ConfigProblem &p = r.error()[0];
        QCOMPARE(p.line, 3);
        QCOMPARE(p.column, 11); // the 'o' of nope: where the text stopped being a literal (null)
        QVERIFY2(p.toString().startsWith(u"line 3, column 11: "_s), qPrintable(p.toString()));
        QVERIFY2(p.message.contains(u"syntax error"_s), qPrintable(p.message));
        QVERIFY(!p.message.contains(u"json.exception"_s));

        // Columns count characters, not bytes; the error is at end of input after a multi-byte string.
        const QByteArray utf8 = "{\"\xe6\xa8\xa1\xe5\x9e\x8b\": 1";
        const auto r2 = parseConfig(utf8, noEnv);
        QVERIFY(!r2.hasValue());
        QCOMPARE(r2.error()[0].line, 1);
        QCOMPARE(r2.error()[0].column, 9);

        const QByteArray trailingComma = "{\"providers\": {},\n}";
        const auto r3 = parseConfig(trailingComma, noEnv);
        QVERIFY(!r3.hasValue());
        QCOMPARE(r3.error()[0].line, 2);
        QCOMPARE(r3.error()[0].column, 1);

        const auto r4 = parseConfig("", noEnv);
        QVERIFY(!r4.hasValue());
        QCOMPARE(r4.error()[0].line, 1);
        QCOMPARE(r4.error()[0].column, 1);

        // Comments are not JSON (Bifrost's Go decoder rejects them too).
        const auto r5 = parseConfig("// note\n{}", noEnv);
        QVERIFY(!r5.hasValue());
        QCOMPARE(r5.error()[0].line, 1);
    }

    void missingCommaSaysCommaOrBracket()
    {
        // Between two members: placed at the start of the second (where the comma belongs, give or take
        // the space), and the message names the comma, not only the closing brace.
        const QByteArray object = "{\n  \"providers\": {\n    \"a\": 1\n    \"b\": 2\n  }\n}\n";
        const auto r = parseConfig(object, noEnv);
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().size(), 1);
        QCOMPARE(r.error()[0].line, 4);
        QCOMPARE(r.error()[0].column, 5);
        QVERIFY2(r.error()[0].message.endsWith(u"expected ',' or '}'"_s), qPrintable(r.error()[0].message));

        // Between two array elements, and a string with an escaped quote before the place.
        const QByteArray array = "{\"switchyard\": {\"api_keys\": [\"a\\\"b\" \"c\"]}}";
        const auto a = parseConfig(array, noEnv);
        QVERIFY(!a.hasValue());
        QCOMPARE(a.error()[0].line, 1);
        QCOMPARE(a.error()[0].column, 37); // the opening quote of "c"
        QVERIFY2(a.error()[0].message.endsWith(u"expected ',' or ']'"_s), qPrintable(a.error()[0].message));

        // A number where the comma should be: the number's first digit.
        const auto n = parseConfig("[1 23]", noEnv);
        QVERIFY(!n.hasValue());
        QCOMPARE(n.error()[0].column, 4);
    }

    void duplicateMembersRejected()
    {
        const QByteArray doc =
            "{\"providers\": {\"p1\": {\"keys\": [{\"name\": \"k\", \"weight\": 1, \"weight\": 2}],"
            "\"network_config\": {\"base_url\": \"http://h\"},"
            "\"custom_provider_config\": {\"base_provider_type\": \"openai\"}},"
            "\"p1\": {}}}";
        const auto r = parseConfig(doc, noEnv);
        QVERIFY(!r.hasValue());
        QVERIFY2(hasProblem(r.error(), u"providers.p1.keys[0].weight"_s, u"more than once"_s),
                 qPrintable(describe(r.error())));
        QVERIFY2(hasProblem(r.error(), u"providers.p1"_s, u"more than once"_s),
                 qPrintable(describe(r.error())));
    }

    void severalProblemsAtOnce()
    {
        Json j = minimal();
        Json &p = j["providers"]["p1"];
        p["keys"][0]["weight"] = -2;
        p["keys"][0]["value"] = "env.MISSING_VAR";
        p["network_config"].erase("base_url");
        p["network_config"]["extra_headers"] = {{"X-Ok", "fine"}, {"X-Bad", "a\r\nb"}};
        p["custom_provider_config"]["base_provider_type"] = "cohere";
        j["switchyard"] = {{"listen", "::1:80"}, {"drain_timout_ms", 5}};
        const auto r = parseConfig(dump(j), noEnv);
        QVERIFY(!r.hasValue());
        const ConfigProblems &problems = r.error();
        QVERIFY2(problems.size() == 7, qPrintable(describe(problems)));
        QVERIFY(hasProblem(problems, u"providers.p1.keys[0].weight"_s, u"got -2"_s));
        QVERIFY(hasProblem(problems, u"providers.p1.keys[0].value"_s, u"MISSING_VAR"_s));
        QVERIFY(hasProblem(problems, u"providers.p1.network_config.base_url"_s, u"is required"_s));
        QVERIFY(hasProblem(problems, u"providers.p1.network_config.extra_headers.X-Bad"_s, u"CR or LF"_s));
        QVERIFY(hasProblem(problems, u"providers.p1.custom_provider_config.base_provider_type"_s,
                           u"\"cohere\""_s));
        QVERIFY(hasProblem(problems, u"switchyard.listen"_s, u"brackets"_s));
        QVERIFY(
            hasProblem(problems, u"switchyard.drain_timout_ms"_s, u"did you mean \"drain_timeout_ms\"?"_s));
    }

    void hostileInputDoesNotThrow_data()
    {
        QTest::addColumn<QByteArray>("doc");
        QTest::newRow("deep nesting") << QByteArray(100000, '[');
        QTest::newRow("deep objects")
            << QByteArray("{\"providers\":") + QByteArray(200, '[') + QByteArray(200, ']') + "}";
        QTest::newRow("number overflow") << QByteArray("{\"providers\": 1e400}");
        QTest::newRow("huge weight, incomplete provider")
            << QByteArray("{\"providers\": {\"p\": {\"keys\": [{\"name\": \"k\", \"weight\": 1e308}]}}}");
        QTest::newRow("invalid utf8") << QByteArray("{\"providers\": \"\xff\"}");
        QTest::newRow("nul bytes") << QByteArray("{\"a\"\0:1}", 9);
        QTest::newRow("scalar") << QByteArray("42");
        QTest::newRow("null") << QByteArray("null");
        QTest::newRow("bom") << QByteArray("\xef\xbb\xbf{}");
    }

    void hostileInputDoesNotThrow()
    {
        QFETCH(QByteArray, doc);
        const auto r = parseConfig(doc, noEnv);
        QVERIFY(!r.hasValue());
        QVERIFY(!r.error().isEmpty());
        for (const ConfigProblem &p : r.error())
            QVERIFY(!p.message.isEmpty());
        const auto e = exportBifrostConfig(doc);
        QVERIFY(!e.hasValue());
    }

    void exportDropsOnlySwitchyard()
    {
        Json j;
        j["client"] = {{"drop_excess_requests", false}, {"initial_pool_size", 300}};
        j["providers"] = minimal()["providers"];
        j["providers"]["p1"]["keys"][0]["value"] = "env.NOT_SET_ANYWHERE";
        j["providers"]["p1"]["network_config"]["retry_backoff_max"] = "2s";
        j["providers"]["p1"]["network_config"]["extra_headers"] = {{"X-Z", "1"}, {"X-A", "2"}};
        j["providers"]["p1"]["unknown_bifrost_field"] = {1, 2.5, "x"};
        j["switchyard"] = {{"listen", "127.0.0.1:1234"}, {"routing", {{"default_strategy", "load_aware"}}}};
        j["governance"] = {{"virtual_keys", Json::array()}};
        const QByteArray original = dump(j);

        const auto exported = exportBifrostConfig(original);
        QVERIFY2(exported.hasValue(),
                 qPrintable(exported.hasValue() ? QString() : describe(exported.error())));
        const QByteArray text = *exported;
        QVERIFY(text.endsWith("}\n"));
        QVERIFY2(text.startsWith("{\n  \"client\": {\n    \"drop_excess_requests\": false"),
                 text.constData());
        QVERIFY(!text.contains("switchyard"));
        QVERIFY(!text.contains('\t'));
        QVERIFY(text.contains("env.NOT_SET_ANYWHERE")); // references stay references

        const Json back = Json::parse(text.toStdString());
        QCOMPARE(back.size(), std::size_t(3));
        std::vector<std::string> order;
        for (auto it = back.begin(); it != back.end(); ++it)
            order.push_back(it.key());
        QVERIFY((order == std::vector<std::string>{"client", "providers", "governance"}));
        QVERIFY(back["providers"] == j["providers"]);
        QCOMPARE(back["providers"].dump(), j["providers"].dump()); // same member order too
        QVERIFY(back["client"] == j["client"]);
        QVERIFY(back["governance"] == j["governance"]);

        // Both read to the same providers.
        const EnvLookup env = fakeEnv({{u"NOT_SET_ANYWHERE"_s, u"s"_s}});
        const auto a = parseConfig(original, env);
        const auto b = parseConfig(text, env);
        QVERIFY(a.hasValue() && b.hasValue());
        QCOMPARE(a->providers.size(), b->providers.size());
        for (std::size_t i = 0; i < a->providers.size(); ++i)
            QCOMPARE(describe(b->providers[i]), describe(a->providers[i]));
        QCOMPARE(b->settings.listenPort, GatewaySettings{}.listenPort);
        QCOMPARE(a->settings.listenPort, quint16(1234));
    }

    void exportSeedRoundTrips()
    {
        const QByteArray seed = readData("seed-bifrost.json");
        const auto exported = exportBifrostConfig(seed);
        QVERIFY(exported.hasValue());
        QVERIFY(Json::parse(exported->toStdString()) == Json::parse(seed.toStdString()));
        // The article's config is already 2-space indented JSON: export reproduces its providers block structure.
        QVERIFY(exported->contains("\n    \"vllm-server1\": {\n      \"keys\": ["));
        const auto again = exportBifrostConfig(*exported);
        QVERIFY(again.hasValue());
        QCOMPARE(*again, *exported); // idempotent
    }

    void exportRejectsBrokenProviders()
    {
        Json j = minimal();
        j["providers"]["p1"]["keys"][0]["weight"] = -1;
        j["switchyard"] = {{"no_such_field", 1}}; // not reported: it is not exported
        const auto r = exportBifrostConfig(dump(j));
        QVERIFY(!r.hasValue());
        QVERIFY2(r.error().size() == 1, qPrintable(describe(r.error())));
        QCOMPARE(r.error()[0].path, u"providers.p1.keys[0].weight"_s);

        Json ok = minimal();
        ok["switchyard"] = {{"no_such_field", 1}};
        QVERIFY(exportBifrostConfig(dump(ok)).hasValue());

        const auto syntax = exportBifrostConfig("{\"providers\": ");
        QVERIFY(!syntax.hasValue());
        QVERIFY(syntax.error()[0].line > 0);
    }

    void loadFileErrors()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString missing = dir.filePath(u"nope.json"_s);
        const auto r = loadConfigFile(missing, noEnv);
        QVERIFY(!r.hasValue());
        QCOMPARE(r.error().size(), 1);
        QCOMPARE(r.error()[0].path, missing);
        QVERIFY2(r.error()[0].toString().startsWith(missing + u": cannot read"_s),
                 qPrintable(r.error()[0].toString()));

        const auto d = loadConfigFile(dir.path(), noEnv);
        QVERIFY(!d.hasValue());
        QCOMPARE(d.error().size(), 1);
        QCOMPARE(d.error()[0].path, dir.path());

        const QString bad = dir.filePath(u"bad.json"_s);
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\n\n  \"providers\": [,]\n}");
        f.close();
        const auto s = loadConfigFile(bad, noEnv);
        QVERIFY(!s.hasValue());
        QCOMPARE(s.error()[0].line, 3);
        QCOMPARE(s.error()[0].column, 17);
    }

    void listenAddress_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::addColumn<QString>("error"); // fragment of the error; empty = must parse
        auto ok = [](const char *name, const QString &text, const QString &host, int port) {
            QTest::newRow(name) << text << host << port << QString();
        };
        auto bad = [](const char *name, const QString &text, const QString &error) {
            QTest::newRow(name) << text << QString() << 0 << error;
        };
        ok("ipv4", u"0.0.0.0:8080"_s, u"0.0.0.0"_s, 8080);
        ok("loopback ephemeral", u"127.0.0.1:0"_s, u"127.0.0.1"_s, 0);
        ok("ipv6", u"[::1]:8080"_s, u"::1"_s, 8080);
        ok("ipv6 any", u"[::]:443"_s, u"::"_s, 443);
        ok("port only with colon", u":8080"_s, u"127.0.0.1"_s, 8080);
        ok("port only", u"8080"_s, u"127.0.0.1"_s, 8080);
        ok("hostname", u"localhost:9000"_s, u"localhost"_s, 9000);
        ok("fqdn", u"gw.example.com:65535"_s, u"gw.example.com"_s, 65535);
        ok("trimmed", u"  10.1.2.3:80 "_s, u"10.1.2.3"_s, 80);
        bad("empty", QString(), u"empty"_s);
        bad("no port", u"localhost"_s, u"missing port"_s);
        bad("colon no port", u"localhost:"_s, u"missing port"_s);
        bad("port not a number", u"localhost:http"_s, u"port \"http\" is not a number"_s);
        bad("negative port", u"localhost:-1"_s, u"is not a number"_s);
        bad("port too big", u"localhost:65536"_s, u"out of range"_s);
        bad("port way too big", u"localhost:99999999999"_s, u"out of range"_s);
        bad("ipv6 without brackets", u"::1:8080"_s, u"brackets"_s);
        bad("ipv6 without port", u"[::1]"_s, u"missing :PORT"_s);
        bad("unclosed bracket", u"[::1:8080"_s, u"missing ']'"_s);
        bad("ipv4 in brackets", u"[1.2.3.4]:80"_s, u"not an IPv6 address"_s);
        bad("bad host", u"bad host!:80"_s, u"not a valid host"_s);
        bad("bad ipv4", u"300.1.1.1:80"_s, u"not a valid host"_s);
        bad("star", u"*:80"_s, u"not a valid host"_s);
    }

    void listenAddress()
    {
        QFETCH(QString, text);
        QFETCH(QString, host);
        QFETCH(int, port);
        QFETCH(QString, error);
        const auto r = parseListenAddress(text);
        if (error.isEmpty()) {
            QVERIFY2(r.hasValue(), qPrintable(r.hasValue() ? QString() : r.error()));
            QCOMPARE(r->host, host);
            QCOMPARE(int(r->port), port);
        } else {
            QVERIFY(!r.hasValue());
            QVERIFY2(r.error().contains(error), qPrintable(r.error()));
        }
    }

    void problemToString()
    {
        QCOMPARE((ConfigProblem{{}, 3, 14, u"boom"_s}.toString()), u"line 3, column 14: boom"_s);
        QCOMPARE((ConfigProblem{u"providers.a.keys[0].weight"_s, 0, 0, u"boom"_s}.toString()),
                 u"providers.a.keys[0].weight: boom"_s);
        QCOMPARE((ConfigProblem{{}, 0, 0, u"boom"_s}.toString()), u"boom"_s);
    }
};

QTEST_GUILESS_MAIN(TestConfigLoader)
#include "tst_configloader.moc"
