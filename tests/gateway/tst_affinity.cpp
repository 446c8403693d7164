// session_affinity and cache_aware through a whole gateway in front of simulated nodes, over loopback:
// a session's turns on one node (by header, prompt_cache_key or user), its failover when that node
// fails, two `switchyard --headless` processes with one config sending each session to the same node,
// a conversation's next turn following its prefix, and the route reason in the log and /api/requests.

#include "common/testhttpclient.h"
#include "common/testprocesses.h"
#include "gateway/gatewayfixture.h"

#include <QFile>
#include <QMutex>
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>

using namespace switchyard;
using namespace switchyard::testing;
using namespace Qt::Literals::StringLiterals;

namespace {
QByteArray sessionName(int i)
{
    return "conversation-" + QByteArray::number(i);
}

TestResponse chatInSession(quint16 port, const QByteArray &session, const QByteArray &extra = {})
{
    return request(port, "POST", "/v1/chat/completions", chatBody("m1", 4, false, extra), 10000,
                   {{"Content-Type", "application/json"}, {"X-Session-Id", session}});
}

void useSessionAffinity(config::GatewayConfig &c)
{
    c.settings.defaultStrategy = config::RoutingStrategy::SessionAffinity;
    c.settings.healthCheckIntervalMs = 200;
}

// A chat body whose history has `turns` user turns (the conversation's next request repeats them all).
QByteArray conversationBody(int turns)
{
    QByteArray messages = R"([{"role":"system","content":"You answer in one short sentence, always."})";
    for (int t = 0; t < turns; ++t)
        messages += R"(,{"role":"user","content":"Question number )" + QByteArray::number(t) +
                    R"(: tell me something about the number )" + QByteArray::number(t * 7) + R"(."})";
    return R"({"model":"m1","max_tokens":4,"messages":)" + messages + "]}";
}
} // namespace

