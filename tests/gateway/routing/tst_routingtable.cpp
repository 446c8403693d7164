// The load balancer as the gateway uses it (routing/routingtable): which node a request for a model goes
// to first and in which order failover visits the others, for pools, pins ("provider/model"), models only
// one node serves, unknown models and each routing strategy (docs/ROUTING.md); and the model list the
// gateway answers GET /v1/models with.

#include "routing/routingtable.h"
#include "routingtestkit.h"
#include "stats/gatewaystats.h"
#include "stats/noderuntime.h"

#include <QTest>

#include <map>

using namespace switchyard;
using namespace Qt::Literals::StringLiterals;
using config::RoutingStrategy;


class TestRoutingTable final : public QObject
{
    Q_OBJECT

private slots:
    void picksFollowTheWeights_data()
    {
        QTest::addColumn<std::vector<double>>("weights");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("1:1") << std::vector<double>{1, 1} << u"a b a b a b"_s.split(u' ');
        QTest::newRow("3:1") << std::vector<double>{3, 1} << u"a a b a a a b a"_s.split(u' ');
        QTest::newRow("0.75:0.25") << std::vector<double>{0.75, 0.25} << u"a a b a a a b a"_s.split(u' ');
        QTest::newRow("0.5:0.3:0.2")
            << std::vector<double>{0.5, 0.3, 0.2} << u"a b c a a b a c b a a b"_s.split(u' ');
        QTest::newRow("1:0") << std::vector<double>{1, 0} << u"a a a a"_s.split(u' ');
    }
    void picksFollowTheWeights()
    {
        QFETCH(std::vector<double>, weights);
        QFETCH(QStringList, expected);
        const auto table = routing::RoutingTable::build(weightedPool(weights));
        QCOMPARE(firstPicks(*table, "m", int(expected.size())), expected);
    }

    // Failover visits every node of the pool once, continuing along the weighted rotation from the pick.
    void failoverOrderContinuesTheRotation()
    {
        const auto table = routing::RoutingTable::build(weightedPool({0.5, 0.3, 0.2}));
        // One period is a b c a a b a c b a; each request starts one position further.
        const QList<QStringList> expected = {
            u"a b c"_s.split(u' '), u"b c a"_s.split(u' '), u"c a b"_s.split(u' '), u"a b c"_s.split(u' '),
            u"a b c"_s.split(u' '), u"b a c"_s.split(u' '), u"a c b"_s.split(u' '), u"c b a"_s.split(u' '),
            u"b a c"_s.split(u' '), u"a b c"_s.split(u' '), u"a b c"_s.split(u' ')};
        for (const QStringList &order : expected) {
            const auto route = table->resolve("m", nullptr);
            QVERIFY(route);
            QCOMPARE(candidateNames(*table, *route), order);
            QVERIFY(!route->pinned);
            QCOMPARE(route->upstreamModel, QByteArray("m"));
        }
    }

    // A node of weight zero takes no pool traffic and is not a failover candidate either.
    void zeroWeightIsNoCandidate()
    {
        const auto table = routing::RoutingTable::build(weightedPool({1, 0}));
        const auto route = table->resolve("m", nullptr);
        QVERIFY(route);
        QCOMPARE(candidateNames(*table, *route), QStringList{u"a"_s});
    }

    // Applying a config builds a new table: its rotation starts afresh over the new set of nodes, while a
    // request still holding the old table goes on with the old one; a node keeps its runtime state (its
    // counters and health) by name across tables.
    void nodeAddedOrRemovedBetweenTables()
    {
        stats::GatewayStats stats;
        const auto lookup = [&stats](const QString &name) { return stats.nodeRuntime(name); };
        const auto two = routing::RoutingTable::build(weightedPool({1, 1}), lookup, 1);
        QCOMPARE(firstPicks(*two, "m", 3), u"a b a"_s.split(u' '));

        const auto three = routing::RoutingTable::build(weightedPool({1, 1, 1}), lookup, 2);
        QCOMPARE(three->generation(), quint64(2));
        QCOMPARE(firstPicks(*three, "m", 6), u"a b c a b c"_s.split(u' '));
        QCOMPARE(firstPicks(*two, "m", 2), u"b a"_s.split(u' '));

        config::GatewayConfig withoutB = weightedPool({1, 1, 1});
        withoutB.providers.erase(withoutB.providers.begin() + 1);
        const auto fewer = routing::RoutingTable::build(withoutB, lookup, 3);
        QCOMPARE(firstPicks(*fewer, "m", 4), u"a c a c"_s.split(u' '));
        QCOMPARE(fewer->nodeIndex(u"b"_s), -1);
        QVERIFY(pinIsRefused(*fewer, "b/m")); // b is gone: "b/m" no longer names a provider

        QVERIFY(two->nodes()[size_t(two->nodeIndex(u"a"_s))].runtime ==
                three->nodes()[size_t(three->nodeIndex(u"a"_s))].runtime);
        QVERIFY(three->nodes()[size_t(three->nodeIndex(u"c"_s))].runtime ==
                fewer->nodes()[size_t(fewer->nodeIndex(u"c"_s))].runtime);
    }

