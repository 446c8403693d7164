// The Benchmark view over a real gateway and fast simulated nodes (offscreen): targets offered, a run
// filling the article's tables and the sweep charts, runs kept on disk and compared, cancel.
#include "bench/benchmarkview.h"
#include "bench/benchformat.h"
#include "gateway/gatewayfixture.h"

#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QDir>
#include <QScrollBar>
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
        const int success = view.singlesTable()->columnCount() - 1;
        QCOMPARE(view.singlesTable()->horizontalHeaderItem(success)->text(), u"Success"_s);
        QCOMPARE(view.singlesTable()->item(0, success)->text(), u"2/2 \u2713"_s);
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
        if (const QByteArray shots = qgetenv("SWITCHYARD_SCREENSHOT_DIR"); !shots.isEmpty()) {
            QCoreApplication::processEvents(); // the charts lay their legends out on the next turn
            view.grab().save(QDir(QString::fromLocal8Bit(shots)).filePath(u"benchmark-full.png"_s));
        }

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

    void articleSuiteFitsAndPlotsWhatItMeasured()
    {
        // The article's suite at the default window size: the tables fit beside the charts (no sideways
        // scrolling, the Success column in view), the charts show the single requests, and while it runs
        // it says how long it still takes.
        testing::GatewayFixture f;
        QVERIFY(f.start({u"vllm-server1"_s, u"vllm-server2"_s}, {},
                        [](sim::SimNodeOptions &o) { o.performance.tokensPerSecond = 400; }));
        QTemporaryDir dir;
        BenchmarkView view(&f.gateway);
        view.setHistoryPath(dir.filePath(u"runs.json"_s));
        view.resize(1280, 740); // the tab's share of a 1280×800 window
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        bench::BenchmarkPlan plan = view.currentPlan();
        plan.suite = bench::Suite::Article;
        plan.repetitions = 2;
        plan.maxTokensList = {20, 100, 300};
        plan.concurrencyMaxTokens = 20;
        QSignalSpy finished(&view, &BenchmarkView::runFinished);
        QVERIFY(view.startRun(plan));
        QTRY_VERIFY_WITH_TIMEOUT(view.timeText().contains(u"left"_s), 20000);
        if (const QByteArray shots = qgetenv("SWITCHYARD_SCREENSHOT_DIR"); !shots.isEmpty())
            view.grab().save(QDir(QString::fromLocal8Bit(shots)).filePath(u"benchmark-running.png"_s));
        QVERIFY(finished.wait(60000));
        QVERIFY(view.timeText().isEmpty()); // done: the status says how long it took

        QTableWidget *singles = view.singlesTable();
        QCOMPARE(singles->rowCount(), 9);
        QTRY_VERIFY(!singles->horizontalScrollBar()->isVisible());
        const int success = singles->columnCount() - 1;
        QVERIFY(singles->columnViewportPosition(success) + singles->columnWidth(success)
                <= singles->viewport()->width());
        QVERIFY(!view.sweepTable()->isVisible()); // not measured: no empty table
        QVERIFY(view.concurrencyTable()->isVisible());

        QChart *chart = view.throughputChart();
        QCOMPARE(chart->series().size(), 1);
        auto *bars = qobject_cast<QBarSeries *>(chart->series().first());
        QVERIFY(bars);
        QCOMPARE(bars->count(), 3); // a bar set per target
        QCOMPARE(bars->barSets().first()->count(), 3); // 20, 100, 300 tokens
        QVERIFY(bars->barSets().first()->at(2) > 0);
        QVERIFY(chart->title().size() < 40);

        if (const QByteArray shots = qgetenv("SWITCHYARD_SCREENSHOT_DIR"); !shots.isEmpty()) {
            QCoreApplication::processEvents(); // the charts lay their legends out on the next turn
            view.grab().save(QDir(QString::fromLocal8Bit(shots)).filePath(u"benchmark-article.png"_s));
        }
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
