// Safe by default (docs/SECURITY.md): the gateway does not become reachable from the network without
// API keys unless the operator says so, browsers elsewhere cannot read its answers unless origins are
// listed, and provider keys never appear in what the gateway says.

#include "common/testhttpclient.h"
#include "config/configloader.h"
#include "gateway/gatewayfixture.h"

#include <QTest>
#include <nlohmann/json.hpp>

using namespace switchyard;
using namespace switchyard::testing;

namespace {

QByteArray minimalConfig(const QByteArray &settings)
{
    return "{\"providers\": {\"openai\": {\"keys\": [{\"name\": \"k\", \"value\": \"dummy\", \"models\": "
           "[\"m1\"], "
           "\"weight\": 1}], \"network_config\": {\"base_url\": \"http://127.0.0.1:9\"}}}, \"switchyard\": " +
           settings + "}";
}

} // namespace

class TestSafeDefaults final : public QObject
{
    Q_OBJECT

private slots:
    void networkListenNeedsKeysOrOptOut()
    {
        auto parsed = config::parseConfig(minimalConfig("{}"));
        QVERIFY(parsed);
        QCOMPARE(parsed->settings.listenHost, QStringLiteral("127.0.0.1")); // the default

        parsed = config::parseConfig(minimalConfig("{\"listen\": \"0.0.0.0:8080\"}"));
        QVERIFY(!parsed);
        QCOMPARE(parsed.error().size(), 1);
        QCOMPARE(parsed.error().first().path, QStringLiteral("switchyard.listen"));
        QVERIFY(parsed.error().first().message.contains(QStringLiteral("switchyard.api_keys")));

        QVERIFY(config::parseConfig(minimalConfig("{\"listen\": \"0.0.0.0:8080\", \"api_keys\": [\"k1\"]}")));
        QVERIFY(config::parseConfig(minimalConfig("{\"listen\": \"0.0.0.0:8080\", \"admin_keys\": [\"a1\"]}")));
        QVERIFY(config::parseConfig(
            minimalConfig("{\"listen\": \"0.0.0.0:8080\", \"allow_unauthenticated_network_access\": true}")));
        QVERIFY(config::parseConfig(minimalConfig("{\"listen\": \"localhost:8080\"}")));
        QVERIFY(config::parseConfig(minimalConfig("{\"listen\": \"[::1]:8080\"}")));
        QVERIFY(!config::parseConfig(minimalConfig("{\"listen\": \"192.168.1.5:8080\"}")));

        // Settings that bypass the loader (--listen, the panel) meet the same rule at the socket.
        Gateway gateway;
        config::GatewayConfig cfg = *config::parseConfig(minimalConfig("{}"));
        cfg.settings.listenHost = QStringLiteral("0.0.0.0");
        cfg.settings.listenPort = 0;
        gateway.applyConfig(cfg);
        const auto started = gateway.start();
        QVERIFY(!started);
        QVERIFY2(started.error().contains(QStringLiteral("Refusing to listen")), qPrintable(started.error()));
        QVERIFY(!gateway.isRunning());
    }

    void adminKeysAndMetricsOptInAreRead()
    {
        qputenv("SWITCHYARD_TEST_ADMIN_KEY", "sk-admin-from-env");
        auto parsed = config::parseConfig(minimalConfig(
            "{\"api_keys\": [\"c1\"], \"admin_keys\": [\"a1\", \"env.SWITCHYARD_TEST_ADMIN_KEY\"], "
            "\"metrics_without_key\": true}"));
        qunsetenv("SWITCHYARD_TEST_ADMIN_KEY");
        QVERIFY(parsed);
        QCOMPARE(parsed->settings.apiKeys, QStringList{QStringLiteral("c1")});
        QCOMPARE(parsed->settings.adminKeys, (QStringList{QStringLiteral("a1"), QStringLiteral("sk-admin-from-env")}));
        QVERIFY(parsed->settings.metricsWithoutKey);
        QVERIFY(!config::parseConfig(minimalConfig("{}"))->settings.metricsWithoutKey); // off by default

        parsed = config::parseConfig(minimalConfig("{\"admin_keys\": [\"\", 3, \"env.SWITCHYARD_NO_SUCH_KEY\"]}"));
        QVERIFY(!parsed);
        QCOMPARE(parsed.error().size(), 3);
        QCOMPARE(parsed.error()[0].path, QStringLiteral("switchyard.admin_keys[0]"));
        QCOMPARE(parsed.error()[1].path, QStringLiteral("switchyard.admin_keys[1]"));
        QCOMPARE(parsed.error()[2].path, QStringLiteral("switchyard.admin_keys[2]"));
    }