    // "provider/model" goes to that provider only, and the model part is what it is sent.
    void pinGoesToTheProvider()
    {
        config::GatewayConfig c = weightedPool({3, 1});
        c.providers.push_back(provider(u"w"_s, {key({u"*"_s})}));
        const auto table = routing::RoutingTable::build(c);
        for (int i = 0; i < 4; ++i) {
            const auto route = table->resolve("b/m", nullptr);
            QVERIFY(route);
            QVERIFY(route->pinned);
            QCOMPARE(candidateNames(*table, *route), QStringList{u"b"_s});
            QCOMPARE(route->upstreamModel, QByteArray("m"));
        }
        // A provider serving "*" can be pinned to any model; everything after the first slash goes upstream.
        const auto any = table->resolve("w/org/some-model", nullptr);
        QVERIFY(any);
        QCOMPARE(candidateNames(*table, *any), QStringList{u"w"_s});
        QCOMPARE(any->upstreamModel, QByteArray("org/some-model"));
    }

    // A pin uses the provider's first enabled key that lists the model, and works for a node of weight
    // zero (a standby node takes no pool traffic but can be asked by name).
    void pinChoosesTheFirstEnabledKey()
    {
        config::GatewayConfig c;
        c.providers.push_back(provider(u"a"_s, {key({u"m"_s}, 1, false), key({u"x"_s}), key({u"m"_s})}));
        c.providers.push_back(provider(u"standby"_s, {key({u"m"_s}, 0)}));
        const auto table = routing::RoutingTable::build(c);
        const auto route = table->resolve("a/m", nullptr);
        QVERIFY(route);
        QCOMPARE(route->candidates.size(), size_t(1));
        QCOMPARE(route->candidates[0].key, 2);
        const auto standby = table->resolve("standby/m", nullptr);
        QVERIFY(standby);
        QCOMPARE(candidateNames(*table, *standby), QStringList{u"standby"_s});
        QCOMPARE(firstPicks(*table, "m", 3), u"a a a"_s.split(u' '));
    }

    void pinToAModelTheProviderLacksFails()
    {
        const auto table = routing::RoutingTable::build(weightedPool({1, 1}));
        QVERIFY(pinIsRefused(*table, "a/other"));
        routing::ResolveError error;
        QVERIFY(!table->resolve("a/other", &error));
        QVERIFY2(error.message.contains(u"'a'"_s) && error.message.contains(u"'other'"_s), qPrintable(error.message));
    }

    // A prefix that names no provider leaves the whole string a bare model (e.g. Hugging Face names).
    void slashInAModelNameIsNotAPin()
    {
        config::GatewayConfig c;
        c.providers.push_back(provider(u"a"_s, {key({u"meta-llama/Llama-3"_s})}));
        const auto table = routing::RoutingTable::build(c);
        const auto route = table->resolve("meta-llama/Llama-3", nullptr);
        QVERIFY(route);
        QVERIFY(!route->pinned);
        QCOMPARE(candidateNames(*table, *route), QStringList{u"a"_s});
        QCOMPARE(route->upstreamModel, QByteArray("meta-llama/Llama-3"));
    }

    // A model only one provider lists goes there every time, with no failover to nodes that lack it.
    void modelOnlyOneProviderLists()
    {
        config::GatewayConfig c;
        c.providers.push_back(provider(u"a"_s, {key({u"shared"_s, u"only-a"_s})}));
        c.providers.push_back(provider(u"b"_s, {key({u"shared"_s})}));
        const auto table = routing::RoutingTable::build(c);
        for (int i = 0; i < 3; ++i) {
            const auto route = table->resolve("only-a", nullptr);
            QVERIFY(route);
            QCOMPARE(candidateNames(*table, *route), QStringList{u"a"_s});
        }
        QCOMPARE(firstPicks(*table, "shared", 4), u"a b a b"_s.split(u' '));
    }

    void unknownModelIsNotFound()
    {
        const auto table = routing::RoutingTable::build(weightedPool({1, 1}));
        routing::ResolveError error;
        QVERIFY(!table->resolve("no-such-model", &error));
        QCOMPARE(error.status, 404);
        QCOMPARE(error.code, QByteArray("model_not_found"));
        QVERIFY2(error.message.contains(u"'no-such-model'"_s), qPrintable(error.message));
        QVERIFY(!table->resolve("no-such-model", nullptr)); // no error wanted: none written
        QVERIFY(!table->resolve("", nullptr));
    }

