// The panel's non-widget pieces: ring buffer, metric history, health derivation, and the two table
// models (checked with QAbstractItemModelTester and QSignalSpy).
#include "gatewaymonitor.h"
#include "metrichistory.h"
#include "nodehealth.h"
#include "nodesmodel.h"
#include "requestsmodel.h"
#include "requestsview.h"
#include "ringbuffer.h"
#include "statusicons.h"

#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QIcon>
#include <QSignalSpy>
#include <QTest>

using namespace switchyard;
using namespace switchyard::ui;
using namespace Qt::Literals::StringLiterals;

namespace {

NodeSample node(const QString &name, NodeState state = NodeState::Healthy, const QString &reason = u"fine"_s)
{
    NodeSample n;
    n.snapshot.name = name;
    n.snapshot.baseUrl = u"http://10.0.0.1:8000"_s;
    n.snapshot.models = {u"m1"_s};
    n.snapshot.weight = 1;
    n.health.state = state;
    n.health.reason = reason;
    return n;
}

stats::RequestRecord record(int i, int status = 200, const QString &nodeName = u"a"_s)
{
    stats::RequestRecord r;
    r.startedMsSinceEpoch = 1'700'000'000'000 + i * 1000;
    r.method = "POST";
    r.path = "/v1/chat/completions";
    r.model = u"m1"_s;
    r.node = nodeName;
    r.status = status;
    r.attempts = 1;
    r.durationMs = 100 + i;
    r.promptTokens = 10;
    r.completionTokens = 20;
    if (status >= 400)
        r.error = u"upstream said no"_s;
    return r;
}

} // namespace

class TestUiModels final : public QObject
{
    Q_OBJECT

private slots:
    void ringBuffer()
    {
        RingBuffer<int> r(3);
        QVERIFY(r.isEmpty());
        for (int i = 1; i <= 5; ++i)
            r.push(i);
        QCOMPARE(r.size(), 3);
        QCOMPARE(r.front(), 3);
        QCOMPARE(r.back(), 5);
        QCOMPARE(r.at(1), 4);
        r.popFront();
        QCOMPARE(r.front(), 4);
        r.clear();
        QVERIFY(r.isEmpty());
        r.push(9);
        QCOMPARE(r.front(), 9);
    }

