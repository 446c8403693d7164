// The main window around its own gateway, as an operator meets it: a banner over every view while the
// gateway is off or paused (with the button that fixes it) and nodes that do not look as if they were
// serving; the question before quitting stops a running gateway (with requests in flight through it, a
// real slow stream via the demo's simulated nodes); Ctrl+Tab between the tabs; the Nodes view's toolbar
// acting on the selected node; Help ▸ Documentation; no developer's lag number in the status bar.
#include "common/testhttpclient.h"
#include "config/configloader.h"
#include "demofleet.h"
#include "gateway.h"
#include "helpdocs.h"
#include "mainwindow.h"
#include "nodesmodel.h"
#include "nodesview.h"
#include "settingsdialog.h"
#include "simnode/simnode.h"
#include "testscreenshot.h"

#include <QAction>
#include <QDesktopServices>
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QToolBar>
#include <QToolButton>
#include <QtConcurrent>

#include <memory>

using namespace switchyard;
using namespace switchyard::ui;
using switchyard::testing::saveScreenshot;
using namespace Qt::Literals::StringLiterals;

namespace {

// The demo's two simulated nodes behind this process's gateway, and the window on it (not started).
struct Panel
{
    app::DemoFleet fleet;
    Gateway gateway;
    std::unique_ptr<MainWindow> window;
    QString historyPath; // switchyard.history.path, when set before setUp()

    bool setUp()
    {
        const auto json = fleet.start();
        if (!json)
            return false;
        auto cfg = config::parseConfig(*json);
        if (!cfg)
            return false;
        cfg->settings.listenPort = 0;
        cfg->settings.workerThreads = 2;
        cfg->settings.history.path = historyPath;
        window = std::make_unique<MainWindow>(&gateway);
        window->setDemoNodes(fleet.nodes());
        window->applyConfig(*cfg, u"demo"_s);
        window->resize(1280, 800);
        return true;
    }
    NodesModel *nodes() const { return window->nodesView()->model(); }
    ~Panel()
    {
        window.reset();
        gateway.stopNow();
    }
};

// A stream slow enough to stay in flight while the test looks (the demo's nodes stream a few dozen
// tokens a second), from a pool thread so the GUI thread keeps running.
QFuture<int> slowStream(quint16 port)
{
    return QtConcurrent::run([port] {
        return testing::request(port, "POST", "/v1/chat/completions",
                                testing::chatBody("nemotron-3-super", 400, true), 60000)
            .status;
    });
}

QString stateText(NodesModel *nodes, const QString &node)
{
    return nodes->index(nodes->rowOf(node), NodesModel::State).data().toString();
}

} // namespace

// Receives what QDesktopServices would open (Help ▸ Documentation).
class UrlCatcher final : public QObject
{
    Q_OBJECT

public:
    QList<QUrl> opened;

public slots:
    void open(const QUrl &url) { opened << url; }
};

