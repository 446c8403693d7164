// The Charts view's day and week (ui/historycharts) in the main window, over a LocalGatewayLink to a real
// gateway keeping its history on disk: what the gateway recorded over the last day shows as requests/s,
// failures/s, tokens/s and mean latency per bucket, the week in hourly buckets, the buckets export as CSV;
// a gateway without a history says how to turn it on.
#include "chartsview.h"
#include "gateway/gatewayfixture.h"
#include "history/historystore.h"
#include "historycharts.h"
#include "link/localgatewaylink.h"
#include "mainwindow.h"
#include "ui/testscreenshot.h"

#include <QComboBox>
#include <QDateTime>
#include <QFile>
#include <QLabel>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QXYSeries>

using namespace switchyard;
using namespace switchyard::testing;
using namespace switchyard::ui;
using namespace Qt::Literals::StringLiterals;

namespace {

double sumOf(const QXYSeries *s)
{
    double sum = 0;
    for (const QPointF &p : s->points())
        sum += p.y();
    return sum;
}

void chooseWindow(ChartsView *charts, const QString &startsWith)
{
    auto *box = charts->findChild<QComboBox *>(u"chartWindow"_s);
    for (int i = 0; i < box->count(); ++i) {
        if (box->itemText(i).startsWith(startsWith))
            box->setCurrentIndex(i);
    }
}

// A chat request as the gateway records it, for its history to sum.
stats::RequestRecord chatRecord(qint64 startedMs, const QString &node, int status, qint64 durationMs,
                                qint64 completionTokens, qint64 ttftMs = -1)
{
    stats::RequestRecord r;
    r.startedMsSinceEpoch = startedMs;
    r.method = "POST";
    r.path = "/v1/chat/completions";
    r.model = u"m1"_s;
    r.node = node;
    r.status = status;
    r.durationMs = durationMs;
    r.ttftMs = ttftMs;
    r.completionTokens = completionTokens;
    return r;
}

// The main window of a gateway of this process, on its Charts tab, showing the last 24 hours.
struct ChartsWindow
{
    explicit ChartsWindow(Gateway &gateway) : link(&gateway), window(&link, &gateway, nullptr)
    {
        window.show();
        window.findChild<QTabWidget *>()->setCurrentWidget(window.chartsView());
        chooseWindow(window.chartsView(), u"24 hours"_s);
    }
    ChartsView *charts() const { return window.chartsView(); }
    HistoryCharts *history() const { return window.chartsView()->historyCharts(); }

    link::LocalGatewayLink link;
    MainWindow window;
};

} // namespace