    void metricHistoryAverages()
    {
        MetricHistory h;
        const qint64 t0 = 1'700'000'000'000; // a multiple of 20 s
        QCOMPARE(t0 % 20'000, 0);
        // Four samples per second for 30 s; value = the second's index, twice per second 0 and 2.
        for (int s = 0; s < 30; ++s) {
            for (int q = 0; q < 4; ++q)
                h.add(t0 + s * 1000 + q * 250, (q % 2 == 0) ? s : s + 2);
        }
        const qint64 now = t0 + 29'999;
        const QList<QPointF> minute = h.points(TimeWindow::OneMinute, now);
        QCOMPARE(minute.size(), 30);
        QCOMPARE(minute.first().y(), 1.0); // (0 + 2 + 0 + 2) / 4
        QCOMPARE(minute.last().y(), 30.0);
        QCOMPARE(qint64(minute.first().x()), t0 + 500);
        const QList<QPointF> fifteen = h.points(TimeWindow::FifteenMinutes, now);
        QCOMPARE(fifteen.size(), 6); // 5 s buckets
        QCOMPARE(fifteen.first().y(), 3.0); // seconds 0..4 → mean 2, +1
        const QList<QPointF> hour = h.points(TimeWindow::OneHour, now);
        QCOMPARE(hour.size(), 2); // 20 s buckets
        QCOMPARE(hour.first().y(), 10.5);
        QCOMPARE(h.latest().value_or(-1), 31.0);

        // Bounded: an hour and a half of samples keeps one hour (plus a partial bucket).
        MetricHistory big;
        for (qint64 s = 0; s < 5400; ++s)
            big.add(t0 + s * 1000, 1.0);
        QVERIFY(big.points(TimeWindow::OneMinute, t0 + 5'399'999).size() <= 61);
        QVERIFY(big.points(TimeWindow::OneHour, t0 + 5'399'999).size() <= 181);
        // Older than the window is not shown.
        QVERIFY(h.points(TimeWindow::OneMinute, t0 + 200'000).isEmpty());
    }

    void percentiles()
    {
        std::vector<double> none;
        QVERIFY(!percentile(none, 95));
        std::vector<double> v;
        for (int i = 100; i >= 1; --i)
            v.push_back(i);
        QCOMPARE(percentile(v, 50).value(), 50.0);
        QCOMPARE(percentile(v, 95).value(), 95.0);
        QCOMPARE(percentile(v, 100).value(), 100.0);
        std::vector<double> one{7};
        QCOMPARE(percentile(one, 95).value(), 7.0);
    }

    void trafficHealth_data()
    {
        QTest::addColumn<qint64>("successes");
        QTest::addColumn<qint64>("failures");
        QTest::addColumn<qint64>("lifetime");
        QTest::addColumn<int>("state");
        QTest::addColumn<QString>("reasonPart");
        QTest::newRow("no traffic") << 0LL << 0LL << 0LL << int(NodeState::Unknown) << u"No traffic yet"_s;
        QTest::newRow("idle") << 0LL << 0LL << 12LL << int(NodeState::Unknown) << u"No requests finished"_s;
        QTest::newRow("healthy") << 10LL << 0LL << 10LL << int(NodeState::Healthy) << u"10, all answered"_s;
        QTest::newRow("degraded") << 8LL << 2LL << 10LL << int(NodeState::Degraded) << u"10, of which 2 failed"_s;
        QTest::newRow("down") << 0LL << 3LL << 3LL << int(NodeState::Down) << u"upstream said no"_s;
    }
    void trafficHealth()
    {
        QFETCH(qint64, successes);
        QFETCH(qint64, failures);
        QFETCH(qint64, lifetime);
        QFETCH(int, state);
        QFETCH(QString, reasonPart);
        NodeObservation o;
        o.snapshot.name = u"a"_s;
        o.snapshot.counters.requests = lifetime;
        o.windowMs = 30'000;
        o.successes = successes;
        o.failures = failures;
        if (failures > 0)
            o.lastError = u"upstream said no"_s;
        const NodeHealth h = TrafficHealthSource().health(o);
        QCOMPARE(int(h.state), state);
        QVERIFY2(h.reason.contains(reasonPart), qPrintable(h.reason));
        QVERIFY(!h.running && !h.waiting && !h.kvCacheUsage && !h.lastCheckMs); // not measured: unknown
    }

    void gatewayHealth()
    {
        NodeObservation o;
        o.snapshot.name = u"a"_s;
        o.snapshot.state = health::NodeState::Down;
        o.snapshot.stateReason = u"connection refused"_s;
        o.snapshot.probe.lastCheckMsSinceEpoch = 1'700'000'000'000;
        o.snapshot.probe.hasMetrics = true;
        o.snapshot.probe.running = 3;
        o.snapshot.probe.waiting = 1;
        o.snapshot.probe.kvCacheUsage = 0.5;
        o.windowMs = 30'000;
        o.failures = 2;
        NodeHealth h = GatewayHealthSource().health(o);
        QCOMPARE(h.state, NodeState::Down);
        QVERIFY(h.reason.startsWith(u"Gateway: connection refused"_s));
        QVERIFY2(h.reason.contains(u"Attempts in the last 30 s: 2, all failed."_s), qPrintable(h.reason));
        QCOMPARE(h.running.value_or(-1), 3);
        QCOMPARE(h.waiting.value_or(-1), 1);
        QCOMPARE(h.kvCacheUsage.value_or(-1), 0.5);
        QCOMPARE(h.lastCheckMs.value_or(0), 1'700'000'000'000);
        QVERIFY(!h.metrics.isEmpty());

        // Not checked yet: traffic stands in; no probe numbers are invented.
        NodeObservation fresh;
        fresh.snapshot.name = u"b"_s;
        fresh.windowMs = 30'000;
        fresh.successes = 4;
        h = GatewayHealthSource().health(fresh);
        QCOMPARE(h.state, NodeState::Healthy);
        QVERIFY(h.reason.contains(u"Not checked yet"_s));
        QVERIFY(!h.running && !h.waiting && !h.kvCacheUsage && !h.lastCheckMs);

        QCOMPARE(fromGatewayState(health::NodeState::Recovering), NodeState::Recovering);
        QCOMPARE(fromGatewayState(health::NodeState::Draining), NodeState::Draining);
        QVERIFY(nodeStateSeverity(NodeState::Down) > nodeStateSeverity(NodeState::Degraded));
    }

    void indicator()
    {
        MonitorSample s;
        QCOMPARE(gatewayIndicator(s, false), GatewayIndicator::Off);
        QCOMPARE(gatewayIndicator(s, true), GatewayIndicator::Failed);
        s.running = true;
        s.nodes = {node(u"a"_s)};
        s.worstState = NodeState::Healthy;
        QCOMPARE(gatewayIndicator(s, true), GatewayIndicator::Running);
        s.worstState = NodeState::Down;
        QCOMPARE(gatewayIndicator(s, false), GatewayIndicator::NodeDown);
        s.stopping = true;
        QCOMPARE(gatewayIndicator(s, false), GatewayIndicator::Stopping);
        QVERIFY(gatewayIndicatorColor(GatewayIndicator::NodeDown) != gatewayIndicatorColor(GatewayIndicator::Running));
        QVERIFY(!gatewayIndicatorIcon(GatewayIndicator::Off).isNull());
    }

    void nodesModel()
    {
        NodesModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);

        QCOMPARE(model.columnCount(), int(NodesModel::ColumnCount));
        model.setNodes({node(u"a"_s), node(u"b"_s)});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(inserted.size(), 1);
        QCOMPARE(changed.size(), 0);

        // An update of the same nodes: one dataChanged over the whole table, no row changes.
        NodeSample b = node(u"b"_s, NodeState::Down, u"all attempts failed"_s);
        b.tokensPerSec = 27.5;
        b.requestsPerSec = 0.4;
        b.errorRate = 0.25;
        b.latencyP95Ms = 1234;
        b.snapshot.counters.inFlight = 3;
        b.health.running = 2;
        b.health.waiting = 1;
        b.health.kvCacheUsage = 0.42;
        model.setNodes({node(u"a"_s), b});
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed.first().at(0).toModelIndex(), model.index(0, 0));
        QCOMPARE(changed.first().at(1).toModelIndex(), model.index(1, NodesModel::ColumnCount - 1));
        QCOMPARE(inserted.size(), 1);
        QCOMPARE(removed.size(), 0);

        const int row = model.rowOf(u"b"_s);
        QCOMPARE(row, 1);
        auto text = [&](int column) { return model.index(row, column).data().toString(); };
        QCOMPARE(text(NodesModel::State), nodeStateName(NodeState::Down));
        QCOMPARE(text(NodesModel::Name), u"b"_s);
        QCOMPARE(text(NodesModel::InFlight), u"3"_s);
        QCOMPARE(text(NodesModel::Queue), u"2 / 1"_s);
        QCOMPARE(text(NodesModel::KvCache), u"42 %"_s);
        QCOMPARE(text(NodesModel::TokensPerSec), u"27.5"_s);
        QCOMPARE(text(NodesModel::RequestsPerSec), u"0.40"_s);
        QCOMPARE(text(NodesModel::LatencyP95), u"1.23 s"_s);
        QCOMPARE(text(NodesModel::ErrorRate), u"25 %"_s);
        QCOMPARE(text(NodesModel::LastCheck), u"\u2014"_s);
        QVERIFY(model.index(row, NodesModel::State).data(Qt::ToolTipRole).toString().contains(u"all attempts failed"_s));
        QVERIFY(!model.index(row, NodesModel::State).data(Qt::DecorationRole).value<QIcon>().isNull());
        QCOMPARE(model.index(row, NodesModel::Weight).data(NodesModel::NodeNameRole).toString(), u"b"_s);
        QCOMPARE(model.index(row, NodesModel::Weight).data(NodesModel::StateRole).toInt(), int(NodeState::Down));
        QVERIFY(model.index(row, 0).data(Qt::BackgroundRole).isValid()); // down rows are tinted
        QVERIFY(!model.index(0, 0).data(Qt::BackgroundRole).isValid());
        // Unmeasured values are a dash, not a zero.
        QCOMPARE(model.index(0, NodesModel::Queue).data().toString(), u"\u2014"_s);
        QCOMPARE(model.index(0, NodesModel::KvCache).data().toString(), u"\u2014"_s);
        QCOMPARE(model.index(0, NodesModel::LatencyP95).data().toString(), u"\u2014"_s);
        for (int c = 0; c < NodesModel::ColumnCount; ++c)
            QVERIFY(!model.headerData(c, Qt::Horizontal).toString().isEmpty());

        // A config change: "a" goes, "c" comes: one removal, one insertion, no reset.
        model.setNodes({b, node(u"c"_s)});
        QCOMPARE(removed.size(), 1);
        QCOMPARE(removed.first().at(1).toInt(), 0);
        QCOMPARE(inserted.size(), 2);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.rowOf(u"b"_s), 0);
        QCOMPARE(model.rowOf(u"c"_s), 1);
        QCOMPARE(reset.size(), 0);

        model.setNodes({});
        QCOMPARE(model.rowCount(), 0);
    }

