// The fleet's arithmetic (client/fleet/fleetmerge): what the fleet window shows when two gateways see
// the same two nodes — counters summed, a node one row with the worst state and each gateway's reason,
// the worst gateway's p95, seconds aligned, drift as no common config hash.
#include "fleet/fleetmerge.h"

#include <QTest>

using namespace Qt::Literals::StringLiterals;
using namespace switchyard;
using namespace switchyard::client;
using health::NodeState;

namespace {

link::NodeStatus node(const QString &name, NodeState state, qint64 attempts, double rps, const QString &reason = {})
{
    link::NodeStatus n;
    n.name = name;
    n.baseUrl = u"http://10.0.0.%1:8000"_s.arg(name == u"a"_s ? 1 : 2);
    n.state = state;
    n.reason = reason;
    n.attempts = attempts;
    n.successes = attempts;
    n.rates.requestsPerSecond = rps;
    n.kvCacheUsage = 0.25;
    return n;
}

link::GatewayStatus gateway(const QString &hash, double p95, QList<link::NodeStatus> nodes)
{
    link::GatewayStatus s;
    s.version = u"0.1.0"_s;
    s.running = s.accepting = true;
    s.configHash = hash;
    s.requestsTotal = 10;
    s.inFlight = 2;
    s.rates.requestsPerSecond = 3;
    s.rates.tokensPerSecond = 100;
    s.window.latencyP95Ms = p95;
    s.nodes = std::move(nodes);
    return s;
}

} // namespace

class TestFleetMerge final : public QObject
{
    Q_OBJECT

private slots:
    void sumsCountersAndKeepsTheWorstView()
    {
        const link::GatewayStatus one = gateway(u"h1"_s, 120, {node(u"a"_s, NodeState::Healthy, 5, 1), node(u"b"_s, NodeState::Healthy, 5, 2)});
        const link::GatewayStatus two = gateway(u"h1"_s, 300, {node(u"a"_s, NodeState::Down, 7, 0.5, u"connection refused"_s),
                                                               node(u"b"_s, NodeState::Healthy, 1, 1)});
        const link::GatewayStatus fleet = mergeStatuses({{u"gw1"_s, one}, {u"gw2"_s, two}});
        QCOMPARE(fleet.requestsTotal, 20);
        QCOMPARE(fleet.inFlight, 4);
        QCOMPARE(fleet.rates.requestsPerSecond, 6.0);
        QCOMPARE(fleet.rates.tokensPerSecond, 200.0);
        QCOMPARE(*fleet.window.latencyP95Ms, 300.0); // the worst gateway's
        QCOMPARE(fleet.configHash, u"h1"_s);
        QCOMPARE(fleet.version, u"0.1.0"_s);
        QCOMPARE(fleet.nodes.size(), 2); // one row per node, not per gateway and node
        const link::NodeStatus &a = fleet.nodes[0];
        QCOMPARE(a.name, u"a"_s);
        QCOMPARE(a.state, NodeState::Down); // gw2 cannot reach it: that is not hidden by gw1's view
        QCOMPARE(a.reason, u"gw2: connection refused"_s);
        QCOMPARE(a.attempts, 12);
        QCOMPARE(a.rates.requestsPerSecond, 1.5);
        QCOMPARE(*a.kvCacheUsage, 0.25); // the node's own gauge, not summed
        QCOMPARE(fleet.nodes[1].state, NodeState::Healthy);
        QVERIFY(fleet.nodes[1].reason.isEmpty());
    }

    void driftHasNoCommonHash()
    {
        const link::GatewayStatus fleet = mergeStatuses({{u"gw1"_s, gateway(u"h1"_s, 1, {})}, {u"gw2"_s, gateway(u"h2"_s, 1, {})}});
        QVERIFY(fleet.configHash.isEmpty());
    }

    void pausedOnlyWhenEveryGatewayIs()
    {
        link::GatewayStatus one = gateway(u"h"_s, 1, {}), two = gateway(u"h"_s, 1, {});
        one.paused = true;
        one.accepting = false;
        link::GatewayStatus fleet = mergeStatuses({{u"gw1"_s, one}, {u"gw2"_s, two}});
        QVERIFY(!fleet.paused);
        QVERIFY(fleet.accepting);
        two.paused = true;
        two.accepting = false;
        fleet = mergeStatuses({{u"gw1"_s, one}, {u"gw2"_s, two}});
        QVERIFY(fleet.paused);
        QVERIFY(!fleet.accepting);
    }