class TestAffinity final : public QObject
{
    Q_OBJECT

private slots:
    void everyTurnOfASessionGoesToOneNode()
    {
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s, u"b"_s}, {}, {}, useSessionAffinity));
        QSet<QByteArray> used;
        for (int s = 0; s < 12; ++s) {
            const TestResponse first = chatInSession(f.port, sessionName(s));
            QCOMPARE(first.status, 200);
            used.insert(first.node());
            for (int turn = 0; turn < 3; ++turn)
                QCOMPARE(chatInSession(f.port, sessionName(s)).node(), first.node());
        }
        QCOMPARE(used.size(), qsizetype(2)); // the sessions use both nodes
    }

    void theKeyMayComeFromTheBody()
    {
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s, u"b"_s}, {}, {}, useSessionAffinity));
        for (const QByteArray &field : {QByteArray("prompt_cache_key"), QByteArray("user")}) {
            QSet<QByteArray> used;
            for (int s = 0; s < 10; ++s) {
                const QByteArray extra = ",\"" + field + "\":\"" + sessionName(s) + "\"";
                const QByteArray node =
                    request(f.port, "POST", "/v1/chat/completions", chatBody("m1", 4, false, extra)).node();
                for (int turn = 0; turn < 2; ++turn)
                    QCOMPARE(request(f.port, "POST", "/v1/chat/completions", chatBody("m1", 4, false, extra))
                                 .node(),
                             node);
                used.insert(node);
            }
            QCOMPARE(used.size(), qsizetype(2));
        }
    }

    void aStickySessionFailsOverWhenItsNodeFails()
    {
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s, u"b"_s}, {}, {}, useSessionAffinity));
        const QByteArray home = chatInSession(f.port, "s-failover").node();
        QVERIFY(home == "a" || home == "b");
        const int homeIndex = home == "a" ? 0 : 1;
        f.node(homeIndex).setFault(sim::FaultMode::Refuse); // connections refused on its port
        // The very next turn still succeeds, on the other node: its next choice by rendezvous.
        const TestResponse moved = chatInSession(f.port, "s-failover");
        QCOMPARE(moved.status, 200);
        QCOMPARE(moved.node(), home == "a" ? QByteArray("b") : QByteArray("a"));
        for (int turn = 0; turn < 3; ++turn)
            QCOMPARE(chatInSession(f.port, "s-failover").node(), moved.node());
        // The node comes back: once health has seen it, the session returns home.
        f.node(homeIndex).setFault(sim::FaultMode::Healthy);
        QTRY_COMPARE_WITH_TIMEOUT(chatInSession(f.port, "s-failover").node(), home, 15000);
    }

    void theRouteReasonIsInTheLogAndTheApi()
    {
        GatewayFixture f;
        QMutex mutex;
        QStringList lines;
        f.gateway.setRequestLogger([&](const stats::RequestRecord &r) {
            QMutexLocker lock(&mutex);
            lines.append(r.toLogLine());
        });
        QVERIFY(f.start({u"a"_s, u"b"_s}, {}, {}, [](config::GatewayConfig &c) {
            useSessionAffinity(c);
            c.settings.strategyByModel.insert(u"m2"_s, config::RoutingStrategy::CacheAware);
            for (config::ProviderConfig &p : c.providers)
                p.keys[0].models.append(u"m2"_s);
        }));
        QCOMPARE(chatInSession(f.port, "s1").status, 200);
        QCOMPARE(request(f.port, "POST", "/v1/chat/completions", chatBody("m1")).status, 200);
        QCOMPARE(request(f.port, "POST", "/v1/chat/completions", chatBody("a/m1")).status, 200);
        const nlohmann::json j =
            nlohmann::json::parse(request(f.port, "GET", "/api/requests?max=10").body.toStdString());
        QCOMPARE(j["requests"].size(), size_t(3));
        QCOMPARE(j["requests"][0]["route"].get<std::string>(), std::string("session"));
        QCOMPARE(j["requests"][1]["route"].get<std::string>(), std::string("fallback: weighted"));
        QCOMPARE(j["requests"][2]["route"].get<std::string>(), std::string("pinned"));
        QTRY_COMPARE(lines.size(), 3);
        QVERIFY2(lines[0].contains(u" route=session "_s), qPrintable(lines[0]));
        QVERIFY2(lines[1].contains(u" route=\"fallback: weighted\" "_s), qPrintable(lines[1]));
    }

    void aConversationsNextTurnFollowsItsPrefix()
    {
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s, u"b"_s}, {}, {}, [](config::GatewayConfig &c) {
            c.settings.defaultStrategy = config::RoutingStrategy::CacheAware;
        }));
        const TestResponse first = request(f.port, "POST", "/v1/chat/completions", conversationBody(1));
        QCOMPARE(first.status, 200);
        // Other conversations in between, so round-robin alone would have moved on.
        QCOMPARE(request(f.port, "POST", "/v1/chat/completions", chatBody("m1")).status, 200);
        for (int turns = 2; turns <= 5; ++turns) {
            const TestResponse next =
                request(f.port, "POST", "/v1/chat/completions", conversationBody(turns));
            QCOMPARE(next.status, 200);
            QCOMPARE(next.node(), first.node());
        }
        const nlohmann::json j =
            nlohmann::json::parse(request(f.port, "GET", "/api/requests?max=10").body.toStdString());
        const std::string last = j["requests"].back()["route"].get<std::string>();
        QVERIFY2(last.rfind("prefix ", 0) == 0, last.c_str());
    }

    void twoGatewayProcessesSendEachSessionToTheSameNode()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        TestProcesses processes(dir.path());
        QList<quint16> nodePorts;
        for (const QString &n : {u"a"_s, u"b"_s}) {
            const quint16 port = processes.startSimNode(QStringLiteral(SWITCHYARD_SIMNODE_BIN), n);
            QVERIFY2(port != 0, "switchyard-simnode did not start");
            nodePorts.append(port);
        }
        nlohmann::ordered_json providers = nlohmann::ordered_json::object();
        for (int i = 0; i < 2; ++i) {
            const std::string name = i == 0 ? "a" : "b";
            providers[name] = {
                {"keys",
                 {{{"name", name + "-key"},
                   {"value", "dummy"},
                   {"models", {"m1"}},
                   {"weight", i == 0 ? 2 : 1}}}},
                {"network_config", {{"base_url", "http://127.0.0.1:" + std::to_string(nodePorts[i])}}},
                {"custom_provider_config", {{"base_provider_type", "openai"}}},
            };
        }
        const nlohmann::ordered_json doc = {
            {"providers", providers},
            {"switchyard", {{"worker_threads", 2}, {"routing", {{"default_strategy", "session_affinity"}}}}}};
        const QString configPath = dir.filePath(u"gateway.json"_s);
        {
            QFile file(configPath);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(QByteArray::fromStdString(doc.dump(2)));
        }
        const quint16 one = processes.startHeadless(QStringLiteral(SWITCHYARD_BIN), configPath);
        const quint16 two = processes.startHeadless(QStringLiteral(SWITCHYARD_BIN), configPath);
        QVERIFY2(one != 0 && two != 0, "switchyard --headless did not start");
        QSet<QByteArray> used;
        for (int s = 0; s < 16; ++s) {
            const TestResponse viaOne = chatInSession(one, sessionName(s));
            const TestResponse viaTwo = chatInSession(two, sessionName(s));
            QCOMPARE(viaOne.status, 200);
            QCOMPARE(viaTwo.status, 200);
            QCOMPARE(viaTwo.node(), viaOne.node());
            used.insert(viaOne.node());
        }
        QCOMPARE(used.size(), qsizetype(2));
        processes.stopAll();
    }
};

QTEST_GUILESS_MAIN(TestAffinity)
#include "tst_affinity.moc"