    void requestsModelIsBounded()
    {
        RequestsModel model(nullptr, 5);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);

        model.append({record(1), record(2), record(3)});
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(inserted.size(), 1);
        QCOMPARE(removed.size(), 0);

        model.append({record(4), record(5), record(6), record(7)});
        QCOMPARE(model.rowCount(), 5);
        QCOMPARE(removed.size(), 1);
        QCOMPARE(removed.first().at(1).toInt(), 0);
        QCOMPARE(removed.first().at(2).toInt(), 1); // the two oldest
        QCOMPARE(model.record(0)->durationMs, 103);
        QCOMPARE(model.record(4)->durationMs, 107);

        // More than the capacity at once: only the newest fit.
        QList<stats::RequestRecord> many;
        for (int i = 10; i < 30; ++i)
            many.append(record(i));
        model.append(many);
        QCOMPARE(model.rowCount(), 5);
        QCOMPARE(model.record(0)->durationMs, 125);
        QCOMPARE(model.record(4)->durationMs, 129);

        QCOMPARE(model.index(0, RequestsModel::Status).data().toString(), u"200"_s);
        QCOMPARE(model.index(0, RequestsModel::Tokens).data().toString(), u"10 \u2192 20"_s);
        QCOMPARE(model.index(0, RequestsModel::Ttft).data().toString(), u"\u2014"_s);
        QVERIFY(model.index(0, RequestsModel::Endpoint).data().toString().startsWith(u"POST /v1/chat/completions"_s));
        QVERIFY(RequestsModel::describe(*model.record(0)).contains(u"Completion tokens: 20"_s));

