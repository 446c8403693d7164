// The dispatcher over its route table: every endpoint answers its methods, a wrong method is a 405
// that says what is allowed, an unknown path a 404 naming what is served, and model lookups answer
// what the routing table knows. No sockets: requests go straight to dispatchRequest.

#include "config/configloader.h"
#include "proxy/audioupload.h"
#include "proxy/dispatcher.h"
#include "proxy/routehandlers.h"
#include "proxy/routes.h"
#include "routing/routingtable.h"
#include "stats/gatewaystats.h"

#include <QTest>
#include <nlohmann/json.hpp>

using namespace switchyard;
using namespace Qt::Literals::StringLiterals;

namespace {

const QByteArray TwoProviders =
    R"({"providers":{)"
    R"("n1":{"keys":[{"name":"k","value":"","models":["m1","m2"],"weight":1}],"network_config":{"base_url":"http://127.0.0.1:9"},)"
    R"("custom_provider_config":{"base_provider_type":"openai"}},)"
    R"("n2":{"keys":[{"name":"k","value":"","models":["m1"],"weight":1}],"network_config":{"base_url":"http://127.0.0.1:9"},)"
    R"("custom_provider_config":{"base_provider_type":"openai","allowed_requests":{"embedding":false}}}},)";

nlohmann::json json(const QByteArray &body)
{
    return nlohmann::json::parse(body.toStdString(), nullptr, false);
}

} // namespace

class TestDispatcher final : public QObject
{
    Q_OBJECT

private:
    std::shared_ptr<stats::GatewayStats> m_stats = std::make_shared<stats::GatewayStats>();

    proxy::ExchangeContext context(const QByteArray &settings = "{}")
    {
        auto cfg = config::parseConfig(QByteArray(TwoProviders + R"("switchyard":)" + settings + "}"));
        if (!cfg)
            qFatal("test config rejected: %s", qPrintable(cfg.error().first().toString()));
        proxy::ExchangeContext c;
        auto stats = m_stats;
        c.table = routing::RoutingTable::build(*cfg, [stats](const QString &n) { return stats->nodeRuntime(n); });
        c.stats = m_stats.get();
        return c;
    }

    static http::Request request(const QByteArray &method, const QByteArray &target, const QByteArray &body = {},
                                 http::Headers headers = {}) // views into storage the caller keeps
    {
        http::Request r;
        r.method = method;
        r.target = target;
        const qsizetype q = target.indexOf('?');
        r.path = q < 0 ? target : target.left(q);
        r.body = body;
        r.headers = std::move(headers);
        r.fromLoopback = true;
        return r;
    }

    proxy::Dispatch dispatch(const http::Request &r, const QByteArray &settings = "{}")
    {
        return proxy::dispatchRequest(r, context(settings), nullptr);
    }

private slots:
    void everyRouteAnswersItsMethod_data()
    {
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QByteArray>("target");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("status"); // 0: an exchange is started
        QTest::newRow("health") << QByteArray("GET") << QByteArray("/health") << QByteArray() << 200;
        QTest::newRow("health head") << QByteArray("HEAD") << QByteArray("/health") << QByteArray() << 200;
        QTest::newRow("chat") << QByteArray("POST") << QByteArray("/v1/chat/completions")
                              << QByteArray(R"({"model":"m1","messages":[]})") << 0;
        QTest::newRow("completions") << QByteArray("POST") << QByteArray("/v1/completions")
                                     << QByteArray(R"({"model":"m1","prompt":"x"})") << 0;
        QTest::newRow("embeddings") << QByteArray("POST") << QByteArray("/v1/embeddings")
                                    << QByteArray(R"({"model":"m2","input":"x"})") << 0;
        QTest::newRow("models") << QByteArray("GET") << QByteArray("/v1/models") << QByteArray() << 200;
        QTest::newRow("model") << QByteArray("GET") << QByteArray("/v1/models/m1") << QByteArray() << 200;
        QTest::newRow("metrics") << QByteArray("GET") << QByteArray("/metrics") << QByteArray() << 200;
        QTest::newRow("status") << QByteArray("GET") << QByteArray("/api/status") << QByteArray() << 200;
        QTest::newRow("history") << QByteArray("GET") << QByteArray("/api/history?since=0") << QByteArray() << 200;
        QTest::newRow("requests") << QByteArray("GET") << QByteArray("/api/requests?after=0") << QByteArray() << 200;
        QTest::newRow("config") << QByteArray("PUT") << QByteArray("/api/config") << QByteArray("{}") << 0;
        QTest::newRow("node drain") << QByteArray("POST") << QByteArray("/api/nodes/n1/drain") << QByteArray() << 200;
        QTest::newRow("config get") << QByteArray("GET") << QByteArray("/api/config") << QByteArray() << 200;
        QTest::newRow("node probe") << QByteArray("POST") << QByteArray("/api/nodes/n1/probe") << QByteArray() << 0;
        QTest::newRow("pause") << QByteArray("POST") << QByteArray("/api/gateway/pause") << QByteArray() << 0;
        QTest::newRow("resume") << QByteArray("POST") << QByteArray("/api/gateway/resume") << QByteArray() << 0;
    }
    void everyRouteAnswersItsMethod()
    {
        QFETCH(QByteArray, method);
        QFETCH(QByteArray, target);
        QFETCH(QByteArray, body);
        QFETCH(int, status);
        const proxy::Dispatch d = dispatch(request(method, target, body));
        if (status == 0) {
            QVERIFY2(!d.local, d.local ? d.local->body.constData() : "");
            QVERIFY(d.exchange);
        } else {
            QVERIFY(d.local);
            QCOMPARE(d.local->status, status);
        }
    }

