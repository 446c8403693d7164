// The Nodes view merged across a fleet, over two real gateways in this process in front of the same
// simulated nodes: a node behind both is one row with each gateway's view of it in its own column, a
// node behind one only shows "—" under the other; a faulted node is Down under both; a node drained
// on one gateway only shows the disagreement; gateways added and removed at run time; the model checked
// with QAbstractItemModelTester.
#include "fleet/fleetformat.h"
#include "fleet/fleetnodesmodel.h"
#include "fleettestbed.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace switchyard;
using namespace switchyard::testing;
using namespace switchyard::ui;
using namespace Qt::Literals::StringLiterals;

namespace {
QString text(const FleetNodesModel &m, int row, int column, int role = Qt::DisplayRole)
{
    return m.data(m.index(row, column), role).toString();
}
} // namespace

class TestFleetNodesModel final : public QObject
{
    Q_OBJECT

private slots:
    void baseUrlsAreOneSpelling()
    {
        QCOMPARE(FleetNodesModel::canonicalBaseUrl(u"http://Node1.LAN:8000/"_s), u"http://node1.lan:8000"_s);
        QCOMPARE(FleetNodesModel::canonicalBaseUrl(u"http://node1.lan"_s), u"http://node1.lan:80"_s);
        QCOMPARE(FleetNodesModel::canonicalBaseUrl(u"https://node1.lan/v1/"_s), u"https://node1.lan:443/v1"_s);
    }

    void nodesMergedAcrossGateways()
    {
        FleetTestbed fleet;
        QVERIFY(fleet.start());
        FleetNodesModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.addGateway(fleet.firstLink.get());
        model.addGateway(fleet.secondLink.get());
        const int firstCol = model.columnOf(fleet.firstLink.get());
        const int secondCol = model.columnOf(fleet.secondLink.get());
        QCOMPARE(firstCol, int(FleetNodesModel::FirstGatewayColumn));
        QCOMPARE(secondCol, firstCol + 1);
        QCOMPARE(model.columnCount(), FleetNodesModel::FirstGatewayColumn + 2);
        QCOMPARE(model.headerData(secondCol, Qt::Horizontal).toString(), FleetFormat::gatewayLabel(*fleet.secondLink));

        // a, b behind both gateways, c behind the second only: three rows, not five.
        QTRY_COMPARE(model.rowCount(), 3);
        const int a = model.rowOf(fleet.first.node(0).baseUrl() + u"/"_s); // any spelling
        const int b = model.rowOf(fleet.first.node(1).baseUrl());
        const int c = model.rowOf(fleet.first.node(2).baseUrl());
        QVERIFY(a >= 0 && b >= 0 && c >= 0);
        QCOMPARE(text(model, a, FleetNodesModel::Node), u"a"_s);
        QCOMPARE(model.data(model.index(a, 0), FleetNodesModel::SeenByRole).toInt(), 2);
        QCOMPARE(model.data(model.index(c, 0), FleetNodesModel::SeenByRole).toInt(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(text(model, a, firstCol), u"Healthy"_s, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(text(model, a, secondCol), u"Healthy"_s, 10000);
        QTRY_COMPARE(text(model, a, FleetNodesModel::State), u"Healthy"_s);
        QCOMPARE(text(model, c, firstCol), u"\u2014"_s);
        QVERIFY(text(model, c, firstCol, Qt::ToolTipRole).contains(u"does not route to this node"_s));

        // Node b faulted: Down under both gateways, with each one's reason.
        fleet.first.node(1).setFault(sim::FaultMode::Refuse);
        QTRY_COMPARE_WITH_TIMEOUT(text(model, b, firstCol), u"Down"_s, 15000);
        QTRY_COMPARE_WITH_TIMEOUT(text(model, b, secondCol), u"Down"_s, 15000);
        QCOMPARE(text(model, b, FleetNodesModel::State), u"Down"_s);
        QVERIFY(text(model, b, secondCol, Qt::ToolTipRole).contains(u"calls it b: Down"_s));
        QCOMPARE(model.data(model.index(b, FleetNodesModel::State), FleetNodesModel::StateRole).toInt(),
                 int(health::NodeState::Down));

        // Node a drained on the first gateway only: the gateways disagree, and the row says how.
        QSignalSpy done(fleet.firstLink.get(), &link::GatewayLink::commandFinished);
        fleet.firstLink->nodeAction(u"a"_s, link::NodeAction::Drain);
        QVERIFY(done.wait());
        QTRY_VERIFY(text(model, a, firstCol).startsWith(u"Draining"_s));
        QCOMPARE(text(model, a, secondCol), u"Healthy"_s);
        QTRY_COMPARE(text(model, a, FleetNodesModel::State), u"Draining on 1 of 2"_s);

        // The second gateway leaves: its column goes, and so does the node only it routed to.
        model.removeGateway(fleet.secondLink.get());
        QCOMPARE(model.columnCount(), FleetNodesModel::FirstGatewayColumn + 1);
        QTRY_COMPARE(model.rowCount(), 2);
        QCOMPARE(model.rowOf(fleet.first.node(2).baseUrl()), -1);
        QTRY_VERIFY(text(model, model.rowOf(fleet.first.node(0).baseUrl()), FleetNodesModel::State).startsWith(u"Draining"_s));

        // And comes back.
        model.addGateway(fleet.secondLink.get());
        QTRY_COMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), FleetNodesModel::FirstGatewayColumn + 2);

        // A link destroyed leaves by itself.
        fleet.secondLink.reset();
        QCOMPARE(model.columnCount(), FleetNodesModel::FirstGatewayColumn + 1);
        QTRY_COMPARE(model.rowCount(), 2);
    }
};

QTEST_MAIN(TestFleetNodesModel)
#include "tst_fleetnodesmodel.moc"
