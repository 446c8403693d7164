// The simulated node's faults, as the gateway's tests and the demo use them: hang, refuse, a stream cut
// without [DONE], slow, a dead engine, and the control endpoint that sets them.
#include "simnodetesting.h"

using namespace switchyard;
using namespace switchyard::sim;
using namespace switchyard::sim::testing;

class TestSimNodeFaults final : public QObject
{
    Q_OBJECT

private slots:
    void faultHangHoldsRequestsUntilHealthy()
    {
        auto node = startNode(fastOptions());
        QVERIFY(node);
        node->setFault(FaultMode::Hang);
        Client c(node->port());
        c.send(httpRequest("POST", "/v1/chat/completions", chatBody({{"max_tokens", 3}})));
        Client health(node->port());
        health.send(httpRequest("GET", "/health"));
        QTRY_COMPARE(node->counters().requestsReceived, 1);
        // The control endpoint still answers, and lifting the fault releases the parked requests.
        const Response stats = fetch(node->port(), httpRequest("GET", "/control/stats"));
        QCOMPARE(stats.status, 200);
        JCOMPARE(stats.json()["fault"], "hang");
        // Neither is answered. (A negative check: a healthy node answers them in
        // about 15 ms; 50 ms is enough to tell.)
        QVERIFY(!c.waitResponses(1, 50));
        QVERIFY(!c.closed);
        QVERIFY(health.responses.isEmpty()); // health hangs too
        QVERIFY(!health.closed);
        node->setFault(FaultMode::Healthy);
        QVERIFY(c.waitResponses(1));
        QCOMPARE(c.responses[0].status, 200);
        QVERIFY(health.waitResponses(1));
        QCOMPARE(health.responses[0].status, 200);
    }

    void faultRefuseClosesTheListener()
    {
        auto node = startNode(fastOptions());
        QVERIFY(node);
        const quint16 port = node->port();
        Client idle(port);
        idle.send(httpRequest("GET", "/health"));
        QVERIFY(idle.waitResponses(1));

        node->setFault(FaultMode::Refuse);
        Client refused(port);
        QVERIFY(QTest::qWaitFor([&] { return refused.refused; }, 3000));
        QVERIFY(QTest::qWaitFor([&] { return idle.closed; }, 3000)); // pooled idle connections go too

        node->setFault(FaultMode::Healthy);
        QCOMPARE(node->port(), port);
        QCOMPARE(fetch(port, httpRequest("GET", "/health")).status, 200);

        // Timed refusal through the control endpoint: back on the same port by itself.
        const Response set =
            fetch(port, httpRequest("POST", "/control/fault", R"({"mode":"refuse","refuse_ms":300})"));
        QCOMPARE(set.status, 200);
        JCOMPARE(set.json()["mode"], "refuse");
        Client during(port);
        QVERIFY(QTest::qWaitFor([&] { return during.refused; }, 3000));
        QVERIFY(QTest::qWaitFor([&] { return fetch(port, httpRequest("GET", "/health"), 500).status == 200; },
                                5000));
        QCOMPARE(node->fault(), FaultMode::Healthy);
    }

    void faultDropStreamCutsWithoutDone()
    {
        auto node = startNode(fastOptions());
        QVERIFY(node);
        FaultParams p;
        p.dropAfterTokens = 5;
        node->setFault(FaultMode::DropStream, p);
        Client c(node->port());
        c.send(httpRequest("POST", "/v1/chat/completions", chatBody({{"stream", true}, {"max_tokens", 50}})));
        QVERIFY(QTest::qWaitFor([&] { return c.closed; }, 5000));
        QVERIFY(c.responses.isEmpty()); // the chunked body never ended
        QCOMPARE(c.current.status, 200);
        const QList<QByteArray> events = c.current.events();
        QCOMPARE(events.size(), 6); // role + 5 tokens
        QVERIFY(!c.current.body.contains("[DONE]"));
        QTRY_COMPARE(node->counters().running, 0);
        QCOMPARE(node->counters().faultsInjected, 1);
        QCOMPARE(node->counters().clientAborts, 0);
    }

