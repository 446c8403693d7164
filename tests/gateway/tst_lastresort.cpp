// The last resort (docs/ROUTING.md): no request fails while a node could serve it. When every node that
// health lets through has failed, the gateway tries the ones it passed over as ejected or down before
// answering an error — never a drained one, and a node that timed out last time only once per few
// seconds. A node whose check succeeds again is readmitted at once. Simulated nodes in process; the
// gateway's clock is stopped where cooldowns and intervals matter, so they pass only when a test says so.
#include "common/clock.h"
#include "common/testhttpclient.h"
#include "gatewayfixture.h"
#include "health/nodehealth.h"

#include <QTest>
#include <nlohmann/json.hpp>

using namespace switchyard;
using namespace switchyard::testing;
using health::NodeState;

namespace {


QByteArray errorCode(const TestResponse &r)
{
    const auto j = nlohmann::json::parse(r.body.begin(), r.body.end(), nullptr, false);
    if (!j.is_object() || !j.contains("error") || !j["error"].is_object() || !j["error"].contains("code") ||
        !j["error"]["code"].is_string())
        return {};
    return QByteArray::fromStdString(j["error"]["code"].get<std::string>());
}

// Passive ejection only, and it lasts until the test says otherwise: no check runs after the first one
// (the clock is stopped and the interval is a minute), and the cooldown is a minute too.
void passiveOnly(config::GatewayConfig &c)
{
    c.settings.healthCheckIntervalMs = 60000;
    c.settings.ejectionCooldownMs = 60000;
    c.settings.ejectionCooldownMaxMs = 60000;
}

// Sends requests until the node named is ejected; each must still be answered 200 by another node.
bool ejectThroughTraffic(GatewayFixture &f, const QString &node)
{
    for (int i = 0; i < 20; ++i) {
        if (nodeSnapshot(f.gateway, node).state == NodeState::Down)
            return true;
        const TestResponse r = request(f.port, "POST", "/v1/chat/completions", chatBody("m1", 1));
        if (r.status != 200) {
            qWarning() << "while ejecting" << node << ":" << r.status << r.body;
            return false;
        }
    }
    return nodeSnapshot(f.gateway, node).state == NodeState::Down;
}

} // namespace

