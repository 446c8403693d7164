// The management API a remote panel steers a gateway with (docs/MANAGEMENT-API.md), over real loopback
// HTTP in front of simulated nodes: the running config read with its hash as ETag and written back
// with If-Match (412 when it changed meanwhile), masked secrets that survive the round trip, pause and
// resume (503 + Retry-After for new requests, streams in flight finish), a probe on demand, and the
// admin role on every new path.

#include "common/testhttpclient.h"
#include "gateway/gatewayfixture.h"

#include <QDateTime>
#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <atomic>
#include <nlohmann/json.hpp>

using namespace switchyard;
using namespace switchyard::testing;

namespace {

const QByteArray ClientKey = "sk-client-5d1e";
const QByteArray AdminKey = "sk-admin-0b7c";
const QByteArray NodeKey = "dummy"; // what the fixture's provider keys hold

using HeaderList = QList<QPair<QByteArray, QByteArray>>;

HeaderList admin(HeaderList more = {})
{
    more.prepend({"Authorization", "Bearer " + AdminKey});
    return more;
}

// Commands (PUT /api/config, probe, pause, resume) run on the gateway's thread, which is this test's:
// the request goes out from another thread while this one's event loop runs.
TestResponse command(quint16 port, const QByteArray &method, const QByteArray &path, const QByteArray &body = {},
                     const HeaderList &headers = admin())
{
    TestResponse out;
    std::atomic<bool> done{false};
    QThread *t = QThread::create([&] {
        out = request(port, method, path, body, 15000, headers);
        done = true;
    });
    t->start();
    (void)QTest::qWaitFor([&] { return done.load(); }, 20000);
    t->wait();
    delete t;
    return out;
}

nlohmann::json parse(const QByteArray &body)
{
    return nlohmann::json::parse(body.toStdString(), nullptr, false);
}

// The answer's JSON is exactly `expected`; the message shows what came instead.
#define COMPARE_JSON(actual, expected)                                                                 \
    do {                                                                                               \
        const nlohmann::json a_ = (actual);                                                            \
        QVERIFY2(a_ == (expected), a_.dump().c_str());                                                 \
    } while (false)

std::string errorCode(const TestResponse &r)
{
    const auto j = parse(r.body);
    return j.is_object() && j.contains("error") ? j["error"].value("code", std::string()) : std::string();
}

nlohmann::json status(quint16 port)
{
    return parse(request(port, "GET", "/api/status", {}, 10000, admin()).body);
}

QByteArray unquoted(const QByteArray &etag)
{
    return etag.size() >= 2 && etag.startsWith('"') && etag.endsWith('"') ? etag.mid(1, etag.size() - 2) : etag;
}

QByteArray dumped(const nlohmann::json &j)
{
    return QByteArray::fromStdString(j.dump(2));
}

} // namespace

class TestManagementApi final : public QObject
{
    Q_OBJECT

private:
    // Keys everywhere: the node wants its key, the gateway a client or an admin key.
    static bool startSecured(GatewayFixture &f, const QStringList &nodes = {QStringLiteral("a")},
                             const std::function<void(sim::SimNodeOptions &)> &tweakNode = {})
    {
        return f.start(
            nodes, {},
            [&](sim::SimNodeOptions &o) {
                o.apiKey = QString::fromUtf8(NodeKey);
                if (tweakNode)
                    tweakNode(o);
            },
            [](config::GatewayConfig &c) {
                c.settings.apiKeys = {QString::fromUtf8(ClientKey)};
                c.settings.adminKeys = {QString::fromUtf8(AdminKey)};
            });
    }

    static int chatStatus(quint16 port, TestResponse *out = nullptr)
    {
        const TestResponse r = request(port, "POST", "/v1/chat/completions", chatBody("m1"), 10000,
                                       {{"Authorization", "Bearer " + ClientKey}});
        if (out)
            *out = r;
        return r.status;
    }

private slots:
    void getConfigIsMaskedWithTheHashAsEtag()
    {
        GatewayFixture f;
        QVERIFY(startSecured(f));
        const TestResponse r = request(f.port, "GET", "/api/config", {}, 10000, admin());
        QCOMPARE(r.status, 200);
        QVERIFY(r.header("content-type").startsWith("application/json"));
        // No secret in the answer: node keys, client keys and admin keys are all masked.
        QVERIFY(!r.body.contains(NodeKey));
        QVERIFY(!r.body.contains(ClientKey));
        QVERIFY(!r.body.contains(AdminKey));
        const nlohmann::json doc = parse(r.body);
        QCOMPARE(doc["providers"]["a"]["keys"][0]["value"].get<std::string>(), std::string("********"));
        QCOMPARE(doc["switchyard"]["api_keys"][0].get<std::string>(), std::string("********"));
        // The ETag is the quoted hash /api/status reports.
        const QByteArray etag = r.header("etag");
        QVERIFY(etag.startsWith('"') && etag.endsWith('"'));
        const std::string hash = status(f.port)["gateway"]["config_hash"].get<std::string>();
        QCOMPARE(unquoted(etag).toStdString(), hash);
    }

