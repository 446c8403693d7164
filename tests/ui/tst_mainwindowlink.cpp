// The main window over a GatewayLink: what the Nodes view, the Requests view and the status bar show is
// what the link reports (a LocalGatewayLink over a real gateway in this process, with the demo's
// simulated nodes and real traffic over loopback), and a remote-style link's state and commands (a small
// stand-in for a remote link: a gateway it cannot reach, its toggle pausing it, node actions).
#include "chartsview.h"
#include "common/testhttpclient.h"
#include "config/codeeditor.h"
#include "config/configeditor.h"
#include "config/configloader.h"
#include "config/remoteconfig.h"
#include "demofleet.h"
#include "gateway.h"
#include "link/localgatewaylink.h"
#include "mainwindow.h"
#include "nodesmodel.h"
#include "nodesview.h"
#include "nodestate.h"
#include "remote/remotegatewaylink.h"
#include "requestsmodel.h"
#include "requestsview.h"
#include "bench/benchmarkview.h"
#include "chat/chatconsole.h"
#include "upstream/pinnedcertificate.h"
#include "ui/testscreenshot.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QPlainTextEdit>
#include <QProcess>
#include <QTemporaryDir>
#include <nlohmann/json.hpp>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QToolBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTextBrowser>
#include <QtConcurrent>

#include <memory>

using namespace switchyard;
using namespace switchyard::ui;
using switchyard::testing::saveScreenshot;
using namespace Qt::Literals::StringLiterals;

namespace {

// A remote gateway as a link would report it: the test sets what it says and records what it is asked.
class FakeRemoteLink final : public link::GatewayLink
{
    Q_OBJECT

public:
    using GatewayLink::GatewayLink;

    QString displayName() const override { return u"http://gw.example:8080"_s; }
    bool isRemote() const override { return true; }
    QUrl apiUrl() const override { return QUrl(u"http://gw.example:8080"_s); }
    QString clientKey() const override { return {}; }
    void start() override { ++starts; }
    void stop() override { }
    link::LinkStatus linkStatus() const override { return m_linkStatus; }
    std::optional<link::GatewayStatus> status() const override { return m_status; }
    void fetchRequests(quint64 afterCursor, int max) override { requestReads << qMakePair(afterCursor, max); }
    void fetchHistory(const QString &series, int) override { historyReads << series; }
    void fetchConfig() override { ++configReads; }
    void putConfig(const QByteArray &text, const QString &ifMatch) override { puts << qMakePair(text, ifMatch); }
    void nodeAction(const QString &node, link::NodeAction action) override { actions << qMakePair(node, action); }
    void setAccepting(bool accepting) override { accepts << accepting; }

    void report(const link::GatewayStatus &s)
    {
        m_status = s;
        emit statusChanged(s);
    }
    void reportLink(link::LinkState state, const QString &reason = {})
    {
        m_linkStatus.state = state;
        m_linkStatus.reason = reason;
        emit linkStatusChanged(m_linkStatus);
    }

    int starts = 0;
    int configReads = 0;
    QList<QPair<QByteArray, QString>> puts;
    QList<bool> accepts;
    QList<QPair<QString, link::NodeAction>> actions;
    QList<QPair<quint64, int>> requestReads;
    QStringList historyReads;

private:
    link::LinkStatus m_linkStatus;
    std::optional<link::GatewayStatus> m_status;
};

link::GatewayStatus remoteStatus(bool accepting)
{
    link::GatewayStatus s;
    s.running = true;
    s.accepting = accepting;
    s.listenUrl = u"http://0.0.0.0:8080"_s;
    s.rates.requestsPerSecond = 12.5;
    link::NodeStatus n;
    n.name = u"vllm-server1"_s;
    n.baseUrl = u"http://10.0.0.1:8000"_s;
    n.state = health::NodeState::Healthy;
    n.attempts = 40;
    s.nodes << n;
    return s;
}

// Requests from a pool thread, so the GUI thread keeps running its event loop (and the panel updates).
QFuture<QList<int>> sendTraffic(quint16 port, int count, const QByteArray &model = "nemotron-3-super")
{
    return QtConcurrent::run([=] {
        QList<int> statuses;
        for (int i = 0; i < count; ++i)
            statuses << testing::request(port, "POST", "/v1/chat/completions", testing::chatBody(model, 8, false), 30000)
                            .status;
        return statuses;
    });
}

} // namespace

