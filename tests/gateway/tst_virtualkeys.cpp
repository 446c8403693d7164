// Virtual keys through a real gateway in front of simulated nodes, as an operator and a client see
// them: a key made with POST /api/keys works at once and its secret is never shown again; a revoked key
// is refused from the next request on; each limit answers 429 with Retry-After and OpenAI's
// x-ratelimit-* headers and forwards nothing; the usage a key shows is the tokens the node reported;
// models and providers a key may not use stay out of its reach; bad bodies name the field.

#include "common/testhttpclient.h"
#include "gateway/gatewayfixture.h"
#include "keys/keyregistry.h"

#include <QTest>
#include <atomic>
#include <nlohmann/json.hpp>

using namespace Qt::Literals::StringLiterals;
using namespace switchyard;
using namespace switchyard::testing;
using nlohmann::json;

namespace {

// A JSON value as text, for comparisons ("" when it is no string).
QString str(const json &v)
{
    return v.is_string() ? QString::fromStdString(v.get<std::string>()) : QString();
}

json bodyOf(const TestResponse &r)
{
    return json::parse(r.body.toStdString(), nullptr, false);
}

QList<QPair<QByteArray, QByteArray>> bearer(const std::string &secret)
{
    return {{"Authorization", "Bearer " + QByteArray::fromStdString(secret)}};
}

TestResponse chat(quint16 port, const std::string &secret, const QByteArray &model = "m1", int maxTokens = 4,
                  bool stream = false)
{
    return request(port, "POST", "/v1/chat/completions", chatBody(model, maxTokens, stream), 10000,
                   secret.empty() ? QList<QPair<QByteArray, QByteArray>>{} : bearer(secret));
}

// POST /api/keys with this body; the created key (with its secret), or a null json.
json makeKey(quint16 port, const QByteArray &body)
{
    const TestResponse r = request(port, "POST", "/api/keys", body);
    if (r.status != 201)
        qWarning() << "POST /api/keys:" << r.status << r.body;
    return r.status == 201 ? bodyOf(r) : json();
}

qint64 nodeRequests(GatewayFixture &f)
{
    qint64 n = 0;
    for (const auto &node : f.nodes)
        n += node->counters().requestsReceived;
    return n;
}

} // namespace

