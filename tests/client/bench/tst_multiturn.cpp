// The multi-turn benchmark against a gateway over two simulated nodes (with their prefix caches), over
// real loopback sockets: every turn is sent, the history grows, the answers' node header and cached
// tokens give the split and hit rate per node, and `--suite multiturn` runs once per strategy.
#include "bench/benchcli.h"
#include "bench/benchexchange.h"
#include "bench/multiturnformat.h"
#include "bench/multiturnrunner.h"
#include "gateway/gatewayfixture.h"

#include <QSignalSpy>
#include <QTemporaryFile>
#include <QTest>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <unistd.h>

using namespace switchyard;
using namespace switchyard::bench;
using namespace switchyard::testing;
using namespace Qt::Literals::StringLiterals;

namespace {

MultiTurnPlan smallPlan(const Target &target)
{
    MultiTurnPlan p;
    p.target = target;
    p.strategy = u"weighted_round_robin"_s;
    p.conversations = 4;
    p.turns = 3;
    p.concurrency = 2;
    p.maxTokens = 8;
    p.systemPromptTokens = 300;
    p.questionTokens = 20;
    p.requestTimeoutMs = 10000;
    return p;
}

std::optional<MultiTurnRun> run(const MultiTurnPlan &plan)
{
    MultiTurnRunner runner;
    QSignalSpy finished(&runner, &MultiTurnRunner::finished);
    if (!runner.start(plan)) {
        qWarning() << "start failed:" << runner.lastError();
        return std::nullopt;
    }
    if (!finished.wait(60000))
        return std::nullopt;
    return finished.first().first().value<MultiTurnRun>();
}

// Runs fn with stdout redirected to a file; returns what it printed.
QByteArray captureStdout(const std::function<void()> &fn)
{
    QTemporaryFile file;
    if (!file.open())
        return {};
    std::fflush(stdout);
    const int saved = ::dup(STDOUT_FILENO);
    ::dup2(file.handle(), STDOUT_FILENO);
    fn();
    std::fflush(stdout);
    ::dup2(saved, STDOUT_FILENO);
    ::close(saved);
    file.seek(0);
    return file.readAll();
}

} // namespace

class TestMultiTurn final : public QObject
{
    Q_OBJECT

private slots:
    void requestCarriesTheSessionKey()
    {
        const auto endpoint = benchEndpoint(u"http://127.0.0.1:9/v1"_s);
        QVERIFY(endpoint);
        const QByteArray r = buildConversationRequest(
            *endpoint, u"m1"_s, {}, R"([{"role":"user","content":"hi"}])", 12, true, u"tag-c3"_s);
        QVERIFY(r.contains("\r\nX-Session-Id: tag-c3\r\n"));
        const qsizetype bodyAt = r.indexOf("\r\n\r\n") + 4;
        const auto body = nlohmann::json::parse(r.begin() + bodyAt, r.end());
        QCOMPARE(body["user"].get<std::string>(), "tag-c3");
        QCOMPARE(body["messages"].size(), 1u);
        QCOMPARE(body["max_tokens"].get<int>(), 12);
        QVERIFY(body["stream"].get<bool>());
    }

    void promptsOfDifferentRunsShareNothing()
    {
        QVERIFY(multiTurnSystemPrompt(u"a"_s, 1500).size() >= 5900);
        QVERIFY(multiTurnSystemPrompt(u"a"_s, 1500) != multiTurnSystemPrompt(u"b"_s, 1500));
        QCOMPARE(multiTurnSystemPrompt(u"a"_s, 1500), multiTurnSystemPrompt(u"a"_s, 1500));
        QVERIFY(multiTurnQuestion(u"a"_s, 0, 0, 100).size() >= 400);
        QVERIFY(multiTurnQuestion(u"a"_s, 0, 1, 0) != multiTurnQuestion(u"a"_s, 1, 0, 0));
        for (int c = 0; c < 8; ++c) {
            for (int t = 0; t < 6; ++t) {
                const int n = multiTurnAnswerTokens(48, c, t);
                QVERIFY(n >= 24 && n <= 72);
            }
        }
    }