    void putWithMatchingIfMatchAppliesAndAnswersTheNewHash()
    {
        GatewayFixture f;
        QVERIFY(startSecured(f, {QStringLiteral("a"), QStringLiteral("b")}));
        const TestResponse got = request(f.port, "GET", "/api/config", {}, 10000, admin());
        nlohmann::json doc = parse(got.body);
        doc["providers"]["b"]["keys"][0]["weight"] = 3;
        QSignalSpy applied(&f.gateway, &Gateway::configUpdatedOverApi);
        const TestResponse r = command(f.port, "PUT", "/api/config", dumped(doc), admin({{"If-Match", got.header("etag")}}));
        QCOMPARE(r.status, 200);
        const nlohmann::json j = parse(r.body);
        QCOMPARE(j["applied"].get<bool>(), true);
        const std::string newHash = j["config_hash"].get<std::string>();
        QVERIFY(newHash != unquoted(got.header("etag")).toStdString());
        QCOMPARE(QString::fromStdString(newHash), link::configHash(f.gateway.config()));
        QCOMPARE(unquoted(r.header("etag")).toStdString(), newHash);
        QCOMPARE(status(f.port)["gateway"]["config_hash"].get<std::string>(), newHash);
        QCOMPARE(f.gateway.config().provider(QStringLiteral("b"))->keys[0].weight, 3.0);
        QCOMPARE(applied.size(), 1);
        // An unquoted hash and "*" are preconditions too.
        doc["providers"]["b"]["keys"][0]["weight"] = 2;
        QCOMPARE(command(f.port, "PUT", "/api/config", dumped(doc), admin({{"If-Match", QByteArray::fromStdString(newHash)}})).status, 200);
        doc["providers"]["b"]["keys"][0]["weight"] = 1;
        QCOMPARE(command(f.port, "PUT", "/api/config", dumped(doc), admin({{"If-Match", "*"}})).status, 200);
        QCOMPARE(f.gateway.config().provider(QStringLiteral("b"))->keys[0].weight, 1.0);
    }

    void staleIfMatchIs412AndChangesNothing()
    {
        GatewayFixture f;
        QVERIFY(startSecured(f, {QStringLiteral("a"), QStringLiteral("b")}));
        const TestResponse got = request(f.port, "GET", "/api/config", {}, 10000, admin());
        const QByteArray etag = got.header("etag");
        nlohmann::json doc = parse(got.body);
        // Someone else applies a change first.
        doc["providers"]["a"]["keys"][0]["weight"] = 5;
        QCOMPARE(command(f.port, "PUT", "/api/config", dumped(doc), admin({{"If-Match", etag}})).status, 200);
        const QString running = link::configHash(f.gateway.config());
        // This editor still holds the old hash.
        doc["providers"]["a"]["keys"][0]["weight"] = 9;
        QSignalSpy applied(&f.gateway, &Gateway::configUpdatedOverApi);
        const TestResponse r = command(f.port, "PUT", "/api/config", dumped(doc), admin({{"If-Match", etag}}));
        QCOMPARE(r.status, 412);
        QCOMPARE(errorCode(r), std::string("config_changed"));
        const nlohmann::json j = parse(r.body);
        QCOMPARE(QString::fromStdString(j["config_hash"].get<std::string>()), running);
        QCOMPARE(link::configHash(f.gateway.config()), running);
        QCOMPARE(f.gateway.config().provider(QStringLiteral("a"))->keys[0].weight, 5.0);
        QCOMPARE(applied.size(), 0);
        QVERIFY(!r.body.contains(AdminKey) && !r.body.contains(NodeKey));
    }

