// Roles (docs/SECURITY.md): client keys (switchyard.api_keys) use the OpenAI endpoints, admin keys
// (switchyard.admin_keys) everything; no or a wrong key is a 401, a client key on the management API
// or /metrics a 403, and no answer says which keys exist. Over a real gateway on loopback.

#include "common/testhttpclient.h"
#include "gateway/gatewayfixture.h"

#include <QTest>
#include <QThread>
#include <atomic>
#include <nlohmann/json.hpp>

using namespace switchyard;
using namespace switchyard::testing;

namespace {

const QByteArray ClientKey = "sk-client-7f3a";
const QByteArray AdminKey = "sk-admin-91c2";

using HeaderList = QList<QPair<QByteArray, QByteArray>>;

HeaderList bearer(const QByteArray &key)
{
    return {{"Authorization", "Bearer " + key}};
}

struct Call
{
    QByteArray method;
    QByteArray path;
    QByteArray body;
};

// Every management path, with a method it takes. The config body is invalid on purpose: an admin key
// gets the validator's 422 rather than replacing the running config. Resume follows pause, so an
// admin going through the list leaves the gateway taking requests.
const QList<Call> ManagementCalls = {
    {"GET", "/metrics", {}},          {"GET", "/api/status", {}},   {"GET", "/api/history", {}},
    {"GET", "/api/requests", {}},     {"GET", "/api/config", {}},   {"PUT", "/api/config", "{"},
    {"POST", "/api/nodes/nope/drain", {}}, {"POST", "/api/nodes/nope/probe", {}},
    {"POST", "/api/gateway/pause", {}},    {"POST", "/api/gateway/resume", {}},
    {"GET", "/api/no-such-thing", {}},
};

// Commands an admin may give (pause, resume) run on the gateway's thread, which is the test's: the
// request goes out from another thread while this one's event loop runs.
TestResponse requestOffThread(quint16 port, const Call &c, const HeaderList &headers)
{
    TestResponse out;
    std::atomic<bool> done{false};
    QThread *t = QThread::create([&] {
        out = request(port, c.method, c.path, c.body, 10000, headers);
        done = true;
    });
    t->start();
    (void)QTest::qWaitFor([&] { return done.load(); }, 15000);
    t->wait();
    delete t;
    return out;
}

const QList<Call> ClientCalls = {
    {"POST", "/v1/chat/completions", chatBody("m1")},
    {"POST", "/v1/completions", R"({"model":"m1","prompt":"hi","max_tokens":4})"},
    {"GET", "/v1/models", {}},
    {"GET", "/v1/models/m1", {}},
};

QByteArray describe(const Call &c, const TestResponse &r)
{
    return c.method + ' ' + c.path + " gave " + QByteArray::number(r.status);
}

std::string errorCode(const TestResponse &r)
{
    const auto j = nlohmann::json::parse(r.body.toStdString(), nullptr, false);
    return j.is_object() && j.contains("error") ? j["error"].value("code", std::string()) : std::string();
}

} // namespace

class TestRoles final : public QObject
{
    Q_OBJECT

private:
    static bool startWithRoles(GatewayFixture &f, bool metricsWithoutKey = false)
    {
        return f.start({QStringLiteral("a")}, {}, {}, [&](config::GatewayConfig &c) {
            c.settings.apiKeys = {QString::fromUtf8(ClientKey)};
            c.settings.adminKeys = {QString::fromUtf8(AdminKey)};
            c.settings.metricsWithoutKey = metricsWithoutKey;
        });
    }

private slots:
    void clientKeyIsRefusedOnEveryManagementPath()
    {
        GatewayFixture f;
        QVERIFY(startWithRoles(f));
        for (const Call &c : ManagementCalls) {
            const TestResponse r = request(f.port, c.method, c.path, c.body, 10000, bearer(ClientKey));
            QVERIFY2(r.status == 403, describe(c, r).constData());
            QCOMPARE(errorCode(r), std::string("forbidden"));
            QVERIFY(r.body.contains("switchyard.admin_keys"));
            QVERIFY(!r.body.contains(ClientKey) && !r.body.contains(AdminKey));
        }
    }

