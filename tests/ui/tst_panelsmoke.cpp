// The panel end to end: the demo fleet, the gateway and the main window in one process, real traffic
// over loopback, and what the operator would see: rows, states, reasons, chart lines, the request log,
// the gateway toggle, a start that fails, and quitting with requests in flight.
#include "chartsview.h"
#include "bench/benchmarkview.h"
#include "chat/chatconsole.h"
#include "common/testhttpclient.h"
#include "config/configloader.h"
#include "demofleet.h"
#include "fleet/gatewaysmodel.h"
#include "fleet/gatewaysview.h"
#include "gateway.h"
#include "mainwindow.h"
#include "nodesmodel.h"
#include "nodesview.h"
#include "requestsmodel.h"
#include "requestsview.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QLabel>
#include <QLineSeries>
#include <QTabWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QStandardPaths>
#include <QSystemTrayIcon>
#include <QTableView>
#include <QTcpServer>
#include <QTest>
#include <QTextBrowser>
#include <QtConcurrent>

#include <memory>

using namespace switchyard;
using namespace switchyard::ui;
using namespace Qt::Literals::StringLiterals;

namespace {

const QByteArray Model = "nemotron-3-super";

// Requests from a pool thread, so the GUI thread keeps running its event loop (and the panel updates).
QFuture<QList<int>> sendTraffic(quint16 port, int count, int maxTokens = 8, bool stream = false)
{
    return QtConcurrent::run([=] {
        QList<int> statuses;
        for (int i = 0; i < count; ++i)
            statuses << testing::request(port, "POST", "/v1/chat/completions", testing::chatBody(Model, maxTokens, stream), 30000).status;
        return statuses;
    });
}

bool anyPositive(const QLineSeries *s)
{
    if (!s)
        return false;
    const QList<QPointF> points = s->points();
    return std::any_of(points.begin(), points.end(), [](const QPointF &p) { return p.y() > 0; });
}

} // namespace