    void wrongMethodIs405WithAllow_data()
    {
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QByteArray>("target");
        QTest::addColumn<QByteArray>("allow");
        QTest::newRow("post health") << QByteArray("POST") << QByteArray("/health") << QByteArray("GET, HEAD");
        QTest::newRow("get chat") << QByteArray("GET") << QByteArray("/v1/chat/completions") << QByteArray("POST");
        QTest::newRow("get completions") << QByteArray("GET") << QByteArray("/v1/completions") << QByteArray("POST");
        QTest::newRow("put embeddings") << QByteArray("PUT") << QByteArray("/v1/embeddings") << QByteArray("POST");
        QTest::newRow("post models") << QByteArray("POST") << QByteArray("/v1/models") << QByteArray("GET");
        QTest::newRow("delete model") << QByteArray("DELETE") << QByteArray("/v1/models/m1") << QByteArray("GET");
        QTest::newRow("post metrics") << QByteArray("POST") << QByteArray("/metrics") << QByteArray("GET");
        QTest::newRow("put status") << QByteArray("PUT") << QByteArray("/api/status") << QByteArray("GET");
        QTest::newRow("post history") << QByteArray("POST") << QByteArray("/api/history") << QByteArray("GET");
        QTest::newRow("head requests") << QByteArray("HEAD") << QByteArray("/api/requests") << QByteArray("GET");
        QTest::newRow("post config") << QByteArray("POST") << QByteArray("/api/config") << QByteArray("GET, HEAD, PUT");
        QTest::newRow("get pause") << QByteArray("GET") << QByteArray("/api/gateway/pause") << QByteArray("POST");
        QTest::newRow("get node") << QByteArray("GET") << QByteArray("/api/nodes/n1/drain") << QByteArray("POST");
    }
    void wrongMethodIs405WithAllow()
    {
        QFETCH(QByteArray, method);
        QFETCH(QByteArray, target);
        QFETCH(QByteArray, allow);
        const proxy::Dispatch d = dispatch(request(method, target));
        QVERIFY(d.local);
        QCOMPARE(d.local->status, 405);
        QVERIFY2(d.local->headerLines.contains(QByteArray("Allow: " + allow + "\r\n")), d.local->headerLines.constData());
        const auto j = json(d.local->body);
        QCOMPARE(j["error"]["code"].get<std::string>(), std::string("method_not_allowed"));
        QVERIFY(j["error"]["message"].get<std::string>().find(allow.toStdString()) != std::string::npos);
    }

    void unknownPathIs404NamingTheEndpoints()
    {
        for (const QByteArray target : {"/v2/x", "/", "/v1/chat", "/healthz", "/v1/models-x"}) {
            const proxy::Dispatch d = dispatch(request("GET", target));
            QVERIFY(d.local);
            QCOMPARE(d.local->status, 404);
            const QString message = QString::fromStdString(json(d.local->body)["error"]["message"].get<std::string>());
            QVERIFY2(message.contains(u"/v1/chat/completions, /v1/completions, /v1/embeddings, "_s), qPrintable(message));
            // vLLM's own endpoints and audio uploads are served too; and the Responses and Messages APIs.
            for (const QString &served : {u"/v1/audio/transcriptions, "_s, u"/tokenize, "_s, u"/v2/rerank, "_s,
                                          u"/classify"_s, u"/v1/responses, "_s, u"/v1/messages/count_tokens"_s, u"/v1/models, "_s})
                QVERIFY2(message.contains(served), qPrintable(message));
        }
        // An unknown management path is a plain 404.
        const proxy::Dispatch d = dispatch(request("GET", "/api/nope"));
        QCOMPARE(d.local->status, 404);
        QCOMPARE(json(d.local->body)["error"]["code"].get<std::string>(), std::string("not_found"));
    }

