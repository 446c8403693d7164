// vLLM's own endpoints through the gateway (rows of proxy/routes.cpp): /tokenize, /detokenize, rerank, score,
// pooling and classify go to simulated nodes over real loopback sockets with the routing, pins, failover,
// allowed_requests, token usage and request log of embeddings.
#include "common/testhttpclient.h"
#include "gateway/gatewayfixture.h"

#include <QTest>
#include <nlohmann/json.hpp>

using namespace switchyard;
using namespace switchyard::testing;
using namespace Qt::Literals::StringLiterals;

namespace {

nlohmann::json parse(const QByteArray &b)
{
    return nlohmann::json::parse(b.begin(), b.end(), nullptr, false);
}

// A body for each endpoint, with the model given.
QByteArray bodyFor(const QByteArray &path, const QByteArray &model)
{
    const QByteArray m = "\"model\":\"" + model + "\"";
    if (path == "/tokenize")
        return "{" + m + ",\"prompt\":\"The quick brown fox jumps\"}";
    if (path == "/detokenize")
        return "{" + m + ",\"tokens\":[1,345,678]}";
    if (path.endsWith("rerank"))
        return "{" + m +
               ",\"query\":\"capital of France\",\"documents\":[\"Paris is\",\"Berlin "
               "is\",\"Rome\"],\"top_n\":2}";
    if (path.endsWith("score"))
        return "{" + m + ",\"text_1\":\"capital of France\",\"text_2\":[\"Paris\",\"Berlin\"]}";
    return "{" + m + ",\"input\":[\"first text\",\"second text\"]}"; // /pooling, /classify
}

const QList<QByteArray> Paths = {"/tokenize", "/detokenize", "/v1/rerank", "/rerank",  "/v2/rerank",
                                 "/v1/score", "/score",      "/pooling",   "/classify"};

} // namespace