    void racingPutsWithOneHashApplyOnce()
    {
        GatewayFixture f;
        QVERIFY(startSecured(f));
        const TestResponse got = request(f.port, "GET", "/api/config", {}, 10000, admin());
        const HeaderList headers = admin({{"If-Match", got.header("etag")}});
        nlohmann::json one = parse(got.body), two = one;
        one["providers"]["a"]["keys"][0]["weight"] = 2;
        two["providers"]["a"]["keys"][0]["weight"] = 4;
        TestResponse r1, r2;
        std::atomic<int> done{0};
        QThread *t1 = QThread::create([&] { r1 = request(f.port, "PUT", "/api/config", dumped(one), 15000, headers); ++done; });
        QThread *t2 = QThread::create([&] { r2 = request(f.port, "PUT", "/api/config", dumped(two), 15000, headers); ++done; });
        t1->start();
        t2->start();
        QVERIFY(QTest::qWaitFor([&] { return done.load() == 2; }, 20000));
        t1->wait();
        t2->wait();
        delete t1;
        delete t2;
        QList<int> statuses = {r1.status, r2.status};
        std::sort(statuses.begin(), statuses.end());
        QCOMPARE(statuses, QList<int>({200, 412}));
        const double expected = r1.status == 200 ? 2.0 : 4.0;
        QCOMPARE(f.gateway.config().providers[0].keys[0].weight, expected);
    }

    void maskedConfigPutBackKeepsEverySecret()
    {
        GatewayFixture f;
        QVERIFY(startSecured(f));
        QCOMPARE(chatStatus(f.port), 200); // the node took the gateway's key
        const TestResponse got = request(f.port, "GET", "/api/config", {}, 10000, admin());
        nlohmann::json doc = parse(got.body);
        doc["providers"]["a"]["network_config"]["default_request_timeout_in_seconds"] = 20;
        const TestResponse r = command(f.port, "PUT", "/api/config", dumped(doc), admin({{"If-Match", got.header("etag")}}));
        QCOMPARE(r.status, 200);
        QCOMPARE(f.gateway.config().providers[0].network.requestTimeoutSeconds, 20);
        // The stars stood for "keep": the node key still reaches the node (it answers 401 to any
        // other), the client key still passes the gateway, the admin key still steers it.
        QCOMPARE(f.gateway.config().providers[0].keys[0].value, QString::fromUtf8(NodeKey));
        TestResponse chat;
        QCOMPARE(chatStatus(f.port, &chat), 200);
        QCOMPARE(chat.node(), QByteArray("a"));
        QCOMPARE(request(f.port, "GET", "/api/status", {}, 10000, admin()).status, 200);
        QCOMPARE(f.gateway.config().settings.apiKeys, QStringList{QString::fromUtf8(ClientKey)});
        // Nothing else changed but the timeout: only settings of provider a.
        const nlohmann::json j = parse(r.body);
        COMPARE_JSON(j["changes"]["changed"], nlohmann::json::array({"a"}));
    }

    void maskWithoutARunningSecretIsAProblem()
    {
        GatewayFixture f;
        QVERIFY(startSecured(f));
        const TestResponse got = request(f.port, "GET", "/api/config", {}, 10000, admin());
        nlohmann::json doc = parse(got.body);
        doc["switchyard"]["api_keys"].push_back("********"); // a second client key nobody typed
        const QString before = link::configHash(f.gateway.config());
        const TestResponse r = command(f.port, "PUT", "/api/config", dumped(doc), admin());
        QCOMPARE(r.status, 422);
        QCOMPARE(errorCode(r), std::string("invalid_config"));
        const nlohmann::json j = parse(r.body);
        QCOMPARE(j["problems"][0]["path"].get<std::string>(), std::string("switchyard.api_keys[1]"));
        QCOMPARE(link::configHash(f.gateway.config()), before);
    }