    void modelLookups()
    {
        proxy::Dispatch d = dispatch(request("GET", "/v1/models"));
        auto j = json(d.local->body);
        QCOMPARE(j["object"].get<std::string>(), std::string("list"));
        QStringList ids;
        for (const auto &m : j["data"])
            ids << QString::fromStdString(m["id"].get<std::string>());
        QVERIFY2(ids.contains(u"m1"_s) && ids.contains(u"m2"_s) && ids.contains(u"n1/m2"_s), qPrintable(ids.join(u' ')));

        d = dispatch(request("GET", "/v1/models/m1"));
        j = json(d.local->body);
        QCOMPARE(j["id"].get<std::string>(), std::string("m1"));
        QCOMPARE(j["owned_by"].get<std::string>(), std::string("n1,n2"));

        d = dispatch(request("GET", "/v1/models/n1%2Fm2")); // percent-encoded pin
        QCOMPARE(d.local->status, 200);
        QCOMPARE(json(d.local->body)["id"].get<std::string>(), std::string("n1/m2"));

        d = dispatch(request("GET", "/v1/models/nope"));
        QCOMPARE(d.local->status, 404);
        QCOMPARE(json(d.local->body)["error"]["code"].get<std::string>(), std::string("model_not_found"));
    }

    void proxiedBodiesAreCheckedFirst()
    {
        auto code = [&](const QByteArray &path, const QByteArray &body) {
            const proxy::Dispatch d = dispatch(request("POST", path, body));
            return d.local ? json(d.local->body)["error"]["code"].get<std::string>() : std::string("exchange");
        };
        QCOMPARE(code("/v1/chat/completions", "{"), std::string("invalid_json"));
        QCOMPARE(code("/v1/chat/completions", "[]"), std::string("invalid_json"));
        QCOMPARE(code("/v1/chat/completions", "{}"), std::string("missing_model"));
        QCOMPARE(code("/v1/chat/completions", R"({"model":"m1","fallbacks":3})"), std::string("invalid_fallbacks"));
        QCOMPARE(code("/v1/chat/completions", R"({"model":"nope"})"), std::string("model_not_found"));
        // n2 does not allow embeddings: the pinned request is refused, the pooled one goes to n1.
        QCOMPARE(code("/v1/embeddings", R"({"model":"n2/m1","input":"x"})"), std::string("request_type_not_allowed"));
        QCOMPARE(code("/v1/embeddings", R"({"model":"m1","input":"x"})"), std::string("exchange"));
    }

    // Callers beyond loopback cannot come from a test's sockets (127.0.0.1 only): the roles' network
    // side is checked here, straight on the dispatcher.
    void managementBeyondLoopbackAnswersAdminKeysOnly()
    {
        auto remote = [](const QByteArray &method, const QByteArray &target, const QByteArray &key = {}) {
            http::Request r = request(method, target);
            r.fromLoopback = false;
            if (!key.isEmpty())
                http::setHeaders(r, {{"authorization", QByteArray("Bearer " + key)}});
            return r;
        };
        // No keys at all (the operator allowed unauthenticated access): the OpenAI endpoints answer,
        // the management API does not, and says what to set.
        const QByteArray open = R"({"listen":"0.0.0.0:0","allow_unauthenticated_network_access":true})";
        proxy::Dispatch d = dispatch(remote("GET", "/api/status"), open);
        QCOMPARE(d.local->status, 403);
        QVERIFY(d.local->body.contains("switchyard.admin_keys"));
        QCOMPARE(dispatch(remote("GET", "/metrics"), open).local->status, 403);
        QCOMPARE(dispatch(remote("GET", "/v1/models"), open).local->status, 200);

        // Client keys only: a client key is refused, no key is a 401.
        const QByteArray clientsOnly = R"({"listen":"0.0.0.0:0","api_keys":["c1"]})";
        QCOMPARE(dispatch(remote("GET", "/api/status", "c1"), clientsOnly).local->status, 403);
        QCOMPARE(dispatch(remote("GET", "/api/status"), clientsOnly).local->status, 403);
        QCOMPARE(dispatch(remote("GET", "/v1/models", "c1"), clientsOnly).local->status, 200);
        QCOMPARE(dispatch(remote("GET", "/v1/models"), clientsOnly).local->status, 401);

        // With admin keys, an admin key is let in from anywhere.
        const QByteArray roles = R"({"listen":"0.0.0.0:0","api_keys":["c1"],"admin_keys":["a1"]})";
        QCOMPARE(dispatch(remote("GET", "/api/status", "a1"), roles).local->status, 200);
        QCOMPARE(dispatch(remote("GET", "/metrics", "a1"), roles).local->status, 200);
        QCOMPARE(dispatch(remote("GET", "/api/status", "c1"), roles).local->status, 403);
        QCOMPARE(dispatch(remote("GET", "/api/status", "c2"), roles).local->status, 401);
        QCOMPARE(dispatch(remote("GET", "/api/status"), roles).local->status, 401);
        QCOMPARE(dispatch(remote("GET", "/health"), roles).local->status, 200);

        // The operator's opening of /metrics for a trusted Prometheus.
        const QByteArray scraped = R"({"listen":"0.0.0.0:0","admin_keys":["a1"],"metrics_without_key":true})";
        QCOMPARE(dispatch(remote("GET", "/metrics"), scraped).local->status, 200);
        QCOMPARE(dispatch(remote("GET", "/api/status"), scraped).local->status, 401);
    }