class TestHistoryCharts final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void aDayAndAWeekFromTheHistory()
    {
        QTemporaryDir dir;
        GatewayFixture f;
        const QString path = dir.filePath(u"history.db"_s);
        QVERIFY(
            f.start({u"a"_s}, {}, {}, [path](config::GatewayConfig &c) { c.settings.history.path = path; }));
        // A day as the gateway recorded it: 60 requests an hour ago (6 of them failed), 30 at five hours,
        // 12 three days ago (in the week, not the day).
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const auto record = [&](qint64 ago, int count, int failed, qint64 tokens) {
            for (int i = 0; i < count; ++i)
                QVERIFY(f.gateway.history()->append(
                    chatRecord(now - ago + i, u"a"_s, i < failed ? 502 : 200, 2000, tokens, 300)));
        };
        record(3'600'000, 60, 6, 100);
        record(5 * 3'600'000, 30, 0, 100);
        record(3 * 24 * 3'600'000, 12, 0, 100);
        f.gateway.history()->flush();

        ChartsWindow w(f.gateway);
        MainWindow &window = w.window;
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        ChartsView *charts = w.charts();
        HistoryCharts *day = w.history();
        QTRY_VERIFY(day->isVisible());
        // Every bucket of the day is drawn, and requests/s × bucket seconds adds back up to the count.
        QTRY_VERIFY_WITH_TIMEOUT(!day->points().empty(), 10000);
        QVERIFY(day->series(u"requests"_s)->count() >= 288 && day->series(u"requests"_s)->count() <= 289);
        QCOMPARE(qRound(sumOf(day->series(u"requests"_s)) * 300), 90);
        QCOMPARE(qRound(sumOf(day->series(u"errors"_s)) * 300), 6);
        QCOMPARE(qRound(sumOf(day->series(u"tokens"_s)) * 300), 9000);
        // Means, in seconds, only where a bucket had requests.
        QCOMPARE(day->series(u"latency"_s)->count(), 2);
        QCOMPARE(day->series(u"latency"_s)->at(0).y(), 2.0);
        QCOMPARE(day->series(u"ttft"_s)->at(0).y(), 0.3);
        QVERIFY2(day->statusLabel()->text().contains(u"90"_s), qPrintable(day->statusLabel()->text()));
        saveScreenshot(window, u"charts-history-day.png"_s);

        // The buckets as CSV, through the Charts view's own export.
        const QString csvPath = dir.filePath(u"day.csv"_s);
        QVERIFY(charts->exportCsv(csvPath));
        QFile csv(csvPath);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csv.readAll().split('\n');
        QVERIFY(lines[0].startsWith("bucket_start_utc,requests,errors"));
        QCOMPARE(lines.size(), 1 + int(day->points().size()) + 1);

        chooseWindow(charts, u"7 days"_s);
        QCOMPARE(day->span(), HistoryCharts::Span::Week);
        QTRY_VERIFY_WITH_TIMEOUT(day->series(u"requests"_s)->count() >= 168 &&
                                     qRound(sumOf(day->series(u"requests"_s)) * 3600) == 102,
                                 10000);

        // Back to the live charts: the history page goes away.
        chooseWindow(charts, u"1 minute"_s);
        QTRY_VERIFY(!day->isVisible());
    }

    void aLinePerNode()
    {
        QTemporaryDir dir;
        GatewayFixture f;
        const QString path = dir.filePath(u"history.db"_s);
        QVERIFY(f.start({u"a"_s, u"b"_s}, {}, {},
                        [path](config::GatewayConfig &c) { c.settings.history.path = path; }));
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        for (int i = 0; i < 60; ++i) {
            const bool onB = i % 3 == 0; // 40 on a, 20 on b
            QVERIFY(f.gateway.history()->append(
                chatRecord(now - 3'600'000 + i * 1000, onB ? u"b"_s : u"a"_s, 200, onB ? 4000 : 1000, 50)));
        }
        f.gateway.history()->flush();

        ChartsWindow w(f.gateway);
        MainWindow &window = w.window;
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        ChartsView *charts = w.charts();
        HistoryCharts *day = w.history();
        QTRY_VERIFY_WITH_TIMEOUT(!day->points().empty(), 10000);

        auto *split = day->findChild<QComboBox *>(u"historySplit"_s);
        QVERIFY(split);
        split->setCurrentIndex(split->findData(int(history::RollupSplit::Node)));
        emit split->activated(split->currentIndex());
        QCOMPARE(day->split(), history::RollupSplit::Node);
        // One line per node, busiest first in the legend; the whole gateway's lines give way.
        QTRY_VERIFY_WITH_TIMEOUT(day->series(u"requests:b"_s) != nullptr, 10000);
        QCOMPARE(qRound(sumOf(day->series(u"requests:a"_s)) * 300), 40);
        QCOMPARE(qRound(sumOf(day->series(u"requests:b"_s)) * 300), 20);
        QCOMPARE(qRound(sumOf(day->series(u"tokens:b"_s)) * 300), 1000);
        QCOMPARE(day->series(u"latency:b"_s)->at(0).y(), 4.0);
        QVERIFY(!day->series(u"requests"_s)->isVisible());
        QCOMPARE(day->series(u"requests:a"_s)->name(), u"a"_s);
        saveScreenshot(window, u"charts-history-per-node.png"_s);

        // The export has the node in its second column.
        const QString csvPath = dir.filePath(u"per-node.csv"_s);
        QVERIFY(charts->exportCsv(csvPath));
        QFile csv(csvPath);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QByteArray text = csv.readAll();
        QVERIFY2(text.startsWith("bucket_start_utc,node,requests,"), text.left(80).constData());
        QVERIFY(text.contains(",a,") && text.contains(",b,"));

        // Back to the whole gateway: its lines return, the per-node ones go.
        split->setCurrentIndex(split->findData(int(history::RollupSplit::None)));
        emit split->activated(split->currentIndex());
        QTRY_VERIFY_WITH_TIMEOUT(day->series(u"requests"_s)->isVisible() && !day->points().empty(), 10000);
        QCOMPARE(day->series(u"requests:a"_s), nullptr);
        QCOMPARE(qRound(sumOf(day->series(u"requests"_s)) * 300), 60);
    }

    // Split by key, the legend names each key as its owner named it, not by its id; two keys of one
    // name are told apart by their ids.
    void aLinePerKeyNamedByTheKey()
    {
        QTemporaryDir dir;
        GatewayFixture f;
        const QString path = dir.filePath(u"history.db"_s);
        QVERIFY(f.start({u"a"_s}, {}, {}, [path](config::GatewayConfig &c) { c.settings.history.path = path; }));
        const QString ids[3] = {u"vk_1111111111111111"_s, u"vk_2222222222222222"_s, u"vk_3a33333333333333"_s};
        const QString names[3] = {u"ci-runner"_s, u"alice"_s, u"alice"_s};
        for (int k = 0; k < 3; ++k) {
            keys::VirtualKey key;
            key.id = ids[k];
            key.name = names[k];
            f.gateway.history()->saveKey(key);
        }
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        for (int i = 0; i < 30; ++i) {
            stats::RequestRecord r = chatRecord(now - 3'600'000 + i * 1000, u"a"_s, 200, 1000, 50);
            r.keyId = ids[i % 3];
            r.startedMsSinceEpoch -= (i % 3) * 600'000; // each key its own buckets, so each line shows
            QVERIFY(f.gateway.history()->append(r));
        }
        f.gateway.history()->flush();

        ChartsWindow w(f.gateway);
        HistoryCharts *day = w.history();
        QTRY_VERIFY_WITH_TIMEOUT(!day->points().empty(), 10000);
        auto *split = day->findChild<QComboBox *>(u"historySplit"_s);
        split->setCurrentIndex(split->findData(int(history::RollupSplit::Key)));
        emit split->activated(split->currentIndex());
        QTRY_VERIFY_WITH_TIMEOUT(day->series(u"requests:"_s + ids[0]) != nullptr, 10000);
        QCOMPARE(day->series(u"requests:"_s + ids[0])->name(), u"ci-runner"_s);
        QCOMPARE(day->series(u"requests:"_s + ids[1])->name(), u"alice (vk_2222…)"_s);
        QCOMPARE(day->series(u"tokens:"_s + ids[2])->name(), u"alice (vk_3a33…)"_s);
        saveScreenshot(w.window, u"charts-history-per-key.png"_s);
    }

    void aGatewayWithoutHistorySaysHowToTurnItOn()
    {
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s}));
        ChartsWindow w(f.gateway);
        HistoryCharts *day = w.history();
        QTRY_VERIFY(day->statusLabel()->text().contains(u"switchyard.history.path"_s));
        QCOMPARE(day->series(u"requests"_s)->count(), 0);
    }
};

QTEST_MAIN(TestHistoryCharts)
#include "tst_historycharts.moc"