    void pauseRefusesNewRequestsWhileStreamsFinish()
    {
        GatewayFixture f;
        // Slow enough that the stream is still running when the pause lands.
        QVERIFY(startSecured(f, {QStringLiteral("a")}, [](sim::SimNodeOptions &o) { o.performance.tokensPerSecond = 40; }));
        QSignalSpy pausedSpy(&f.gateway, &Gateway::pausedChanged);
        TestClient stream(f.port);
        stream.send("POST", "/v1/chat/completions", chatBody("m1", 40, true), {{"Authorization", "Bearer " + ClientKey}});
        const TestResponse head = stream.readHead();
        QCOMPARE(head.status, 200);

        const TestResponse p = command(f.port, "POST", "/api/gateway/pause");
        QCOMPARE(p.status, 200);
        COMPARE_JSON(parse(p.body), nlohmann::json({{"paused", true}, {"accepting", false}}));
        QVERIFY(f.gateway.isPaused());
        QCOMPARE(pausedSpy.size(), 1);
        QCOMPARE(f.gateway.stats().inFlight.load(), qint64(1)); // the stream was still going

        TestResponse refused;
        QCOMPARE(chatStatus(f.port, &refused), 503);
        QCOMPARE(refused.header("retry-after"), QByteArray("5"));
        QCOMPARE(errorCode(refused), std::string("gateway_paused"));
        const TestResponse health = request(f.port, "GET", "/health");
        QCOMPARE(health.status, 503);
        COMPARE_JSON(parse(health.body), nlohmann::json({{"status", "paused"}}));
        // What keeps answering: the model list, the management API.
        QCOMPARE(request(f.port, "GET", "/v1/models", {}, 10000, {{"Authorization", "Bearer " + ClientKey}}).status, 200);
        const nlohmann::json s = status(f.port)["gateway"];
        QCOMPARE(s["paused"].get<bool>(), true);
        QCOMPARE(s["accepting"].get<bool>(), false);
        QCOMPARE(s["running"].get<bool>(), true);
        QCOMPARE(s["stopping"].get<bool>(), false);
        QCOMPARE(QString::fromStdString(s["listen_url"].get<std::string>()), f.gateway.listenUrl());

        const TestResponse rest = stream.readRest(head, 10000);
        QVERIFY(rest.complete);
        QCOMPARE(rest.sseEvents().last(), QByteArray("[DONE]"));

        const TestResponse resumed = command(f.port, "POST", "/api/gateway/resume");
        QCOMPARE(resumed.status, 200);
        COMPARE_JSON(parse(resumed.body), nlohmann::json({{"paused", false}, {"accepting", true}}));
        QCOMPARE(chatStatus(f.port), 200);
        QCOMPARE(request(f.port, "GET", "/health").status, 200);
        QCOMPARE(status(f.port)["gateway"]["accepting"].get<bool>(), true);
        QCOMPARE(pausedSpy.size(), 2);
    }

    void probeRunsTheChecksNow()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}, {}, {},
                        [](config::GatewayConfig &c) { c.settings.healthCheckIntervalMs = 600000; }));
        const auto lastCheck = [&] {
            return status(f.port)["nodes"][0]["last_check_ms_since_epoch"].get<qint64>();
        };
        QTRY_VERIFY_WITH_TIMEOUT(lastCheck() > 0, 10000); // the first round, at start
        const qint64 first = lastCheck();
        // A later millisecond: otherwise "advanced" could not be told from "the same".
        QTRY_VERIFY(QDateTime::currentMSecsSinceEpoch() > first);
        const TestResponse r = command(f.port, "POST", "/api/nodes/a/probe", {}, {});
        QCOMPARE(r.status, 200);
        COMPARE_JSON(parse(r.body), nlohmann::json({{"node", "a"}, {"probe", "started"}}));
        QTRY_VERIFY_WITH_TIMEOUT(lastCheck() > first, 10000);

        const TestResponse unknown = command(f.port, "POST", "/api/nodes/nope/probe", {}, {});
        QCOMPARE(unknown.status, 404);
        QCOMPARE(errorCode(unknown), std::string("node_not_found"));
        QCOMPARE(request(f.port, "POST", "/api/nodes/a/reboot").status, 404);
        QCOMPARE(request(f.port, "GET", "/api/nodes/a/probe").status, 405);
        // Drain and enable stay as they were.
        const TestResponse drained = request(f.port, "POST", "/api/nodes/a/drain");
        COMPARE_JSON(parse(drained.body), nlohmann::json({{"node", "a"}, {"draining", true}}));
        QCOMPARE(request(f.port, "POST", "/api/nodes/a/enable").status, 200);
    }

    void clientKeyIsRefusedOnTheNewRoutes()
    {
        GatewayFixture f;
        QVERIFY(startSecured(f));
        const HeaderList client = {{"Authorization", "Bearer " + ClientKey}};
        const QList<QPair<QByteArray, QByteArray>> calls = {{"GET", "/api/config"},
                                                            {"PUT", "/api/config"},
                                                            {"POST", "/api/nodes/a/probe"},
                                                            {"POST", "/api/gateway/pause"},
                                                            {"POST", "/api/gateway/resume"}};
        for (const auto &[method, path] : calls) {
            const TestResponse r = request(f.port, method, path, {}, 10000, client);
            QVERIFY2(r.status == 403, QByteArray(method + " " + path).constData());
            QCOMPARE(errorCode(r), std::string("forbidden"));
            QCOMPARE(request(f.port, method, path).status, 401);
        }
        QVERIFY(!f.gateway.isPaused());
    }
};

QTEST_GUILESS_MAIN(TestManagementApi)
#include "tst_managementapi.moc"