class TestPanelSmoke final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<app::DemoFleet> m_fleet;
    std::unique_ptr<Gateway> m_gateway;
    std::unique_ptr<MainWindow> m_window;
    config::GatewayConfig m_config;

    const NodeRow *sample(const QString &name) const
    {
        NodesModel *m = m_window->nodesView()->model();
        return m->node(m->rowOf(name));
    }
    health::NodeState state(const QString &name) const
    {
        const NodeRow *n = sample(name);
        return n ? n->status.state : health::NodeState::Unknown;
    }
    QString tooltip(const QString &name) const
    {
        NodesModel *m = m_window->nodesView()->model();
        return m->index(m->rowOf(name), NodesModel::State).data(Qt::ToolTipRole).toString();
    }
    QAction *menuAction(const QString &node, const QString &objectName)
    {
        QMenu *menu = m_window->nodesView()->buildContextMenu(node, m_window.get());
        menu->deleteLater();
        return menu->findChild<QAction *>(objectName);
    }
    quint16 port() const { return m_gateway->port(); }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void init()
    {
        m_fleet = std::make_unique<app::DemoFleet>();
        const auto json = m_fleet->start();
        QVERIFY2(json, qPrintable(json ? QString() : json.error()));
        auto cfg = config::parseConfig(*json);
        QVERIFY(cfg);
        m_config = *cfg;
        m_config.settings.listenPort = 0;
        m_config.settings.workerThreads = 2;
        m_config.settings.drainTimeoutMs = 20000;
        m_gateway = std::make_unique<Gateway>();
        m_window = std::make_unique<MainWindow>(m_gateway.get());
        m_window->setDemoNodes(m_fleet->nodes());
        m_window->applyConfig(m_config, u"demo"_s);
        QVERIFY(m_window->startGateway());
        QVERIFY(m_gateway->isRunning());
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void cleanup()
    {
        m_window.reset();
        m_gateway.reset();
        m_fleet.reset();
    }

    void trafficShowsUpInTableAndCharts()
    {
        QAbstractItemModelTester tester(m_window->nodesView()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(m_window->nodesView()->model()->rowCount(), 2);
        // Before any traffic: the gateway's first health check (at once for new nodes) decides.
        QTRY_COMPARE(state(u"vllm-server1"_s), health::NodeState::Healthy);
        QVERIFY2(tooltip(u"vllm-server1"_s).contains(u"No traffic yet"_s), qPrintable(tooltip(u"vllm-server1"_s)));
        QVERIFY(sample(u"vllm-server1"_s)->status.lastCheckMsSinceEpoch > 0);
        QCOMPARE(m_window->nodesView()->model()->index(0, NodesModel::Queue).data().toString(), u"0 / 0"_s);

        m_window->showView(MainWindow::View::Charts);
        auto a = sendTraffic(port(), 4);
        auto b = sendTraffic(port(), 4, 8, true);
        // Live, while requests are still being sent.
        QTRY_VERIFY_WITH_TIMEOUT(sample(u"vllm-server1"_s) && sample(u"vllm-server1"_s)->status.attempts > 0, 15000);
        QTRY_VERIFY_WITH_TIMEOUT(sample(u"vllm-server2"_s)->status.attempts > 0, 15000);
        QTRY_VERIFY_WITH_TIMEOUT(a.isFinished() && b.isFinished(), 60000);
        QCOMPARE(a.result(), QList<int>(4, 200));
        QCOMPARE(b.result(), QList<int>(4, 200));

        QTRY_COMPARE(state(u"vllm-server1"_s), health::NodeState::Healthy);
        QTRY_COMPARE(state(u"vllm-server2"_s), health::NodeState::Healthy);
        const NodeRow *n1 = sample(u"vllm-server1"_s);
        QVERIFY(n1->status.window.latencyP95Ms.has_value());
        QVERIFY(n1->status.completionTokens > 0);
        QVERIFY(n1->status.running.has_value()); // the demo node's own scheduler counters
        QCOMPARE(m_window->nodesView()->model()->index(0, NodesModel::Models).data().toString(), u"nemotron-3-super"_s);

        // The request log got all eight, with node and tokens (next to the chat console's GET /v1/models).
        RequestsModel *requests = m_window->requestsView()->model();
        auto chats = [requests] {
            QList<int> rows;
            for (int i = 0; i < requests->rowCount(); ++i) {
                if (requests->record(i)->path == "/v1/chat/completions")
                    rows << i;
            }
            return rows;
        };
        QTRY_COMPARE(chats().size(), 8);
        const stats::RequestRecord *first = requests->record(chats().first());
        QVERIFY(first->node.startsWith(u"vllm-server"_s));
        QCOMPARE(first->completionTokens, 8);
        m_window->requestsView()->filter()->setText(u"chat/completions"_s);
        QCOMPARE(m_window->requestsView()->filter()->rowCount(), 8);
        QTableView *log = m_window->requestsView()->table();
        log->selectRow(0);
        QVERIFY(m_window->requestsView()->detail()->toPlainText().contains(u"Answered by: vllm-server"_s));

        // The charts: total and per-node tokens/s lines with points above zero, and latency points.
        ChartsView *charts = m_window->chartsView();
        // The gateway's rates come from its per-second history: the charts follow within a second or two.
        const auto shows = [charts](const QString &id) {
            charts->refreshNow();
            return anyPositive(charts->series(id));
        };
        QTRY_VERIFY_WITH_TIMEOUT(shows(u"tokens/total"_s), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(shows(u"tokens/node/vllm-server1"_s), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(shows(u"tokens/node/vllm-server2"_s), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(shows(u"requests/total"_s), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(shows(u"latency/p95"_s), 10000);
        QVERIFY(charts->series(u"queue/waiting/vllm-server1"_s));
        // The timer redraws on its own too (coalesced): points keep coming without refreshNow().
        const qsizetype before = charts->series(u"tokens/total"_s)->count();
        QTRY_VERIFY_WITH_TIMEOUT(charts->series(u"tokens/total"_s)->count() > before, 5000);

        QVERIFY(m_window->statusText().contains(u"req/s"_s));
        QVERIFY(m_window->statusText().contains(m_gateway->listenUrl()));
        QCOMPARE(m_window->indicator(), GatewayIndicator::Running);

        // Export.
        QTemporaryDir dir;
        QVERIFY(charts->exportPng(dir.filePath(u"c.png"_s)));
        QVERIFY(charts->exportCsv(dir.filePath(u"c.csv"_s)));
        QFile csv(dir.filePath(u"c.csv"_s));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QByteArray text = csv.readAll();
        QVERIFY(text.startsWith("series,time,value\n"));
        QVERIFY(text.contains("tokens/node/vllm-server2,"));
    }

    void faultModeTurnsNodeRedWithReason()
    {
        QAction *refuse = menuAction(u"vllm-server2"_s, u"fault-refuse"_s);
        QVERIFY(refuse);
        QVERIFY(!menuAction(u"vllm-server2"_s, u"fault-healthy"_s) || menuAction(u"vllm-server2"_s, u"fault-healthy"_s)->isChecked());
        refuse->trigger();
        QTRY_COMPARE(m_fleet->node(u"vllm-server2"_s)->fault(), sim::FaultMode::Refuse);
        QTRY_COMPARE(state(u"vllm-server2"_s), health::NodeState::Down);
        QVERIFY2(tooltip(u"vllm-server2"_s).contains(u"refuses connections"_s), qPrintable(tooltip(u"vllm-server2"_s)));
        QCOMPARE(nodeStateColor(state(u"vllm-server2"_s)), nodeStateColor(health::NodeState::Down));
        QCOMPARE(m_window->indicator(), GatewayIndicator::NodeDown);
        QVERIFY(menuAction(u"vllm-server2"_s, u"fault-refuse"_s)->isChecked());

        // The gateway's own verdict names the cause, next to the simulated fault.
        qInfo() << "vllm-server2:" << tooltip(u"vllm-server2"_s);
        QVERIFY(tooltip(u"vllm-server2"_s).contains(u"refused"_s, Qt::CaseInsensitive));

        // Traffic goes to the healthy node only.
        const qint64 before1 = sample(u"vllm-server1"_s)->status.successes;
        const qint64 before2 = sample(u"vllm-server2"_s)->status.successes;
        auto traffic = sendTraffic(port(), 6);
        QTRY_VERIFY_WITH_TIMEOUT(traffic.isFinished(), 60000);
        QCOMPARE(traffic.result(), QList<int>(6, 200));
        QTRY_COMPARE(sample(u"vllm-server1"_s)->status.successes, before1 + 6);
        QCOMPARE(sample(u"vllm-server2"_s)->status.successes, before2);
        QCOMPARE(state(u"vllm-server1"_s), health::NodeState::Healthy);
        m_window->nodesView()->selectNode(u"vllm-server2"_s);
        const QString detail = m_window->nodesView()->detail()->toPlainText();
        QVERIFY2(detail.contains(u"Simulated fault 'refuse'"_s), qPrintable(detail));
        QVERIFY2(detail.contains(u"Requests running"_s), qPrintable(detail));

        // Healthy again: the state follows.
        menuAction(u"vllm-server2"_s, u"fault-healthy"_s)->trigger();
        QTRY_COMPARE(m_fleet->node(u"vllm-server2"_s)->fault(), sim::FaultMode::Healthy);
        // The failed attempts stay in the 30 s health window: Down from traffic until it passes, so
        // only check the simulated part is gone.
        QTRY_VERIFY(!tooltip(u"vllm-server2"_s).contains(u"Simulated fault"_s));
    }

    void drainSendsNothingToTheNode()
    {
        QAction *drain = menuAction(u"vllm-server1"_s, u"drainAction"_s);
        QVERIFY(drain);
        drain->trigger();
        QTRY_COMPARE(state(u"vllm-server1"_s), health::NodeState::Draining);
        const qint64 before = sample(u"vllm-server1"_s)->status.attempts;
        auto traffic = sendTraffic(port(), 4);
        QTRY_VERIFY_WITH_TIMEOUT(traffic.isFinished(), 60000);
        QCOMPARE(traffic.result(), QList<int>(4, 200));
        QTRY_COMPARE(sample(u"vllm-server2"_s)->status.successes, 4);
        QCOMPARE(sample(u"vllm-server1"_s)->status.attempts, before);
        QCOMPARE(menuAction(u"vllm-server1"_s, u"drainAction"_s)->text(), NodesView::tr("&Enable"));
        menuAction(u"vllm-server1"_s, u"drainAction"_s)->trigger();
        QTRY_VERIFY(state(u"vllm-server1"_s) != health::NodeState::Draining);
    }

    void startFailureIsReportedAndPanelStaysUsable()
    {
        m_gateway->stopNow();
        QTcpServer blocker;
        QVERIFY(blocker.listen(QHostAddress::LocalHost, 0));
        config::GatewayConfig cfg = m_config;
        cfg.settings.listenPort = blocker.serverPort();
        m_window->applyConfig(cfg, u"demo"_s);
        QVERIFY(!m_window->startGateway());
        QVERIFY(!m_gateway->isRunning());
        QVERIFY2(m_window->bannerText().contains(u"could not start"_s), qPrintable(m_window->bannerText()));
        QVERIFY(m_window->bannerText().contains(QString::number(blocker.serverPort())));
        QVERIFY(!m_window->gatewayToggleAction()->isChecked());
        QVERIFY(m_window->gatewayToggleAction()->isEnabled());
        QTRY_COMPARE(m_window->indicator(), GatewayIndicator::Failed);
        QVERIFY(m_window->statusText().contains(u"failed"_s));

        // Still usable: another port, and the toggle works.
        m_window->applyConfig(m_config, u"demo"_s);
        m_window->gatewayToggleAction()->trigger();
        QVERIFY(m_gateway->isRunning());
        QVERIFY(m_window->bannerText().isEmpty());
        QTRY_COMPARE(m_window->indicator(), GatewayIndicator::Running);
        auto traffic = sendTraffic(port(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(traffic.isFinished(), 30000);
        QCOMPARE(traffic.result(), QList<int>{200});
    }

    void openInChatPinsTheNode()
    {
        QAction *chat = menuAction(u"vllm-server2"_s, u"chatAction"_s);
        QVERIFY(chat && chat->isEnabled());
        chat->trigger();
        QCOMPARE(m_window->currentView(), MainWindow::View::Chat);
        QVERIFY(m_window->chatConsole());
        QTRY_COMPARE(m_window->chatConsole()->currentModel(), u"vllm-server2/nemotron-3-super"_s);
        QVERIFY(m_window->benchmarkView());
    }

    void replaceViewPutsAnotherViewInPlace()
    {
        m_window->showView(MainWindow::View::Config);
        auto *editor = new QLabel(u"config editor"_s);
        m_window->replaceView(MainWindow::View::Config, editor);
        QCOMPARE(m_window->currentView(), MainWindow::View::Config);
        QVERIFY(editor->isVisible());
        QCOMPARE(m_window->findChild<QTabWidget *>()->count(), 8); // … Chat, Benchmark, Gateways
        // The rest of the window carries on (applying a config updated the old placeholder before).
        m_window->applyConfig(m_config, u"demo"_s);
    }

    void gatewaysTabListsThisProcesssGateway()
    {
        // The fleet starts with the window's own gateway: its version and both demo nodes up.
        m_window->showView(MainWindow::View::Gateways);
        QCOMPARE(m_window->currentView(), MainWindow::View::Gateways);
        GatewaysModel *fleet = m_window->gatewaysView()->gatewaysModel();
        QCOMPARE(fleet->rowCount(), 1);
        QTRY_COMPARE(fleet->index(0, GatewaysModel::Version).data().toString(), QStringLiteral(SWITCHYARD_VERSION));
        QTRY_VERIFY(fleet->index(0, GatewaysModel::NodesUp).data().toString().startsWith(u"2"_s));
        QVERIFY(m_window->menuBar()->findChild<QAction *>(u"connectToGateway"_s));
    }

    void statusMessageCoversTheGatewayState()
    {
        // A temporary message hides the gateway state beside it. A status-bar label growing taller meanwhile
        // (the first CJK text in Chinese) makes QStatusBar lay its widgets out again, which used to show the
        // state again, drawn over the message.
        QStatusBar *bar = m_window->statusBar();
        QLabel *state = nullptr;
        QLabel *rates = nullptr;
        const auto find = [&] {
            for (QLabel *l : bar->findChildren<QLabel *>()) {
                if (l->text() == u"Gateway on"_s)
                    state = l;
                else if (l->text().contains(u"req/s"_s))
                    rates = l;
            }
            return state && rates;
        };
        QTRY_VERIFY(find()); // the rates come with the first sample
        QVERIFY(state->isVisible());
        bar->showMessage(u"Configuration applied: something"_s);
        QVERIFY(!state->isVisible());
        const int oneLine = rates->height();
        rates->setText(rates->text() + u"\nas tall as two lines"_s);
        // The layout request, then the re-layout's queued show: wait for the re-layout (the label grows),
        // then for an event queued after it, which arrives after anything the re-layout queued.
        QTRY_VERIFY(rates->height() > oneLine);
        bool flushed = false;
        QMetaObject::invokeMethod(this, [&flushed] { flushed = true; }, Qt::QueuedConnection);
        QTRY_VERIFY(flushed);
        QVERIFY(!state->isVisible());
        bar->clearMessage();
        QVERIFY(state->isVisible());
    }

    void listenChangeThatFailsKeepsTheOldAddress()
    {
        const QString before = m_gateway->listenUrl();
        QTcpServer blocker;
        QVERIFY(blocker.listen(QHostAddress::LocalHost, 0));
        config::GatewayConfig cfg = m_config;
        cfg.settings.listenPort = blocker.serverPort();
        m_window->applyConfig(cfg, u"demo"_s);
        QVERIFY(m_gateway->isRunning());
        QCOMPARE(m_gateway->listenUrl(), before);
        QVERIFY2(m_window->bannerText().contains(u"cannot be used"_s), qPrintable(m_window->bannerText()));
        QVERIFY(m_window->bannerText().contains(before));
        auto traffic = sendTraffic(port(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(traffic.isFinished(), 30000);
        QCOMPARE(traffic.result(), QList<int>{200});
    }

    void toggleFromMenuAndTray()
    {
        QAction *toggle = m_window->gatewayToggleAction();
        QVERIFY(m_window->trayMenu()->actions().contains(toggle));
        bool inMenuBar = false;
        for (QAction *menu : m_window->menuBar()->actions()) {
            if (menu->menu() && menu->menu()->actions().contains(toggle))
                inMenuBar = true;
        }
        QVERIFY(inMenuBar);
        QVERIFY(toggle->isChecked());

        QSignalSpy stopped(m_gateway.get(), &Gateway::stopped);
        toggle->trigger(); // as the tray menu does
        QTRY_COMPARE(stopped.size(), 1);
        QVERIFY(!m_gateway->isRunning());
        QTRY_COMPARE(m_window->indicator(), GatewayIndicator::Off);
        QVERIFY(!toggle->isChecked());
        if (m_window->trayIcon()) // only where the platform has a tray
            QVERIFY(!m_window->trayIcon()->icon().isNull());

        toggle->trigger();
        QVERIFY(m_gateway->isRunning());
        QVERIFY(toggle->isChecked());
        QTRY_COMPARE(m_window->indicator(), GatewayIndicator::Running);
    }

    void quitWithRequestsInFlightDrainsThem()
    {
        auto slow = sendTraffic(port(), 1, 40); // a few seconds at the demo's speed
        QTRY_VERIFY_WITH_TIMEOUT(m_gateway->snapshot().inFlight > 0, 10000);
        QSignalSpy finished(m_window.get(), &MainWindow::quitFinished);
        m_window->requestQuit();
        QMessageBox *box = nullptr;
        QTRY_VERIFY((box = m_window->findChild<QMessageBox *>(u"quitQuestion"_s)) && box->isVisible());
        QPushButton *drain = nullptr;
        for (QAbstractButton *b : box->buttons()) {
            if (b->text() == MainWindow::tr("Let them finish, then quit"))
                drain = qobject_cast<QPushButton *>(b);
        }
        QVERIFY(drain);
        drain->click();
        QTRY_VERIFY(m_gateway->isStopping() || !m_gateway->isRunning());
        QVERIFY(!m_window->gatewayToggleAction()->isEnabled() || !m_gateway->isRunning());
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(slow.isFinished(), 10000);
        QCOMPARE(slow.result(), QList<int>{200}); // finished, not cut
        QVERIFY(!m_window->isVisible());
    }

    void geometryIsRemembered()
    {
        m_window->resize(1000, 700);
        m_window->showView(MainWindow::View::Requests);
        QSignalSpy finished(m_window.get(), &MainWindow::quitFinished);
        m_window->requestQuit(); // nothing in flight, but the gateway stops with the panel: asked
        QMessageBox *box = nullptr;
        QTRY_VERIFY((box = m_window->findChild<QMessageBox *>(u"quitQuestion"_s)) && box->isVisible());
        box->findChild<QPushButton *>(u"quitButton"_s)->click();
        QTRY_COMPARE(finished.size(), 1);
        QVERIFY(QSettings().contains(u"window/geometry"_s));

        Gateway other;
        MainWindow again(&other);
        QCOMPARE(again.size(), QSize(1000, 700));
        QCOMPARE(again.currentView(), MainWindow::View::Requests);
    }
};

QTEST_MAIN(TestPanelSmoke)
#include "tst_panelsmoke.moc"