class TestMainWindowGateway final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    // A history file that cannot be opened: the gateway serves on, and the window says why once.
    void aHistoryThatCannotBeOpenedIsANote()
    {
        QTemporaryDir dir;
        QFile blocker(dir.filePath(u"notadir"_s));
        QVERIFY(blocker.open(QIODevice::WriteOnly)); // a file where the history's directory should be
        blocker.close();
        Panel panel;
        panel.historyPath = dir.filePath(u"notadir/history.db"_s);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"no lasting history"_s));
        QVERIFY(panel.setUp());
        panel.window->show();
        QTRY_VERIFY_WITH_TIMEOUT(panel.window->bannerText().startsWith(u"Request history:"_s), 10000);
        QVERIFY(panel.window->bannerText().contains(panel.historyPath));
    }

    void bannerWhileTheGatewayIsOffOrPaused()
    {
        Panel panel;
        QVERIFY(panel.setUp());
        MainWindow &window = *panel.window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_COMPARE_WITH_TIMEOUT(panel.nodes()->rowCount(), 2, 10000);

        // Off: the banner says so and since when, the nodes are not shown as serving, nothing says green.
        QVERIFY(!panel.gateway.isRunning());
        QTRY_VERIFY(window.gatewayBanner()->isVisible());
        QCOMPARE(window.gatewayBanner()->outage(), GatewayOutage::Off);
        QVERIFY2(window.gatewayBannerText().contains(u"The gateway is off (since "_s),
                 qPrintable(window.gatewayBannerText()));
        QPushButton *action = window.gatewayBanner()->actionButton();
        QVERIFY(action->isVisible());
        QCOMPARE(action->text(), GatewayBanner::tr("Start gateway"));
        QVERIFY(window.nodesView()->isVisible());
        QTRY_VERIFY(panel.nodes()->trafficNote().contains(u"not receiving traffic"_s, Qt::CaseInsensitive));
        QTRY_VERIFY2(stateText(panel.nodes(), u"vllm-server1"_s).contains(u"no traffic"_s),
                     qPrintable(stateText(panel.nodes(), u"vllm-server1"_s)));
        const QModelIndex state = panel.nodes()->index(0, NodesModel::State);
        QCOMPARE(panel.nodes()->data(state, Qt::ForegroundRole).value<QColor>(), QColor(128, 128, 128));
        QVERIFY(panel.nodes()->data(state, Qt::ToolTipRole).toString().contains(u"gateway is off"_s));
        QVERIFY(window.nodesView()->detail()->toPlainText().contains(u"Not receiving traffic"_s));
        QTRY_COMPARE(window.indicator(), GatewayIndicator::Off);
        QVERIFY(!window.statusText().contains(u"Gateway on"_s));
        // Every view: it sits above the tabs, so it stays on another tab.
        window.showView(MainWindow::View::Charts);
        QVERIFY(window.gatewayBanner()->isVisible());
        window.showView(MainWindow::View::Nodes);
        window.nodesView()->selectNode(u"vllm-server1"_s);
        saveScreenshot(window, u"nodes-gateway-off.png"_s);

        // The banner's button starts it: the banner goes, the nodes take traffic again.
        QTest::mouseClick(action, Qt::LeftButton);
        QVERIFY(panel.gateway.isRunning());
        QTRY_VERIFY(!window.gatewayBanner()->isVisible());
        QVERIFY(window.gatewayBannerText().isEmpty());
        QTRY_VERIFY(panel.nodes()->trafficNote().isEmpty());
        QTRY_VERIFY(!stateText(panel.nodes(), u"vllm-server1"_s).contains(u"no traffic"_s));

        // Paused (as POST /api/gateway/pause does): the banner says paused and offers Resume.
        panel.gateway.setPaused(true);
        QTRY_VERIFY(window.gatewayBanner()->isVisible());
        QCOMPARE(window.gatewayBanner()->outage(), GatewayOutage::Paused);
        QVERIFY2(window.gatewayBannerText().contains(u"paused"_s), qPrintable(window.gatewayBannerText()));
        QCOMPARE(action->text(), GatewayBanner::tr("Resume"));
        QTRY_VERIFY(panel.nodes()->trafficNote().contains(u"paused"_s));
        QTRY_COMPARE(window.indicator(), GatewayIndicator::Paused);
        saveScreenshot(window, u"nodes-gateway-paused.png"_s);
        QTest::mouseClick(action, Qt::LeftButton);
        QVERIFY(!panel.gateway.isPaused());
        QTRY_VERIFY(!window.gatewayBanner()->isVisible());

        // Switched off with the toggle: back, with the same words.
        QSignalSpy stopped(&panel.gateway, &Gateway::stopped);
        window.gatewayToggleAction()->trigger();
        QTRY_COMPARE(stopped.size(), 1);
        QTRY_VERIFY(window.gatewayBanner()->isVisible());
        QVERIFY(window.gatewayBannerText().contains(u"The gateway is off"_s));
    }

    void quitAsksWhileRequestsAreInFlight()
    {
        Panel panel;
        QVERIFY(panel.setUp());
        MainWindow &window = *panel.window;
        QVERIFY(window.startGateway());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto stream = slowStream(panel.gateway.port());
        QTRY_VERIFY_WITH_TIMEOUT(panel.gateway.snapshot().inFlight > 0, 10000);

        QSignalSpy finished(&window, &MainWindow::quitFinished);
        window.close(); // the window's close button asks the same as File ▸ Quit
        QMessageBox *box = nullptr;
        QTRY_VERIFY((box = window.findChild<QMessageBox *>(u"quitQuestion"_s)) && box->isVisible());
        QVERIFY2(box->text().contains(u"stops with the panel"_s), qPrintable(box->text()));
        QVERIFY2(box->text().contains(u"in flight through it: 1."_s), qPrintable(box->text()));
        QVERIFY2(box->informativeText().contains(u"switchyard --headless"_s), qPrintable(box->informativeText()));
        QVERIFY(box->findChild<QPushButton *>(u"quitNowButton"_s));
        saveScreenshot(window, u"quit-question.png"_s, box);

        // Cancel: nothing happens, the stream goes on.
        box->button(QMessageBox::Cancel)->click();
        QTRY_VERIFY(!window.findChild<QMessageBox *>(u"quitQuestion"_s));
        QCOMPARE(finished.size(), 0);
        QVERIFY(window.isVisible());
        QVERIFY(panel.gateway.isRunning());
        QVERIFY(!stream.isFinished());

        // Quit now cuts it and the panel goes.
        window.requestQuit();
        QTRY_VERIFY((box = window.findChild<QMessageBox *>(u"quitQuestion"_s)) && box->isVisible());
        box->findChild<QPushButton *>(u"quitNowButton"_s)->click();
        QTRY_COMPARE(finished.size(), 1);
        QVERIFY(!panel.gateway.isRunning());
        QTRY_VERIFY_WITH_TIMEOUT(stream.isFinished(), 30000);
    }

    void quitAsksWhileTheGatewayRunsIdle()
    {
        Panel panel;
        QVERIFY(panel.setUp());
        MainWindow &window = *panel.window;
        QVERIFY(window.startGateway());
        window.show();
        QSignalSpy finished(&window, &MainWindow::quitFinished);
        window.requestQuit();
        QMessageBox *box = nullptr;
        QTRY_VERIFY((box = window.findChild<QMessageBox *>(u"quitQuestion"_s)) && box->isVisible());
        QVERIFY(box->text().contains(u"stops with the panel"_s));
        QVERIFY(!box->text().contains(u"in flight"_s));
        QVERIFY(!box->findChild<QPushButton *>(u"quitNowButton"_s));
        box->findChild<QPushButton *>(u"quitButton"_s)->click();
        QTRY_COMPARE(finished.size(), 1);
        QVERIFY(!panel.gateway.isRunning());
    }

    void quitDoesNotAskWhenTheGatewayIsOff()
    {
        Panel panel;
        QVERIFY(panel.setUp());
        MainWindow &window = *panel.window;
        window.show();
        QSignalSpy finished(&window, &MainWindow::quitFinished);
        window.requestQuit();
        QCOMPARE(finished.size(), 1);
        QVERIFY(!window.findChild<QMessageBox *>(u"quitQuestion"_s));
    }

    void ctrlTabSwitchesTabs()
    {
        Panel panel;
        QVERIFY(panel.setUp());
        MainWindow &window = *panel.window;
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        window.showView(MainWindow::View::Nodes);
        // From inside a view (the nodes table has the focus), as an operator would press it.
        QTableView *table = window.nodesView()->table();
        table->setFocus();
        QTest::keyClick(table, Qt::Key_Tab, Qt::ControlModifier);
        QCOMPARE(window.currentView(), MainWindow::View::Charts);
        QTest::keyClick(QApplication::focusWidget() ? QApplication::focusWidget() : &window, Qt::Key_Tab,
                        Qt::ControlModifier);
        QCOMPARE(window.currentView(), MainWindow::View::Requests);
        QTest::keyClick(QApplication::focusWidget() ? QApplication::focusWidget() : &window, Qt::Key_Backtab,
                        Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(window.currentView(), MainWindow::View::Charts);
        // Around the end.
        window.showView(MainWindow::View::Nodes);
        QTest::keyClick(&window, Qt::Key_Backtab, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(window.currentView(), MainWindow::View::Gateways);
    }

    void nodesToolbarActsOnTheSelectedNode()
    {
        Panel panel;
        QVERIFY(panel.setUp());
        MainWindow &window = *panel.window;
        QVERIFY(window.startGateway());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        NodesModel *nodes = panel.nodes();
        QTRY_COMPARE_WITH_TIMEOUT(nodes->rowCount(), 2, 10000);
        QToolBar *bar = window.nodesView()->toolBar();
        QVERIFY(bar->isVisible());
        QAction *drain = bar->findChild<QAction *>(u"toolbarDrainAction"_s);
        QAction *probe = bar->findChild<QAction *>(u"toolbarProbeAction"_s);
        QVERIFY(drain && probe);

        window.nodesView()->selectNode(u"vllm-server2"_s);
        QTRY_VERIFY(drain->isEnabled());
        QCOMPARE(drain->text(), NodesView::tr("&Drain"));
        QTest::mouseClick(bar->widgetForAction(drain), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(nodes->node(nodes->rowOf(u"vllm-server2"_s))->status.draining, 10000);
        QTRY_COMPARE(drain->text(), NodesView::tr("&Enable"));
        QVERIFY(!nodes->node(nodes->rowOf(u"vllm-server1"_s))->status.draining);
        saveScreenshot(window, u"nodes-toolbar.png"_s);
        QTest::mouseClick(bar->widgetForAction(drain), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!nodes->node(nodes->rowOf(u"vllm-server2"_s))->status.draining, 10000);

        // Probe: the node is checked again now (its last check moves).
        const qint64 checked = nodes->node(nodes->rowOf(u"vllm-server2"_s))->status.lastCheckMsSinceEpoch;
        QTRY_VERIFY(probe->isEnabled());
        probe->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(nodes->node(nodes->rowOf(u"vllm-server2"_s))->status.lastCheckMsSinceEpoch > checked,
                                 10000);

        // The demo's faults, from the toolbar's drop-down.
        auto *faultButton = bar->findChild<QToolButton *>(u"toolbarFaultButton"_s);
        QVERIFY(faultButton && faultButton->isVisible() && faultButton->isEnabled());
        QMenu *faults = faultButton->menu();
        emit faults->aboutToShow();
        QAction *error500 = faults->findChild<QAction *>(u"fault-error500"_s);
        QVERIFY(error500);
        error500->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(panel.fleet.node(u"vllm-server2"_s)->fault(), sim::FaultMode::Error500, 10000);
        QCOMPARE(panel.fleet.node(u"vllm-server1"_s)->fault(), sim::FaultMode::Healthy);
    }

    void helpOpensTheDocumentation()
    {
        Panel panel;
        QVERIFY(panel.setUp());
        UrlCatcher catcher;
        QDesktopServices::setUrlHandler(u"https"_s, &catcher, "open");
        QDesktopServices::setUrlHandler(u"file"_s, &catcher, "open");
        QAction *docs = panel.window->findChild<QAction *>(u"documentationAction"_s);
        QVERIFY(docs);
        docs->trigger();
        QDesktopServices::unsetUrlHandler(u"https"_s);
        QDesktopServices::unsetUrlHandler(u"file"_s);
        QCOMPARE(catcher.opened, QList<QUrl>{MainWindow::documentationUrl()});
        // A build of the source tree opens the README it came with, not a web page (offline servers).
        QVERIFY2(MainWindow::documentationUrl().isLocalFile(), qPrintable(MainWindow::documentationUrl().toString()));
        QVERIFY(MainWindow::documentationUrl().toLocalFile().endsWith(u"/README.md"_s));

        // The installed guide wins over anything else; with none found, the web page.
        QTemporaryDir dir;
        const QString installed = dir.filePath(u"README.md"_s);
        QFile f(installed);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        QCOMPARE(documentationUrlFrom({dir.filePath(u"missing.md"_s), installed}), QUrl::fromLocalFile(installed));
        QCOMPARE(documentationUrlFrom({dir.filePath(u"missing.md"_s)}).scheme(), u"https"_s);

        // About: the application's icon (not a generic one), and the documentation's address.
        panel.window->findChild<QAction *>(u"aboutAction"_s)->trigger();
        QMessageBox *about = nullptr;
        QTRY_VERIFY((about = panel.window->findChild<QMessageBox *>(u"aboutBox"_s)));
        QVERIFY(!about->iconPixmap().isNull());
        QVERIFY(about->text().contains(MainWindow::documentationUrl().toString()));
        about->close();
    }

    void statusBarHasNoLagProbe()
    {
        Panel panel;
        QVERIFY(panel.setUp());
        for (QLabel *l : panel.window->statusBar()->findChildren<QLabel *>())
            QVERIFY2(!l->text().contains(u"lag"_s, Qt::CaseInsensitive), qPrintable(l->text()));
        QVERIFY(!panel.window->findChild<QLabel *>(u"eventLoopLag"_s));
    }

    void settingsNameTheSystemLanguage()
    {
        QCOMPARE(SettingsDialog::systemEntryText(QLocale::c()), SettingsDialog::tr("System (%1)").arg(u"English"_s));
        QVERIFY(!SettingsDialog::systemEntryText(QLocale::c()).contains(u"()"_s));
        QVERIFY(SettingsDialog::systemEntryText(QLocale(QLocale::German)).contains(u"Deutsch"_s));
    }
};

QTEST_MAIN(TestMainWindowGateway)
#include "tst_mainwindowgateway.moc"
