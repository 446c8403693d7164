// The gateway end to end: real loopback sockets, real HTTP, simulated vLLM nodes on their own threads.
#include "common/testhttpclient.h"
#include "gatewayfixture.h"

#include <QSignalSpy>
#include <QTcpServer>
#include <QTest>
#include <nlohmann/json.hpp>

using namespace switchyard;
using namespace switchyard::testing;

namespace {
nlohmann::json parse(const QByteArray &b)
{
    return nlohmann::json::parse(b.begin(), b.end(), nullptr, false);
}
QString errorMessage(const TestResponse &r)
{
    const auto j = parse(r.body);
    if (j.is_discarded() || !j.contains("error"))
        return {};
    return QString::fromStdString(j["error"].value("message", std::string()));
}
} // namespace

class TestGateway final : public QObject
{
    Q_OBJECT

private slots:
    void chatCompletionThroughPool()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a"), QStringLiteral("b")}));
        const TestResponse r = request(f.port, "POST", "/v1/chat/completions", chatBody("m1", 5));
        QCOMPARE(r.status, 200);
        QVERIFY(r.complete);
        QVERIFY(r.node() == "a" || r.node() == "b");
        QCOMPARE(r.attempts(), 1);
        const auto j = parse(r.body);
        QVERIFY(!j.is_discarded());
        QCOMPARE(j["usage"]["completion_tokens"].get<int>(), 5);
        QCOMPARE(j["choices"][0]["finish_reason"].get<std::string>(), std::string("length"));
        QCOMPARE(j["model"].get<std::string>(), std::string("m1"));
    }

    void weightsAreExact_data()
    {
        QTest::addColumn<double>("wa");
        QTest::addColumn<double>("wb");
        QTest::addColumn<QByteArray>("expected"); // one period of picks
        QTest::newRow("1:1") << 1.0 << 1.0 << QByteArray("ab");
        QTest::newRow("3:1") << 3.0 << 1.0 << QByteArray("aaab");
        QTest::newRow("0.5:0.25") << 0.5 << 0.25 << QByteArray("aab");
    }
    void weightsAreExact()
    {
        QFETCH(double, wa);
        QFETCH(double, wb);
        QFETCH(QByteArray, expected);
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a"), QStringLiteral("b")}, {wa, wb}));
        QByteArray seen;
        TestClient c(f.port);
        for (int i = 0; i < expected.size() * 4; ++i) {
            c.send("POST", "/v1/chat/completions", chatBody("m1", 1));
            const TestResponse r = c.read();
            QCOMPARE(r.status, 200);
            seen += r.node();
        }
        QByteArray counts;
        const qsizetype as = seen.count('a');
        const qsizetype bs = seen.count('b');
        QCOMPARE(as, expected.count('a') * 4);
        QCOMPARE(bs, expected.count('b') * 4);
        // Smooth: within every period, the counts are exact.
        for (qsizetype p = 0; p + expected.size() <= seen.size(); p += expected.size())
            QCOMPARE(seen.mid(p, expected.size()).count('b'), expected.count('b'));
    }

    void pinnedModelReachesThatNode()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a"), QStringLiteral("b")}));
        for (int i = 0; i < 4; ++i) {
            const TestResponse r = request(f.port, "POST", "/v1/chat/completions", chatBody("b/m1", 1));
            QCOMPARE(r.status, 200);
            QCOMPARE(r.node(), QByteArray("b"));
            // The node saw the model part only.
            QCOMPARE(parse(r.body)["model"].get<std::string>(), std::string("m1"));
        }
        QCOMPARE(f.node(0).counters().requestsReceived, 0);
        QCOMPARE(f.node(1).counters().requestsReceived, 4);
    }

    void failsOverOnEachFailureKind_data()
    {
        QTest::addColumn<int>("fault");
        QTest::newRow("http-500") << int(sim::FaultMode::Error500);
        QTest::newRow("refused") << int(sim::FaultMode::Refuse);
        QTest::newRow("hang") << int(sim::FaultMode::Hang);
        QTest::newRow("engine-dead") << int(sim::FaultMode::EngineDead);
    }
    void failsOverOnEachFailureKind()
    {
        QFETCH(int, fault);
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a"), QStringLiteral("b")}, {}, {}, [](config::GatewayConfig &c) {
            c.settings.responseHeaderTimeoutMs = 400; // a hanging node fails over quickly
            c.settings.healthCheckIntervalMs = 600000; // failover itself, not health checks, is tested here
        }));
        // Let the first health check pass before the fault, so only real traffic can find it.
        QTRY_VERIFY_WITH_TIMEOUT(f.gateway.snapshot().nodes[0].probe.lastCheckMsSinceEpoch > 0, 3000);
        f.node(0).setFault(sim::FaultMode(fault));
        // Whatever the rotation, every request succeeds; those that met node a first name 2 attempts.
        int failedOver = 0;
        for (int i = 0; i < 4; ++i) {
            const TestResponse r = request(f.port, "POST", "/v1/chat/completions", chatBody("m1", 2));
            QCOMPARE(r.status, 200);
            QCOMPARE(r.node(), QByteArray("b"));
            if (r.attempts() == 2)
                ++failedOver;
        }
        QCOMPARE(failedOver, 2);
    }

    void allNodesFailGives502ListingEachNode()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a"), QStringLiteral("b")}));
        f.node(0).setFault(sim::FaultMode::Error500);
        f.node(1).setFault(sim::FaultMode::Refuse);
        const TestResponse r = request(f.port, "POST", "/v1/chat/completions", chatBody("m1", 2));
        QCOMPARE(r.status, 502);
        const QString msg = errorMessage(r);
        QVERIFY2(msg.contains(QStringLiteral("a: HTTP 500")), qPrintable(msg));
        // b is either tried and refuses, or already known to be down by its health check and tried as the
        // last resort (docs/ROUTING.md): a refused connection is cheap, and b might have been back.
        QVERIFY2(msg.contains(QStringLiteral("b: connection refused")) ||
                     msg.contains(QStringLiteral("b (last resort): connection refused")),
                 qPrintable(msg));
        QCOMPARE(r.attempts(), 2);
        QCOMPARE(QString::fromStdString(parse(r.body)["error"]["type"].get<std::string>()), QStringLiteral("server_error"));
    }

    void allNodesHangingGives504()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}, {}, {}, [](config::GatewayConfig &c) {
            c.settings.responseHeaderTimeoutMs = 300;
        }));
        f.node(0).setFault(sim::FaultMode::Hang);
        const TestResponse r = request(f.port, "POST", "/v1/chat/completions", chatBody("m1", 2));
        QCOMPARE(r.status, 504);
        QVERIFY(errorMessage(r).contains(QStringLiteral("no response headers")));
    }

    void maxRetriesRetriesTheSameNodeWithBackoff()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}, {}, {}, [](config::GatewayConfig &c) {
            c.providers[0].network.maxRetries = 2;
            c.providers[0].network.retryBackoffInitialMs = 20;
            c.providers[0].network.retryBackoffMaxMs = 50;
        }));
        f.node(0).setFault(sim::FaultMode::Error500);
        const TestResponse r = request(f.port, "POST", "/v1/chat/completions", chatBody("a/m1", 2));
        QCOMPARE(r.status, 502);
        QCOMPARE(r.attempts(), 3);
        QCOMPARE(f.node(0).counters().requestsReceived, 3);

        // A node that recovers while we back off is reached by the retry.
        sim::FaultParams half;
        half.errorFraction = 0.5;
        f.node(0).setFault(sim::FaultMode::Healthy);
        const TestResponse ok = request(f.port, "POST", "/v1/chat/completions", chatBody("a/m1", 2));
        QCOMPARE(ok.status, 200);
    }

    void fallbacksAreTriedAndRemoved()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a"), QStringLiteral("b")}));
        f.node(0).setFault(sim::FaultMode::Error500);
        const TestResponse r = request(f.port, "POST", "/v1/chat/completions",
                                       chatBody("a/m1", 2, false, ",\"fallbacks\":[\"b/m1\"]"));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.node(), QByteArray("b"));
        QCOMPARE(r.attempts(), 2);
    }

    void nonRetryable4xxPassesThrough()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a"), QStringLiteral("b")}, {}, [](sim::SimNodeOptions &o) {
            o.models = {QStringLiteral("other")}; // the node answers 404 for m1
        }));
        const TestResponse r = request(f.port, "POST", "/v1/chat/completions", chatBody("m1", 2));
        QCOMPARE(r.status, 404);
        QCOMPARE(r.attempts(), 1);
    }

    void streamsUnbufferedWithUsageAndDone()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}, {}, [](sim::SimNodeOptions &o) {
            o.performance.tokensPerSecond = 50; // 20 tokens ≈ 400 ms of generation
        }));
        const TestResponse r = request(f.port, "POST", "/v1/chat/completions", chatBody("m1", 20, true));
        QCOMPARE(r.status, 200);
        QVERIFY(r.complete);
        QVERIFY(r.header("content-type").startsWith("text/event-stream"));
        const QList<QByteArray> events = r.sseEvents();
        QCOMPARE(events.last(), QByteArray("[DONE]"));
        const auto usage = parse(events[events.size() - 2]);
        QCOMPARE(usage["usage"]["completion_tokens"].get<int>(), 20);
        // Unbuffered: the body arrived in many pieces spread over the generation, not in one lump.
        QVERIFY2(r.pieceTimesMs.size() >= 10, qPrintable(QString::number(r.pieceTimesMs.size())));
        const qint64 spread = r.pieceTimesMs.last() - r.pieceTimesMs.first();
        QVERIFY2(spread >= 200, qPrintable(QString::number(spread)));
    }

    void streamDroppedMidwayEndsWithErrorEvent()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}));
        sim::FaultParams p;
        p.dropAfterTokens = 3;
        f.node(0).setFault(sim::FaultMode::DropStream, p);
        const TestResponse r = request(f.port, "POST", "/v1/chat/completions", chatBody("m1", 20, true));
        QCOMPARE(r.status, 200);
        QVERIFY(r.complete); // properly terminated for the client
        const QList<QByteArray> events = r.sseEvents();
        QCOMPARE(events.last(), QByteArray("[DONE]"));
        const auto err = parse(events[events.size() - 2]);
        QVERIFY(err.contains("error"));
        QVERIFY(QString::fromStdString(err["error"]["message"].get<std::string>()).contains(QStringLiteral("'a'")));
    }

    void clientAbortReachesTheNode()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}, {}, [](sim::SimNodeOptions &o) { o.performance.tokensPerSecond = 20; }));
        TestClient c(f.port);
        c.send("POST", "/v1/chat/completions", chatBody("m1", 200, true));
        const TestResponse head = c.readHead();
        QCOMPARE(head.status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(f.node(0).counters().running, 1, 5000);
        c.socket().abort();
        QTRY_COMPARE_WITH_TIMEOUT(f.node(0).counters().clientAborts, qint64(1), 1000);
        QTRY_COMPARE_WITH_TIMEOUT(f.node(0).counters().running, 0, 1000);
    }

    void manyConcurrentStreamsAllInFlight()
    {
        constexpr int Streams = 256;
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}, {}, [](sim::SimNodeOptions &o) {
            o.performance.tokensPerSecond = 5;
            o.performance.concurrencyExponent = 1.0; // keep each stream slow but alive
            o.performance.maxNumSeqs = 512;
        }));
        std::vector<std::unique_ptr<TestClient>> clients;
        for (int i = 0; i < Streams; ++i) {
            clients.push_back(std::make_unique<TestClient>(f.port));
            clients.back()->send("POST", "/v1/chat/completions", chatBody("m1", 1000, true));
        }
        QTRY_COMPARE_WITH_TIMEOUT(f.node(0).counters().running, Streams, 15000);
        QCOMPARE(f.node(0).counters().waiting, 0);
        clients.clear();
        QTRY_COMPARE_WITH_TIMEOUT(f.node(0).counters().running, 0, 5000);
    }

    void badInputGetsClearErrors_data()
    {
        QTest::addColumn<QByteArray>("raw");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("needle");
        auto post = [](const QByteArray &path, const QByteArray &body) -> QByteArray {
            return "POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                   + QByteArray::number(body.size()) + "\r\n\r\n" + body;
        };
        QTest::newRow("bad-json") << post("/v1/chat/completions", "{\"model\":") << 400 << QStringLiteral("not valid JSON");
        QTest::newRow("no-model") << post("/v1/chat/completions", "{\"messages\":[]}") << 400
                                  << QStringLiteral("Missing required field 'model'");
        QTest::newRow("model-not-string") << post("/v1/chat/completions", "{\"model\":5}") << 400
                                          << QStringLiteral("must be a string");
        QTest::newRow("unknown-model") << post("/v1/chat/completions", "{\"model\":\"nope\"}") << 404
                                       << QStringLiteral("'nope' does not exist");
        QTest::newRow("unknown-provider-model") << post("/v1/chat/completions", "{\"model\":\"a/nope\"}") << 404
                                                << QStringLiteral("not served by provider 'a'");
        QTest::newRow("unknown-path") << post("/v2/x", "{}") << 404 << QStringLiteral("Unknown path");
        QTest::newRow("wrong-method") << QByteArray("GET /v1/chat/completions HTTP/1.1\r\nHost: x\r\n\r\n") << 405
                                      << QStringLiteral("use POST");
        QTest::newRow("too-large") << QByteArray("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n")
                                   << 413 << QStringLiteral("exceeds the limit");
        QTest::newRow("headers-too-large")
            << QByteArray("GET /v1/models HTTP/1.1\r\nHost: x\r\nX-Big: " + QByteArray(70 * 1024, 'a') + "\r\n\r\n") << 431
            << QStringLiteral("header");
        QTest::newRow("smuggling") << QByteArray("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n"
                                                 "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n")
                                   << 400 << QStringLiteral("Transfer-Encoding");
    }
    void badInputGetsClearErrors()
    {
        QFETCH(QByteArray, raw);
        QFETCH(int, status);
        QFETCH(QString, needle);
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}, {}, {}, [](config::GatewayConfig &c) { c.settings.maxRequestBodyBytes = 4096; }));
        TestClient c(f.port);
        c.sendRaw(raw);
        const TestResponse r = c.read();
        QCOMPARE(r.status, status);
        QVERIFY2(errorMessage(r).contains(needle), qPrintable(errorMessage(r)));
        QVERIFY(r.header("content-type").startsWith("application/json"));
    }

    void allowedRequestsAreHonoured()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}, {}, {}, [](config::GatewayConfig &c) {
            c.providers[0].allowed.embedding = false;
        }));
        const TestResponse r = request(f.port, "POST", "/v1/embeddings", "{\"model\":\"m1\",\"input\":\"hi\"}");
        QCOMPARE(r.status, 400);
        QVERIFY2(errorMessage(r).contains(QStringLiteral("embedding")), qPrintable(errorMessage(r)));
        QCOMPARE(f.node(0).counters().requestsReceived, 0);
        const TestResponse ok = request(f.port, "POST", "/v1/completions", "{\"model\":\"m1\",\"prompt\":\"hi\",\"max_tokens\":2}");
        QCOMPARE(ok.status, 200);
    }

    void embeddingsAndModels()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a"), QStringLiteral("b")}));
        const TestResponse e = request(f.port, "POST", "/v1/embeddings", "{\"model\":\"m1\",\"input\":\"hi\"}");
        QCOMPARE(e.status, 200);
        QVERIFY(parse(e.body)["data"][0]["embedding"].is_array());
        const TestResponse m = request(f.port, "GET", "/v1/models");
        QCOMPARE(m.status, 200);
        QStringList ids;
        const auto models = parse(m.body);
        for (const auto &d : models["data"])
            ids << QString::fromStdString(d["id"].get<std::string>());
        QCOMPARE(ids, (QStringList{QStringLiteral("m1"), QStringLiteral("a/m1"), QStringLiteral("b/m1")}));
    }

    void keepAliveAndPipelining()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}));
        TestClient c(f.port);
        const QByteArray body = chatBody("m1", 3);
        const QByteArray one = "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: "
                               + QByteArray::number(body.size()) + "\r\n\r\n" + body;
        c.sendRaw(one + "GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n" + one);
        const TestResponse r1 = c.read();
        const TestResponse r2 = c.read();
        const TestResponse r3 = c.read();
        QCOMPARE(r1.status, 200);
        QVERIFY(parse(r1.body).contains("choices"));
        QCOMPARE(r2.status, 200);
        QVERIFY(parse(r2.body).contains("data"));
        QCOMPARE(r3.status, 200);
        QVERIFY(parse(r3.body).contains("choices"));
        QVERIFY(c.isConnected());
    }

    void chunkedRequestBody()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}));
        const QByteArray body = chatBody("m1", 2);
        const QByteArray half1 = body.left(10), half2 = body.mid(10);
        TestClient c(f.port);
        c.sendRaw("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                  + QByteArray::number(half1.size(), 16) + "\r\n" + half1 + "\r\n" + QByteArray::number(half2.size(), 16)
                  + "\r\n" + half2 + "\r\n0\r\n\r\n");
        QCOMPARE(c.read().status, 200);
    }

    void staleKeepAliveToNodeIsHandled()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}, {}, [](sim::SimNodeOptions &o) { o.keepAliveTimeoutMs = 150; },
                        [](config::GatewayConfig &c) { c.settings.workerThreads = 1; }));
        for (int i = 0; i < 3; ++i) {
            const TestResponse r = request(f.port, "POST", "/v1/chat/completions", chatBody("m1", 1));
            QCOMPARE(r.status, 200);
            QCOMPARE(r.attempts(), 1);
            // The node closes the pooled connection before the next request is sent.
            QTRY_COMPARE_WITH_TIMEOUT(f.node(0).counters().openConnections, 0, 5000);
        }
    }

    void idleClientsAreClosed()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}, {}, {}, [](config::GatewayConfig &c) {
            c.settings.idleTimeoutMs = 300;
            c.settings.headerTimeoutMs = 300;
        }));
        TestClient idle(f.port);
        TestClient slow(f.port);
        slow.sendRaw("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n"); // never finishes its head
        QVERIFY(idle.waitForClose(3000));
        const TestResponse r = slow.read(3000);
        QCOMPARE(r.status, 408);
        // Good clients are still served.
        QCOMPARE(request(f.port, "GET", "/v1/models").status, 200);
    }

    void connectionCapAnswers503()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}, {}, {}, [](config::GatewayConfig &c) { c.settings.maxConnections = 2; }));
        TestClient c1(f.port), c2(f.port);
        QTRY_COMPARE_WITH_TIMEOUT(f.gateway.snapshot().openConnections, 2, 5000); // both accepted
        const TestResponse r = request(f.port, "GET", "/v1/models");
        QCOMPARE(r.status, 503);
        c1.socket().abort();
        // The gateway has seen c1 (and the refused connection) go: one of two places is free.
        QTRY_COMPARE_WITH_TIMEOUT(f.gateway.snapshot().openConnections, 1, 5000);
        QCOMPARE(request(f.port, "GET", "/v1/models").status, 200);
    }

    void gracefulStopLetsStreamsFinish()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}, {}, [](sim::SimNodeOptions &o) { o.performance.tokensPerSecond = 40; }));
        TestClient c(f.port);
        c.send("POST", "/v1/chat/completions", chatBody("m1", 12, true));
        const TestResponse head = c.readHead();
        QCOMPARE(head.status, 200);
        QSignalSpy stopped(&f.gateway, &Gateway::stopped);
        f.gateway.stop();
        // No new connections once stopping.
        QTcpSocket probe;
        probe.connectToHost(QStringLiteral("127.0.0.1"), f.port);
        QVERIFY(!probe.waitForConnected(500) || !probe.waitForReadyRead(200));
        const TestResponse r = c.readRest(head, 5000);
        QVERIFY(r.complete);
        QCOMPARE(r.sseEvents().last(), QByteArray("[DONE]"));
        QVERIFY(stopped.wait(5000));
        QVERIFY(!f.gateway.isRunning());
    }

    void portInUseIsAClearError()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}));
        Gateway second;
        config::GatewayConfig c = f.cfg;
        c.settings.listenPort = f.port;
        second.applyConfig(c);
        const auto r = second.start();
        QVERIFY(!r);
        QVERIFY2(r.error().contains(QString::number(f.port)), qPrintable(r.error()));
        QVERIFY(!second.isRunning());
        // The first gateway is untouched.
        QCOMPARE(request(f.port, "GET", "/v1/models").status, 200);
    }

    void configAppliedLiveWithoutDroppingRequests()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a"), QStringLiteral("b")}));
        TestClient c(f.port);
        c.send("POST", "/v1/chat/completions", chatBody("b/m1", 30, true));
        const TestResponse head = c.readHead();
        QCOMPARE(head.status, 200);
        config::GatewayConfig next = f.cfg;
        next.providers.erase(next.providers.begin() + 1); // remove b while it streams
        f.gateway.applyConfig(next);
        const TestResponse r = c.readRest(head, 5000);
        QVERIFY(r.complete);
        QCOMPARE(r.sseEvents().last(), QByteArray("[DONE]"));
        QTRY_COMPARE_WITH_TIMEOUT(request(f.port, "POST", "/v1/chat/completions", chatBody("b/m1", 1)).status, 404, 2000);
    }

    void applySaysWhatChangedAndRebinds()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a"), QStringLiteral("b")}));
        config::GatewayConfig next = f.cfg;
        next.providers[0].keys[0].weight = 3;
        next.providers.erase(next.providers.begin() + 1);
        next.providers.push_back(providerFor(QStringLiteral("c"), f.node(1).baseUrl()));
        next.settings.listenPort = 0; // a new ephemeral port: a rebind
        next.settings.listenHost = QStringLiteral("127.0.0.2");
        const quint16 oldPort = f.port;
        const Gateway::ApplyResult r = f.gateway.applyConfig(next);
        QCOMPARE(r.changes.added, QStringList{QStringLiteral("c")});
        QCOMPARE(r.changes.removed, QStringList{QStringLiteral("b")});
        QCOMPARE(r.changes.reweighted, QStringList{QStringLiteral("a: 1 → 3")});
        QVERIFY(r.changes.listenChanged);
        QVERIFY(r.listenError.isEmpty());
        QVERIFY(f.gateway.listenUrl().startsWith(QStringLiteral("http://127.0.0.2:")));
        TestClient moved(f.gateway.port(), QStringLiteral("127.0.0.2"));
        moved.send("POST", "/v1/chat/completions", chatBody("c/m1", 1));
        QCOMPARE(moved.read().status, 200);
        QVERIFY(!TestClient(oldPort).isConnected());

        // A bind failure keeps the running address.
        QTcpServer squatter;
        QVERIFY(squatter.listen(QHostAddress::LocalHost));
        config::GatewayConfig bad = next;
        bad.settings.listenHost = QStringLiteral("127.0.0.1");
        bad.settings.listenPort = squatter.serverPort();
        const Gateway::ApplyResult failed = f.gateway.applyConfig(bad);
        QVERIFY(!failed.listenError.isEmpty());
        QVERIFY(f.gateway.listenUrl().startsWith(QStringLiteral("http://127.0.0.2:")));
        TestClient still(f.gateway.port(), QStringLiteral("127.0.0.2"));
        still.send("GET", "/v1/models");
        QCOMPARE(still.read().status, 200);
    }

    void modelListIsNotTraffic()
    {
        // What the panel's chat (or a client library) asks before it sends anything: no requests/s, no
        // line in the request log. Inference and its errors are what those mean.
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}));
        for (int i = 0; i < 3; ++i)
            QCOMPARE(request(f.port, "GET", "/v1/models").status, 200);
        QCOMPARE(request(f.port, "GET", "/v1/models/m1").status, 200);
        QCOMPARE(request(f.port, "POST", "/v1/chat/completions", chatBody("m1", 2)).status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(f.gateway.snapshot().requestsTotal, qint64(1), 1000);
        QTRY_COMPARE_WITH_TIMEOUT(f.gateway.recentRequests().size(), qsizetype(1), 1000);
        QCOMPARE(f.gateway.recentRequests().last().path, QByteArray("/v1/chat/completions"));
    }

    void requestLogAndStats()
    {
        GatewayFixture f;
        QStringList lines;
        QMutex mutex;
        f.gateway.setRequestLogger([&](const stats::RequestRecord &r) {
            QMutexLocker l(&mutex);
            lines << r.toLogLine();
        });
        QVERIFY(f.start({QStringLiteral("a")}));
        QCOMPARE(request(f.port, "POST", "/v1/chat/completions", chatBody("m1", 4, true)).status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(f.gateway.snapshot().requestsTotal, qint64(1), 1000);
        QTRY_VERIFY_WITH_TIMEOUT(!f.gateway.recentRequests().isEmpty(), 1000);
        const stats::RequestRecord rec = f.gateway.recentRequests().last();
        QCOMPARE(rec.node, QStringLiteral("a"));
        QCOMPARE(rec.status, 200);
        QCOMPARE(rec.completionTokens, qint64(4));
        QVERIFY(rec.ttftMs >= 0);
        QMutexLocker l(&mutex);
        QCOMPARE(lines.size(), 1);
        QVERIFY2(lines[0].contains(QStringLiteral("node=a status=200 attempts=1")), qPrintable(lines[0]));
    }
};

QTEST_GUILESS_MAIN(TestGateway)
#include "tst_gateway.moc"