    void everyTurnSentHistoryGrowsSplitAndHitsReported()
    {
        GatewayFixture f;
        QVERIFY(f.start({u"na"_s, u"nb"_s}));
        const Target pool{u"pool"_s, u"http://127.0.0.1:%1"_s.arg(f.port), u"m1"_s, {}, {}};
        const auto r = run(smallPlan(pool));
        QVERIFY(r);
        QCOMPARE(r->requests, 12);
        QCOMPARE(r->succeeded, 12);
        // Every turn of every conversation, each with the whole history before it.
        QSet<QPair<int, int>> seen;
        for (const TurnSample &t : r->samples) {
            seen.insert({t.conversation, t.turn});
            QCOMPARE(
                t.messages,
                2 + 2 * t.turn); // system, then a question and an answer per earlier turn, then this question
            QVERIFY2(t.sample.ok, qPrintable(t.sample.error));
        }
        QCOMPARE(seen.size(), 12);
        QCOMPARE(r->meanPromptTokensByTurn.size(), 3);
        QVERIFY(r->meanPromptTokensByTurn[0] > 300);
        QVERIFY(r->meanPromptTokensByTurn[1] > r->meanPromptTokensByTurn[0] + 20);
        QVERIFY(r->meanPromptTokensByTurn[2] > r->meanPromptTokensByTurn[1] + 20);

        // Both nodes served, named by the gateway's header; their shares add up.
        QCOMPARE(r->nodes.size(), 2);
        int requests = 0;
        qint64 cached = 0;
        for (const NodeShare &n : r->nodes) {
            QVERIFY(n.node == u"na" || n.node == u"nb");
            QVERIFY(n.requests > 0);
            QVERIFY(n.cacheReported);
            QVERIFY(n.cachedTokens <= n.promptTokens);
            requests += n.requests;
            cached += n.cachedTokens;
        }
        QCOMPARE(requests, 12);
        QCOMPARE(cached, r->cachedTokens);
        // The shared system prompt alone makes later requests hit, whichever node they land on.
        QVERIFY(r->cachedTokens > 0);
        QVERIFY(r->hitRate() > 0 && r->hitRate() < 1);
        // The nodes agree with what the answers said.
        const qint64 nodeCached =
            f.node(0).counters().cachedPromptTokens + f.node(1).counters().cachedPromptTokens;
        QCOMPARE(nodeCached, r->cachedTokens);

        MultiTurnResults results;
        results.runs = {*r};
        const QString md = formatMultiTurnMarkdown(results);
        QVERIFY(md.contains(u"| weighted_round_robin | pool | 12/12 ✅ |"_s));
        QVERIFY(md.contains(u"| weighted_round_robin | na |"_s));
        const QByteArray csv = formatMultiTurnCsv(results);
        QVERIFY(csv.startsWith(QByteArray(multiTurnCsvColumns().join(u',').toUtf8() + '\n')));
        QCOMPARE(csv.count('\n'), 1 + 1 + 2); // header, the run, two nodes
        const auto json = nlohmann::json::parse(formatMultiTurnJson(results).toStdString());
        QCOMPARE(json["format"].get<std::string>(), "switchyard-bench-multiturn/1");
        QCOMPARE(json["runs"][0]["nodes"].size(), 2u);
        QCOMPARE(json["runs"][0]["samples"].size(), 12u);
        QCOMPARE(json["runs"][0]["cached_tokens"].get<qint64>(), r->cachedTokens);
    }

    void directNodeHasOneShareWithoutName()
    {
        auto node = std::make_unique<sim::SimNode>(fastNodeOptions(u"solo"_s));
        QVERIFY(node->start());
        MultiTurnPlan plan = smallPlan({u"solo"_s, node->baseUrl(), u"m1"_s, {}, {}});
        plan.conversations = 2;
        plan.strategy = u"as configured"_s;
        const auto r = run(plan);
        QVERIFY(r);
        QCOMPARE(r->succeeded, 6);
        QCOMPARE(r->nodes.size(), 1);
        QVERIFY(r->nodes.first().node.isEmpty());
        // One node sees every turn: all but the newest question (and the part-block ends) is cached.
        QVERIFY2(r->hitRate() > 0.5, qPrintable(QString::number(r->hitRate())));
    }

    void cliRunsOncePerStrategy()
    {
        auto a = std::make_unique<sim::SimNode>(fastNodeOptions(u"na"_s));
        auto b = std::make_unique<sim::SimNode>(fastNodeOptions(u"nb"_s));
        QVERIFY(a->start() && b->start());
        nlohmann::json providers;
        for (const auto *n : {a.get(), b.get()}) {
            providers[n->options().name.toStdString()] = {
                {"keys", {{{"name", "k"}, {"value", "dummy"}, {"models", {"m1"}}, {"weight", 1}}}},
                {"network_config", {{"base_url", n->baseUrl().toStdString()}}},
                {"custom_provider_config", {{"base_provider_type", "openai"}}}};
        }
        const QByteArray cfg = QByteArray::fromStdString(nlohmann::json{{"providers", providers}}.dump());
        BenchCliHooks hooks;
        hooks.startDemo = [cfg]() -> Expected<QByteArray, QString> { return cfg; };
        const QStringList common = {u"switchyard"_s, u"--bench"_s,
                                    u"--demo"_s,     u"--suite"_s,
                                    u"multiturn"_s,  u"--conversations"_s,
                                    u"2"_s,          u"--turns"_s,
                                    u"2"_s,          u"--answer-tokens"_s,
                                    u"4"_s,          u"--system-prompt-tokens"_s,
                                    u"100"_s,        u"--question-tokens"_s,
                                    u"10"_s,         u"--quiet"_s,
                                    u"--format"_s,   u"json"_s};
        int code = -1;
        QByteArray out = captureStdout([&] {
            code = runBenchCli(
                common + QStringList{u"--strategies"_s, u"weighted_round_robin,least_outstanding"_s}, hooks);
        });
        QCOMPARE(code, 0);
        auto json = nlohmann::json::parse(out.toStdString());
        QCOMPARE(json["runs"].size(), 2u);
        QCOMPARE(json["runs"][0]["strategy"].get<std::string>(), "weighted_round_robin");
        QCOMPARE(json["runs"][1]["strategy"].get<std::string>(), "least_outstanding");
        for (const auto &r : json["runs"]) {
            QCOMPARE(r["succeeded"].get<int>(), 4);
            QVERIFY(r["error"].is_null());
            QCOMPARE(r["mean_prompt_tokens_by_turn"].size(), 2u);
        }
        // Each run has prompts of its own: no run tag repeats.
        QVERIFY(json["runs"][0]["run_tag"] != json["runs"][1]["run_tag"]);

        // A strategy the config does not take: that run says why, the others still run, exit 1.
        out = captureStdout([&] {
            code = runBenchCli(
                common + QStringList{u"--strategies"_s, u"no_such_strategy,weighted_round_robin"_s}, hooks);
        });
        QCOMPARE(code, 1);
        json = nlohmann::json::parse(out.toStdString());
        QCOMPARE(json["runs"].size(), 2u);
        QVERIFY(json["runs"][0]["error"].get<std::string>().find("default_strategy") != std::string::npos);
        QCOMPARE(json["runs"][1]["succeeded"].get<int>(), 4);
    }
};

QTEST_GUILESS_MAIN(TestMultiTurn)
#include "tst_multiturn.moc"
