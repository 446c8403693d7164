// Connecting the panel to remote gateways (app/remotesessions): File ▸ Connect to gateway… and
// `switchyard --connect` open a window on a real gateway over loopback, every window's Gateways tab
// lists the whole fleet, the key is remembered only once the gateway answered, and closing a remote
// window takes its gateway off the other windows' lists.
#include "connect/credentialstore.h"
#include "connect/gatewayurl.h"
#include "fleet/gatewaysmodel.h"
#include "fleet/gatewaysview.h"
#include "common/testhttpclient.h"
#include "gateway/gatewayfixture.h"
#include "link/localgatewaylink.h"
#include "mainwindow.h"
#include "nodesmodel.h"
#include "nodesview.h"
#include "remotesessions.h"

#include <QAction>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

using namespace switchyard;
using namespace switchyard::ui;
using namespace Qt::Literals::StringLiterals;

class TestRemoteSessions final : public QObject
{
    Q_OBJECT

private:
    static int fleetRows(MainWindow &window)
    {
        return window.gatewaysView()->gatewaysModel()->rowCount();
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // recent gateways and geometry in a throw-away place
        // No secret service here: keys stay in memory for the session (the store says so).
        qputenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/switchyard-test-bus");
        qunsetenv("SWITCHYARD_ADMIN_KEY");
    }

    void connectOpensAWindowAndTheFleetListsIt()
    {
        testing::GatewayFixture fx;
        QVERIFY(fx.start({u"a"_s, u"b"_s}));
        const QUrl url(u"http://127.0.0.1:"_s + QString::number(fx.port));

        Gateway local;
        MainWindow home(&local);
        RemoteSessions sessions;
        sessions.addWindow(&home);
        QCOMPARE(fleetRows(home), 1); // its own gateway

        QString error;
        MainWindow *remote = sessions.open(url, QString(), false, &error);
        QVERIFY2(remote, qPrintable(error));
        QVERIFY(remote->isRemote());
        QVERIFY(remote->windowTitle().contains(u"127.0.0.1"_s));
        // The remote window shows the gateway's nodes, and both windows list both gateways.
        NodesModel *nodes = remote->nodesView()->model();
        QTRY_COMPARE_WITH_TIMEOUT(nodes->rowCount(), 2, 10000);
        QCOMPARE(fleetRows(home), 2);
        QCOMPARE(fleetRows(*remote), 2);

        // Answered: the gateway is among the recent ones, its (empty) key kept for the session.
        QTRY_VERIFY_WITH_TIMEOUT(sessions.recent()->urls().contains(GatewayUrl::canonical(url)), 10000);

        // Closing the remote window takes it off the home window's list.
        QSignalSpy last(&sessions, &RemoteSessions::lastWindowClosed);
        remote->quitDraining();
        QTRY_COMPARE_WITH_TIMEOUT(fleetRows(home), 1, 10000);
        QCOMPARE(sessions.windowCount(), 1);
        QCOMPARE(last.count(), 0); // the home window is still open
    }

    void theFleetWindowSumsTwoGateways()
    {
        // Two replicas (two gateways in front of the same nodes' names): the Gateways tab's button opens
        // one window whose Nodes tab shows each node once and whose commands reach both.
        testing::GatewayFixture one, two;
        QVERIFY(one.start({u"a"_s, u"b"_s}));
        QVERIFY(two.start({u"a"_s, u"b"_s}, {}, {}, [&one](config::GatewayConfig &c) {
            for (size_t i = 0; i < c.providers.size(); ++i)
                c.providers[i].network.baseUrl = one.node(int(i)).baseUrl(); // the same two nodes
        }));
        RemoteSessions sessions;
        MainWindow *first = sessions.open(QUrl(u"http://127.0.0.1:"_s + QString::number(one.port)), QString(), false);
        QVERIFY(first);
        QVERIFY(!first->gatewaysView()->fleetWindowButton()->isEnabled()); // one gateway is its own window
        MainWindow *second = sessions.open(QUrl(u"http://127.0.0.1:"_s + QString::number(two.port)), QString(), false);
        QVERIFY(second);
        QVERIFY(first->gatewaysView()->fleetWindowButton()->isEnabled());

        first->gatewaysView()->fleetWindowButton()->click();
        MainWindow *fleet = sessions.fleetWindow();
        QVERIFY(fleet);
        QVERIFY(fleet->windowTitle().contains(QString::number(one.port)));
        QVERIFY(fleet->windowTitle().contains(QString::number(two.port)));
        QTRY_COMPARE_WITH_TIMEOUT(fleet->nodesView()->model()->rowCount(), 2, 10000);
        QCOMPARE(fleetRows(*fleet), 2); // its Gateways tab lists what it sums
        second->gatewaysView()->fleetWindowButton()->click();
        QCOMPARE(sessions.fleetWindow(), fleet); // raised, not opened twice

        // Traffic to both gateways shows in the fleet window's totals.
        for (const quint16 port : {one.port, two.port})
            QCOMPARE(testing::request(port, "POST", "/v1/chat/completions", testing::chatBody("m1", 2)).status, 200);
        const auto attempts = [fleet] {
            qint64 n = 0;
            const auto status = fleet->gatewayLink()->status();
            for (const link::NodeStatus &node : status->nodes)
                n += node.attempts;
            return n;
        };
        QTRY_COMPARE_WITH_TIMEOUT(attempts(), 2, 10000);

        // SWITCHYARD_SCREENSHOT_DIR set: the fleet window's Nodes and Gateways tabs, for a look.
        if (const QString dir = qEnvironmentVariable("SWITCHYARD_SCREENSHOT_DIR"); !dir.isEmpty()) {
            fleet->resize(1280, 800);
            QTRY_VERIFY_WITH_TIMEOUT(fleet->gatewayLink()->status()->rates.requestsPerSecond > 0, 10000);
            QVERIFY(fleet->grab().save(dir + u"/fleet-window-nodes.png"_s));
            fleet->showView(MainWindow::View::Gateways);
            QCoreApplication::processEvents();
            QVERIFY(fleet->grab().save(dir + u"/fleet-window-gateways.png"_s));
            fleet->showView(MainWindow::View::Nodes);
        }

        // A drain from the fleet window drains the node on both gateways.
        fleet->gatewayLink()->nodeAction(u"a"_s, link::NodeAction::Drain);
        QTRY_VERIFY_WITH_TIMEOUT(one.gateway.snapshot().nodes[0].draining && two.gateway.snapshot().nodes[0].draining, 10000);

        fleet->quitDraining();
        QTRY_VERIFY_WITH_TIMEOUT(!sessions.fleetWindow(), 10000);
        QCOMPARE(sessions.windowCount(), 2);
    }