        model.setCapacity(2);
        QCOMPARE(model.rowCount(), 2);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void requestsFilter()
    {
        RequestsModel model(nullptr, 100);
        RequestsFilterModel filter;
        filter.setSourceModel(&model);
        QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
        filter.sort(RequestsModel::Time, Qt::DescendingOrder);
        model.append({record(1, 200, u"vllm-server1"_s), record(2, 502, u"vllm-server2"_s), record(3, 200, u"vllm-server2"_s)});
        QCOMPARE(filter.rowCount(), 3);
        // Newest first.
        QCOMPARE(filter.index(0, RequestsModel::Duration).data(RequestsModel::SortRole).toLongLong(), 103);
        filter.setText(u"server2"_s);
        QCOMPARE(filter.rowCount(), 2);
        filter.setFailuresOnly(true);
        QCOMPARE(filter.rowCount(), 1);
        QCOMPARE(filter.index(0, RequestsModel::Status).data().toString(), u"502"_s);
        filter.setText(u"SERVER2 no"_s); // words, case-insensitive, all must match
        QCOMPARE(filter.rowCount(), 1);
        filter.setText(u"server1"_s);
        QCOMPARE(filter.rowCount(), 0);
        filter.setFailuresOnly(false);
        QCOMPARE(filter.rowCount(), 1);
        // New rows pass through the filter too.
        model.append({record(4, 200, u"vllm-server1"_s)});
        QCOMPARE(filter.rowCount(), 2);
    }

    void requestsViewTakesABurstQuickly()
    {
        // A tick's worth of records at thousands of requests per second lands in one append.
        RequestsView view;
        view.filter()->setText(u"server"_s);
        QList<stats::RequestRecord> burst;
        for (int i = 0; i < 5000; ++i)
            burst.append(record(i, i % 10 == 0 ? 502 : 200, i % 2 ? u"vllm-server1"_s : u"vllm-server2"_s));
        QElapsedTimer t;
        t.start();
        view.append(burst);
        view.append(burst);
        const qint64 ms = t.elapsed();
        qInfo() << "two bursts of 5000 records:" << ms << "ms";
        QCOMPARE(view.model()->rowCount(), RequestsModel::DefaultCapacity);
        QCOMPARE(view.filter()->rowCount(), RequestsModel::DefaultCapacity);
        QVERIFY2(ms < 1000, "appending a burst must not stall the GUI");
    }
};

QTEST_MAIN(TestUiModels)
#include "tst_uimodels.moc"