    void adminKeyIsAcceptedEverywhere()
    {
        GatewayFixture f;
        QVERIFY(startWithRoles(f));
        for (const Call &c : ManagementCalls + ClientCalls) {
            const TestResponse r = requestOffThread(f.port, c, bearer(AdminKey));
            QVERIFY2(r.status >= 200 && r.status != 401 && r.status != 403, describe(c, r).constData());
        }
        QVERIFY(!f.gateway.isPaused());
        QCOMPARE(request(f.port, "GET", "/api/status", {}, 10000, bearer(AdminKey)).status, 200);
        QCOMPARE(request(f.port, "GET", "/metrics", {}, 10000, bearer(AdminKey)).status, 200);
        QCOMPARE(request(f.port, "POST", "/v1/chat/completions", chatBody("m1"), 10000, bearer(AdminKey)).status, 200);
    }

    void clientKeyUsesTheOpenAiEndpoints()
    {
        GatewayFixture f;
        QVERIFY(startWithRoles(f));
        for (const Call &c : ClientCalls) {
            const TestResponse r = request(f.port, c.method, c.path, c.body, 10000, bearer(ClientKey));
            QVERIFY2(r.status == 200, describe(c, r).constData());
        }
        QCOMPARE(request(f.port, "GET", "/health").status, 200); // no key needed
    }

    void noOrWrongKeyIs401Everywhere()
    {
        GatewayFixture f;
        QVERIFY(startWithRoles(f));
        const QList<HeaderList> callers = {{}, bearer("sk-guess"), bearer(ClientKey + "x"), {{"Authorization", AdminKey}}};
        for (const HeaderList &h : callers) {
            for (const Call &c : ManagementCalls + ClientCalls) {
                const TestResponse r = request(f.port, c.method, c.path, c.body, 10000, h);
                QVERIFY2(r.status == 401, describe(c, r).constData());
                QCOMPARE(errorCode(r), std::string("invalid_api_key"));
                QVERIFY(!r.body.contains(ClientKey) && !r.body.contains(AdminKey));
            }
        }
        // Refused calls leave no trace of the keys in the request log either.
        for (const stats::RequestRecord &r : f.gateway.recentRequests())
            QVERIFY(!r.toLogLine().toUtf8().contains(AdminKey));
    }

    void metricsOpenOnlyWhenTheOperatorSaysSo()
    {
        {
            GatewayFixture f;
            QVERIFY(startWithRoles(f));
            QCOMPARE(request(f.port, "GET", "/metrics").status, 401);
        }
        GatewayFixture f;
        QVERIFY(startWithRoles(f, true));
        const TestResponse r = request(f.port, "GET", "/metrics");
        QCOMPARE(r.status, 200);
        QVERIFY(r.body.contains("switchyard_"));
        QCOMPARE(request(f.port, "GET", "/metrics", {}, 10000, bearer(ClientKey)).status, 200);
        // Only /metrics: the rest of the management API still wants an admin key.
        QCOMPARE(request(f.port, "GET", "/api/status").status, 401);
        QCOMPARE(request(f.port, "GET", "/api/status", {}, 10000, bearer(ClientKey)).status, 403);
    }

    void adminKeysAloneProtectEverything()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}, {}, {},
                        [](config::GatewayConfig &c) { c.settings.adminKeys = {QString::fromUtf8(AdminKey)}; }));
        QCOMPARE(request(f.port, "GET", "/api/status").status, 401); // loopback too
        QCOMPARE(request(f.port, "POST", "/v1/chat/completions", chatBody("m1")).status, 401);
        QCOMPARE(request(f.port, "GET", "/api/status", {}, 10000, bearer(AdminKey)).status, 200);
        QCOMPARE(request(f.port, "GET", "/health").status, 200);
    }

    void noKeysOnLoopbackIsUnchanged()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}));
        QCOMPARE(request(f.port, "GET", "/api/status").status, 200);
        QCOMPARE(request(f.port, "GET", "/metrics").status, 200);
        QCOMPARE(request(f.port, "POST", "/api/nodes/a/drain").status, 200);
        QCOMPARE(request(f.port, "POST", "/api/nodes/a/enable").status, 200);
        QCOMPARE(request(f.port, "GET", "/v1/models").status, 200);
        QCOMPARE(request(f.port, "POST", "/v1/chat/completions", chatBody("m1")).status, 200);
        // A key sent to a gateway that has none is ignored, as before.
        QCOMPARE(request(f.port, "GET", "/api/status", {}, 10000, bearer("sk-anything")).status, 200);
    }
};

QTEST_GUILESS_MAIN(TestRoles)
#include "tst_roles.moc"