    void historyAlignsSeconds()
    {
        stats::SecondSample s1{100, 2, 1, 1, 10, 20, 1, 50, 100, 400};
        stats::SecondSample s2{101, 4, 0, 3, 0, 40, 2, -1, 200, 300};
        stats::SecondSample t1{101, 4, 2, 2, 0, 60, 1, 30, 100, 900};
        const QList<stats::SecondSample> merged = mergeHistory({{s1, s2}, {t1}});
        QCOMPARE(merged.size(), 2);
        QCOMPARE(merged[0].second, 100);
        QCOMPARE(merged[0].requests, 2.0f);
        QCOMPARE(merged[1].second, 101);
        QCOMPARE(merged[1].requests, 8.0f);
        QCOMPARE(merged[1].errors, 2.0f);
        QCOMPARE(merged[1].failedAttempts, 5.0f);
        QCOMPARE(merged[1].completionTokens, 100.0f);
        QCOMPARE(merged[1].latencyP95Ms, 900.0f);         // worst
        QCOMPARE(merged[1].latencyP50Ms, 150.0f);         // (200·4 + 100·4) / 8
        QCOMPARE(merged[1].ttftP50Ms, 30.0f);             // only one gateway measured it
    }

    void requestsByStartTime()
    {
        stats::RequestRecord a, b, c;
        a.startedMsSinceEpoch = 30;
        a.node = u"a"_s;
        b.startedMsSinceEpoch = 10;
        b.node = u"b"_s;
        c.startedMsSinceEpoch = 20;
        c.node = u"c"_s;
        const QList<stats::RequestRecord> merged = mergeByTime({a, b, c});
        QCOMPARE(merged[0].node, u"b"_s);
        QCOMPARE(merged[1].node, u"c"_s);
        QCOMPARE(merged[2].node, u"a"_s);
    }

    // Replicas sharing keys list the same keys: one row each; this minute's and today's counts are the
    // fleet's on every replica (the highest reading), in flight and the totals since start add up, and a
    // revocation any replica saw wins.
    void keysListedByReplicasAreOneList()
    {
        const auto listing = [](const QString &id, qint64 minute, qint64 today, qint64 inFlight, qint64 requests,
                                qint64 revokedMs = 0) {
            keys::KeyListing k;
            k.key.id = id;
            k.key.revokedMs = revokedMs;
            k.usage.requestsThisMinute = minute;
            k.usage.tokensToday = today;
            k.usage.inFlight = inFlight;
            k.usage.requests = requests;
            k.usage.promptTokens = requests * 10;
            return k;
        };
        const QList<keys::KeyListing> first = {listing(u"vk_a"_s, 5, 100, 1, 7), listing(u"vk_b"_s, 0, 0, 0, 0)};
        const QList<keys::KeyListing> second = {listing(u"vk_b"_s, 0, 0, 0, 0, 1234), listing(u"vk_a"_s, 6, 90, 2, 4),
                                                listing(u"vk_c"_s, 1, 1, 0, 1)};
        const QList<keys::KeyListing> merged = mergeKeyListings({first, second});
        QCOMPARE(merged.size(), 3);
        QCOMPARE(merged[0].key.id, u"vk_a"_s); // the first gateway's order, then what only others list
        QCOMPARE(merged[2].key.id, u"vk_c"_s);
        QCOMPARE(merged[0].usage.requestsThisMinute, 6);
        QCOMPARE(merged[0].usage.tokensToday, 100);
        QCOMPARE(merged[0].usage.inFlight, 3);
        QCOMPARE(merged[0].usage.requests, 11);
        QCOMPARE(merged[0].usage.promptTokens, 110);
        QCOMPARE(merged[1].key.revokedMs, 1234);
        QVERIFY(mergeKeyListings({}).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestFleetMerge)
#include "tst_fleetmerge.moc"
