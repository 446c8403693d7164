// The Keys tab of a fleet window (View ▸ Whole fleet) over two gateways of this process that share their
// keys through a redis-server of the test's own: a key made through the fleet works on both gateways, the
// table shows one row with both gateways' requests added, and a fleet whose gateways keep their own keys
// says so in the tab instead of a table.
#include "common/testhttpclient.h"
#include "common/testprocesses.h"
#include "fleet/fleetlink.h"
#include "gateway/gatewayfixture.h"
#include "keys/keysmodel.h"
#include "keys/keysview.h"
#include "link/localgatewaylink.h"
#include "mainwindow.h"
#include "ui/testscreenshot.h"

#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace switchyard;
using namespace switchyard::testing;
using namespace switchyard::ui;
using namespace Qt::Literals::StringLiterals;

namespace {

int chat(quint16 port, const QByteArray &secret)
{
    return request(port, "POST", "/v1/chat/completions", chatBody("m1", 4), 10000,
                   {{"Authorization", "Bearer " + secret}})
        .status;
}

std::unique_ptr<client::FleetLink> fleetOver(GatewayFixture &a, GatewayFixture &b)
{
    std::vector<std::unique_ptr<link::GatewayLink>> members;
    members.push_back(std::make_unique<link::LocalGatewayLink>(&a.gateway));
    members.push_back(std::make_unique<link::LocalGatewayLink>(&b.gateway));
    return std::make_unique<client::FleetLink>(std::move(members));
}

} // namespace

class TestFleetKeysView final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void aFleetSharingOneRedisHasOneSetOfKeys()
    {
        QTemporaryDir dir;
        TestProcesses processes(dir.path());
        const quint16 redisPort = processes.startRedis();
        QVERIFY2(redisPort != 0, "redis-server did not start (scripts/install-deps.sh --test installs it)");
        const auto withRedis = [redisPort](config::GatewayConfig &c) {
            c.settings.redisUrl = u"redis://127.0.0.1:%1"_s.arg(redisPort);
        };
        GatewayFixture a, b;
        QVERIFY(a.start({u"a"_s}, {}, {}, withRedis));
        QVERIFY(b.start({u"a"_s}, {}, {}, withRedis));
        auto fleet = fleetOver(a, b);
        fleet->start();
        QTRY_VERIFY_WITH_TIMEOUT(fleet->status().has_value() && fleet->keysNotShared().isEmpty(), 10000);

        MainWindow window(fleet.get(), nullptr, nullptr);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        KeysView *keys = window.keysView();
        window.findChild<QTabWidget *>()->setCurrentWidget(keys);
        QTRY_VERIFY(keys->messageLabel()->text().contains(u"No virtual keys yet"_s));

        QSignalSpy made(fleet.get(), &link::GatewayLink::keyCreated);
        keys::KeyChange spec;
        spec.name = u"notebook"_s;
        spec.requestsPerMinute = 60;
        fleet->createKey(spec);
        QVERIFY(made.wait(5000));
        const QByteArray secret = made.first()[1].toString().toUtf8();
        // Made on the first gateway, known to the second through Redis; one request on each.
        QTRY_VERIFY_WITH_TIMEOUT(b.gateway.keys().list().size() == 1, 5000);
        QCOMPARE(chat(a.port, secret), 200);
        QCOMPARE(chat(b.port, secret), 200);
        QTRY_VERIFY_WITH_TIMEOUT(keys->isShowingTable() && keys->model()->rowCount() == 1, 10000);
        const auto requests = [keys] {
            return keys->model()->data(keys->model()->index(0, VirtualKeysModel::Requests)).toString();
        };
        QTRY_COMPARE_WITH_TIMEOUT(requests(), u"2"_s, 10000); // one per gateway, added
        saveScreenshot(window, u"keys-fleet.png"_s, QSize(1300, 720));
    }

    void aFleetOfGatewaysWithTheirOwnKeysSaysSo()
    {
        GatewayFixture a, b;
        QVERIFY(a.start({u"a"_s}));
        QVERIFY(b.start({u"a"_s}));
        auto fleet = fleetOver(a, b);
        fleet->start();
        QTRY_VERIFY_WITH_TIMEOUT(fleet->status().has_value(), 10000);
        MainWindow window(fleet.get(), nullptr, nullptr);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        KeysView *keys = window.keysView();
        window.findChild<QTabWidget *>()->setCurrentWidget(keys);
        QTRY_VERIFY_WITH_TIMEOUT(keys->messageLabel()->text().contains(u"keep their own keys"_s), 10000);
        QVERIFY(!keys->isShowingTable());
    }
};

QTEST_MAIN(TestFleetKeysView)
#include "tst_fleetkeysview.moc"