class TestLastResort final : public QObject
{
    Q_OBJECT

private slots:
    // The soak's failure, reproduced: a was ejected while it failed and has healed since, its cooldown
    // still runs; b, the only node health lets through, now answers 500. Expected: the request is served
    // by a (2 attempts), and a takes traffic again — not a 502 while a working node sits idle.
    void ejectedNodeThatRecoveredServesWhenTheOthersFail()
    {
        ManualClock clock;
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a"), QStringLiteral("b")}, {}, {}, passiveOnly));
        f.node(0).setFault(sim::FaultMode::Error500);
        QVERIFY(ejectThroughTraffic(f, QStringLiteral("a")));
        f.node(0).setFault(sim::FaultMode::Healthy);
        f.node(1).setFault(sim::FaultMode::Error500);
        const int aBefore = f.node(0).counters().requestsReceived;

        const TestResponse r = request(f.port, "POST", "/v1/chat/completions", chatBody("m1", 2));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.node(), QByteArray("a"));
        QCOMPARE(r.attempts(), 2);
        QCOMPARE(f.node(0).counters().requestsReceived, aBefore + 1);
        // Its success readmitted it: the next requests go to a in the first round.
        QVERIFY(nodeSnapshot(f.gateway, QStringLiteral("a")).state != NodeState::Down);
        for (int i = 0; i < 4; ++i) {
            const TestResponse next = request(f.port, "POST", "/v1/chat/completions", chatBody("m1", 1));
            QCOMPARE(next.status, 200);
            QCOMPARE(next.node(), QByteArray("a"));
        }
    }

    // The same for a streamed request: the client sees a whole stream from a, no error event.
    void streamedRequestAlsoGetsTheLastResort()
    {
        ManualClock clock;
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a"), QStringLiteral("b")}, {}, {}, passiveOnly));
        f.node(0).setFault(sim::FaultMode::Error500);
        QVERIFY(ejectThroughTraffic(f, QStringLiteral("a")));
        f.node(0).setFault(sim::FaultMode::Healthy);
        f.node(1).setFault(sim::FaultMode::Error500);
        const TestResponse r = request(f.port, "POST", "/v1/chat/completions", chatBody("m1", 4, true));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.node(), QByteArray("a"));
        QVERIFY(r.complete);
        QCOMPARE(r.sseEvents().last(), QByteArray("[DONE]"));
        QVERIFY(!r.body.contains("\"error\""));
    }

    // A pin names one node: when it is ejected but answers again, the pinned request is served by it.
    void pinnedRequestTriesItsEjectedNode()
    {
        ManualClock clock;
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a"), QStringLiteral("b")}, {}, {}, passiveOnly));
        f.node(0).setFault(sim::FaultMode::Error500);
        QVERIFY(ejectThroughTraffic(f, QStringLiteral("a")));
        f.node(0).setFault(sim::FaultMode::Healthy);
        const TestResponse r = request(f.port, "POST", "/v1/chat/completions", chatBody("a/m1", 2));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.node(), QByteArray("a"));
    }

    // The model asked for comes first: its ejected node is tried before the body's fallback model.
    // a and b serve m1, c serves m2; a is ejected but healed, b answers 500. Expected: a answers m1.
    void lastResortComesBeforeFallbacks()
    {
        ManualClock clock;
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")}, {},
                        [](sim::SimNodeOptions &o) { o.models = {QStringLiteral("m1"), QStringLiteral("m2")}; },
                        [](config::GatewayConfig &c) {
                            passiveOnly(c);
                            c.providers[2].keys[0].models = {QStringLiteral("m2")};
                        }));
        f.node(0).setFault(sim::FaultMode::Error500);
        QVERIFY(ejectThroughTraffic(f, QStringLiteral("a")));
        f.node(0).setFault(sim::FaultMode::Healthy);
        f.node(1).setFault(sim::FaultMode::Error500);
        const TestResponse r = request(f.port, "POST", "/v1/chat/completions",
                                       chatBody("m1", 2, false, ",\"fallbacks\":[\"m2\"]"));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.node(), QByteArray("a"));
        QCOMPARE(f.node(2).counters().requestsReceived, 0);

        // With every m1 node failing, the fallback model serves.
        f.node(0).setFault(sim::FaultMode::Error500);
        const TestResponse fb = request(f.port, "POST", "/v1/chat/completions",
                                        chatBody("m1", 2, false, ",\"fallbacks\":[\"m2\"]"));
        QCOMPARE(fb.status, 200);
        QCOMPARE(fb.node(), QByteArray("c"));
    }

    // A drained node is an operator's decision: never a last resort, whatever else fails.
    void drainedNodeIsNeverTried()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a"), QStringLiteral("b")}));
        QVERIFY(f.gateway.setNodeDraining(QStringLiteral("a"), true));
        f.node(1).setFault(sim::FaultMode::Error500);
        for (int i = 0; i < 5; ++i) {
            const TestResponse r = request(f.port, "POST", "/v1/chat/completions", chatBody("m1", 1));
            QCOMPARE(r.status, 502);
            QVERIFY2(r.body.contains("a: draining"), r.body.constData());
        }
        const TestResponse pinned = request(f.port, "POST", "/v1/chat/completions", chatBody("a/m1", 1));
        QCOMPARE(pinned.status, 503);
        QCOMPARE(f.node(0).counters().requestsReceived, 0);
    }

    // a's engine dies: its check fails (health 503) and its requests fail until it is ejected for a
    // minute. It comes back; the next check succeeds. Expected: a is readmitted by that check at once —
    // not a minute later — and takes its share of the traffic again.
    void healedNodeIsReadmittedWhenItsProbeSucceeds()
    {
        ManualClock clock;
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a"), QStringLiteral("b")}, {}, {}, passiveOnly));
        QTRY_COMPARE_WITH_TIMEOUT(nodeSnapshot(f.gateway, QStringLiteral("a")).state, NodeState::Healthy, 5000);
        f.node(0).setFault(sim::FaultMode::EngineDead);
        QVERIFY(ejectThroughTraffic(f, QStringLiteral("a")));
        f.gateway.probeNow(QStringLiteral("a"));
        QTRY_COMPARE_WITH_TIMEOUT(nodeSnapshot(f.gateway, QStringLiteral("a")).stateReason,
                                  QStringLiteral("health 503: engine dead"), 5000);

        f.node(0).setFault(sim::FaultMode::Healthy);
        clock.advance(1000); // a second later, far inside the minute's cooldown
        f.gateway.probeNow(QStringLiteral("a"));
        QTRY_VERIFY_WITH_TIMEOUT(nodeSnapshot(f.gateway, QStringLiteral("a")).state != NodeState::Down, 5000);
        QByteArray seen;
        for (int i = 0; i < 6; ++i) {
            const TestResponse r = request(f.port, "POST", "/v1/chat/completions", chatBody("m1", 1));
            QCOMPARE(r.status, 200);
            QCOMPARE(r.attempts(), 1); // served in the first round: no failed attempt first
            seen += r.node();
        }
        QVERIFY2(seen.count('a') >= 2, seen.constData());
    }

    // Every node is dead (stopped: connection refused). Expected: every request gets a 502 that names
    // both nodes, after at most one attempt per node — refused connections are cheap to try, and nothing
    // is retried beyond that.
    void everyNodeDeadFailsWithBoundedAttempts()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a"), QStringLiteral("b")}));
        f.node(0).stop();
        f.node(1).stop();
        for (int i = 0; i < 8; ++i) {
            const TestResponse r = request(f.port, "POST", "/v1/chat/completions", chatBody("m1", 1, i % 2 == 1));
            QCOMPARE(r.status, 502);
            QVERIFY(r.attempts() >= 1 && r.attempts() <= 2);
            QVERIFY2(r.body.contains("a") && r.body.contains("b"), r.body.constData());
            QCOMPARE(errorCode(r), QByteArray("upstream_error"));
        }
    }

    // Every node hangs. A node that timed out is tried as a last resort by one request per 5 s of the
    // gateway's clock, not by every request: the first requests wait for the timeouts (504), the next
    // ones get a 503 at once, and after 5 s one request tries again.
    void hangingNodesCostOneTimeoutPerInterval()
    {
        ManualClock clock;
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a"), QStringLiteral("b")}, {}, {}, [](config::GatewayConfig &c) {
            passiveOnly(c);
            c.settings.ejectionConsecutiveFailures = 1;
            c.settings.responseHeaderTimeoutMs = 300;
        }));
        f.node(0).setFault(sim::FaultMode::Hang);
        f.node(1).setFault(sim::FaultMode::Hang);
        // Both are tried and time out; both are ejected.
        const TestResponse first = request(f.port, "POST", "/v1/chat/completions", chatBody("m1", 1));
        QCOMPARE(first.status, 504);
        QCOMPARE(first.attempts(), 2);
        // Both ejected: each is tried once more as a last resort, which is the one for this interval.
        const TestResponse second = request(f.port, "POST", "/v1/chat/completions", chatBody("m1", 1));
        QCOMPARE(second.status, 504);
        QCOMPARE(second.attempts(), 2);
        // Within the interval: no node is worth a timeout; a clear 503 that says why, no attempt.
        for (int i = 0; i < 3; ++i) {
            const TestResponse r = request(f.port, "POST", "/v1/chat/completions", chatBody("m1", 1));
            QCOMPARE(r.status, 503);
            QCOMPARE(r.attempts(), 0);
            QCOMPARE(errorCode(r), QByteArray("no_usable_node"));
            QVERIFY2(r.body.contains("timed out last time"), r.body.constData());
        }
        clock.advance(health::NodeHealth::LastResortSlowIntervalMs);
        // The interval passed; the nodes have healed meanwhile: the next request finds it out.
        f.node(0).setFault(sim::FaultMode::Healthy);
        f.node(1).setFault(sim::FaultMode::Healthy);
        const TestResponse healed = request(f.port, "POST", "/v1/chat/completions", chatBody("m1", 1));
        QCOMPARE(healed.status, 200);
    }
};

QTEST_GUILESS_MAIN(TestLastResort)
#include "tst_lastresort.moc"
