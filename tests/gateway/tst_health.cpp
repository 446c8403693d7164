// Node health: the metrics parser, the ejection state machine on a driven clock, active checks and
// passive ejection through simulated nodes' fault modes, routing strategies, drain, and the gateway's
// own /metrics and /api/status.
#include "common/clock.h"
#include "common/testhttpclient.h"
#include "gatewayfixture.h"
#include "health/nodehealth.h"
#include "health/prometheustext.h"

#include <QProcess>
#include <QStandardPaths>
#include <QTest>
#include <nlohmann/json.hpp>

using namespace switchyard;
using namespace switchyard::testing;
using health::NodeState;

class TestHealth final : public QObject
{
    Q_OBJECT

private slots:
    void parsesVllmMetrics()
    {
        const QByteArray text = "# HELP vllm:num_requests_running Number of requests.\n"
                                "# TYPE vllm:num_requests_running gauge\n"
                                "vllm:num_requests_running{engine=\"0\",model_name=\"m1\"} 3.0\n"
                                "vllm:num_requests_running{engine=\"1\",model_name=\"m1\"} 2.0\n"
                                "vllm:gpu_cache_usage_perc{model_name=\"m1\"} 0.5\n"
                                "vllm:request_success_total{finished_reason=\"stop\",model_name=\"m1\"} 7\n"
                                "vllm:request_success_total{finished_reason=\"length\",model_name=\"m1\"} 2 1700000000\n"
                                "weird line without value\n"
                                "vllm:e2e_request_latency_seconds_bucket{le=\"+Inf\",model_name=\"a\\\"b\"} 9\n";
        const health::ParsedMetrics m = health::parsePrometheusText(text);
        QCOMPARE(m.malformedLines, 1);
        QCOMPARE(*m.sum("vllm:num_requests_running"), 5.0);
        QCOMPARE(*m.sum("vllm:gpu_cache_usage_perc"), 0.5);
        QCOMPARE(*m.sum("vllm:request_success_total"), 9.0);
        QCOMPARE(*m.sumWhere("vllm:request_success_total", "finished_reason", "length"), 2.0);
        QVERIFY(!m.sum("vllm:kv_cache_usage_perc"));
        QCOMPARE(m.samples.last().label("model_name"), QByteArray("a\"b"));
    }

    void ejectionCooldownDoublesAndTrialReadmits()
    {
        health::NodeHealth h;
        health::HealthPolicy p;
        p.consecutiveFailures = 3;
        p.cooldownInitialMs = 5000;
        p.cooldownMaxMs = 12000;
        h.setPolicy(p);
        qint64 t = 1000;
        QCOMPARE(h.admit(t), health::Admission::Yes);
        h.attemptFailed(t, QStringLiteral("HTTP 500"));
        h.attemptFailed(t, QStringLiteral("HTTP 500"));
        QCOMPARE(h.admit(t), health::Admission::Yes); // two are not enough
        h.attemptFailed(t, QStringLiteral("HTTP 500"));
        QCOMPARE(h.admit(t), health::Admission::No);
        QCOMPARE(h.state(t), NodeState::Down);
        QVERIFY(h.reason(t).contains(QStringLiteral("3 consecutive failures")));
        QCOMPARE(h.admit(t + 4999), health::Admission::No);
        // After the cooldown: exactly one trial.
        QCOMPARE(h.admit(t + 5000), health::Admission::Trial);
        QCOMPARE(h.admit(t + 5000), health::Admission::No);
        h.attemptFailed(t + 5000, QStringLiteral("HTTP 500"));
        QCOMPARE(h.admit(t + 5000 + 9999), health::Admission::No); // doubled to 10 s
        QCOMPARE(h.admit(t + 15000), health::Admission::Trial);
        h.attemptFailed(t + 15000, QStringLiteral("HTTP 500"));
        QCOMPARE(h.admit(t + 15000 + 11999), health::Admission::No); // capped at 12 s
        QCOMPARE(h.admit(t + 27000), health::Admission::Trial);
        h.attemptSucceeded(t + 27000);
        QCOMPARE(h.admit(t + 27000), health::Admission::Yes);
        QCOMPARE(h.state(t + 27000), NodeState::Healthy);
        // An abandoned trial frees the slot.
        for (int i = 0; i < 3; ++i)
            h.attemptFailed(t, QStringLiteral("x"));
        QCOMPARE(h.admit(t + 30000 + 5000), health::Admission::Trial);
        h.attemptAbandoned(true);
        QCOMPARE(h.admit(t + 30000 + 5000), health::Admission::Trial);
        h.setDraining(true);
        QCOMPARE(h.admit(t + 90000), health::Admission::No);
        QCOMPARE(h.state(t + 90000), NodeState::Draining);
    }