    void theFleetWindowFollowsTheGatewaysConnectedAndClosed()
    {
        // The fleet window is open; the operator connects to one more gateway, then closes it again: it
        // joins the fleet's sums at once and leaves them when its window is closed.
        testing::GatewayFixture one, two, three;
        QVERIFY(one.start({u"a"_s}));
        QVERIFY(two.start({u"b"_s}));
        QVERIFY(three.start({u"c"_s}));
        const auto urlOf = [](const testing::GatewayFixture &f) { return QUrl(u"http://127.0.0.1:"_s + QString::number(f.port)); };
        RemoteSessions sessions;
        QVERIFY(sessions.open(urlOf(one), QString(), false));
        QVERIFY(sessions.open(urlOf(two), QString(), false));
        MainWindow *fleet = sessions.openFleetWindow();
        QVERIFY(fleet);
        QTRY_COMPARE_WITH_TIMEOUT(fleet->nodesView()->model()->rowCount(), 2, 10000);
        QVERIFY(!fleet->windowTitle().contains(QString::number(three.port)));

        MainWindow *third = sessions.open(urlOf(three), QString(), false);
        QVERIFY(third);
        QTRY_COMPARE_WITH_TIMEOUT(fleet->nodesView()->model()->rowCount(), 3, 10000); // a, b and c
        QVERIFY2(fleet->windowTitle().contains(QString::number(three.port)), qPrintable(fleet->windowTitle()));
        QCOMPARE(fleetRows(*fleet), 3);

        third->quitDraining();
        QTRY_COMPARE_WITH_TIMEOUT(fleet->nodesView()->model()->rowCount(), 2, 10000);
        QTRY_VERIFY(!fleet->windowTitle().contains(QString::number(three.port)));
        QCOMPARE(fleetRows(*fleet), 2);
        QCOMPARE(sessions.windowCount(), 3); // two gateways' windows and the fleet's
    }

    void aWrongAddressIsRefusedWithItsReason()
    {
        RemoteSessions sessions;
        QString error;
        QVERIFY(!sessions.open(QUrl(u"ftp://gw.example:21"_s), QString(), false, &error));
        QVERIFY2(error.contains(u"ftp://gw.example:21"_s), qPrintable(error));
        QCOMPARE(sessions.windowCount(), 0);
    }

    void connectAtStartUsesTheEnvironmentsKey()
    {
        // A gateway that wants an admin key: the one from SWITCHYARD_ADMIN_KEY is used.
        testing::GatewayFixture fx;
        QVERIFY(fx.start({u"a"_s}, {}, {}, [](config::GatewayConfig &c) {
            c.settings.adminKeys = {u"sk-admin-test"_s};
        }));
        qputenv("SWITCHYARD_ADMIN_KEY", "sk-admin-test");
        RemoteSessions sessions;
        QVERIFY(sessions.connectAtStart(QUrl(u"http://127.0.0.1:"_s + QString::number(fx.port))));
        qunsetenv("SWITCHYARD_ADMIN_KEY");
        QCOMPARE(sessions.windowCount(), 1);
        // The gateway answered the key (a wrong one would leave it unauthorized, never "recent").
        QTRY_VERIFY_WITH_TIMEOUT(sessions.recent()->urls().contains(u"http://127.0.0.1:"_s + QString::number(fx.port)),
                                 10000);
    }

    void connectAtStartRefusesANonGatewayAddress()
    {
        RemoteSessions sessions;
        QVERIFY(!sessions.connectAtStart(QUrl(u"mailto:someone@example.com"_s)));
        QCOMPARE(sessions.windowCount(), 0);
    }
};

QTEST_MAIN(TestRemoteSessions)
#include "tst_remotesessions.moc"