    // Disabled keys serve nothing: a model only they list is unknown.
    void disabledKeysServeNothing()
    {
        config::GatewayConfig c;
        c.providers.push_back(provider(u"a"_s, {key({u"m"_s}), key({u"off"_s}, 1, false)}));
        c.providers.push_back(provider(u"b"_s, {key({u"m"_s}, 1, false)}));
        const auto table = routing::RoutingTable::build(c);
        QCOMPARE(firstPicks(*table, "m", 3), u"a a a"_s.split(u' '));
        QVERIFY(!table->resolve("off", nullptr));
        QVERIFY(pinIsRefused(*table, "b/m"));
    }

    // A provider serving "*" joins the pool of every model others list, and takes the models nobody lists.
    void wildcardProviderServesEveryModel()
    {
        config::GatewayConfig c;
        c.providers.push_back(provider(u"a"_s, {key({u"m"_s}, 3)}));
        c.providers.push_back(provider(u"w"_s, {key({u"*"_s}, 1)}));
        const auto table = routing::RoutingTable::build(c);
        QCOMPARE(firstPicks(*table, "m", 4), u"a a w a"_s.split(u' '));
        const auto other = table->resolve("anything-else", nullptr);
        QVERIFY(other);
        QCOMPARE(candidateNames(*table, *other), QStringList{u"w"_s});
        QCOMPARE(other->upstreamModel, QByteArray("anything-else"));
    }

    // weighted_round_robin ignores the load: an operator who wants exactly 1:1 gets it.
    void weightedIgnoresLoad()
    {
        Runtimes rt;
        rt[u"a"_s].counters.inFlight = 50;
        rt[u"a"_s].health.waiting = 20;
        const auto table = routing::RoutingTable::build(weightedPool({1, 1}), rt.lookup());
        QCOMPARE(firstPicks(*table, "m", 4), u"a b a b"_s.split(u' '));
    }

    // least_outstanding: fewest requests in flight through this gateway, divided by weight, first.
    void leastOutstandingOrdersByInFlightPerWeight()
    {
        Runtimes rt;
        config::GatewayConfig c = weightedPool({1, 1, 1});
        c.settings.defaultStrategy = RoutingStrategy::LeastOutstanding;
        rt[u"a"_s].counters.inFlight = 5;
        rt[u"c"_s].counters.inFlight = 2;
        const auto table = routing::RoutingTable::build(c, rt.lookup());
        for (int i = 0; i < 3; ++i)
            QCOMPARE(candidateNames(*table, *table->resolve("m", nullptr)), u"b c a"_s.split(u' '));

        // Divided by weight: 3 in flight on weight 3 is less loaded than 2 on weight 1.
        Runtimes heavy;
        config::GatewayConfig w = weightedPool({3, 1});
        w.settings.defaultStrategy = RoutingStrategy::LeastOutstanding;
        heavy[u"a"_s].counters.inFlight = 3;
        heavy[u"b"_s].counters.inFlight = 2;
        const auto weighted = routing::RoutingTable::build(w, heavy.lookup());
        QCOMPARE(firstPicks(*weighted, "m", 4), u"a a a a"_s.split(u' '));
    }

    // Among equally loaded nodes the weighted rotation decides, so an idle pool still shares by weight.
    void leastOutstandingRotatesAmongEquals()
    {
        config::GatewayConfig c = weightedPool({3, 1});
        c.settings.defaultStrategy = RoutingStrategy::LeastOutstanding;
        const auto table = routing::RoutingTable::build(c);
        QCOMPARE(firstPicks(*table, "m", 8), u"a a b a a a b a"_s.split(u' '));
    }

    // load_aware: (in flight + 2·waiting + 0.5·running) × (1 + KV use) × (1 + TTFT/2 s) + TTFT/1 s.
    void loadAwareOrdersByTheNodesLoad()
    {
        config::GatewayConfig c = weightedPool({1, 1, 1});
        c.settings.defaultStrategy = RoutingStrategy::LoadAware;
        Runtimes rt;
        rt[u"a"_s].counters.inFlight = 1; // 1
        rt[u"b"_s].health.waiting = 1;    // 2: its queue counts double
        rt[u"c"_s].health.running = 1;    // 0.5
        const auto table = routing::RoutingTable::build(c, rt.lookup());
        for (int i = 0; i < 3; ++i)
            QCOMPARE(candidateNames(*table, *table->resolve("m", nullptr)), u"c a b"_s.split(u' '));

        // A full KV cache and slow first tokens count against a node even when it looks idle otherwise.
        Runtimes busy;
        busy[u"a"_s].health.running = 2;
        busy[u"a"_s].health.kvCachePermille = 1000; // 1 × 2 = 2
        busy[u"b"_s].health.running = 2;            // 1
        busy[u"c"_s].health.ttftEwmaMs = 3000;      // 0 + 3
        const auto second = routing::RoutingTable::build(c, busy.lookup());
        QCOMPARE(candidateNames(*second, *second->resolve("m", nullptr)), u"b a c"_s.split(u' '));

        // Nodes that do not report load (no /metrics) rotate by weight.
        const auto unknown = routing::RoutingTable::build(c);
        QCOMPARE(firstPicks(*unknown, "m", 3), u"a b c"_s.split(u' '));
    }

