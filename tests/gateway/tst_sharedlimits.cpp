// Two real `switchyard --headless` replicas in front of one `switchyard-simnode`, sharing a real
// `redis-server` (switchyard.redis_url), as an operator runs them behind one address: a key made on one
// replica works on the other and a revocation reaches both; one limit holds for both together (the
// requests per minute, the tokens per day), with nothing forwarded once it is reached; Redis killed
// mid-run → every request still served, the problem said in /api/status, and the sharing back once
// Redis is.

#include "common/testhttpclient.h"
#include "common/testprocesses.h"

#include <QDateTime>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>

using namespace Qt::Literals::StringLiterals;
using namespace switchyard;
using namespace switchyard::testing;
using nlohmann::json;

namespace {

json bodyOf(const TestResponse &r)
{
    return json::parse(r.body.toStdString(), nullptr, false);
}

QList<QPair<QByteArray, QByteArray>> bearer(const std::string &secret)
{
    return {{"Authorization", "Bearer " + QByteArray::fromStdString(secret)}};
}

} // namespace

class TestSharedLimits final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<TestProcesses> m_processes;
    quint16 m_redisPort = 0;
    QProcess *m_redis = nullptr;
    quint16 m_nodePort = 0;
    QList<quint16> m_gateways;

    QString writeConfig(int index)
    {
        const json doc = {
            {"providers",
             {{"a",
               {{"keys", {{{"name", "a-key"}, {"value", "dummy"}, {"models", {"m1"}}, {"weight", 1}}}},
                {"network_config", {{"base_url", "http://127.0.0.1:" + std::to_string(m_nodePort)}}},
                {"custom_provider_config", {{"base_provider_type", "openai"}}}}}}},
            {"switchyard",
             {{"worker_threads", 1},
              {"health_check_interval_ms", 500},
              {"redis_url", "redis://127.0.0.1:" + std::to_string(m_redisPort)}}}};
        const QString path = m_dir.filePath(u"gateway-%1.json"_s.arg(index));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return {};
        f.write(QByteArray::fromStdString(doc.dump(2)));
        return path;
    }

    TestResponse chat(int gateway, const std::string &secret, int maxTokens = 4)
    {
        return request(m_gateways[gateway], "POST", "/v1/chat/completions", chatBody("m1", maxTokens), 10000,
                       bearer(secret));
    }

    json makeKey(int gateway, const QByteArray &body)
    {
        const TestResponse r = request(m_gateways[gateway], "POST", "/api/keys", body);
        if (r.status != 201)
            qWarning() << "POST /api/keys:" << r.status << r.body;
        return r.status == 201 ? bodyOf(r) : json();
    }

    // The key as one replica lists it (its usage includes what the other replicas counted).
    json keyOn(int gateway, const std::string &id)
    {
        const json k = bodyOf(request(m_gateways[gateway], "GET", "/api/keys/" + QByteArray::fromStdString(id)));
        return k.is_object() ? k : json::object();
    }

    qint64 usageOn(int gateway, const std::string &id, const char *field)
    {
        const json k = keyOn(gateway, id);
        return k.is_object() && k.contains("usage") ? k["usage"].value(field, qint64(-1)) : -1;
    }

    // Requests the node was sent by both replicas (each replica's attempts on it).
    qint64 forwarded()
    {
        qint64 n = 0;
        for (quint16 port : std::as_const(m_gateways)) {
            const json s = bodyOf(request(port, "GET", "/api/status"));
            for (const json &node : s.value("nodes", json::array()))
                n += node.value("attempts", qint64(0));
        }
        return n;
    }

    QString redisProblem(int gateway)
    {
        const json s = bodyOf(request(m_gateways[gateway], "GET", "/api/status"));
        const json problem = s.is_object() ? s["gateway"].value("redis_problem", json()) : json();
        return problem.is_string() ? QString::fromStdString(problem.get<std::string>()) : QString();
    }

    // A minute's window is what a requests-per-minute limit counts in: a test of it must not straddle
    // two minutes, so it starts early in one.
    static void waitForAFreshMinute()
    {
        if (QDateTime::currentMSecsSinceEpoch() % 60'000 < 45'000)
            return;
        (void)QTest::qWaitFor([] { return QDateTime::currentMSecsSinceEpoch() % 60'000 < 15'000; }, 20'000);
    }

private slots:
    void init()
    {
        QVERIFY(m_dir.isValid());
        m_processes = std::make_unique<TestProcesses>(m_dir.path());
        m_redisPort = m_processes->startRedis(0, &m_redis);
        QVERIFY2(m_redisPort != 0, "redis-server did not start (scripts/install-deps.sh --test installs it)");
        m_nodePort = m_processes->startSimNode(QStringLiteral(SWITCHYARD_SIMNODE_BIN), u"a"_s);
        QVERIFY2(m_nodePort != 0, "switchyard-simnode did not start");
        m_gateways.clear();
        for (int i = 0; i < 2; ++i) {
            const quint16 port = m_processes->startHeadless(QStringLiteral(SWITCHYARD_BIN), writeConfig(i));
            QVERIFY2(port != 0, "switchyard --headless did not start");
            m_gateways.append(port);
        }
    }

    void cleanup() { m_processes.reset(); }

    void aKeyMadeOnOneReplicaWorksOnTheOtherUntilRevoked()
    {
        const json made = makeKey(0, R"({"name": "ci-pipeline", "requests_per_minute": 1000})");
        QVERIFY(made.is_object());
        const std::string secret = made.value("secret", "");
        const std::string id = made.value("id", "");
        QCOMPARE(chat(0, secret).status, 200);
        // Once replica 0 has a key, its OpenAI endpoints want one: a made-up key is refused.
        QCOMPARE(chat(0, "sy-made-up").status, 401);
        // The other replica learns of it within a round or two of the sharing…
        QTRY_COMPARE_WITH_TIMEOUT(keyOn(1, id).value("name", ""), "ci-pipeline", 5000);
        QVERIFY(keyOn(1, id).dump().find(secret) == std::string::npos); // its hash travels, never the secret
        // …and then serves the key's holder and refuses everyone else, as replica 0 does.
        QCOMPARE(chat(1, secret).status, 200);
        QCOMPARE(chat(1, "sy-made-up").status, 401);

        QCOMPARE(request(m_gateways[1], "DELETE", "/api/keys/" + QByteArray::fromStdString(id)).status, 200);
        QCOMPARE(chat(1, secret).status, 401);
        QTRY_COMPARE_WITH_TIMEOUT(chat(0, secret).status, 401, 5000);
        QVERIFY(bodyOf(chat(0, secret)).dump().find("revoked") != std::string::npos);
    }

    void oneRequestLimitHoldsForBothReplicas()
    {
        waitForAFreshMinute();
        const json made = makeKey(0, R"({"name": "batch", "requests_per_minute": 6})");
        const std::string secret = made.value("secret", "");
        const std::string id = made.value("id", "");
        QTRY_COMPARE_WITH_TIMEOUT(keyOn(1, id).value("name", ""), "batch", 5000);

        for (int i = 0; i < 3; ++i)
            QCOMPARE(chat(0, secret).status, 200);
        // Replica 1 hears of replica 0's three, and counts them in its own listing.
        QTRY_COMPARE_WITH_TIMEOUT(usageOn(1, id, "requests_this_minute"), 3, 5000);
        for (int i = 0; i < 3; ++i)
            QCOMPARE(chat(1, secret).status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(usageOn(0, id, "requests_this_minute"), 6, 5000);

        const qint64 before = forwarded();
        QCOMPARE(before, 6);
        for (int gateway : {0, 1}) {
            const TestResponse refused = chat(gateway, secret);
            QCOMPARE(refused.status, 429);
            QVERIFY(refused.header("retry-after").toInt() >= 1);
            QCOMPARE(refused.header("x-ratelimit-limit-requests"), QByteArray("6"));
            QCOMPARE(refused.header("x-ratelimit-remaining-requests"), QByteArray("0"));
            QCOMPARE(bodyOf(refused)["error"].value("param", ""), "requests_per_minute");
        }
        QCOMPARE(forwarded(), before); // nothing reached the node
    }

    void oneDayOfTokensHoldsForBothReplicas()
    {
        const json made = makeKey(0, R"({"name": "nightly", "tokens_per_day": 40})");
        const std::string secret = made.value("secret", "");
        const std::string id = made.value("id", "");
        QTRY_COMPARE_WITH_TIMEOUT(keyOn(1, id).value("name", ""), "nightly", 5000);
        // Replica 0 spends the day's tokens (charged when each answer ends, from the node's usage)…
        qint64 spent = 0;
        while (spent < 40) {
            const TestResponse r = chat(0, secret, 16);
            QCOMPARE(r.status, 200);
            spent += bodyOf(r)["usage"].value("total_tokens", qint64(0));
        }
        // …and replica 1, which served none of them, refuses the next one once it has heard.
        QTRY_COMPARE_WITH_TIMEOUT(usageOn(1, id, "tokens_today"), spent, 5000);
        const TestResponse refused = chat(1, secret);
        QCOMPARE(refused.status, 429);
        QCOMPARE(bodyOf(refused)["error"].value("param", ""), "tokens_per_day");
    }

    void redisKilledMidRunCostsNoRequest()
    {
        const json made = makeKey(0, R"({"name": "app", "requests_per_minute": 100000})");
        const std::string secret = made.value("secret", "");
        QTRY_COMPARE_WITH_TIMEOUT(chat(1, secret).status, 200, 5000);
        QVERIFY(redisProblem(0).isEmpty());

        m_redis->kill();
        m_redis->waitForFinished(5000);
        // Requests go on being served by both, with the keys they know…
        for (int i = 0; i < 10; ++i) {
            QCOMPARE(chat(0, secret).status, 200);
            QCOMPARE(chat(1, secret).status, 200);
        }
        // …and each says why its limits are its own for now (the address, never a password).
        QTRY_VERIFY_WITH_TIMEOUT(redisProblem(0).contains(u"cannot be reached"_s), 5000);
        QTRY_VERIFY_WITH_TIMEOUT(redisProblem(1).contains(u"redis://127.0.0.1:%1"_s.arg(m_redisPort)), 5000);

        // Redis back on its port (empty: it kept nothing): found again, keys told to it again.
        QCOMPARE(m_processes->startRedis(m_redisPort, &m_redis), m_redisPort);
        QTRY_VERIFY_WITH_TIMEOUT(redisProblem(0).isEmpty() && redisProblem(1).isEmpty(), 15000);
        const json later = makeKey(1, R"({"name": "after-the-outage"})");
        QTRY_COMPARE_WITH_TIMEOUT(chat(0, later.value("secret", "")).status, 200, 5000);
        QCOMPARE(chat(0, secret).status, 200);
    }
};

QTEST_GUILESS_MAIN(TestSharedLimits)
#include "tst_sharedlimits.moc"