    void faultSlowStretchesLatency()
    {
        SimNodeOptions o = fastOptions();
        o.performance.ttftBaseMs = 20;
        o.performance.tokensPerSecond = 500;
        auto node = startNode(o);
        QVERIFY(node);
        auto timed = [&] {
            QElapsedTimer t;
            t.start();
            const Response r = fetch(
                node->port(), httpRequest("POST", "/v1/chat/completions", chatBody({{"max_tokens", 40}})));
            return r.status == 200 ? t.nsecsElapsed() : qint64(-1);
        };
        const qint64 normal = timed();
        FaultParams p;
        p.slowFactor = 5;
        node->setFault(FaultMode::Slow, p);
        const qint64 slow = timed();
        QVERIFY(normal > 0 && slow > 0);
        QVERIFY2(double(slow) / double(normal) > 2.5,
                 qPrintable(QString::number(double(slow) / double(normal))));
    }

    void faultEngineDead()
    {
        SimNodeOptions o = fastOptions();
        o.performance.tokensPerSecond = 50;
        auto node = startNode(o);
        QVERIFY(node);
        Client running(node->port());
        running.send(
            httpRequest("POST", "/v1/chat/completions", chatBody({{"stream", true}, {"max_tokens", 200}})));
        QVERIFY(running.waitEvents(3));

        node->setFault(FaultMode::EngineDead);
        QCOMPARE(fetch(node->port(), httpRequest("GET", "/health")).status, 503);
        const Response r = fetch(node->port(), httpRequest("POST", "/v1/chat/completions", chatBody()));
        QCOMPARE(r.status, 500);
        QVERIFY(r.json()["error"]["message"].get<std::string>().find("EngineDeadError") != std::string::npos);
        // The running stream ends with an error event and [DONE], status still 200.
        QVERIFY(running.waitResponses(1));
        const QList<QByteArray> events = running.responses[0].events();
        QCOMPARE(events.last(), QByteArray("[DONE]"));
        QVERIFY(Json::parse(events[events.size() - 2].toStdString()).contains("error"));

        node->setFault(FaultMode::Healthy);
        QCOMPARE(fetch(node->port(), httpRequest("GET", "/health")).status, 200);
    }

    void controlEndpoint()
    {
        auto node = startNode(fastOptions());
        QVERIFY(node);
        const quint16 port = node->port();
        const Response set =
            fetch(port, httpRequest("POST", "/control/fault", R"({"mode":"error500","error_fraction":1})"));
        QCOMPARE(set.status, 200);
        QCOMPARE(node->fault(), FaultMode::Error500);
        QCOMPARE(fetch(port, httpRequest("POST", "/v1/chat/completions", chatBody())).status, 500);
        QCOMPARE(fetch(port, httpRequest("POST", "/control/fault", R"({"mode":"bogus"})")).status, 400);
        QCOMPARE(fetch(port, httpRequest("POST", "/control/fault", R"({"mode":"healthy"})")).status, 200);
        QCOMPARE(
            fetch(port, httpRequest("POST", "/v1/chat/completions", chatBody({{"max_tokens", 2}}))).status,
            200);

        const Json stats = fetch(port, httpRequest("GET", "/control/stats")).json();
        JCOMPARE(stats["requests_received"], 2);
        JCOMPARE(stats["completed"], 2);
        JCOMPARE(stats["faults_injected"], 1);
        JCOMPARE(stats["generation_tokens"], 2);
        JCOMPARE(stats["fault"], "healthy");
        const SimNode::Counters c = node->counters();
        QCOMPARE(c.requestsReceived, 2);
        QCOMPARE(c.completed, 2);
        QCOMPARE(c.generationTokens, 2);
        QVERIFY(c.promptTokens > 0);
    }
};

QTEST_GUILESS_MAIN(TestSimNodeFaults)
#include "tst_simnodefaults.moc"