class TestVirtualKeys final : public QObject
{
    Q_OBJECT

private slots:
    void aKeyWorksAtOnceAndARevokedOneIsRefusedFromTheNextRequest()
    {
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s}));
        QCOMPARE(chat(f.port, {}).status, 200); // no keys yet: open, as before

        const json made = makeKey(f.port, R"({"name": "ci-pipeline", "requests_per_minute": 100})");
        QVERIFY(made.is_object());
        const std::string secret = made.value("secret", "");
        const std::string id = made.value("id", "");
        QVERIFY(QByteArray::fromStdString(secret).startsWith("sy-") && secret.size() == 43);
        QVERIFY(QByteArray::fromStdString(id).startsWith("vk_"));
        QCOMPARE(str(made["name"]), u"ci-pipeline"_s);
        QCOMPARE(str(made["status"]), u"active"_s);

        QCOMPARE(chat(f.port, secret).status, 200);
        QTRY_COMPARE(f.gateway.recentRequests().size(), 2);
        QCOMPARE(f.gateway.recentRequests().last().keyId, QString::fromStdString(id)); // the log names the key
        const TestResponse without = chat(f.port, {});
        QCOMPARE(without.status, 401); // a key is active: the endpoints need one now
        QCOMPARE(chat(f.port, "sy-not-a-key").status, 401);

        // Listed with its usage, never with its secret.
        const TestResponse list = request(f.port, "GET", "/api/keys");
        QCOMPARE(list.status, 200);
        QVERIFY(!list.body.contains(QByteArray::fromStdString(secret)));
        const json listed = bodyOf(list)["data"][0];
        QCOMPARE(str(listed["id"]), QString::fromStdString(id));
        QCOMPARE(listed["usage"]["requests"].get<qint64>(), 1);
        QVERIFY(QString::fromStdString(listed.value("secret_hint", "")).startsWith(u"sy-"_s));
        QVERIFY(!listed.contains("secret"));

        // A virtual key is a client key: the management API is not for it.
        const TestResponse manage = request(f.port, "GET", "/api/keys", {}, 10000, bearer(secret));
        QCOMPARE(manage.status, 403);

        const TestResponse revoked = request(f.port, "DELETE", "/api/keys/" + QByteArray::fromStdString(id));
        QCOMPARE(revoked.status, 200);
        QCOMPARE(str(bodyOf(revoked)["status"]), u"revoked"_s);
        const TestResponse afterRevoke = chat(f.port, secret);
        QCOMPARE(afterRevoke.status, 401); // refused, and told why, though no other key is active
        QVERIFY(str(bodyOf(afterRevoke)["error"]["message"]).contains(u"revoked"_s));
        QCOMPARE(str(bodyOf(request(f.port, "GET", "/api/keys/" + QByteArray::fromStdString(id)))["status"]), u"revoked"_s);
        QCOMPARE(request(f.port, "PATCH", "/api/keys/" + QByteArray::fromStdString(id), R"({"max_concurrent": 3})").status,
                 409);
        QCOMPARE(chat(f.port, {}).status, 200); // no active key left: open again
    }

    void badKeyRequestsNameTheField()
    {
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s}));
        const auto refusal = [&f](const QByteArray &method, const QByteArray &path, const QByteArray &body) {
            const TestResponse r = request(f.port, method, path, body);
            const json e = bodyOf(r)["error"];
            return std::make_tuple(r.status, QString::fromStdString(e.value("message", "")),
                                   e["param"].is_string() ? e["param"].get<std::string>() : std::string());
        };
        auto [s1, m1, p1] = refusal("POST", "/api/keys", R"({"requests_per_minute": 5})");
        QCOMPARE(s1, 400);
        QCOMPARE(p1, std::string("name"));
        auto [s2, m2, p2] = refusal("POST", "/api/keys", R"({"name": "x", "request_per_minute": 5})");
        QCOMPARE(s2, 400);
        QVERIFY2(m2.contains(u"did you mean \"requests_per_minute\""_s), qPrintable(m2));
        auto [s3, m3, p3] = refusal("POST", "/api/keys", R"({"name": "x", "tokens_per_day": -1})");
        QCOMPARE(s3, 400);
        QCOMPARE(p3, std::string("tokens_per_day"));
        auto [s4, m4, p4] = refusal("POST", "/api/keys", R"({"name": "x", "expires_at": "tomorrow"})");
        QCOMPARE(s4, 400);
        QCOMPARE(p4, std::string("expires_at"));
        auto [s5, m5, p5] = refusal("POST", "/api/keys", "not json");
        QCOMPARE(s5, 400);
        QCOMPARE(std::get<0>(refusal("PATCH", "/api/keys/vk_0000000000000000", R"({"name": "y"})")), 404);
        QCOMPARE(std::get<0>(refusal("PUT", "/api/keys/vk_0000000000000000", R"({"name": "y"})")), 405);
        QCOMPARE(request(f.port, "GET", "/api/keys").body.count("\"id\""), 0); // nothing was made
    }

    void eachLimitAnswers429AndForwardsNothing()
    {
        GatewayFixture f;
        std::atomic<qint64> now{QDateTime::fromString(u"2026-12-04T10:00:05Z"_s, Qt::ISODate).toMSecsSinceEpoch()};
        f.gateway.keys().setWallClock([&now] { return now.load(); });
        QVERIFY(f.start({u"a"_s}));

        // Requests per minute.
        const std::string rpm = makeKey(f.port, R"({"name": "rpm", "requests_per_minute": 2})").value("secret", "");
        const TestResponse first = chat(f.port, rpm);
        QCOMPARE(first.status, 200);
        QCOMPARE(first.header("x-ratelimit-limit-requests"), "2"); // answers carry the headers, as OpenAI's do
        QCOMPARE(first.header("x-ratelimit-remaining-requests"), "1");
        QCOMPARE(chat(f.port, rpm).status, 200);
        const qint64 forwarded = nodeRequests(f);
        const TestResponse third = chat(f.port, rpm);
        QCOMPARE(third.status, 429);
        QCOMPARE(nodeRequests(f), forwarded);
        QCOMPARE(third.header("retry-after"), "55"); // to the next minute
        QCOMPARE(third.header("x-ratelimit-limit-requests"), "2");
        QCOMPARE(third.header("x-ratelimit-remaining-requests"), "0");
        QCOMPARE(third.header("x-ratelimit-reset-requests"), "55s");
        QCOMPARE(str(bodyOf(third)["error"]["code"]), u"rate_limit_exceeded"_s);
        QCOMPARE(str(bodyOf(third)["error"]["param"]), u"requests_per_minute"_s);
        now += 55'000; // the next minute
        QCOMPARE(chat(f.port, rpm).status, 200);

        // Tokens per minute: the request that crosses it is answered, the next one refused.
        const std::string tpm = makeKey(f.port, R"({"name": "tpm", "tokens_per_minute": 10})").value("secret", "");
        QCOMPARE(chat(f.port, tpm, "m1", 8).status, 200);
        const TestResponse overTokens = chat(f.port, tpm);
        QCOMPARE(overTokens.status, 429);
        QCOMPARE(str(bodyOf(overTokens)["error"]["param"]), u"tokens_per_minute"_s);
        QCOMPARE(overTokens.header("x-ratelimit-limit-tokens"), "10");
        QCOMPARE(overTokens.header("x-ratelimit-remaining-tokens"), "0");

        // Tokens per day, counted in UTC days.
        const std::string tpd = makeKey(f.port, R"({"name": "tpd", "tokens_per_day": 10})").value("secret", "");
        QCOMPARE(chat(f.port, tpd, "m1", 8, true).status, 200); // a stream's tokens count as well
        now += 120'000;
        const TestResponse overDay = chat(f.port, tpd);
        QCOMPARE(overDay.status, 429);
        QCOMPARE(str(bodyOf(overDay)["error"]["param"]), u"tokens_per_day"_s);
        QVERIFY(overDay.header("retry-after").toLongLong() > 3600);
        now += 24LL * 3600 * 1000;
        QCOMPARE(chat(f.port, tpd).status, 200);

        // Expiry: the key works until its time, and is refused with a reason after it.
        const QByteArray until = QDateTime::fromMSecsSinceEpoch(now + 60'000, Qt::UTC).toString(Qt::ISODate).toUtf8();
        const json expiring = makeKey(f.port, R"({"name": "for a minute", "expires_at": ")" + until + R"("})");
        const std::string expiringSecret = expiring.value("secret", "");
        QCOMPARE(str(expiring["expires_at"]), QString::fromUtf8(until));
        QCOMPARE(chat(f.port, expiringSecret).status, 200);
        now += 60'000;
        const TestResponse expired = chat(f.port, expiringSecret);
        QCOMPARE(expired.status, 401);
        QVERIFY(str(bodyOf(expired)["error"]["message"]).contains(u"expired"_s));
        QCOMPARE(str(bodyOf(request(f.port, "GET", "/api/keys/" + QByteArray::fromStdString(expiring.value("id", ""))))["status"]),
                 u"expired"_s);
    }

    void maxConcurrentHoldsBackTheSecondRequestUntilTheFirstEnds()
    {
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s}, {}, [](sim::SimNodeOptions &o) { o.performance.tokensPerSecond = 20; }));
        const std::string secret = makeKey(f.port, R"({"name": "one at a time", "max_concurrent": 1})").value("secret", "");
        TestClient slow(f.port); // a 20-token stream: about a second at the node
        slow.send("POST", "/v1/chat/completions", chatBody("m1", 20, true), bearer(secret));
        QTRY_COMPARE(f.node(0).counters().running, 1);
        const TestResponse second = chat(f.port, secret);
        QCOMPARE(second.status, 429);
        QCOMPARE(str(bodyOf(second)["error"]["param"]), u"max_concurrent"_s);
        QCOMPARE(second.header("retry-after"), "1");
        const TestResponse first = slow.read();
        QCOMPARE(first.status, 200);
        QVERIFY(first.complete);
        QTRY_COMPARE(chat(f.port, secret).status, 200);
    }

    void aKeysUsageIsWhatTheNodeReported()
    {
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s}));
        const json made = makeKey(f.port, R"({"name": "usage"})");
        const std::string secret = made.value("secret", "");
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(chat(f.port, secret, "m1", 5 + i).status, 200);
            QCOMPARE(chat(f.port, secret, "m1", 7 + i, true).status, 200); // no stream_options: still exact
        }
        QTRY_COMPARE(f.gateway.recentRequests().size(), 6);
        const sim::SimNode::Counters node = f.node(0).counters();
        const json usage =
            bodyOf(request(f.port, "GET", "/api/keys/" + QByteArray::fromStdString(made.value("id", ""))))["usage"];
        QCOMPARE(usage["requests"].get<qint64>(), 6);
        QCOMPARE(usage["prompt_tokens"].get<qint64>(), node.promptTokens);
        QCOMPARE(usage["completion_tokens"].get<qint64>(), node.generationTokens);
        QCOMPARE(usage["tokens_today"].get<qint64>(), node.promptTokens + node.generationTokens);
        QCOMPARE(usage["in_flight"].get<qint64>(), 0);
    }

    void modelsAndProvidersAKeyMayNotUseStayOutOfReach()
    {
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s, u"b"_s}));
        const std::string onlyM2 = makeKey(f.port, R"({"name": "m2 only", "models": ["m2"]})").value("secret", "");
        const TestResponse wrongModel = chat(f.port, onlyM2);
        QCOMPARE(wrongModel.status, 403);
        QCOMPARE(str(bodyOf(wrongModel)["error"]["code"]), u"model_not_allowed"_s);
        QCOMPARE(nodeRequests(f), 0);

        const std::string onlyB = makeKey(f.port, R"({"name": "b only", "providers": ["b"]})").value("secret", "");
        for (int i = 0; i < 4; ++i) {
            const TestResponse r = chat(f.port, onlyB);
            QCOMPARE(r.status, 200);
            QCOMPARE(r.header("x-switchyard-node"), "b");
        }
        const TestResponse pinnedToA = chat(f.port, onlyB, "a/m1");
        QCOMPARE(pinnedToA.status, 403);
        QCOMPARE(str(bodyOf(pinnedToA)["error"]["code"]), u"provider_not_allowed"_s);
        QCOMPARE(f.node(0).counters().requestsReceived, 0);
    }
};

QTEST_GUILESS_MAIN(TestVirtualKeys)
#include "tst_virtualkeys.moc"