    void routeTableIsTheOneList()
    {
        // Probes, scrapes and the gateway's own model list are not client traffic; inference endpoints
        // and unknown paths are.
        QVERIFY(!proxy::countsAsClientTraffic("/health"));
        QVERIFY(!proxy::countsAsClientTraffic("/metrics"));
        QVERIFY(!proxy::countsAsClientTraffic("/api/status"));
        QVERIFY(!proxy::countsAsClientTraffic("/api/anything"));
        QVERIFY(proxy::countsAsClientTraffic("/v1/chat/completions"));
        QVERIFY(!proxy::countsAsClientTraffic("/v1/models"));
        QVERIFY(!proxy::countsAsClientTraffic("/v1/models/m1"));
        QVERIFY(proxy::countsAsClientTraffic("/v2/x"));
        for (const proxy::Route &r : proxy::routes()) {
            QVERIFY(r.handler);
            QVERIFY(r.methods != proxy::NoMethod);
            QCOMPARE(proxy::findRoute(r.prefix ? QByteArray(r.path.toByteArray() + "x") : r.path.toByteArray()), &r);
        }
    }

    // Which allowed_requests flag a request is comes from its route's row: every route that sends a
    // request body to a node has one, and a streamed request has the stream flag where one exists.
    void routesNameTheirAllowedRequestsFlag_data()
    {
        QTest::addColumn<QByteArray>("path");
        QTest::addColumn<QByteArray>("plain");
        QTest::addColumn<QByteArray>("streamed");
        const auto row = [](const char *path, const char *plain, const char *streamed) {
            QTest::newRow(path) << QByteArray(path) << QByteArray(plain) << QByteArray(streamed);
        };
        row("/v1/chat/completions", "chat_completion", "chat_completion_stream");
        row("/v1/completions", "text_completion", "text_completion_stream");
        row("/v1/embeddings", "embedding", "embedding");
        row("/v1/responses", "responses", "responses_stream");
        row("/v1/messages", "responses", "responses_stream");
        row("/v1/messages/count_tokens", "count_tokens", "count_tokens");
        row("/v1/audio/transcriptions", "transcription", "transcription_stream");
        row("/v1/audio/translations", "translation", "translation_stream");
        row("/tokenize", "tokenize", "tokenize");
        row("/detokenize", "tokenize", "tokenize");
        row("/v1/rerank", "rerank", "rerank");
        row("/rerank", "rerank", "rerank");
        row("/v2/rerank", "rerank", "rerank");
        row("/v1/score", "score", "score");
        row("/score", "score", "score");
        row("/pooling", "pooling", "pooling");
        row("/classify", "classify", "classify");
    }

    void routesNameTheirAllowedRequestsFlag()
    {
        QFETCH(QByteArray, path);
        QFETCH(QByteArray, plain);
        QFETCH(QByteArray, streamed);
        const proxy::Route *r = proxy::findRoute(path);
        QVERIFY(r && r->kinds);
        QCOMPARE(QByteArray(config::flagName(proxy::requestKind(*r, false))), plain);
        QCOMPARE(QByteArray(config::flagName(proxy::requestKind(*r, true))), streamed);
    }

    void everyProxiedRouteIsInTheFlagList()
    {
        // A new row that sends work to a node needs its flag, or the allowed_requests check could not
        // keep a provider to the work its model does.
        for (const proxy::Route &r : proxy::routes()) {
            const bool toANode = r.handler == &proxy::handlers::proxied || r.handler == &proxy::handlers::audioUpload;
            QCOMPARE(bool(r.kinds), toANode);
        }
    }
};

QTEST_GUILESS_MAIN(TestDispatcher)
#include "tst_dispatcher.moc"