    // Any API key used to reach the management API; since roles, a client key reaches it nowhere, and
    // with no admin_keys nothing reaches it over HTTP but loopback on a gateway without keys.
    void clientKeyNeverReachesManagement()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}, {}, {},
                        [](config::GatewayConfig &c) { c.settings.apiKeys = {QStringLiteral("k1")}; }));
        const TestResponse r = request(f.port, "GET", "/api/status", {}, 10000, {{"Authorization", "Bearer k1"}});
        QCOMPARE(r.status, 403);
        QVERIFY(r.body.contains("switchyard.admin_keys"));
        QCOMPARE(request(f.port, "POST", "/v1/chat/completions", chatBody("m1"), 10000,
                         {{"Authorization", "Bearer k1"}}).status, 200);
    }

    void corsOriginsAreValidated()
    {
        auto parsed =
            config::parseConfig(minimalConfig("{\"cors_origins\": [\"https://chat.example:8443\", \"*\"]}"));
        QVERIFY(parsed);
        QCOMPARE(parsed->settings.corsOrigins.size(), 2);
        parsed = config::parseConfig(minimalConfig("{\"cors_origins\": [\"https://chat.example/app\", 5]}"));
        QVERIFY(!parsed);
        QCOMPARE(parsed.error().size(), 2);
        QCOMPARE(parsed.error()[0].path, QStringLiteral("switchyard.cors_origins[0]"));
        QVERIFY(parsed.error()[0].message.contains(QStringLiteral("is not an origin")));
    }

    void corsIsOffUnlessConfigured()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}));
        const QList<QPair<QByteArray, QByteArray>> origin = {{"Origin", "https://evil.example"}};
        TestResponse r = request(f.port, "POST", "/v1/chat/completions", chatBody("m1"), 10000, origin);
        QCOMPARE(r.status, 200); // answered, but a browser may not read it
        QVERIFY(r.header("access-control-allow-origin").isEmpty());
        r = request(f.port, "OPTIONS", "/v1/chat/completions", {}, 10000,
                    {{"Origin", "https://evil.example"}, {"Access-Control-Request-Method", "POST"}});
        QCOMPARE(r.status, 405);
        QVERIFY(r.header("access-control-allow-origin").isEmpty());
        QVERIFY(r.body.contains("cors_origins"));
    }

    void corsAnswersListedOriginsOnly()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}, {}, {}, [](config::GatewayConfig &c) {
            c.settings.corsOrigins = {QStringLiteral("https://chat.example")};
            c.settings.apiKeys = {QStringLiteral("k1")};
        }));
        TestResponse r = request(f.port, "OPTIONS", "/v1/chat/completions", {}, 10000,
                                 {{"Origin", "https://chat.example"},
                                  {"Access-Control-Request-Method", "POST"},
                                  {"Access-Control-Request-Headers", "authorization, content-type"}});
        QCOMPARE(r.status, 204);
        QCOMPARE(r.header("access-control-allow-origin"), QByteArray("https://chat.example"));
        QVERIFY(r.header("access-control-allow-headers").contains("Authorization"));

        r = request(f.port, "POST", "/v1/chat/completions", chatBody("m1"), 10000,
                    {{"Origin", "https://chat.example"}, {"Authorization", "Bearer k1"}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("access-control-allow-origin"), QByteArray("https://chat.example"));
        QVERIFY(r.header("access-control-expose-headers").contains("X-Switchyard-Node"));

        // The page can read why it was refused…
        r = request(f.port, "POST", "/v1/chat/completions", chatBody("m1"), 10000,
                    {{"Origin", "https://chat.example"}});
        QCOMPARE(r.status, 401);
        QCOMPARE(r.header("access-control-allow-origin"), QByteArray("https://chat.example"));
        // …another origin gets nothing to read.
        r = request(f.port, "POST", "/v1/chat/completions", chatBody("m1"), 10000,
                    {{"Origin", "https://other.example"}, {"Authorization", "Bearer k1"}});
        QCOMPARE(r.status, 200);
        QVERIFY(r.header("access-control-allow-origin").isEmpty());
        r = request(f.port, "OPTIONS", "/v1/chat/completions", {}, 10000,
                    {{"Origin", "https://other.example"}, {"Access-Control-Request-Method", "POST"}});
        QCOMPARE(r.status, 403);
    }

    void providerKeysNeverShow()
    {
        const QByteArray secret = "sk-live-DO-NOT-LEAK-4242";
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a"), QStringLiteral("b")}, {}, {}, [&](config::GatewayConfig &c) {
            for (config::ProviderConfig &p : c.providers)
                p.keys[0].value = QString::fromUtf8(secret);
        }));
        f.node(1).setFault(sim::FaultMode::Error500);
        QByteArray everything;
        for (int i = 0; i < 6; ++i)
            everything += request(f.port, "POST", "/v1/chat/completions", chatBody("m1")).body;
        f.node(0).setFault(sim::FaultMode::Refuse);
        for (int i = 0; i < 3; ++i)
            everything += request(f.port, "POST", "/v1/chat/completions", chatBody("m1")).body;
        everything += request(f.port, "GET", "/api/status").body;
        everything += request(f.port, "GET", "/metrics").body;
        everything += request(f.port, "GET", "/api/requests?max=1000").body;
        everything += request(f.port, "GET", "/v1/models").body;
        for (const stats::RequestRecord &r : f.gateway.recentRequests())
            everything += r.toLogLine().toUtf8();
        QVERIFY(everything.contains("a")); // something was said…
        QVERIFY(everything.contains("\"error\""));
        QVERIFY(!everything.contains(secret)); // …and the key was not
    }
};

QTEST_GUILESS_MAIN(TestSafeDefaults)
#include "tst_safedefaults.moc"