    void requestFailuresOutweighGoodChecks()
    {
        // vLLM's /health answers 200 while inference fails: only a request that succeeds clears the
        // evidence of failed requests, however many checks pass.
        health::NodeHealth h;
        health::HealthPolicy p;
        p.consecutiveFailures = 3;
        p.cooldownInitialMs = 5000;
        h.setPolicy(p);
        health::ProbeResult up;
        up.up = true;
        h.probeFinished(0, up);
        QCOMPARE(h.state(0), NodeState::Healthy);

        // One failed request: Degraded, and the reason says what failed, until the next success.
        h.attemptFailed(100, QStringLiteral("HTTP 500: model crashed"));
        QCOMPARE(h.state(100), NodeState::Degraded);
        QCOMPARE(h.reason(100), QStringLiteral("its last request failed: HTTP 500: model crashed"));
        h.probeFinished(200, up);
        QCOMPARE(h.state(200), NodeState::Degraded);
        h.attemptSucceeded(300);
        QCOMPARE(h.state(300), NodeState::Healthy);

        // Ejected by requests; checks keep passing through and after the cooldown: never Healthy.
        for (int i = 0; i < 3; ++i)
            h.attemptFailed(1000, QStringLiteral("HTTP 500"));
        QCOMPARE(h.state(1000), NodeState::Down);
        for (qint64 t = 1000; t <= 30'000; t += 1000)
            h.probeFinished(t, up);
        QCOMPARE(h.state(30'000), NodeState::Recovering);
        QVERIFY2(h.reason(30'000).contains(QStringLiteral("3 consecutive failures, last: HTTP 500")),
                 qPrintable(h.reason(30'000)));
        QVERIFY2(h.reason(30'000).contains(QStringLiteral("health check passes")), qPrintable(h.reason(30'000)));
        // The checks did not readmit it: exactly one trial at a time.
        QCOMPARE(h.admit(30'000), health::Admission::Trial);
        QCOMPARE(h.admit(30'000), health::Admission::No);
        h.attemptSucceeded(30'100);
        QCOMPARE(h.state(30'100), NodeState::Healthy);
        QCOMPARE(h.admit(30'100), health::Admission::Yes);

        // Seen down by a check and up again (restarted): takes traffic at once, but it is Recovering,
        // not Healthy, while the requests that ejected it are unanswered by a success.
        for (int i = 0; i < 3; ++i)
            h.attemptFailed(40'000, QStringLiteral("connection refused"));
        health::ProbeResult down;
        down.downReason = QStringLiteral("connection refused");
        h.probeFinished(40'100, down);
        QCOMPARE(h.state(40'100), NodeState::Down);
        h.probeFinished(40'200, up);
        QCOMPARE(h.admit(40'200), health::Admission::Yes);
        h.probeFinished(40'300, up);
        h.probeFinished(40'400, up);
        QCOMPARE(h.state(40'400), NodeState::Recovering);
        h.attemptSucceeded(40'500);
        QCOMPARE(h.state(40'500), NodeState::Healthy);

        // Seen down by checks alone (no failed request): two good checks in a row make it Healthy.
        h.probeFinished(50'000, down);
        h.probeFinished(50'100, up);
        QCOMPARE(h.state(50'100), NodeState::Recovering);
        h.probeFinished(50'200, up);
        QCOMPARE(h.state(50'200), NodeState::Healthy);
    }

    void errorRateOverWindowEjects()
    {
        // A node failing every other request never fails three in a row; the rate catches it.
        health::NodeHealth h;
        health::HealthPolicy p;
        p.consecutiveFailures = 3;
        p.errorRate = 0.5;
        p.errorRateMinRequests = 10;
        p.errorRateWindowMs = 10000;
        h.setPolicy(p);
        qint64 t = 50'000;
        for (int i = 0; i < 9; ++i) { // s f s f s f s f s: 4 of 9 failed, and fewer than 10 anyway
            if (i % 2)
                h.attemptFailed(t, QStringLiteral("HTTP 503"));
            else
                h.attemptSucceeded(t);
            t += 300;
        }
        QCOMPARE(h.admit(t), health::Admission::Yes);
        QCOMPARE(h.windowCounts(t).attempts, 9);
        h.attemptFailed(t, QStringLiteral("HTTP 503")); // 5 of 10
        QCOMPARE(h.admit(t), health::Admission::No);
        QCOMPARE(h.state(t), NodeState::Down);
        QVERIFY2(h.reason(t).contains(QStringLiteral("50% of 10 requests failed in the last 10 s")), qPrintable(h.reason(t)));
        // The window starts clean after the ejection: a successful trial readmits for good.
        QCOMPARE(h.admit(t + 5000), health::Admission::Trial);
        h.attemptSucceeded(t + 5000);
        QCOMPARE(h.windowCounts(t + 5000).attempts, 1);
        h.attemptFailed(t + 5000, QStringLiteral("HTTP 503"));
        QCOMPARE(h.admit(t + 5000), health::Admission::Yes);

        // Failures older than the window do not count.
        health::NodeHealth slow;
        slow.setPolicy(p);
        qint64 u = 100'000;
        for (int i = 0; i < 40; ++i) { // one failure and one success every 3 s: 50%, but ≤ 8 per window
            slow.attemptFailed(u, QStringLiteral("HTTP 503"));
            slow.attemptSucceeded(u);
            u += 3000;
        }
        QCOMPARE(slow.admit(u), health::Admission::Yes);
        QVERIFY(slow.windowCounts(u).attempts <= 8);

        // 0 switches the rate off.
        health::NodeHealth off;
        p.errorRate = 0;
        off.setPolicy(p);
        for (int i = 0; i < 30; ++i) {
            off.attemptFailed(200'000, QStringLiteral("HTTP 503"));
            off.attemptSucceeded(200'000);
        }
        QCOMPARE(off.admit(200'000), health::Admission::Yes);
    }

    void activeChecksFollowFaultModes()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}, {}, {}, [](config::GatewayConfig &c) { c.settings.healthCheckIntervalMs = 150; }));
        QTRY_COMPARE_WITH_TIMEOUT(nodeSnapshot(f.gateway, QStringLiteral("a")).state, NodeState::Healthy, 3000);
        NodeSnapshot n = nodeSnapshot(f.gateway, QStringLiteral("a"));
        QVERIFY(n.probe.hasMetrics);
        QCOMPARE(n.probe.servedModels, QStringList{QStringLiteral("m1")});
        QVERIFY(!n.probe.version.isEmpty());

        f.node(0).setFault(sim::FaultMode::Refuse);
        QTRY_COMPARE_WITH_TIMEOUT(nodeSnapshot(f.gateway, QStringLiteral("a")).state, NodeState::Down, 3000);
        QCOMPARE(nodeSnapshot(f.gateway, QStringLiteral("a")).stateReason, QStringLiteral("connection refused"));

        f.node(0).setFault(sim::FaultMode::EngineDead);
        QTRY_COMPARE_WITH_TIMEOUT(nodeSnapshot(f.gateway, QStringLiteral("a")).stateReason,
                                  QStringLiteral("health 503: engine dead"), 3000);

        f.node(0).setFault(sim::FaultMode::Healthy);
        QTRY_COMPARE_WITH_TIMEOUT(nodeSnapshot(f.gateway, QStringLiteral("a")).state, NodeState::Healthy, 3000);
    }

    void modelMismatchIsDegraded()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}, {}, [](sim::SimNodeOptions &o) { o.models = {QStringLiteral("other")}; },
                        [](config::GatewayConfig &c) { c.settings.healthCheckIntervalMs = 150; }));
        QTRY_COMPARE_WITH_TIMEOUT(nodeSnapshot(f.gateway, QStringLiteral("a")).state, NodeState::Degraded, 3000);
        QVERIFY(nodeSnapshot(f.gateway, QStringLiteral("a")).stateReason.contains(QStringLiteral("expects m1")));
    }

    void failingNodeIsEjectedAndReadmitted()
    {
        ManualClock clock; // the cooldown passes when the test says so, not while requests are slow
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a"), QStringLiteral("b")}, {}, {}, [](config::GatewayConfig &c) {
            c.settings.ejectionCooldownMs = 600;
            c.settings.healthCheckIntervalMs = 60000; // passive ejection only
        }));
        f.node(0).setFault(sim::FaultMode::Error500);
        // Every client request succeeds; a is tried until it is ejected, then skipped.
        for (int i = 0; i < 12; ++i) {
            const TestResponse r = request(f.port, "POST", "/v1/chat/completions", chatBody("m1", 1));
            QCOMPARE(r.status, 200);
            QCOMPARE(r.node(), QByteArray("b"));
        }
        QCOMPARE(f.node(0).counters().requestsReceived, 3);
        QCOMPARE(nodeSnapshot(f.gateway, QStringLiteral("a")).state, NodeState::Down);
        f.node(0).setFault(sim::FaultMode::Healthy);
        clock.advance(600);
        QCOMPARE(nodeSnapshot(f.gateway, QStringLiteral("a")).state, NodeState::Recovering); // due a trial
        // The trial succeeds and a takes its share again.
        QByteArray seen;
        for (int i = 0; i < 6; ++i) {
            const TestResponse r = request(f.port, "POST", "/v1/chat/completions", chatBody("m1", 1));
            QCOMPARE(r.status, 200);
            seen += r.node();
        }
        QVERIFY2(seen.count('a') >= 2, seen.constData());
        QCOMPARE(nodeSnapshot(f.gateway, QStringLiteral("a")).state, NodeState::Healthy);
    }

    void nodeFailingEveryRequestIsNotHealthyAfterItsCooldown()
    {
        // The operator's case: a node whose /health answers 200 while every inference request gets a
        // 500. Its checks keep passing; once its ejection runs out with no traffic it must not turn
        // green, and the reason must say why.
        ManualClock clock;
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a"), QStringLiteral("b")}, {}, {}, [](config::GatewayConfig &c) {
            c.settings.ejectionCooldownMs = 600;
            c.settings.healthCheckIntervalMs = 200;
        }));
        const auto lastCheck = [&f] { return nodeSnapshot(f.gateway, QStringLiteral("a")).probe.lastCheckMsSinceEpoch; };
        const auto advanceOneCheck = [&] {
            const qint64 before = lastCheck();
            clock.advance(250);
            QTRY_VERIFY_WITH_TIMEOUT(lastCheck() != before, 5000);
        };
        advanceOneCheck();
        QCOMPARE(nodeSnapshot(f.gateway, QStringLiteral("a")).state, NodeState::Healthy);
        f.node(0).setFault(sim::FaultMode::Error500);
        for (int i = 0; i < 8; ++i)
            QCOMPARE(request(f.port, "POST", "/v1/chat/completions", chatBody("m1", 1)).status, 200);
        QCOMPARE(nodeSnapshot(f.gateway, QStringLiteral("a")).state, NodeState::Down);
        // Cooldown over, several good checks, no traffic.
        for (int i = 0; i < 5; ++i)
            advanceOneCheck();
        NodeSnapshot a = nodeSnapshot(f.gateway, QStringLiteral("a"));
        QCOMPARE(a.state, NodeState::Recovering);
        QVERIFY2(a.stateReason.contains(QStringLiteral("HTTP 500")), qPrintable(a.stateReason));
        QVERIFY2(a.stateReason.contains(QStringLiteral("health check passes")), qPrintable(a.stateReason));
        // Its trial fails (the client is served by b): ejected again.
        const qint64 aBefore = f.node(0).counters().requestsReceived;
        for (int i = 0; i < 4; ++i)
            QCOMPARE(request(f.port, "POST", "/v1/chat/completions", chatBody("m1", 1)).status, 200);
        QCOMPARE(f.node(0).counters().requestsReceived, aBefore + 1); // one trial, not a share of traffic
        QCOMPARE(nodeSnapshot(f.gateway, QStringLiteral("a")).state, NodeState::Down);
        // Healed: after the (doubled) cooldown its trial succeeds and it is Healthy again.
        f.node(0).setFault(sim::FaultMode::Healthy);
        clock.advance(1300);
        QByteArray seen;
        for (int i = 0; i < 6; ++i)
            seen += request(f.port, "POST", "/v1/chat/completions", chatBody("m1", 1)).node();
        QVERIFY2(seen.count('a') >= 2, seen.constData());
        QCOMPARE(nodeSnapshot(f.gateway, QStringLiteral("a")).state, NodeState::Healthy);
    }

    void allDownStillTriesNodes()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a"), QStringLiteral("b")}, {}, {}, [](config::GatewayConfig &c) {
            c.settings.ejectionCooldownMs = 60000;
            c.settings.ejectionConsecutiveFailures = 1;
            c.settings.healthCheckIntervalMs = 60000;
        }));
        f.node(0).setFault(sim::FaultMode::Error500);
        f.node(1).setFault(sim::FaultMode::Error500);
        QCOMPARE(request(f.port, "POST", "/v1/chat/completions", chatBody("m1", 1)).status, 502);
        QCOMPARE(nodeSnapshot(f.gateway, QStringLiteral("a")).state, NodeState::Down);
        QCOMPARE(nodeSnapshot(f.gateway, QStringLiteral("b")).state, NodeState::Down);
        f.node(0).setFault(sim::FaultMode::Healthy);
        f.node(1).setFault(sim::FaultMode::Healthy);
        // Health still says down, but a wrong verdict must not black out the gateway.
        const TestResponse r = request(f.port, "POST", "/v1/chat/completions", chatBody("m1", 1));
        QCOMPARE(r.status, 200);
    }

    void leastOutstandingAvoidsBusyNode()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a"), QStringLiteral("b")}, {}, [](sim::SimNodeOptions &o) { o.performance.tokensPerSecond = 20; },
                        [](config::GatewayConfig &c) { c.settings.defaultStrategy = config::RoutingStrategy::LeastOutstanding; }));
        std::vector<std::unique_ptr<TestClient>> streams;
        for (int i = 0; i < 3; ++i) {
            streams.push_back(std::make_unique<TestClient>(f.port));
            streams.back()->send("POST", "/v1/chat/completions", chatBody("a/m1", 200, true));
            QCOMPARE(streams.back()->readHead().status, 200);
        }
        for (int i = 0; i < 4; ++i) {
            const TestResponse r = request(f.port, "POST", "/v1/chat/completions", chatBody("m1", 1));
            QCOMPARE(r.node(), QByteArray("b"));
        }
    }

    void loadAwareReadsTheQueue()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a"), QStringLiteral("b")}, {},
                        [](sim::SimNodeOptions &o) {
                            o.performance.tokensPerSecond = 20;
                            o.performance.maxNumSeqs = 1;
                        },
                        [](config::GatewayConfig &c) {
                            c.settings.defaultStrategy = config::RoutingStrategy::LoadAware;
                            c.settings.healthCheckIntervalMs = 100;
                        }));
        // Load a directly, bypassing the gateway: only its /metrics can tell.
        std::vector<std::unique_ptr<TestClient>> direct;
        for (int i = 0; i < 4; ++i) {
            direct.push_back(std::make_unique<TestClient>(f.node(0).port()));
            direct.back()->send("POST", "/v1/chat/completions", chatBody("m1", 200, true));
        }
        QTRY_VERIFY_WITH_TIMEOUT(nodeSnapshot(f.gateway, QStringLiteral("a")).probe.waiting >= 3, 3000);
        for (int i = 0; i < 4; ++i)
            QCOMPARE(request(f.port, "POST", "/v1/chat/completions", chatBody("m1", 1)).node(), QByteArray("b"));
    }

    void drainAndEnableThroughTheApi()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a"), QStringLiteral("b")}, {}, [](sim::SimNodeOptions &o) { o.performance.tokensPerSecond = 50; }));
        TestClient inFlight(f.port);
        inFlight.send("POST", "/v1/chat/completions", chatBody("a/m1", 10, true));
        const TestResponse head = inFlight.readHead();
        QCOMPARE(head.status, 200);
        const TestResponse drained = request(f.port, "POST", "/api/nodes/a/drain");
        QCOMPARE(drained.status, 200);
        for (int i = 0; i < 4; ++i)
            QCOMPARE(request(f.port, "POST", "/v1/chat/completions", chatBody("m1", 1)).node(), QByteArray("b"));
        // The request in flight on a finishes.
        const TestResponse done = inFlight.readRest(head, 5000);
        QVERIFY(done.complete);
        QCOMPARE(done.sseEvents().last(), QByteArray("[DONE]"));
        QCOMPARE(nodeSnapshot(f.gateway, QStringLiteral("a")).state, NodeState::Draining);
        // Pinned to a draining node: a clear 503.
        const TestResponse pinned = request(f.port, "POST", "/v1/chat/completions", chatBody("a/m1", 1));
        QCOMPARE(pinned.status, 503);
        QVERIFY(pinned.body.contains("draining"));
        QCOMPARE(request(f.port, "POST", "/api/nodes/a/enable").status, 200);
        QCOMPARE(request(f.port, "POST", "/v1/chat/completions", chatBody("a/m1", 1)).status, 200);
        QCOMPARE(request(f.port, "POST", "/api/nodes/zzz/drain").status, 404);
    }

    void prefixCacheHitRateFromTheNodesCounters()
    {
        GatewayFixture f;
        // b has no prefix cache: its counters stay 0, so it has no hit rate to show.
        QVERIFY(f.start(
            {QStringLiteral("a"), QStringLiteral("b")}, {},
            [](sim::SimNodeOptions &o) { o.performance.prefixCaching = o.name != QStringLiteral("b"); },
            [](config::GatewayConfig &c) { c.settings.healthCheckIntervalMs = 150; }));
        QTRY_VERIFY_WITH_TIMEOUT(nodeSnapshot(f.gateway, QStringLiteral("a")).probe.prefixCacheQueriesTotal == 0, 3000);

        const std::string system(2000, 's');
        const QByteArray body = QByteArray::fromStdString(
            nlohmann::json{{"model", "m1"},
                           {"max_tokens", 2},
                           {"messages", {{{"role", "system"}, {"content", system}}, {{"role", "user"}, {"content", "hi"}}}}}
                .dump());
        for (int i = 0; i < 4; ++i) // round-robin: two to each node
            QCOMPARE(request(f.port, "POST", "/v1/chat/completions", body).status, 200);
        // The rate is the counters' change between checks: what the node served from its cache.
        const sim::SimNode::Counters c = f.node(0).counters();
        QVERIFY(c.cachedPromptTokens > 0);
        const double expected = double(c.cachedPromptTokens) / double(c.promptTokens);
        QTRY_VERIFY_WITH_TIMEOUT(nodeSnapshot(f.gateway, QStringLiteral("a")).probe.prefixCacheHitsTotal
                                     == double(c.cachedPromptTokens),
                                 3000);
        QTRY_VERIFY_WITH_TIMEOUT(
            std::abs(nodeSnapshot(f.gateway, QStringLiteral("a")).probe.prefixCacheHitRate - expected) < 0.01, 3000);
        QCOMPARE(nodeSnapshot(f.gateway, QStringLiteral("b")).probe.prefixCacheHitRate, -1.0);

        const auto j = nlohmann::json::parse(request(f.port, "GET", "/api/status").body.toStdString());
        QVERIFY(std::abs(j["nodes"][0]["vllm"]["prefix_cache_hit_rate"].get<double>() - expected) < 0.01);
        QVERIFY(j["nodes"][1]["vllm"]["prefix_cache_hit_rate"].is_null());
        // Round-robin keeps no prefix index: nothing predicted to set beside the node's own rate.
        QVERIFY(j["nodes"][0]["vllm"]["predicted_prefix_hit_rate"].is_null());
        const health::ParsedMetrics pm = health::parsePrometheusText(request(f.port, "GET", "/metrics").body);
        QVERIFY(std::abs(*pm.sumWhere("switchyard_node_prefix_cache_hit_ratio", "node", "a") - expected) < 0.01);
        QVERIFY(!pm.sumWhere("switchyard_node_prefix_cache_hit_ratio", "node", "b"));
        // And the seconds history carries it for the charts.
        QTRY_VERIFY_WITH_TIMEOUT(!f.gateway.history(QStringLiteral("a"), 5).isEmpty()
                                     && f.gateway.history(QStringLiteral("a"), 5).last().prefixHitRate > 0,
                                 4000);
    }

    // cache_aware: beside the node's own hit rate, what the gateway's prefix index predicted for the
    // prompts it sent there, over the same checks. A right index and the node agree.
    void predictedHitRateBesideTheNodesOwn()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a"), QStringLiteral("b")}, {},
                        [](sim::SimNodeOptions &o) { o.performance.prefixCaching = true; },
                        [](config::GatewayConfig &c) {
                            c.settings.healthCheckIntervalMs = 150;
                            c.settings.defaultStrategy = config::RoutingStrategy::CacheAware;
                        }));
        QTRY_VERIFY_WITH_TIMEOUT(nodeSnapshot(f.gateway, QStringLiteral("a")).probe.prefixCacheQueriesTotal == 0, 3000);
        const std::string system(3000, 's');
        for (int i = 0; i < 6; ++i) { // one conversation's turns: after the first, each follows its prefix
            const QByteArray body = QByteArray::fromStdString(
                nlohmann::json{{"model", "m1"},
                               {"max_tokens", 2},
                               {"messages",
                                {{{"role", "system"}, {"content", system}}, {{"role", "user"}, {"content", "turn " + std::to_string(i)}}}}}
                    .dump());
            QCOMPARE(request(f.port, "POST", "/v1/chat/completions", body).status, 200);
        }
        const int served = f.node(0).counters().promptTokens > 0 ? 0 : 1;
        const QString name = served == 0 ? QStringLiteral("a") : QStringLiteral("b");
        QCOMPARE(f.node(1 - served).counters().promptTokens, 0); // every turn went to the one node
        QTRY_VERIFY_WITH_TIMEOUT(nodeSnapshot(f.gateway, name).probe.predictedPrefixHitRate > 0.5
                                     && nodeSnapshot(f.gateway, name).probe.prefixCacheHitRate > 0.5,
                                 3000);
        const health::ProbeDetails p = nodeSnapshot(f.gateway, name).probe;
        QVERIFY2(std::abs(p.predictedPrefixHitRate - p.prefixCacheHitRate) < 0.15,
                 qPrintable(QStringLiteral("predicted %1, node %2").arg(p.predictedPrefixHitRate).arg(p.prefixCacheHitRate)));
        QCOMPARE(nodeSnapshot(f.gateway, served == 0 ? QStringLiteral("b") : QStringLiteral("a")).probe.predictedPrefixHitRate,
                 -1.0); // sent nothing: no prediction
        const auto j = nlohmann::json::parse(request(f.port, "GET", "/api/status").body.toStdString());
        QVERIFY(j["nodes"][served]["vllm"]["predicted_prefix_hit_rate"].get<double>() > 0.5);
        QVERIFY(j["nodes"][1 - served]["vllm"]["predicted_prefix_hit_rate"].is_null());
    }

    void metricsAndStatusReportIt()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a"), QStringLiteral("b")}, {}, {}, [](config::GatewayConfig &c) { c.settings.healthCheckIntervalMs = 150; }));
        for (int i = 0; i < 4; ++i)
            QCOMPARE(request(f.port, "POST", "/v1/chat/completions", chatBody("m1", 3)).status, 200);
        f.node(1).setFault(sim::FaultMode::Refuse);
        QTRY_COMPARE_WITH_TIMEOUT(nodeSnapshot(f.gateway, QStringLiteral("b")).state, NodeState::Down, 3000);

        const TestResponse m = request(f.port, "GET", "/metrics");
        QCOMPARE(m.status, 200);
        const health::ParsedMetrics pm = health::parsePrometheusText(m.body);
        QCOMPARE(pm.malformedLines, 0);
        QCOMPARE(*pm.sum("switchyard_requests_total"), 4.0);
        QCOMPARE(*pm.sumWhere("switchyard_node_up", "node", "b"), 0.0);
        QCOMPARE(*pm.sumWhere("switchyard_node_up", "node", "a"), 1.0);
        QCOMPARE(*pm.sumWhere("switchyard_node_completion_tokens_total", "node", "a"), 6.0);
        QCOMPARE(*pm.sum("switchyard_request_duration_seconds_count"), 4.0);

        // Prometheus' own linter accepts the text (installed by scripts/install-deps.sh for tests).
        const QString promtool = QStandardPaths::findExecutable(QStringLiteral("promtool"));
        if (promtool.isEmpty()) {
            qWarning("promtool not installed: /metrics not linted");
        } else {
            QProcess lint;
            lint.start(promtool, {QStringLiteral("check"), QStringLiteral("metrics")});
            QVERIFY(lint.waitForStarted());
            lint.write(m.body);
            lint.closeWriteChannel();
            QVERIFY(lint.waitForFinished(30000));
            const QByteArray said = lint.readAllStandardOutput() + lint.readAllStandardError();
            QVERIFY2(lint.exitCode() == 0 && said.trimmed().isEmpty(), said.constData());
        }

        const TestResponse s = request(f.port, "GET", "/api/status");
        QCOMPARE(s.status, 200);
        const auto j = nlohmann::json::parse(s.body.begin(), s.body.end());
        QCOMPARE(j["nodes"].size(), size_t(2));
        QCOMPARE(j["nodes"][1]["state"].get<std::string>(), std::string("down"));
        QCOMPARE(j["nodes"][1]["reason"].get<std::string>(), std::string("connection refused"));
        QCOMPARE(j["gateway"]["requests_total"].get<int>(), 4); // scrapes are not client traffic
        QVERIFY(j["nodes"][0]["vllm"]["num_requests_running"].is_number());
    }
};

QTEST_GUILESS_MAIN(TestHealth)
#include "tst_health.moc"