    // A per-model strategy applies to that model only; the others keep the default.
    void strategyPerModel()
    {
        config::GatewayConfig c;
        c.providers.push_back(provider(u"a"_s, {key({u"chat"_s, u"batch"_s})}));
        c.providers.push_back(provider(u"b"_s, {key({u"chat"_s, u"batch"_s})}));
        c.settings.strategyByModel.insert(u"batch"_s, RoutingStrategy::LeastOutstanding);
        Runtimes rt;
        rt[u"a"_s].counters.inFlight = 4;
        const auto table = routing::RoutingTable::build(c, rt.lookup());
        QCOMPARE(firstPicks(*table, "chat", 4), u"a b a b"_s.split(u' '));
        QCOMPARE(firstPicks(*table, "batch", 4), u"b b b b"_s.split(u' '));
    }

    // GET /v1/models: every model once by its bare name (with who serves it), then each as provider/model;
    // in config order, without "*" and without what only disabled keys list.
    void modelsListsBareNamesThenPins()
    {
        config::GatewayConfig c;
        c.providers.push_back(provider(u"a"_s, {key({u"m1"_s, u"m2"_s}), key({u"m1"_s})}));
        c.providers.push_back(provider(u"b"_s, {key({u"m1"_s, u"*"_s}), key({u"m3"_s}, 1, false)}));
        const auto table = routing::RoutingTable::build(c);
        QStringList ids;
        QList<QStringList> providers;
        for (const routing::RoutingTable::ModelInfo &m : table->models()) {
            ids.append(m.id);
            providers.append(m.providers);
        }
        QCOMPARE(ids, u"m1 m2 a/m1 a/m2 b/m1"_s.split(u' '));
        QCOMPARE(providers, (QList<QStringList>{{u"a"_s, u"b"_s}, {u"a"_s}, {u"a"_s}, {u"a"_s}, {u"b"_s}}));
    }

    void baseUrlParsing_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<bool>("tls");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::addColumn<QByteArray>("hostHeader");
        QTest::addColumn<QByteArray>("basePath");
        QTest::newRow("http") << u"http://10.0.0.1:8030"_s << true << false << u"10.0.0.1"_s << 8030
                              << QByteArray("10.0.0.1:8030") << QByteArray();
        QTest::newRow("default port") << u"http://node"_s << true << false << u"node"_s << 80
                                      << QByteArray("node:80") << QByteArray();
        QTest::newRow("https") << u"https://api.example.com/v1/"_s << true << true << u"api.example.com"_s
                               << 443 << QByteArray("api.example.com:443") << QByteArray("/v1");
        QTest::newRow("ipv6") << u"http://[::1]:9000/proxy//"_s << true << false << u"::1"_s << 9000
                              << QByteArray("[::1]:9000") << QByteArray("/proxy");
        QTest::newRow("no scheme") << u"10.0.0.1:8030"_s << false << false << QString() << 0 << QByteArray()
                                   << QByteArray();
        QTest::newRow("ftp") << u"ftp://node/"_s << false << false << QString() << 0 << QByteArray()
                             << QByteArray();
    }
    void baseUrlParsing()
    {
        QFETCH(QString, url);
        QFETCH(bool, valid);
        const std::optional<routing::Endpoint> e = routing::parseEndpoint(url);
        QCOMPARE(e.has_value(), valid);
        if (!valid)
            return;
        QTEST(e->tls, "tls");
        QTEST(e->host, "host");
        QTEST(int(e->port), "port");
        QTEST(e->hostHeader, "hostHeader");
        QTEST(e->basePath, "basePath");
    }

    // A provider whose base_url cannot be parsed is left out of the table (the loader rejects it first).
    void nodeWithABadBaseUrlIsSkipped()
    {
        config::GatewayConfig c = weightedPool({1, 1});
        c.providers[0].network.baseUrl = u"not a url"_s;
        const auto table = routing::RoutingTable::build(c);
        QCOMPARE(table->nodes().size(), size_t(1));
        QCOMPARE(table->nodeIndex(u"a"_s), -1);
        QCOMPARE(firstPicks(*table, "m", 2), u"b b"_s.split(u' '));
    }
};

QTEST_GUILESS_MAIN(TestRoutingTable)
#include "tst_routingtable.moc"
