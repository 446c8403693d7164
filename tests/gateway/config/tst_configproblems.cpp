// The configuration loader refusing what it should: every kind of mistake reported with its path (or line
// and column), all of them at once, names and backoffs checked, duplicates and hostile input that never
// throws.
#include "config/configloader.h"
#include "configtesting.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace switchyard::config;
using namespace switchyard::config::testing;
using namespace Qt::Literals::StringLiterals;

class TestConfigProblems final : public QObject
{
    Q_OBJECT

private slots:
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
            u"switchyard.routing.models.m"_s,
            u"weighted_round_robin, least_outstanding, load_aware, "
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
        row("session header with a space", "/switchyard",
            "{\"routing\": {\"session_header\": \"X Session\"}}", u"switchyard.routing.session_header"_s,
            u"is not a header name"_s);
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
        row("redis_url not a URL", "/switchyard", "{\"redis_url\": \"10.0.0.9:6379\"}",
            u"switchyard.redis_url"_s, u"redis://"_s);
        row("redis_url with TLS", "/switchyard", "{\"redis_url\": \"rediss://10.0.0.9:6380\"}",
            u"switchyard.redis_url"_s, u"TLS"_s);
        row("redis_url database", "/switchyard", "{\"redis_url\": \"redis://10.0.0.9/31\"}",
            u"switchyard.redis_url"_s, u"0 to 15"_s);
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
};

QTEST_GUILESS_MAIN(TestConfigProblems)
#include "tst_configproblems.moc"
