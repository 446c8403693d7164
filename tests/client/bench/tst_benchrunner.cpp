// The benchmark runner against simulated nodes with known speeds, over real loopback sockets. Timing
// assertions are ratios between targets or against the node's own model, never absolute durations, so a
// busy 2-core machine slows both sides alike.
#include "bench/benchcli.h"
#include "bench/benchformat.h"
#include "bench/benchmarkrunner.h"
#include "bench/benchtargets.h"
#include "gateway/gatewayfixture.h"

#include <QSignalSpy>
#include <QTemporaryFile>
#include <QTest>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <unistd.h>

using namespace switchyard;
using namespace switchyard::bench;
using namespace switchyard::testing;
using namespace Qt::Literals::StringLiterals;

namespace {

sim::SimNodeOptions nodeOptions(const QString &name, double tokensPerSecond, double alpha = sim::DefaultConcurrencyExponent)
{
    sim::SimNodeOptions o = fastNodeOptions(name);
    o.performance.tokensPerSecond = tokensPerSecond;
    o.performance.concurrencyExponent = alpha;
    o.performance.ttftBaseMs = 5;
    return o;
}

std::unique_ptr<sim::SimNode> startNode(const sim::SimNodeOptions &o)
{
    auto node = std::make_unique<sim::SimNode>(o);
    const auto port = node->start();
    if (!port) {
        qWarning() << "node failed to start:" << port.error();
        return nullptr;
    }
    return node;
}

Target targetFor(const sim::SimNode &node, const QString &model = u"m1"_s)
{
    return {node.options().name, node.baseUrl(), model, {}};
}

// A small plan: few repetitions, short tests — the suite has to stay fast.
BenchmarkPlan smallPlan(QList<Target> targets)
{
    BenchmarkPlan p;
    p.targets = std::move(targets);
    p.suite = Suite::Custom;
    p.repetitions = 2;
    p.maxTokensList = {40};
    p.concurrency = 0;
    p.sweepLevels = {};
    p.warmupRequests = 1;
    p.requestTimeoutMs = 10000;
    return p;
}

std::optional<BenchmarkResults> run(BenchmarkRunner &runner, const BenchmarkPlan &plan, int timeoutMs = 30000)
{
    QSignalSpy finished(&runner, &BenchmarkRunner::finished);
    if (!runner.start(plan)) {
        qWarning() << "start failed:" << runner.lastError();
        return std::nullopt;
    }
    if (!finished.wait(timeoutMs))
        return std::nullopt;
    return finished.first().first().value<BenchmarkResults>();
}

nlohmann::json parseJson(const QByteArray &b)
{
    return nlohmann::json::parse(b.begin(), b.end(), nullptr, false);
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

class TestBenchRunner final : public QObject
{
    Q_OBJECT

private slots:
    void percentilesAreNearestRank()
    {
        QList<double> v;
        for (int i = 1; i <= 20; ++i)
            v << i * 10.0;
        QCOMPARE(percentileNearestRank(v, 50), 100.0); // ⌈0.5·20⌉ = 10th
        QCOMPARE(percentileNearestRank(v, 95), 190.0); // ⌈0.95·20⌉ = 19th
        QCOMPARE(percentileNearestRank(v, 99), 200.0);
        QCOMPARE(percentileNearestRank({42.0}, 95), 42.0);
        QCOMPARE(percentileNearestRank({}, 95), 0.0);
        const LatencyStats s = computeStats({300, 100, 200});
        QCOMPARE(s.count, 3);
        QCOMPARE(s.mean, 200.0);
        QCOMPARE(s.p50, 200.0);
        QCOMPARE(s.p95, 300.0); // with 3 samples P95 is the slowest: no invented values
        QCOMPARE(s.min, 100.0);
    }

    void suitesAreNamedForScripts()
    {
        QCOMPARE(bench::parseSuite(u"article"), bench::Suite::Article);
        QCOMPARE(bench::parseSuite(u"Sweep"), bench::Suite::Sweep);
        QCOMPARE(bench::parseSuite(u"full"), bench::Suite::Full);
        // Scripts written for the first releases said "seed" for the article's suite.
        QCOMPARE(bench::parseSuite(u"seed"), bench::Suite::Article);
        QCOMPARE(bench::parseSuite(u"fastest"), std::nullopt);
        QCOMPARE(bench::suiteName(bench::Suite::Article), u"article"_s);
    }

    void planCountsRequests()
    {
        BenchmarkPlan p;
        p.targets = {Target{}, Target{}};
        QCOMPARE(p.totalRequests(), 2 * (1 + 3 * 3 + 5)); // the article's suite: warm-up + 3×(20/100/300) + 5 parallel
        p.suite = Suite::Sweep;
        QCOMPARE(p.totalRequests(), 2 * (1 + 1 + 2 + 4 + 8 + 16 + 32 + 64));
        p.suite = Suite::Full;
        QCOMPARE(p.totalRequests(), 2 * (1 + 9 + 5 + 127));
    }

    void singleRequestRateMatchesNode()
    {
        auto node = startNode(nodeOptions(u"n"_s, 400));
        QVERIFY(node);
        BenchmarkRunner runner;
        BenchmarkPlan plan = smallPlan({targetFor(*node)});
        plan.maxTokensList = {100};
        plan.repetitions = 3;
        const auto r = run(runner, plan);
        QVERIFY(r);
        QCOMPARE(r->targets.size(), 1);
        const TargetResult &t = r->targets.first();
        QCOMPARE(t.singles.size(), 1);
        const SingleResult &s = t.singles.first();
        QCOMPARE(s.requests, 3);
        QCOMPARE(s.succeeded, 3);
        QVERIFY(s.usageReported);
        QCOMPARE(s.meanCompletionTokens, 100.0); // ignore_eos: exactly max_tokens, counted from usage
        // Decode speed is the node's configured rate; end-to-end tok/s includes TTFT and is a bit lower.
        QVERIFY2(std::abs(s.decodeTokensPerSecond / 400.0 - 1.0) < 0.3, qPrintable(QString::number(s.decodeTokensPerSecond)));
        QVERIFY2(std::abs(s.tokensPerSecond / 400.0 - 1.0) < 0.3, qPrintable(QString::number(s.tokensPerSecond)));
        QVERIFY(s.tokensPerSecond <= s.decodeTokensPerSecond * 1.05);
        QVERIFY(s.ttft.mean > 0 && s.ttft.mean < s.latency.mean);
        QVERIFY(s.latency.p50 <= s.latency.p95 && s.latency.p95 <= s.latency.max);
        QCOMPARE(t.warmupFailures, 0);
        // The warm-up was sent but not reported: the node saw one more request than the results hold.
        QCOMPARE(node->counters().requestsReceived, 4);
    }

    void fasterNodeMeasuresFaster()
    {
        auto a = startNode(nodeOptions(u"a"_s, 400));
        auto b = startNode(nodeOptions(u"b"_s, 200));
        QVERIFY(a && b);
        BenchmarkRunner runner;
        BenchmarkPlan plan = smallPlan({targetFor(*a), targetFor(*b)});
        plan.maxTokensList = {60};
        const auto r = run(runner, plan);
        QVERIFY(r);
        const SingleResult &sa = r->targets[0].singles.first();
        const SingleResult &sb = r->targets[1].singles.first();
        QCOMPARE(sa.succeeded, 2);
        QCOMPARE(sb.succeeded, 2);
        const double rateRatio = sa.tokensPerSecond / sb.tokensPerSecond;
        const double latencyRatio = sb.latency.mean / sa.latency.mean;
        QVERIFY2(rateRatio > 1.6 && rateRatio < 2.4, qPrintable(QString::number(rateRatio)));
        QVERIFY2(latencyRatio > 1.6 && latencyRatio < 2.4, qPrintable(QString::number(latencyRatio)));
    }

    void concurrencyScalesAsTheNodeModel()
    {
        // α = 0.5: 5 parallel sequences decode at 5^0.5 ≈ 2.24× the total speed of one.
        auto node = startNode(nodeOptions(u"n"_s, 300, 0.5));
        QVERIFY(node);
        BenchmarkRunner runner;
        BenchmarkPlan plan = smallPlan({targetFor(*node)});
        plan.maxTokensList = {60};
        plan.concurrency = 5;
        plan.concurrencyMaxTokens = 60;
        plan.sweepLevels = {1, 4};
        plan.sweepMaxTokens = 60;
        const auto r = run(runner, plan);
        QVERIFY(r);
        const TargetResult &t = r->targets.first();
        QVERIFY(t.concurrency);
        const ConcurrencyResult &c = *t.concurrency;
        QCOMPARE(c.requests, 5);
        QCOMPARE(c.succeeded, 5);
        QCOMPARE(c.completionTokens, 5 * 60);
        // Effective throughput is all tokens over the round's wall time.
        QVERIFY(std::abs(c.effectiveTokensPerSecond - c.completionTokens * 1000.0 / c.wallMs) < 1e-6);
        const double ratio = c.effectiveTokensPerSecond / t.singles.first().tokensPerSecond;
        const double expected = std::pow(5.0, 0.5);
        QVERIFY2(ratio > expected * 0.75 && ratio < expected * 1.25, qPrintable(QString::number(ratio)));
        // Every parallel request is in flight at once: each runs at the per-sequence speed R·5^(α−1).
        QVERIFY2(std::abs(c.perRequestTokensPerSecond / (300 * std::pow(5.0, -0.5)) - 1.0) < 0.3,
                 qPrintable(QString::number(c.perRequestTokensPerSecond)));

        QCOMPARE(t.sweep.size(), 2);
        QCOMPARE(t.sweep[0].concurrency, 1);
        QCOMPARE(t.sweep[1].concurrency, 4);
        const double sweepRatio = t.sweep[1].effectiveTokensPerSecond / t.sweep[0].effectiveTokensPerSecond;
        QVERIFY2(sweepRatio > 2.0 * 0.75 && sweepRatio < 2.0 * 1.25, qPrintable(QString::number(sweepRatio)));
        QVERIFY(t.sweep[1].latency.mean > t.sweep[0].latency.mean);
    }

    void moreThanSixConcurrentRequestsAreNotQueued()
    {
        // The reason for a QTcpSocket client: 12 parallel requests must all be running on the node at
        // once (QNetworkAccessManager would hold back 6 of them).
        auto node = startNode(nodeOptions(u"n"_s, 100, 1.0)); // α = 1: every sequence keeps full speed
        QVERIFY(node);
        BenchmarkRunner runner;
        BenchmarkPlan plan = smallPlan({targetFor(*node)});
        plan.maxTokensList = {};
        plan.warmupRequests = 0;
        plan.sweepLevels = {12};
        plan.sweepMaxTokens = 40;
        QSignalSpy finished(&runner, &BenchmarkRunner::finished);
        QVERIFY(runner.start(plan));
        QTRY_COMPARE_WITH_TIMEOUT(node->counters().running, 12, 5000);
        QVERIFY(finished.wait(10000));
        const auto r = finished.first().first().value<BenchmarkResults>();
        const ConcurrencyResult &c = r.targets.first().sweep.first();
        QCOMPARE(c.succeeded, 12);
        // With α = 1 twelve streams take as long as one: the wall time is about one request's latency.
        QVERIFY2(c.wallMs < c.latency.mean * 1.3, qPrintable(QString::number(c.wallMs / c.latency.mean)));
    }

    void gatewayPoolIsMeasured()
    {
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s, u"b"_s}));
        const QList<Target> targets = targetsFromConfig(f.cfg, f.gateway.listenUrl());
        QCOMPARE(targets.size(), 3);
        QCOMPARE(targets[2].model, u"m1"_s);
        QVERIFY(targets[2].label.startsWith(u"gateway pool"_s));
        BenchmarkRunner runner;
        BenchmarkPlan plan = smallPlan({targets[2]});
        plan.concurrency = 4;
        plan.concurrencyMaxTokens = 20;
        const auto r = run(runner, plan);
        QVERIFY(r);
        QCOMPARE(r->targets[0].singles.first().succeeded, 2);
        QCOMPARE(r->targets[0].concurrency->succeeded, 4);
        // 1:1 weights: the 4 parallel requests (and the singles) were spread over both nodes.
        QVERIFY(f.node(0).counters().requestsReceived >= 2);
        QVERIFY(f.node(1).counters().requestsReceived >= 2);
    }

    // The Responses API, as newer SDKs and agents call it, measured through the gateway's pool like chat
    // completions: TTFT from the first output_text delta, tokens from response.completed's usage.
    void responsesApiIsMeasuredThroughTheGateway()
    {
        QCOMPARE(bench::parseApi(u"responses"), bench::Api::Responses);
        QCOMPARE(bench::parseApi(u"Chat"), bench::Api::ChatCompletions);
        QCOMPARE(bench::parseApi(u"completions"), std::nullopt);
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s, u"b"_s}));
        const QList<Target> targets = targetsFromConfig(f.cfg, f.gateway.listenUrl());
        BenchmarkRunner runner;
        BenchmarkPlan plan = smallPlan({targets[2]});
        plan.api = bench::Api::Responses;
        const auto r = run(runner, plan);
        QVERIFY(r);
        QVERIFY2(r->targets[0].error.isEmpty(), qPrintable(r->targets[0].error));
        const SingleResult &s = r->targets[0].singles.first();
        QCOMPARE(s.succeeded, 2);
        QVERIFY(s.usageReported);
        QVERIFY(s.meanCompletionTokens > 0 && s.meanCompletionTokens <= 40);
        QVERIFY(s.ttft.mean > 0 && s.ttft.mean < s.latency.mean);
        // The gateway counted them as Responses API requests (its request log names the path). A record
        // is logged once the answer's last byte went out, which the client may read first: waited for.
        const auto responses = [&f] {
            int n = 0;
            for (const auto &rec : f.gateway.recentRequests())
                n += rec.path == "/v1/responses";
            return n;
        };
        QTRY_COMPARE(responses(), 3); // the warm-up and the two measured
        QVERIFY(formatMarkdown(*r).contains(u"the Responses API"_s)); // the report says which API it measured
    }

    void modelIsFoundWhenNotGiven()
    {
        sim::SimNodeOptions o = nodeOptions(u"n"_s, 400);
        o.models = {u"served-name"_s};
        auto node = startNode(o);
        QVERIFY(node);
        BenchmarkRunner runner;
        const auto r = run(runner, smallPlan({targetFor(*node, QString())}));
        QVERIFY(r);
        QCOMPARE(r->targets[0].resolvedModel, u"served-name"_s);
        QVERIFY(r->targets[0].error.isEmpty());
        QCOMPARE(r->targets[0].singles.first().succeeded, 2);
    }

    void failuresAreCounted()
    {
        auto healthy = startNode(nodeOptions(u"healthy"_s, 400));
        sim::SimNodeOptions broken = nodeOptions(u"broken"_s, 400);
        broken.fault = sim::FaultMode::Error500;
        auto failing = startNode(broken);
        sim::SimNodeOptions dropping = nodeOptions(u"dropping"_s, 400);
        dropping.fault = sim::FaultMode::DropStream;
        dropping.faultParams.dropAfterTokens = 5;
        auto cut = startNode(dropping);
        QVERIFY(healthy && failing && cut);
        // Nothing listens here: the port of a node that was started and stopped.
        auto gone = startNode(nodeOptions(u"gone"_s, 400));
        QVERIFY(gone);
        const Target goneTarget = targetFor(*gone);
        gone->stop();

        BenchmarkRunner runner;
        BenchmarkPlan plan = smallPlan({targetFor(*healthy), targetFor(*failing), targetFor(*cut), goneTarget});
        plan.concurrency = 3;
        plan.concurrencyMaxTokens = 20;
        const auto r = run(runner, plan);
        QVERIFY(r);
        QCOMPARE(r->targets[0].concurrency->succeeded, 3);
        for (int i = 1; i < 4; ++i) {
            const TargetResult &t = r->targets[i];
            QCOMPARE(t.singles.first().requests, 2);
            QCOMPARE(t.singles.first().succeeded, 0);
            QCOMPARE(t.concurrency->requests, 3);
            QCOMPARE(t.concurrency->succeeded, 0);
            QCOMPARE(t.concurrency->effectiveTokensPerSecond, 0.0); // failed requests' tokens do not count
            QCOMPARE(t.warmupFailures, 1);
            for (const RequestSample &s : t.concurrency->samples) {
                QVERIFY(!s.ok);
                QVERIFY(!s.error.isEmpty());
            }
        }
        QVERIFY2(r->targets[1].singles.first().samples.first().error.startsWith(u"HTTP 500"_s),
                 qPrintable(r->targets[1].singles.first().samples.first().error));
        QVERIFY(r->targets[3].singles.first().samples.first().error.contains(u"refused"_s));
        const QString md = formatMarkdown(*r);
        QVERIFY(md.contains(u"0/3 ❌"_s));
        QVERIFY(md.contains(u"3/3 ✅"_s));
        QVERIFY(md.contains(u"## Failures and notes"_s));
        QVERIFY(md.contains(u"HTTP 500"_s));
        // CSV: the reasons are there too, and a test without a success reports no latency rather than 0.
        const QList<QByteArray> rows = formatCsv(*r).split('\n');
        const QByteArray failingRow = rows[1 + 2]; // header, healthy single + concurrency, then "broken"
        QVERIFY2(failingRow.contains(",single,40,1,2,0,0.000,,,,,,,,,,,,0,,true,2 × HTTP 500"), failingRow.constData());
    }

    void timeoutIsAFailure()
    {
        sim::SimNodeOptions o = nodeOptions(u"hung"_s, 400);
        o.fault = sim::FaultMode::Hang;
        auto node = startNode(o);
        QVERIFY(node);
        BenchmarkRunner runner;
        BenchmarkPlan plan = smallPlan({targetFor(*node)});
        plan.warmupRequests = 0;
        plan.repetitions = 1;
        plan.requestTimeoutMs = 300;
        const auto r = run(runner, plan);
        QVERIFY(r);
        const RequestSample &s = r->targets[0].singles.first().samples.first();
        QVERIFY(!s.ok);
        QVERIFY2(s.error.contains(u"timed out"_s), qPrintable(s.error));
    }

    void cancelStopsTheRun()
    {
        // Slow enough that the run is mid-stream when cancelled.
        auto node = startNode(nodeOptions(u"slow"_s, 50));
        QVERIFY(node);
        BenchmarkRunner runner;
        BenchmarkPlan plan = smallPlan({targetFor(*node)});
        plan.warmupRequests = 0;
        plan.maxTokensList = {300};
        plan.repetitions = 5;
        plan.concurrency = 5;
        QSignalSpy cancelled(&runner, &BenchmarkRunner::cancelled);
        QSignalSpy finished(&runner, &BenchmarkRunner::finished);
        QVERIFY(runner.start(plan));
        QTRY_COMPARE_WITH_TIMEOUT(node->counters().running, 1, 5000);
        QTRY_VERIFY_WITH_TIMEOUT(node->counters().generationTokens >= 3, 5000); // tokens are streaming
        runner.cancel();
        QCOMPARE(cancelled.size(), 1);
        QVERIFY(!runner.isRunning());
        QVERIFY(cancelled.first().first().value<BenchmarkResults>().cancelled);
        // The node sees the client go away and stops generating; nothing more is sent.
        QTRY_COMPARE_WITH_TIMEOUT(node->counters().clientAborts, 1, 5000);
        QTRY_COMPARE_WITH_TIMEOUT(node->counters().running, 0, 5000);
        const qint64 received = node->counters().requestsReceived;
        QCOMPARE(received, 1);
        QCOMPARE(node->counters().requestsReceived, received);
        QCOMPARE(finished.size(), 0);
        runner.cancel(); // idle: no-op
        QCOMPARE(cancelled.size(), 1);

        // The runner can run again after a cancel.
        BenchmarkPlan again = smallPlan({targetFor(*node)});
        again.maxTokensList = {5};
        again.repetitions = 1;
        QSignalSpy started(&runner, &BenchmarkRunner::started);
        QVERIFY(run(runner, again));
        // Nothing more of the cancelled run was sent or finished meanwhile (the new run's end closes
        // this wait rather than a fixed sleep): the node saw exactly the new run's requests.
        QCOMPARE(started.size(), 1);
        QCOMPARE(node->counters().requestsReceived, received + started.first().first().toInt());
        QCOMPARE(finished.size(), 1);
        QCOMPARE(cancelled.size(), 1);
    }

    void exportsParse()
    {
        auto a = startNode(nodeOptions(u"a"_s, 400));
        auto b = startNode(nodeOptions(u"b, \"quoted\""_s, 400)); // CSV must quote this label
        QVERIFY(a && b);
        BenchmarkRunner runner;
        BenchmarkPlan plan = smallPlan({targetFor(*a), targetFor(*b)});
        plan.maxTokensList = {10, 20};
        plan.concurrency = 3;
        plan.concurrencyMaxTokens = 10;
        plan.sweepLevels = {1, 2};
        plan.sweepMaxTokens = 10;
        const auto r = run(runner, plan);
        QVERIFY(r);

        // JSON: nlohmann reads it, and it reads back into the same results.
        const QByteArray json = formatJson(*r);
        const auto j = parseJson(json);
        QVERIFY(!j.is_discarded());
        QCOMPARE(j["format"].get<std::string>(), std::string("switchyard-bench/1"));
        QCOMPARE(j["percentiles"].get<std::string>(), std::string("nearest-rank"));
        QCOMPARE(j["targets"].size(), 2u);
        QCOMPARE(j["targets"][0]["singles"].size(), 2u);
        QCOMPARE(j["targets"][0]["singles"][0]["samples"].size(), 2u);
        QCOMPARE(j["targets"][1]["concurrency"]["requests"].get<int>(), 3);
        QCOMPARE(j["targets"][1]["sweep"].size(), 2u);
        const auto back = resultsFromJson(json);
        QVERIFY(back);
        QCOMPARE(back->id, r->id);
        QCOMPARE(back->targets.size(), 2);
        QCOMPARE(back->targets[1].target.label, r->targets[1].target.label);
        QCOMPARE(back->targets[0].singles[1].latency.p95, r->targets[0].singles[1].latency.p95);
        QCOMPARE(back->targets[1].sweep[1].effectiveTokensPerSecond, r->targets[1].sweep[1].effectiveTokensPerSecond);
        QCOMPARE(back->targets[0].singles[0].samples.size(), 2);
        QCOMPARE(formatMarkdown(*back), formatMarkdown(*r));
        const auto history = historyFromJson(formatJsonHistory({*r, *back}));
        QVERIFY(history);
        QCOMPARE(history->size(), 2);

        // CSV: a header and one row per test (2 singles + 1 concurrency + 2 sweep levels) per target.
        const QByteArray csv = formatCsv(*r);
        QList<QByteArray> lines = csv.split('\n');
        QCOMPARE(lines.takeLast(), QByteArray()); // ends with a line break
        QCOMPARE(lines.size(), 1 + 2 * 5);
        const int columns = int(csvColumns().size());
        QCOMPARE(QString::fromUtf8(lines.first().trimmed()).split(u','), csvColumns());
        for (const QByteArray &line : std::as_const(lines)) {
            // Split honouring quotes: every row has as many fields as the header.
            int fields = 1;
            bool quoted = false;
            for (char ch : line) {
                if (ch == '"')
                    quoted = !quoted;
                else if (ch == ',' && !quoted)
                    ++fields;
            }
            QVERIFY(!quoted);
            QCOMPARE(fields, columns);
        }
        QVERIFY(csv.contains("\"b, \"\"quoted\"\"\""));

        // Markdown: the article's tables.
        const QString md = formatMarkdown(*r);
        QVERIFY(md.contains(u"| Test | Target | Avg latency | Throughput | P95 latency |"_s));
        QVERIFY(md.contains(u"## Concurrency (3 parallel requests × 10 tokens)"_s));
        QVERIFY(md.contains(u"| Target | Total time | Effective throughput | Success rate |"_s));
        QVERIFY(md.contains(u"## Concurrency sweep"_s));
        QVERIFY(md.contains(u"| 10 tokens | a |"_s));
        QVERIFY(md.contains(u"b, \"quoted\""_s));
        // Every table row has as many cells as its header.
        int header = -1;
        for (const QString &line : md.split(u'\n')) {
            if (!line.startsWith(u'|')) {
                header = -1;
                continue;
            }
            const int cells = int(line.count(u'|')) - int(line.count(u"\\|"_s)) - 1;
            if (header < 0)
                header = cells;
            QCOMPARE(cells, header);
        }
        const QString compared = formatMarkdown(QList<BenchmarkResults>{*r, *back});
        QVERIFY(compared.contains(u"# Switchyard benchmark — 2 runs"_s));
    }

    void cliPrintsTables()
    {
        auto node = startNode(nodeOptions(u"n"_s, 400));
        QVERIFY(node);
        int code = -1;
        const QByteArray csv = captureStdout([&] {
            code = runBenchCli({u"switchyard"_s, u"--bench"_s, u"--target"_s, node->baseUrl(), u"--format"_s,
                                u"csv"_s, u"--max-tokens"_s, u"10,20"_s, u"--repetitions"_s, u"2"_s,
                                u"--concurrency"_s, u"3"_s, u"--quiet"_s});
        });
        QCOMPARE(code, 0);
        const QList<QByteArray> lines = csv.trimmed().split('\n');
        QCOMPARE(lines.size(), 1 + 3);
        QVERIFY(lines[1].contains(",single,10,"));
        QVERIFY(lines[3].contains(",concurrency,20,3,"));

        const QByteArray md = captureStdout([&] {
            code = runBenchCli({u"switchyard"_s, u"--bench"_s, u"--target"_s, node->baseUrl(), u"--model"_s, u"m1"_s,
                                u"--suite"_s, u"sweep"_s, u"--levels"_s, u"1,2"_s, u"--sweep-max-tokens"_s, u"10"_s,
                                u"--quiet"_s});
        });
        QCOMPARE(code, 0);
        QVERIFY(md.contains("## Concurrency sweep"));
        QVERIFY(!md.contains("## Single requests"));

        const QByteArray json = captureStdout([&] {
            code = runBenchCli({u"switchyard"_s, u"--bench"_s, u"--target"_s, node->baseUrl(), u"--format"_s,
                                u"json"_s, u"--max-tokens"_s, u"5"_s, u"--repetitions"_s, u"1"_s, u"--concurrency"_s,
                                u"2"_s, u"--quiet"_s});
        });
        QCOMPARE(code, 0);
        QVERIFY(!parseJson(json).is_discarded());

        QCOMPARE(runBenchCli({u"switchyard"_s, u"--bench"_s, u"--suite"_s, u"nonsense"_s}), 2);
        QCOMPARE(runBenchCli({u"switchyard"_s, u"--bench"_s}), 2); // nothing to measure
        QCOMPARE(runBenchCli({u"switchyard"_s, u"--bench"_s, u"--target"_s, u"vllm-server1"_s}), 2);
    }

    void cliMeasuresConfigAndGateway()
    {
        auto a = startNode(nodeOptions(u"na"_s, 400));
        auto b = startNode(nodeOptions(u"nb"_s, 400));
        QVERIFY(a && b);
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
        int code = -1;
        const QByteArray md = captureStdout([&] {
            code = runBenchCli({u"switchyard"_s, u"--bench"_s, u"--demo"_s, u"--max-tokens"_s, u"10"_s,
                                u"--repetitions"_s, u"1"_s, u"--concurrency"_s, u"2"_s, u"--quiet"_s},
                               hooks);
        });
        QCOMPARE(code, 0);
        QVERIFY(md.contains("| 10 tokens | na |"));
        QVERIFY(md.contains("| 10 tokens | nb |"));
        QVERIFY(md.contains("| 10 tokens | gateway pool (2 nodes) |"));
    }
};

QTEST_GUILESS_MAIN(TestBenchRunner)
#include "tst_benchrunner.moc"
