// The configuration loader reading what it should: the article's Bifrost JSON, defaults, explicit values,
// Switchyard's own settings, env references, files and listen addresses. Mistakes are tst_configproblems,
// the export to Bifrost tst_bifrostexport.
#include "config/configloader.h"
#include "configtesting.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace switchyard::config;
using namespace switchyard::config::testing;
using namespace Qt::Literals::StringLiterals;

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
        j["providers"]["p1"]["custom_provider_config"]["allowed_requests"] = {{"chat_completion", true},
                                                                              {"transcription", true},
                                                                              {"transcription_stream", false},
                                                                              {"rerank", true},
                                                                              {"pooling", true}};
        const auto cfg = parseConfig(dump(j), noEnv);
        QVERIFY2(cfg.hasValue(), qPrintable(cfg.hasValue() ? QString() : describe(cfg.error())));
        const AllowedRequests &a = cfg->providers.at(0).allowed;
        QVERIFY(a.allows(RequestKind::Transcription));
        QVERIFY(!a.allows(RequestKind::TranscriptionStream));
        QVERIFY(a.allows(RequestKind::Translation));       // follows transcription
        QVERIFY(a.allows(RequestKind::TranslationStream)); // follows translation
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
        for (RequestKind kind :
             {RequestKind::Transcription, RequestKind::TranscriptionStream, RequestKind::Translation,
              RequestKind::TranslationStream, RequestKind::Rerank, RequestKind::Tokenize, RequestKind::Score,
              RequestKind::Pooling, RequestKind::Classify})
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
        const auto redis = parseConfig(
            dump(j), fakeEnv({{u"S1_KEY"_s, u"s"_s}, {u"REDIS_URL"_s, u"redis://:pw@10.0.0.9"_s}}));
        QVERIFY2(redis.hasValue(), qPrintable(redis.hasValue() ? QString() : describe(redis.error())));
        QCOMPARE(redis->settings.redisUrl, u"redis://:pw@10.0.0.9"_s);
        QCOMPARE(redis->settings.redisUrlRef, u"env.REDIS_URL"_s);
        // A bad URL in the environment is named by the config's path, without the URL (it may hold a
        // password).
        const auto badRedis =
            parseConfig(dump(j), fakeEnv({{u"S1_KEY"_s, u"s"_s}, {u"REDIS_URL"_s, u"rediss://:pw@h"_s}}));
        QVERIFY(!badRedis.hasValue());
        QVERIFY2(hasProblem(badRedis.error(), u"switchyard.redis_url"_s, u"TLS"_s),
                 qPrintable(describe(badRedis.error())));
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