class TestVllmEndpoints final : public QObject
{
    Q_OBJECT

private slots:
    void eachEndpointAnswersInVllmsShape_data()
    {
        QTest::addColumn<QByteArray>("path");
        for (const QByteArray &p : Paths)
            QTest::newRow(p.constData()) << p;
    }
    void eachEndpointAnswersInVllmsShape()
    {
        QFETCH(QByteArray, path);
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s, u"b"_s}));
        const TestResponse r = request(f.port, "POST", path, bodyFor(path, "m1"));
        QCOMPARE(r.status, 200);
        QVERIFY(r.node() == "a" || r.node() == "b");
        const auto j = parse(r.body);
        QVERIFY2(j.is_object(), r.body.constData());
        if (path == "/tokenize") {
            // BOS plus the node's estimate of the prompt (25 characters / 4), as a completion counts it.
            QCOMPARE(j["count"].get<int>(), 8);
            QCOMPARE(j["tokens"].size(), size_t(8));
            QVERIFY(j.contains("max_model_len"));
        } else if (path == "/detokenize") {
            QVERIFY(!j["prompt"].get<std::string>().empty());
        } else if (path.endsWith("rerank")) {
            QCOMPARE(j["results"].size(), size_t(2)); // top_n
            QVERIFY(j["results"][0]["relevance_score"].get<double>() >=
                    j["results"][1]["relevance_score"].get<double>());
            QVERIFY(j["results"][0]["document"].contains("text"));
            QVERIFY(j["usage"]["prompt_tokens"].get<int>() > 0);
            QCOMPARE(j["model"].get<std::string>(), std::string("m1"));
        } else {
            QCOMPARE(j["object"].get<std::string>(), std::string("list"));
            QCOMPARE(j["data"].size(), size_t(2));
            QVERIFY(j["usage"]["prompt_tokens"].get<int>() > 0);
            const char *object = path.endsWith("score") ? "score" : path == "/pooling" ? "pooling" : nullptr;
            if (object)
                QCOMPARE(j["data"][0]["object"].get<std::string>(), std::string(object));
            else
                QCOMPARE(j["data"][0]["num_classes"].get<int>(), 2);
        }
        // Same request, same answer: the scores derive from the texts.
        const TestResponse again = request(f.port, "POST", path, bodyFor(path, "m1"));
        if (path.endsWith("rerank"))
            QVERIFY(parse(again.body)["results"] == j["results"]);
    }

    void pinsReachThePinnedNodeWithTheBareModel()
    {
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s, u"b"_s}));
        for (const QByteArray &path : Paths) {
            for (int i = 0; i < 3; ++i) {
                // The node answers 404 for a model it does not serve, so a 200 shows the bare name arrived.
                const TestResponse r = request(f.port, "POST", path, bodyFor(path, "b/m1"));
                QVERIFY2(r.status == 200, QByteArray(path + ": " + r.body).constData());
                QCOMPARE(r.node(), QByteArray("b"));
                const auto j = parse(r.body);
                if (j.contains("model"))
                    QCOMPARE(j["model"].get<std::string>(), std::string("m1"));
            }
        }
        QCOMPARE(f.node(0).counters().requestsReceived, 0);
    }

    void failsOverBeforeTheFirstByte()
    {
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s, u"b"_s}));
        sim::FaultParams always;
        always.errorFraction = 1.0;
        f.node(0).setFault(sim::FaultMode::Error500, always);
        for (int i = 0; i < 4; ++i) {
            const TestResponse r = request(f.port, "POST", "/v1/rerank", bodyFor("/v1/rerank", "m1"));
            QCOMPARE(r.status, 200);
            QCOMPARE(r.node(), QByteArray("b"));
        }
        QVERIFY(f.node(0).counters().faultsInjected >= 1); // a was tried and failed, b answered
    }

    void unknownModelAndMissingModel()
    {
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s}));
        const TestResponse missing = request(f.port, "POST", "/tokenize", "{\"prompt\":\"hi\"}");
        QCOMPARE(missing.status, 400);
        QCOMPARE(parse(missing.body)["error"]["param"].get<std::string>(), std::string("model"));
        const TestResponse unknown = request(f.port, "POST", "/score", bodyFor("/score", "nope"));
        QCOMPARE(unknown.status, 404);
        QCOMPARE(f.node(0).counters().requestsReceived, 0);
        // A wrong method is 405 naming POST, as for the OpenAI endpoints.
        const TestResponse get = request(f.port, "GET", "/v1/rerank");
        QCOMPARE(get.status, 405);
        QCOMPARE(get.header("allow"), QByteArray("POST"));
    }

    void allowedRequestsRefuseByFlag()
    {
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s, u"b"_s}, {}, {}, [](config::GatewayConfig &c) {
            // a takes no rerank and no tokenize; b takes no score.
            c.providers[0].allowed.rerank = false;
            c.providers[0].allowed.tokenize = false;
            c.providers[1].allowed.score = false;
            c.providers[1].allowed.tokenize = false;
        }));
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(request(f.port, "POST", "/rerank", bodyFor("/rerank", "m1")).node(), QByteArray("b"));
            QCOMPARE(request(f.port, "POST", "/v1/score", bodyFor("/v1/score", "m1")).node(),
                     QByteArray("a"));
        }
        const TestResponse pinned = request(f.port, "POST", "/v2/rerank", bodyFor("/v2/rerank", "a/m1"));
        QCOMPARE(pinned.status, 400);
        const auto e = parse(pinned.body)["error"];
        QCOMPARE(e["code"].get<std::string>(), std::string("request_type_not_allowed"));
        QVERIFY2(
            QByteArray::fromStdString(e["message"].get<std::string>()).contains("allowed_requests.rerank"),
            pinned.body.constData());
        const TestResponse none = request(f.port, "POST", "/detokenize", bodyFor("/detokenize", "m1"));
        QCOMPARE(none.status, 400);
        QVERIFY(none.body.contains("allowed_requests.tokenize"));
    }

    void usageCountsInMetricsAndTheRequestLog()
    {
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s}));
        qint64 prompt = 0;
        for (const QByteArray &path : {QByteArray("/v1/rerank"), QByteArray("/score"), QByteArray("/pooling"),
                                       QByteArray("/classify")}) {
            const TestResponse r = request(f.port, "POST", path, bodyFor(path, "m1"));
            QCOMPARE(r.status, 200);
            prompt += parse(r.body)["usage"]["prompt_tokens"].get<qint64>();
        }
        const TestResponse metrics = request(f.port, "GET", "/metrics");
        QCOMPARE(metrics.status, 200);
        QTRY_COMPARE(metricValue(request(f.port, "GET", "/metrics").body,
                                 "switchyard_node_prompt_tokens_total{node=\"a\"}"),
                     prompt);
        // Generated tokens there are none: a rerank's documents are no completion text.
        QCOMPARE(metricValue(request(f.port, "GET", "/metrics").body,
                             "switchyard_node_completion_tokens_total{node=\"a\"}"),
                 0);
        const auto log = parse(request(f.port, "GET", "/api/requests").body);
        bool seen = false;
        for (const auto &r : log["requests"]) {
            if (r["path"] == "/v1/rerank") {
                seen = true;
                QVERIFY(r["prompt_tokens"].get<qint64>() > 0);
                QCOMPARE(r["status"].get<int>(), 200);
            }
        }
        QVERIFY2(seen, log.dump().c_str());
    }
};

QTEST_GUILESS_MAIN(TestVllmEndpoints)
#include "tst_vllmendpoints.moc"
