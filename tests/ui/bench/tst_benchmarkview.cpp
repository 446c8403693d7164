// The Benchmark view over a real gateway and fast simulated nodes (offscreen): targets offered, a run
// filling the article's tables and the sweep charts, runs kept on disk and compared, cancel.
#include "bench/benchmarkview.h"
#include "bench/benchformat.h"
#include "gateway/gatewayfixture.h"

#include <QChart>
#include <QLineSeries>
#include <QProgressBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace switchyard;
using namespace switchyard::ui;
using namespace Qt::Literals::StringLiterals;

namespace {

bench::BenchmarkPlan fastPlan(bench::BenchmarkPlan plan)
{
    plan.suite = bench::Suite::Full;
    plan.repetitions = 2;
    plan.maxTokensList = {10, 20};
    plan.concurrency = 3;
    plan.concurrencyMaxTokens = 10;
    plan.sweepLevels = {1, 2, 4};
    plan.sweepMaxTokens = 10;
    plan.warmupRequests = 1;
    plan.requestTimeoutMs = 10000;
    return plan;
}

} // namespace

class TestBenchmarkView final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void runFillsTablesAndCharts()
    {
        testing::GatewayFixture f;
        QVERIFY(f.start({u"a"_s, u"b"_s}));
        QTemporaryDir dir;
        BenchmarkView view(&f.gateway);
        view.setHistoryPath(dir.filePath(u"runs.json"_s));
        view.resize(1200, 800);
        view.show();
        QCOMPARE(view.targetLabels(), (QStringList{u"a"_s, u"b"_s, u"gateway pool (2 nodes)"_s}));

        const bench::BenchmarkPlan plan = fastPlan(view.currentPlan());
        QCOMPARE(plan.targets.size(), 3);
        QCOMPARE(plan.targets[0].baseUrl, f.node(0).baseUrl());
        QCOMPARE(plan.targets[2].baseUrl, f.gateway.listenUrl());
        QSignalSpy finished(&view, &BenchmarkView::runFinished);
        QVERIFY(view.startRun(plan));
        QVERIFY(view.isRunning());
        QVERIFY(!view.startRun(plan)); // one at a time
        QVERIFY(finished.wait(30000));
        QVERIFY(!view.isRunning());

        // 2 tests × 3 targets, grouped by test; 3 concurrency rows; a sweep line per target.
        QCOMPARE(view.singlesTable()->rowCount(), 6);
        QCOMPARE(view.singlesTable()->item(0, 0)->text(), u"10 tokens"_s);
        QCOMPARE(view.singlesTable()->item(1, 1)->text(), u"b"_s);
        QCOMPARE(view.singlesTable()->item(0, 9)->text(), u"2/2 \u2713"_s);
        QVERIFY(view.singlesTable()->item(0, 3)->text().toDouble() > 0);
        QCOMPARE(view.concurrencyTable()->rowCount(), 3);
        QCOMPARE(view.sweepTable()->rowCount(), 9);
        QCOMPARE(view.concurrencyTable()->item(2, 3)->text(), u"3/3 \u2713"_s);
        QCOMPARE(view.throughputChart()->series().size(), 3);
        QCOMPARE(view.latencyChart()->series().size(), 3);
        auto *line = qobject_cast<QLineSeries *>(view.throughputChart()->series().first());
        QVERIFY(line);
        QCOMPARE(line->count(), 3);
        QCOMPARE(line->at(2).x(), 4.0);
        QVERIFY(line->at(2).y() > line->at(0).y()); // more parallel, more throughput

        QVERIFY(view.shownMarkdown().contains(u"| 20 tokens | gateway pool (2 nodes) |"_s));
        QCOMPARE(view.shownCsv().count('\n'), 1 + 3 * (2 + 1 + 3));

        // Kept on disk; a new view (next session) finds it and can compare two runs.
        QCOMPARE(view.runs().size(), 1);
        QVERIFY(QFile::exists(dir.filePath(u"runs.json"_s)));
        QVERIFY(view.startRun(plan));
        QVERIFY(finished.wait(30000));
        BenchmarkView next(&f.gateway);
        next.setHistoryPath(dir.filePath(u"runs.json"_s));
        QCOMPARE(next.runs().size(), 2);
        next.showRun(next.runs()[0].id, next.runs()[1].id);
        QCOMPARE(next.shownRuns().size(), 2);
        QCOMPARE(next.singlesTable()->rowCount(), 12);
        QCOMPARE(next.throughputChart()->series().size(), 6);
        QVERIFY(next.shownMarkdown().contains(u"2 runs"_s));
    }

    void cancelKeepsWhatFinished()
    {
        testing::GatewayFixture f;
        QVERIFY(f.start({u"slow"_s}, {}, [](sim::SimNodeOptions &o) { o.performance.tokensPerSecond = 40; }));
        QTemporaryDir dir;
        BenchmarkView view(&f.gateway);
        view.setHistoryPath(dir.filePath(u"runs.json"_s));
        view.setCheckedTargets({u"slow"_s});
        bench::BenchmarkPlan plan = fastPlan(view.currentPlan());
        QCOMPARE(plan.targets.size(), 1);
        plan.maxTokensList = {200};
        plan.warmupRequests = 0;
        QSignalSpy cancelled(&view, &BenchmarkView::runCancelled);
        QVERIFY(view.startRun(plan));
        QTRY_COMPARE_WITH_TIMEOUT(f.node(0).counters().running, 1, 5000);
        view.cancelRun();
        QVERIFY(cancelled.wait(5000));
        QVERIFY(!view.isRunning());
        QTRY_COMPARE_WITH_TIMEOUT(f.node(0).counters().clientAborts, 1, 5000);
        QCOMPARE(view.runs().size(), 1);
        QVERIFY(view.runs().first().cancelled);
    }
};

QTEST_MAIN(TestBenchmarkView)
#include "tst_benchmarkview.moc"
