// The Gateways view's table over two real gateways in this process (two replicas in front of the same
// simulated nodes, with different configs): each gateway's link state, version, config hash with the
// drift marked and explained, requests/s after traffic, nodes up after a node is faulted; gateways
// added and removed at run time, updates coalesced; the model checked with QAbstractItemModelTester.
#include "fleet/fleetformat.h"
#include "fleet/gatewaysmodel.h"
#include "fleet/gatewaysview.h"
#include "fleettestbed.h"

#include "common/testhttpclient.h"

#include <QAbstractItemModelTester>
#include <QColor>
#include <QLabel>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace switchyard;
using namespace switchyard::testing;
using namespace switchyard::ui;
using namespace Qt::Literals::StringLiterals;

namespace {
// Stands in for a remote gateway the panel cannot reach (the remote link lives in client/remote/): it
// says what a RemoteGatewayLink says after its last good poll, then a refused connection.
class UnreachableLink final : public link::GatewayLink
{
public:
    using GatewayLink::GatewayLink;
    QString displayName() const override { return u"https://gw9.lan:8443"_s; }
    bool isRemote() const override { return true; }
    QUrl apiUrl() const override { return QUrl(displayName()); }
    QString clientKey() const override { return {}; }
    void start() override { }
    void stop() override { }
    link::LinkStatus linkStatus() const override { return m_link; }
    std::optional<link::GatewayStatus> status() const override { return m_status; }
    void fetchRequests(quint64, int) override { }
    void fetchHistory(const QString &, int) override { }
    void fetchConfig() override { }
    void putConfig(const QByteArray &, const QString &) override { }
    void nodeAction(const QString &, link::NodeAction) override { }
    void setAccepting(bool) override { }

    void lose(const std::optional<link::GatewayStatus> &last)
    {
        m_status = last;
        m_link.state = link::LinkState::Unreachable;
        m_link.reason = u"Connection refused"_s;
        m_link.retryInMs = 4000;
        emit linkStatusChanged(m_link);
    }

private:
    link::LinkStatus m_link;
    std::optional<link::GatewayStatus> m_status;
};

QString text(const GatewaysModel &m, int row, int column, int role = Qt::DisplayRole)
{
    return m.data(m.index(row, column), role).toString();
}
} // namespace

class TestGatewaysModel final : public QObject
{
    Q_OBJECT

private slots:
    void twoReplicasWithDrift()
    {
        FleetTestbed fleet;
        QVERIFY(fleet.start());
        GatewaysModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy drift(&model, &GatewaysModel::driftChanged);
        model.addGateway(fleet.firstLink.get());
        model.addGateway(fleet.secondLink.get());
        model.addGateway(fleet.firstLink.get()); // twice: still one row
        QCOMPARE(model.rowCount(), 2);

        const QString firstLabel = FleetFormat::gatewayLabel(*fleet.firstLink);
        const QString secondLabel = FleetFormat::gatewayLabel(*fleet.secondLink);
        QVERIFY(firstLabel != secondLabel); // two gateways of this process, told apart by address
        QCOMPARE(text(model, 0, GatewaysModel::Gateway), firstLabel);

        QTRY_COMPARE(text(model, 0, GatewaysModel::Link), u"Connected"_s);
        QTRY_COMPARE(text(model, 1, GatewaysModel::Link), u"Connected"_s);
        QTRY_COMPARE(text(model, 0, GatewaysModel::Version), QString::fromLatin1(SWITCHYARD_VERSION));
        QTRY_COMPARE(text(model, 0, GatewaysModel::NodesUp), u"2/2"_s);
        QTRY_COMPARE(text(model, 1, GatewaysModel::NodesUp), u"3/3"_s);

        // Drift: the second runs another config; the table and the summary say which runs which.
        QTRY_VERIFY(model.hasDrift());
        const QString firstHash = link::configHash(fleet.first.gateway.config());
        const QString secondHash = link::configHash(fleet.second.config());
        QVERIFY(firstHash != secondHash);
        QCOMPARE(text(model, 0, GatewaysModel::Config), firstHash.left(8));
        QCOMPARE(text(model, 1, GatewaysModel::Config), secondHash.left(8) + u" (differs)"_s);
        QCOMPARE(model.data(model.index(1, 0), GatewaysModel::DriftRole).toBool(), true);
        QCOMPARE(model.data(model.index(0, 0), GatewaysModel::DriftRole).toBool(), false);
        const QString summary = model.driftSummary();
        QVERIFY2(summary.contains(firstLabel + u" runs "_s + firstHash.left(8)), qPrintable(summary));
        QVERIFY2(summary.contains(secondLabel + u" runs "_s + secondHash.left(8)), qPrintable(summary));
        QVERIFY(text(model, 1, GatewaysModel::Config, Qt::ToolTipRole).contains(u"unlike "_s + firstLabel));
        QVERIFY(!drift.isEmpty());
        QCOMPARE(drift.last().at(0).toBool(), true);

        // Traffic through the first gateway shows as its requests/s, not the second's.
        for (int i = 0; i < 6; ++i)
            QCOMPARE(request(fleet.first.port, "POST", "/v1/chat/completions", chatBody("m1")).status, 200);
        QTRY_VERIFY(model.data(model.index(0, GatewaysModel::RequestsPerSec), GatewaysModel::SortRole).toDouble() > 0);
        QCOMPARE(model.data(model.index(1, GatewaysModel::RequestsPerSec), GatewaysModel::SortRole).toDouble(), 0.0);
        QTRY_VERIFY(text(model, 0, GatewaysModel::LatencyP95) != u"\u2014"_s);

        // A node faulted: both gateways notice, and say which one is not up.
        fleet.first.node(1).setFault(sim::FaultMode::Refuse);
        QTRY_COMPARE_WITH_TIMEOUT(text(model, 0, GatewaysModel::NodesUp), u"1/2"_s, 15000);
        QTRY_COMPARE_WITH_TIMEOUT(text(model, 1, GatewaysModel::NodesUp), u"2/3"_s, 15000);
        QVERIFY(text(model, 0, GatewaysModel::NodesUp, Qt::ToolTipRole).startsWith(u"b: Down"_s));

        // The second gateway paused (not accepting): the link column says so.
        fleet.secondLink->setAccepting(false);
        QTRY_VERIFY(text(model, 1, GatewaysModel::Link) != u"Connected"_s);

        // The drifting gateway leaves: so does the drift.
        model.removeGateway(fleet.secondLink.get());
        QCOMPARE(model.rowCount(), 1);
        QTRY_VERIFY(!model.hasDrift());
        QCOMPARE(drift.last().at(0).toBool(), false);
        QCOMPARE(text(model, 0, GatewaysModel::Config), firstHash.left(8));

        // A link that goes away leaves the table by itself.
        fleet.firstLink.reset();
        QCOMPARE(model.rowCount(), 0);
    }