class TestMainWindowLink final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void viewsShowWhatTheLocalLinkReports()
    {
        app::DemoFleet fleet;
        const auto json = fleet.start();
        QVERIFY2(json, qPrintable(json ? QString() : json.error()));
        auto cfg = config::parseConfig(*json);
        QVERIFY(cfg);
        cfg->settings.listenPort = 0;
        cfg->settings.workerThreads = 2;
        Gateway gateway;
        link::LocalGatewayLink localLink(&gateway);
        MainWindow window(&localLink, &gateway, nullptr);
        QAbstractItemModelTester nodesTester(window.nodesView()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester requestsTester(window.requestsView()->filter(),
                                                QAbstractItemModelTester::FailureReportingMode::QtTest);
        window.setDemoNodes(fleet.nodes());
        window.applyConfig(*cfg, u"demo"_s);
        QVERIFY(window.startGateway());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.windowTitle().contains(localLink.displayName()));
        QVERIFY(window.statusText().contains(localLink.displayName()));

        // Traffic, and one node answering 500 to requests pinned to it: the link's status and the views
        // agree on every node.
        fleet.node(u"vllm-server2"_s)->setFault(sim::FaultMode::Error500);
        auto traffic = sendTraffic(gateway.port(), 4);
        auto pinned = sendTraffic(gateway.port(), 2, "vllm-server2/nemotron-3-super");
        QTRY_VERIFY_WITH_TIMEOUT(traffic.isFinished() && pinned.isFinished(), 60000);
        QCOMPARE(traffic.result(), QList<int>(4, 200));
        QVERIFY(pinned.result().first() >= 500);
        NodesModel *nodes = window.nodesView()->model();
        QTRY_VERIFY_WITH_TIMEOUT(localLink.status() && localLink.status()->requestsTotal >= 6, 10000);
        const auto agrees = [&] {
            const link::GatewayStatus s = *localLink.status();
            if (nodes->rowCount() != s.nodes.size())
                return false;
            for (const link::NodeStatus &n : s.nodes) {
                const NodeRow *row = nodes->node(nodes->rowOf(n.name));
                if (!row || row->status.state != n.state || row->status.attempts != n.attempts
                    || nodes->index(nodes->rowOf(n.name), NodesModel::State).data().toString() != nodeStateText(n.state))
                    return false;
            }
            return true;
        };
        QTRY_VERIFY(agrees());
        // The failed attempts of vllm-server2 are its recent errors (a filter of the request log).
        window.nodesView()->selectNode(u"vllm-server2"_s);
        QTRY_VERIFY(!nodes->node(nodes->rowOf(u"vllm-server2"_s))->recentErrors.isEmpty());
        QVERIFY(nodes->node(nodes->rowOf(u"vllm-server1"_s))->recentErrors.isEmpty());
        QVERIFY2(window.nodesView()->detail()->toPlainText().contains(u"500"_s),
                 qPrintable(window.nodesView()->detail()->toPlainText()));
        // …also those the gateway failed over to vllm-server1, whose clients got their answer.
        const auto failedOver = [&] {
            const QList<stats::RequestRecord> errors = nodes->node(nodes->rowOf(u"vllm-server2"_s))->recentErrors;
            return std::any_of(errors.begin(), errors.end(),
                               [](const stats::RequestRecord &r) { return r.error.contains(u"failed over"_s); });
        };
        QTRY_VERIFY(failedOver());

        // The Requests view holds what the gateway's request log holds, row for row.
        RequestsModel *requests = window.requestsView()->model();
        QTRY_COMPARE(requests->rowCount(), int(gateway.stats().recent().latest(1000).size()));
        const auto log = gateway.stats().recent().latest(1000);
        QCOMPARE(requests->rowCount(), int(log.size()));
        for (int i = 0; i < requests->rowCount(); ++i) {
            QCOMPARE(requests->record(i)->path, log[i].path);
            QCOMPARE(requests->record(i)->node, log[i].node);
            QCOMPARE(requests->record(i)->status, log[i].status);
        }

        // The status bar: the link's rates and the listen URL.
        QTRY_VERIFY(window.statusText().contains(u"req/s"_s));
        QVERIFY(window.statusText().contains(gateway.listenUrl()));
        // The tray follows the link too: the node answering 500 is out of the pool (down).
        QTRY_COMPARE(window.indicator(), gatewayIndicator(localLink.status(), localLink.linkStatus(), false));
        QVERIFY(window.indicator() == GatewayIndicator::NodeDown || window.indicator() == GatewayIndicator::Degraded);
        saveScreenshot(window, u"mainwindow-local.png"_s);

        // The Requests tab with a failed-over request selected: its detail lists both nodes.
        auto *tabs = window.findChild<QTabWidget *>(u"views"_s);
        QVERIFY(tabs);
        tabs->setCurrentWidget(window.requestsView());
        RequestsFilterModel *shown = window.requestsView()->filter();
        int failoverRow = -1;
        for (int i = 0; i < shown->rowCount() && failoverRow < 0; ++i) {
            const stats::RequestRecord *r = requests->record(shown->mapToSource(shown->index(i, 0)).row());
            if (r->attempts == 2 && r->status == 200)
                failoverRow = i;
        }
        QVERIFY(failoverRow >= 0);
        window.requestsView()->table()->setCurrentIndex(shown->index(failoverRow, 0));
        const QString detail = window.requestsView()->detail()->toPlainText();
        QVERIFY2(detail.contains(u"1. vllm-server2: failed: HTTP 500"_s), qPrintable(detail));
        QVERIFY2(detail.contains(u"2. vllm-server1: answered 200"_s), qPrintable(detail));
        saveScreenshot(window, u"requests-failover.png"_s, QSize(1280, 800));
        tabs->setCurrentWidget(window.chartsView());
        QVERIFY(window.chartsView()->series(u"requests/failed-attempts"_s));
        saveScreenshot(window, u"charts.png"_s, QSize(1280, 800));
    }

    void remoteLinkToARealGateway()
    {
        // A gateway on loopback (its management API open there without keys), seen the way
        // switchyard --connect sees it: over HTTP through a RemoteGatewayLink.
        app::DemoFleet fleet;
        const auto json = fleet.start();
        QVERIFY(json);
        auto cfg = config::parseConfig(*json);
        QVERIFY(cfg);
        cfg->settings.listenPort = 0;
        cfg->settings.workerThreads = 2;
        Gateway gateway;
        gateway.applyConfig(*cfg);
        const auto url = gateway.start();
        QVERIFY2(url, qPrintable(url ? QString() : url.error()));
        client::RemoteLinkOptions options;
        options.url = QUrl(*url);
        client::RemoteGatewayLink remote(options);
        MainWindow window(&remote, nullptr, nullptr);
        QVERIFY(window.isRemote());
        QVERIFY(window.windowTitle().contains(remote.displayName()));
        NodesModel *nodes = window.nodesView()->model();
        QTRY_COMPARE_WITH_TIMEOUT(nodes->rowCount(), 2, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(nodes->node(nodes->rowOf(u"vllm-server1"_s))->status.state == health::NodeState::Healthy,
                                 10000);
        QCOMPARE(remote.linkStatus().state, link::LinkState::Connected);

        // Requests through the gateway show up in the remote panel's log.
        auto traffic = sendTraffic(gateway.port(), 3);
        QTRY_VERIFY_WITH_TIMEOUT(traffic.isFinished(), 60000);
        RequestsModel *requests = window.requestsView()->model();
        const auto chats = [requests] {
            int n = 0;
            for (int i = 0; i < requests->rowCount(); ++i)
                n += requests->record(i)->path == "/v1/chat/completions";
            return n;
        };
        QTRY_COMPARE_WITH_TIMEOUT(chats(), 3, 10000);

        // The toggle pauses and resumes it; drain goes over the API too.
        QTRY_VERIFY(window.gatewayToggleAction()->isEnabled());
        window.gatewayToggleAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(gateway.isPaused(), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(window.indicator(), GatewayIndicator::Paused, 10000);
        window.gatewayToggleAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!gateway.isPaused(), 10000);
        window.setNodeDraining(u"vllm-server2"_s, true);
        QTRY_VERIFY_WITH_TIMEOUT(nodes->node(nodes->rowOf(u"vllm-server2"_s))->status.draining, 10000);
        saveScreenshot(window, u"mainwindow-remote.png"_s);
    }

    // A remote gateway serving HTTPS with a self-signed certificate (made here by openssl): once the
    // operator trusts it (the link's pin, set after the window opened, as the certificate question does),
    // the chat console and the benchmark reach the gateway with the same pin.
    void pinnedHttpsGatewayReachesChatAndBenchmark()
    {
        if (QStandardPaths::findExecutable(u"openssl"_s).isEmpty())
            QSKIP("the openssl command is not installed: it makes this test's self-signed certificate");
        QTemporaryDir dir;
        const QString cert = dir.filePath(u"cert.pem"_s), key = dir.filePath(u"key.pem"_s);
        QProcess openssl;
        openssl.start(u"openssl"_s, {u"req"_s, u"-x509"_s, u"-newkey"_s, u"ec"_s, u"-pkeyopt"_s,
                                     u"ec_paramgen_curve:prime256v1"_s, u"-nodes"_s, u"-keyout"_s, key, u"-out"_s, cert,
                                     u"-days"_s, u"2"_s, u"-subj"_s, u"/CN=switchyard-panel-test"_s});
        QVERIFY(openssl.waitForFinished(60000) && openssl.exitCode() == 0);

        app::DemoFleet fleet;
        const auto demo = fleet.start();
        QVERIFY(demo);
        auto doc = nlohmann::json::parse(demo->toStdString());
        doc["switchyard"]["listen"] = "127.0.0.1:0";
        doc["switchyard"]["worker_threads"] = 2;
        doc["switchyard"]["tls"] = {{"cert_file", cert.toStdString()}, {"key_file", key.toStdString()}};
        auto cfg = config::parseConfig(QByteArray::fromStdString(doc.dump()));
        QVERIFY2(cfg, qPrintable(cfg ? QString() : cfg.error().front().toString()));
        Gateway gateway;
        gateway.applyConfig(*cfg);
        const auto url = gateway.start();
        QVERIFY2(url && url->startsWith(u"https://"_s), qPrintable(url ? *url : url.error()));

        client::RemoteLinkOptions options;
        options.url = QUrl(*url);
        client::RemoteGatewayLink remote(options);
        MainWindow window(&remote, nullptr, nullptr);
        QTRY_COMPARE_WITH_TIMEOUT(remote.linkStatus().state, link::LinkState::Unreachable, 10000);
        QVERIFY(window.chatConsole()->availableModels().isEmpty());

        const QByteArray pin = upstream::leafSha256(cfg->settings.tls.certificateChain);
        QCOMPARE(pin.size(), 32);
        remote.setPinnedSha256(pin);
        QTRY_COMPARE_WITH_TIMEOUT(remote.linkStatus().state, link::LinkState::Connected, 10000);
        // The console lists the gateway's models over HTTPS, which it can only with the pin.
        window.chatConsole()->refreshModels();
        QTRY_VERIFY_WITH_TIMEOUT(window.chatConsole()->availableModels().contains(u"nemotron-3-super"_s), 10000);
        bool benchPinned = false;
        for (const bench::Target &t : window.benchmarkView()->currentPlan().targets)
            benchPinned |= t.baseUrl == *url && t.pinnedSha256 == pin;
        QVERIFY(benchPinned);
    }

    // The gateway's history writer fell behind the disk and dropped records (the requests were served):
    // the window says how many whenever the count grows, and counts anew for another gateway process.
    void droppedHistoryRecordsAreANote()
    {
        FakeRemoteLink remote;
        MainWindow window(&remote, nullptr, nullptr);
        window.show();
        remote.reportLink(link::LinkState::Connected);
        link::GatewayStatus s = remoteStatus(true);
        remote.report(s);
        QVERIFY(window.bannerText().isEmpty());

        s.historyDropped = 12;
        remote.report(s);
        QVERIFY2(window.bannerText().contains(u"Request history: 12 record"_s), qPrintable(window.bannerText()));
        QVERIFY(window.bannerText().contains(u"requests themselves were served"_s));
        s.historyDropped = 40;
        remote.report(s);
        QVERIFY2(window.bannerText().contains(u": 40 record"_s), qPrintable(window.bannerText()));
        saveScreenshot(window, u"mainwindow-history-dropped.png"_s);

        // Dismissed: not shown again for the same count, shown again when it grows.
        window.hideBanner();
        remote.report(s);
        QVERIFY(window.bannerText().isEmpty());
        s.historyDropped = 41;
        remote.report(s);
        QVERIFY(window.bannerText().contains(u": 41 record"_s));

        // A lower count is another gateway process (restarted): nothing new until that one drops records.
        window.hideBanner();
        s.historyDropped = 3;
        remote.report(s);
        QVERIFY(window.bannerText().isEmpty());
        s.historyDropped = 5;
        remote.report(s);
        QVERIFY(window.bannerText().contains(u": 5 record"_s));
    }

    void unreachableRemoteShowsInTheStatusBar()
    {
        FakeRemoteLink remote;
        MainWindow window(&remote, nullptr, nullptr);
        QCOMPARE(remote.starts, 1);
        QVERIFY(window.isRemote());
        QVERIFY(window.windowTitle().contains(u"http://gw.example:8080"_s));
        QVERIFY(window.statusText().contains(u"http://gw.example:8080"_s));
        QCOMPARE(window.indicator(), GatewayIndicator::Connecting);

        remote.reportLink(link::LinkState::Connected);
        remote.report(remoteStatus(true));
        QCOMPARE(window.indicator(), GatewayIndicator::Running);
        QCOMPARE(window.nodesView()->model()->rowCount(), 1);
        QVERIFY(window.statusText().contains(u"12.5 req/s"_s));
        QVERIFY(!remote.requestReads.isEmpty()); // the request log follows each status
        QCOMPARE(remote.requestReads.first().first, 0u);

        remote.reportLink(link::LinkState::Unreachable, u"connection refused"_s);
        QCOMPARE(window.indicator(), GatewayIndicator::Unreachable);
        QVERIFY2(window.statusText().contains(u"Unreachable: connection refused"_s), qPrintable(window.statusText()));
        // The banner over every view says so (since its last answer), and node actions wait for it.
        QVERIFY2(window.gatewayBannerText().contains(u"connection refused"_s), qPrintable(window.gatewayBannerText()));
        QVERIFY(window.gatewayBannerText().contains(u"cannot see the gateway"_s));
        QCOMPARE(window.gatewayBanner()->outage(), GatewayOutage::Unseen);
        QVERIFY(!window.gatewayBanner()->actionButton()->isVisibleTo(window.gatewayBanner()));
        window.nodesView()->selectNode(u"vllm-server1"_s);
        QVERIFY(!window.nodesView()->toolBar()->findChild<QAction *>(u"toolbarDrainAction"_s)->isEnabled());
        QVERIFY(!window.gatewayToggleAction()->isEnabled()); // nothing to pause while it cannot be reached
        // The nodes it reported last are not shown as healthy while it cannot be seen.
        NodesModel *nodes = window.nodesView()->model();
        QVERIFY(nodes->isStale());
        const QModelIndex state = nodes->index(0, NodesModel::State);
        QVERIFY(nodes->data(state, Qt::ForegroundRole).isValid());
        QVERIFY2(nodes->data(state, Qt::ToolTipRole).toString().contains(u"connection refused"_s),
                 qPrintable(nodes->data(state, Qt::ToolTipRole).toString()));

        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        saveScreenshot(window, u"mainwindow-unreachable.png"_s);

        remote.reportLink(link::LinkState::Unauthorized, u"401: invalid admin key"_s);
        QVERIFY2(window.statusText().contains(u"Unauthorized"_s), qPrintable(window.statusText()));

        remote.reportLink(link::LinkState::Connected);
        QCOMPARE(window.indicator(), GatewayIndicator::Running);
        QVERIFY(window.gatewayBannerText().isEmpty());
        QVERIFY(window.bannerText().isEmpty());
        QVERIFY(!nodes->isStale());
        QVERIFY(window.nodesView()->toolBar()->findChild<QAction *>(u"toolbarDrainAction"_s)->isEnabled());
    }

    void remoteToggleAndNodeActionsGoOverTheLink()
    {
        FakeRemoteLink remote;
        MainWindow window(&remote, nullptr, nullptr);
        remote.reportLink(link::LinkState::Connected);
        remote.report(remoteStatus(true));
        QAction *toggle = window.gatewayToggleAction();
        QVERIFY(toggle->isEnabled());
        QVERIFY(toggle->isChecked());

        toggle->trigger(); // off: pause
        QCOMPARE(remote.accepts, QList<bool>{false});
        remote.report(remoteStatus(false));
        QCOMPARE(window.indicator(), GatewayIndicator::Paused);
        QVERIFY(!toggle->isChecked());
        QVERIFY(toggle->isEnabled());
        // Paused: the banner says so and its Resume goes over the link; the nodes take no traffic.
        QCOMPARE(window.gatewayBanner()->outage(), GatewayOutage::Paused);
        QVERIFY2(window.gatewayBannerText().contains(u"paused"_s), qPrintable(window.gatewayBannerText()));
        QVERIFY(window.nodesView()->model()->trafficNote().contains(u"paused"_s));
        window.gatewayBanner()->actionButton()->click();
        QCOMPARE(remote.accepts, (QList<bool>{false, true}));
        toggle->trigger(); // on: resume (the status has not said so yet)
        QCOMPARE(remote.accepts, (QList<bool>{false, true, true}));
        remote.report(remoteStatus(true));
        QVERIFY(window.gatewayBannerText().isEmpty());
        QVERIFY(window.nodesView()->model()->trafficNote().isEmpty());

        // The Nodes view's toolbar acts on the selected node over the link.
        window.nodesView()->selectNode(u"vllm-server1"_s);
        window.nodesView()->toolBar()->findChild<QAction *>(u"toolbarDrainAction"_s)->trigger();
        QCOMPARE(remote.actions.size(), 1);
        QCOMPARE(remote.actions[0].second, link::NodeAction::Drain);
        remote.actions.clear();

        QMenu *menu = window.nodesView()->buildContextMenu(u"vllm-server1"_s, &window);
        menu->findChild<QAction *>(u"drainAction"_s)->trigger();
        menu->findChild<QAction *>(u"probeAction"_s)->trigger();
        delete menu;
        QCOMPARE(remote.actions.size(), 2);
        QCOMPARE(remote.actions[0].first, u"vllm-server1"_s);
        QCOMPARE(remote.actions[0].second, link::NodeAction::Drain);
        QCOMPARE(remote.actions[1].second, link::NodeAction::Probe);

        // Charts ask for the past once shown.
        window.show();
        window.showView(MainWindow::View::Charts);
        QTRY_VERIFY(remote.historyReads.contains(u"vllm-server1"_s));

        // Closing a remote window never asks: the remote gateway keeps running.
        QSignalSpy finished(&window, &MainWindow::quitFinished);
        window.close();
        QCOMPARE(finished.size(), 1);
        QVERIFY(!window.findChild<QMessageBox *>(u"quitQuestion"_s));
        QVERIFY(remote.accepts.size() == 3); // nothing paused on the way out
    }

    void remoteApplyGoesOverTheLinkWithTheHash()
    {
        app::DemoFleet fleet;
        const auto json = fleet.start();
        QVERIFY(json);
        const QString running = QString::fromUtf8(*json);
        FakeRemoteLink remote;
        MainWindow window(&remote, nullptr, nullptr);
        ConfigEditor *editor = window.configEditor();
        QVERIFY(editor && window.remoteConfig());
        remote.reportLink(link::LinkState::Connected);
        remote.report(remoteStatus(true));
        QCOMPARE(remote.configReads, 1); // read once the gateway answers
        emit remote.configFetched(*json, u"hash-1"_s);
        QCOMPARE(editor->unmaskedText(), running); // (a literal key is shown masked, kept as it came)
        QVERIFY(!editor->isModified());

        // An edit applied: the exact text, with the hash it was read at.
        const QString edited = QString(running).replace(u"\"weight\": 1"_s, u"\"weight\": 2"_s);
        QVERIFY(edited != running);
        editor->textEdit()->setPlainText(edited);
        QVERIFY(editor->apply());
        QCOMPARE(remote.puts.size(), 1);
        QCOMPARE(remote.puts[0].first, edited.toUtf8());
        QCOMPARE(remote.puts[0].second, u"hash-1"_s);
        QVERIFY(!editor->applyAction()->isEnabled()); // one apply at a time
        link::ConfigPutResult ok;
        ok.outcome = link::ConfigPutResult::Outcome::Applied;
        ok.summary = u"vllm-server1: weight 1 \u2192 2"_s;
        ok.configHash = u"hash-2"_s;
        emit remote.configPut(ok);
        QVERIFY2(editor->lastMessage().contains(u"weight 1"_s), qPrintable(editor->lastMessage()));
        QCOMPARE(window.remoteConfig()->hash(), u"hash-2"_s);

        // A failed apply leaves the text as it was and says why.
        const QString again = QString(edited).replace(u"\"weight\": 2"_s, u"\"weight\": 3"_s);
        editor->textEdit()->setPlainText(again);
        QVERIFY(editor->apply());
        link::ConfigPutResult failed;
        failed.outcome = link::ConfigPutResult::Outcome::Failed;
        failed.reason = u"connection refused"_s;
        emit remote.configPut(failed);
        QCOMPARE(editor->unmaskedText(), again);
        QVERIFY2(editor->lastMessage().contains(u"connection refused"_s), qPrintable(editor->lastMessage()));

        // Stale (412): overwrite sends the same text without a hash; reload reads the gateway's config.
        window.remoteConfig()->setStalePrompt([] { return RemoteConfig::StaleChoice::Overwrite; });
        QVERIFY(editor->apply());
        QCOMPARE(remote.puts.last().second, u"hash-2"_s);
        link::ConfigPutResult stale;
        stale.outcome = link::ConfigPutResult::Outcome::Stale;
        stale.reason = u"config_changed"_s;
        emit remote.configPut(stale);
        QCOMPARE(remote.puts.last().first, again.toUtf8());
        QVERIFY(remote.puts.last().second.isEmpty());
        QVERIFY(editor->isApplyPending());
        ok.configHash = u"hash-3"_s;
        emit remote.configPut(ok);
        QVERIFY(!editor->isApplyPending());

        window.remoteConfig()->setStalePrompt([] { return RemoteConfig::StaleChoice::Reload; });
        editor->textEdit()->setPlainText(edited);
        QVERIFY(editor->apply());
        const int reads = remote.configReads;
        emit remote.configPut(stale);
        QCOMPARE(remote.configReads, reads + 1);
        QCOMPARE(editor->text(), edited); // until the gateway's config arrives
        emit remote.configFetched(again.toUtf8(), u"hash-4"_s);
        QCOMPARE(editor->unmaskedText(), again);
        QCOMPARE(window.remoteConfig()->hash(), u"hash-4"_s);
    }
};

QTEST_MAIN(TestMainWindowLink)
#include "tst_mainwindowlink.moc"
