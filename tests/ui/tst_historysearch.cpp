// The Requests view's history search (ui/historysearchview) in the main window, over a LocalGatewayLink
// to a real gateway that keeps its history on disk, with simulated nodes over loopback: a search finds
// what the gateway served, filters by outcome and node, pages with Older, shows a request's detail and
// exports what it shows as CSV; a gateway without a history says how to turn it on.
#include "common/testhttpclient.h"
#include "gateway/gatewayfixture.h"
#include "history/historystore.h"
#include "historysearchview.h"
#include "link/localgatewaylink.h"
#include "mainwindow.h"
#include "requestsmodel.h"
#include "requestsview.h"
#include "ui/testscreenshot.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDateTime>
#include <QDateTimeEdit>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace switchyard;
using namespace switchyard::testing;
using namespace switchyard::ui;
using namespace Qt::Literals::StringLiterals;

namespace {

void selectOutcome(HistorySearchView *view, history::HistoryQuery::Status status)
{
    view->outcomeBox()->setCurrentIndex(view->outcomeBox()->findData(int(status)));
}

} // namespace

class TestHistorySearch final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void searchesFiltersPagesAndExports()
    {
        QTemporaryDir dir;
        GatewayFixture f;
        const QString path = dir.filePath(u"history.db"_s);
        QVERIFY(f.start({u"a"_s, u"b"_s}, {}, {},
                        [path](config::GatewayConfig &c) { c.settings.history.path = path; }));
        for (int i = 0; i < 3; ++i)
            QCOMPARE(request(f.port, "POST", "/v1/chat/completions", chatBody("m1")).status, 200);
        f.node(1).setFault(sim::FaultMode::Error500);
        QVERIFY(request(f.port, "POST", "/v1/chat/completions", chatBody("b/m1")).status >= 500);

        link::LocalGatewayLink link(&f.gateway);
        MainWindow window(&link, &f.gateway, nullptr);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.findChild<QTabWidget *>()->setCurrentWidget(window.requestsView());
        window.requestsView()->showHistorySearch(true);
        HistorySearchView *search = window.requestsView()->historySearch();
        QAbstractItemModelTester tester(search->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(search->isVisible());
        QVERIFY(!search->olderButton()->isEnabled());

        // The writer flushes a few times a second: search until all four are on disk.
        const auto searchFor = [&](int rows) {
            QTest::mouseClick(window.findChild<QPushButton *>(u"historySearch"_s), Qt::LeftButton);
            return QTest::qWaitFor([&] { return !search->statusLabel()->text().startsWith(u"Searching"_s); },
                                   10000) &&
                   search->model()->rowCount() == rows;
        };
        QTRY_VERIFY_WITH_TIMEOUT(searchFor(4), 15000);
        QVERIFY2(search->statusLabel()->text().contains(u"4 requests shown"_s),
                 qPrintable(search->statusLabel()->text()));
        int onA = 0;
        for (int row = 0; row < 4; ++row)
            onA += search->model()->record(row)->node == u"a"_s ? 1 : 0;

        // Failed only: the one pinned to b, with its 5xx and node in the detail.
        selectOutcome(search, history::HistoryQuery::Status::Failed);
        QVERIFY(searchFor(1));
        QCOMPARE(search->model()->record(0)->node, u"b"_s);
        search->table()->setCurrentIndex(search->table()->model()->index(0, 0));
        QVERIFY2(search->detail()->toPlainText().contains(u"50"_s),
                 qPrintable(search->detail()->toPlainText()));
        // By node: what a served, and nothing else.
        selectOutcome(search, history::HistoryQuery::Status::Any);
        search->nodeEdit()->setText(u"a"_s);
        QVERIFY(onA > 0);
        QVERIFY(searchFor(onA));
        search->nodeEdit()->clear();

        // Paging: a gateway that kept more than a page. Older loads the next, then there is no more.
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        for (int i = 0; i < HistorySearchView::PageSize + 20; ++i) {
            stats::RequestRecord r;
            r.startedMsSinceEpoch = now - 60'000 - i;
            r.method = "POST";
            r.path = "/v1/embeddings";
            r.model = u"m1"_s;
            r.node = u"a"_s;
            r.status = 200;
            QVERIFY(f.gateway.history()->append(r));
        }
        f.gateway.history()->flush();
        QVERIFY(searchFor(HistorySearchView::PageSize));
        QVERIFY(search->olderButton()->isEnabled());
        QTest::mouseClick(search->olderButton(), Qt::LeftButton);
        QTRY_COMPARE(search->model()->rowCount(), HistorySearchView::PageSize + 24);
        QTRY_VERIFY(!search->olderButton()->isEnabled());
        // The newest first in the table, the newest request being one of the four real ones.
        QCOMPARE(search->table()->model()->index(0, RequestsModel::Endpoint).data().toString(),
                 u"POST /v1/chat/completions"_s);

        saveScreenshot(window, u"history-search.png"_s);

        // Export: every row shown, newest first, as the gateway's CSV.
        const QString csvPath = dir.filePath(u"export.csv"_s);
        QString suggested;
        search->setFileChooser([&](const QString &name) {
            suggested = name;
            return csvPath;
        });
        QTest::mouseClick(window.findChild<QPushButton *>(u"historyExport"_s), Qt::LeftButton);
        QCOMPARE(suggested, u"switchyard-history.csv"_s);
        QFile csv(csvPath);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csv.readAll().split('\n');
        QCOMPARE(lines.size(), 1 + HistorySearchView::PageSize + 24 + 1);
        QVERIFY(lines[0].startsWith("started_utc,"));
        QVERIFY2(lines[1].contains("/v1/chat/completions"), lines[1].constData());
        QVERIFY(search->statusLabel()->text().contains(csvPath));
    }

    void aGatewayWithoutHistorySaysHowToTurnItOn()
    {
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s}));
        link::LocalGatewayLink link(&f.gateway);
        MainWindow window(&link, &f.gateway, nullptr);
        window.show();
        window.requestsView()->showHistorySearch(true);
        HistorySearchView *search = window.requestsView()->historySearch();
        search->search();
        QTRY_VERIFY(search->statusLabel()->text().contains(u"switchyard.history.path"_s));
        QCOMPARE(search->model()->rowCount(), 0);
        QVERIFY(!search->olderButton()->isEnabled());
    }

    void answersToReplacedSearchesAreDropped()
    {
        HistorySearchView view;
        QList<quint64> tickets;
        connect(&view, &HistorySearchView::searchRequested, this,
                [&](quint64 ticket, const history::HistoryQuery &) { tickets << ticket; });
        view.search();
        view.search(); // the operator changed a filter and searched again before the answer came
        QCOMPARE(tickets.size(), 2);
        link::HistorySearchResult stale;
        stale.ticket = tickets[0];
        stale.ok = true;
        stale.page.entries.push_back({1, stats::RequestRecord{}});
        view.showResult(stale);
        QCOMPARE(view.model()->rowCount(), 0);
        link::HistorySearchResult current = stale;
        current.ticket = tickets[1];
        view.showResult(current);
        QCOMPARE(view.model()->rowCount(), 1);

        // A recent span is measured from now; a custom range that ends before it starts is refused.
        view.setClock([] { return qint64(10'000'000'000); });
        view.spanBox()->setCurrentIndex(view.spanBox()->findData(qint64(3'600'000)));
        QCOMPARE(view.query().fromMs, 10'000'000'000 - 3'600'000);
        QCOMPARE(view.query().toMs, 10'000'000'000);
        view.spanBox()->setCurrentIndex(view.spanBox()->findData(qint64(-1)));
        view.findChild<QDateTimeEdit *>(u"historyFrom"_s)->setDateTime(QDateTime::currentDateTime());
        view.findChild<QDateTimeEdit *>(u"historyTo"_s)
            ->setDateTime(QDateTime::currentDateTime().addDays(-1));
        view.search();
        QCOMPARE(tickets.size(), 2);
        QVERIFY(view.statusLabel()->text().contains(u"after its end"_s));
    }
};

QTEST_MAIN(TestHistorySearch)
#include "tst_historysearch.moc"