    void unreachableGatewaySaysWhy()
    {
        FleetTestbed fleet;
        QVERIFY(fleet.start());
        GatewaysModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        UnreachableLink remote;
        model.addGateway(fleet.firstLink.get());
        model.addGateway(&remote);
        QCOMPARE(text(model, 1, GatewaysModel::Gateway), u"https://gw9.lan:8443"_s);
        QTRY_COMPARE(text(model, 1, GatewaysModel::Link), u"Connecting"_s);
        QCOMPARE(text(model, 1, GatewaysModel::Version), u"\u2014"_s);

        // It answered once (running the same config as the first), then stopped answering: the reason
        // shows, with when it tries again; the numbers are its last word, greyed.
        QTRY_VERIFY(fleet.firstLink->status().has_value());
        remote.lose(fleet.firstLink->status());
        QTRY_COMPARE(text(model, 1, GatewaysModel::Link), u"Unreachable: Connection refused"_s);
        QVERIFY(text(model, 1, GatewaysModel::Link, Qt::ToolTipRole).contains(u"Next try in 4 s"_s));
        QVERIFY(text(model, 1, GatewaysModel::Link, Qt::ToolTipRole).contains(u"last ones it sent"_s));
        QCOMPARE(model.data(model.index(1, GatewaysModel::RequestsPerSec), Qt::ForegroundRole).value<QColor>(),
                 QColor(128, 128, 128));
        QVERIFY(!model.data(model.index(0, GatewaysModel::RequestsPerSec), Qt::ForegroundRole).isValid());
        QCOMPARE(model.data(model.index(1, 0), GatewaysModel::LinkStateRole).toInt(), int(link::LinkState::Unreachable));
        QVERIFY(!model.hasDrift());
    }

    void updatesAreCoalesced()
    {
        FleetTestbed fleet;
        QVERIFY(fleet.start());
        GatewaysModel model;
        model.addGateway(fleet.firstLink.get());
        model.addGateway(fleet.secondLink.get());
        QSignalSpy first(fleet.firstLink.get(), &link::GatewayLink::statusChanged);
        QSignalSpy second(fleet.secondLink.get(), &link::GatewayLink::statusChanged);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        // Both links poll several times a second; the table repaints once per coalescing tick for both.
        QTRY_VERIFY_WITH_TIMEOUT(first.size() + second.size() >= 16, 20000);
        QVERIFY2(changed.size() < first.size() + second.size(),
                 qPrintable(u"%1 updates for %2 statuses"_s.arg(changed.size()).arg(first.size() + second.size())));
        QVERIFY(changed.size() >= 1);
    }

    void viewShowsTheDriftBanner()
    {
        FleetTestbed fleet;
        QVERIFY(fleet.start());
        GatewaysView view;
        view.resize(1100, 600);
        view.show();
        QVERIFY(view.driftBanner()->isHidden());
        view.addGateway(fleet.firstLink.get());
        view.addGateway(fleet.secondLink.get());
        QTRY_VERIFY(view.driftBanner()->isVisible());
        QVERIFY(view.driftBanner()->text().contains(u"different configs"_s));
        QCOMPARE(view.gatewaysTable()->model()->rowCount(), 2);
        QTRY_COMPARE(view.nodesTable()->model()->rowCount(), 3);
        view.removeGateway(fleet.secondLink.get());
        QTRY_VERIFY(view.driftBanner()->isHidden());
        QTRY_COMPARE(view.nodesTable()->model()->rowCount(), 2);
    }
};

QTEST_MAIN(TestGatewaysModel)
#include "tst_gatewaysmodel.moc"
