// The panel's non-widget pieces: ring buffer, metric history, how a node's status is described, the
// recent errors per node, the indicator, and the two table models (checked with
// QAbstractItemModelTester and QSignalSpy).
#include "metrichistory.h"
#include "nodedescription.h"
#include "nodesmodel.h"
#include "nodestate.h"
#include "recenterrors.h"
#include "requestsmodel.h"
#include "requestsview.h"
#include "ringbuffer.h"
#include "statusicons.h"

#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QIcon>
#include <QSignalSpy>
#include <QPlainTextEdit>
#include <QTableView>
#include <QTest>

using namespace switchyard;
using namespace switchyard::ui;
using namespace Qt::Literals::StringLiterals;

namespace {

using health::NodeState;

NodeRow node(const QString &name, NodeState state = NodeState::Healthy, const QString &reason = u"fine"_s)
{
    NodeRow n;
    n.status.name = name;
    n.status.baseUrl = u"http://10.0.0.1:8000"_s;
    n.status.models = {u"m1"_s};
    n.status.weight = 1;
    n.status.state = state;
    n.description.reason = reason;
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

// b answered 500, then a answered: what a failover leaves in the log.
stats::RequestRecord failedOver(int i, qint64 completionTokens, qint64 ttftMs, qint64 durationMs)
{
    stats::RequestRecord r = record(i, 200, u"a"_s);
    r.attempts = 2;
    r.stream = true;
    r.completionTokens = completionTokens;
    r.ttftMs = ttftMs;
    r.durationMs = durationMs;
    r.attemptStarted(u"b"_s, stats::Attempt::Via::Candidate, {}, 0);
    r.attemptEnded(stats::Attempt::Outcome::ErrorStatus, 500, u"HTTP 500: engine overloaded"_s, 12);
    r.attemptStarted(u"a"_s, stats::Attempt::Via::Candidate, {}, 12);
    r.attemptAnswered(200);
    r.attemptEnded(stats::Attempt::Outcome::Answered, 200, {}, durationMs);
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

    void trafficIsDescribed_data()
    {
        QTest::addColumn<qint64>("attempts");
        QTest::addColumn<qint64>("inFlight");
        QTest::addColumn<double>("errorRate"); // < 0: none in the window
        QTest::addColumn<QString>("reasonPart");
        QTest::newRow("no traffic") << 0LL << 0LL << -1.0 << u"No traffic yet"_s;
        QTest::newRow("idle") << 12LL << 0LL << -1.0 << u"No requests finished in the last 30 s"_s;
        QTest::newRow("in flight") << 12LL << 2LL << -1.0 << u"In flight: 2"_s;
        QTest::newRow("healthy") << 10LL << 0LL << 0.0 << u"0 % of the attempts in the last 30 s failed"_s;
        QTest::newRow("degraded") << 10LL << 0LL << 0.25 << u"25 % of the attempts in the last 30 s failed"_s;
    }
    void trafficIsDescribed()
    {
        QFETCH(qint64, attempts);
        QFETCH(qint64, inFlight);
        QFETCH(double, errorRate);
        QFETCH(QString, reasonPart);
        link::NodeStatus n;
        n.name = u"a"_s;
        n.attempts = attempts;
        n.inFlight = inFlight;
        if (errorRate >= 0)
            n.errorRate = errorRate;
        const NodeDescription d = NodeDescriber::describe(n);
        QVERIFY2(d.reason.contains(reasonPart), qPrintable(d.reason));
        QVERIFY(d.reason.contains(u"Not checked yet"_s));
        QVERIFY(d.metrics.isEmpty()); // not measured: nothing invented
    }

    void gatewayVerdictIsDescribed()
    {
        link::NodeStatus n;
        n.name = u"a"_s;
        n.state = NodeState::Down;
        n.reason = u"connection refused"_s;
        n.lastCheckMsSinceEpoch = 1'700'000'000'000;
        n.running = 3;
        n.waiting = 1;
        n.kvCacheUsage = 0.5;
        n.attempts = 2;
        n.failures = 2;
        n.errorRate = 1.0;
        NodeDescription d = NodeDescriber::describe(n);
        QVERIFY(d.reason.startsWith(u"Gateway: connection refused"_s));
        QVERIFY2(d.reason.contains(u"100 % of the attempts in the last 30 s failed."_s), qPrintable(d.reason));
        auto metric = [&d](const QString &label) {
            for (const auto &m : d.metrics) {
                if (m.first == label)
                    return m.second;
            }
            return QString();
        };
        QCOMPARE(metric(u"Requests running"_s), u"3"_s);
        QCOMPARE(metric(u"Requests waiting"_s), u"1"_s);
        QCOMPARE(metric(u"KV cache usage"_s), u"50.0 %"_s);

        // Checked, without vLLM gauges: said so, no numbers invented.
        link::NodeStatus plain;
        plain.name = u"b"_s;
        plain.state = NodeState::Healthy;
        plain.lastCheckMsSinceEpoch = 1'700'000'000'000;
        d = NodeDescriber::describe(plain);
        QVERIFY(d.reason.startsWith(u"Answers its health checks."_s));
        QCOMPARE(metric(u"/metrics"_s), u"no vLLM gauges"_s);
        QVERIFY(metric(u"Requests running"_s).isEmpty());

        QCOMPARE(nodeStateText(NodeState::Recovering), u"Recovering"_s);
        QCOMPARE(nodeStateText(NodeState::Draining), u"Draining"_s);
        QVERIFY(nodeStateSeverity(NodeState::Down) > nodeStateSeverity(NodeState::Degraded));
    }

    void recentErrorsAreBounded()
    {
        RecentErrors errors;
        QList<stats::RequestRecord> records;
        for (int i = 0; i < 50; ++i)
            records << record(i, i % 2 ? 502 : 200, u"a"_s);
        stats::RequestRecord own = record(99, 404, QString()); // answered by the gateway itself
        records << own;
        errors.add(records);
        const QList<stats::RequestRecord> a = errors.of(u"a"_s);
        QCOMPARE(a.size(), RecentErrors::PerNode);
        QCOMPARE(a.last().durationMs, 149); // the newest kept, oldest first
        QVERIFY(std::all_of(a.begin(), a.end(), [](const stats::RequestRecord &r) { return r.status == 502; }));
        QVERIFY(errors.of(QString()).isEmpty());
        for (int n = 0; n < RecentErrors::MaxNodes + 10; ++n)
            errors.add({record(n, 500, u"node-%1"_s.arg(n))});
        QVERIFY(errors.of(u"node-0"_s).isEmpty()); // the node heard of longest ago is forgotten
        QCOMPARE(errors.of(u"node-%1"_s.arg(RecentErrors::MaxNodes + 9)).size(), 1);
        errors.keepOnly({u"node-300"_s});
        QVERIFY(errors.of(u"node-265"_s).isEmpty());
    }

    void indicator()
    {
        std::optional<link::GatewayStatus> none;
        link::LinkStatus connected;
        connected.state = link::LinkState::Connected;
        link::GatewayStatus s;
        QCOMPARE(gatewayIndicator(s, connected, false), GatewayIndicator::Off);
        QCOMPARE(gatewayIndicator(s, connected, true), GatewayIndicator::Failed);
        s.running = true;
        s.accepting = true;
        s.nodes = {node(u"a"_s).status};
        QCOMPARE(gatewayIndicator(s, connected, true), GatewayIndicator::Running);
        s.nodes.first().state = NodeState::Down;
        QCOMPARE(gatewayIndicator(s, connected, false), GatewayIndicator::NodeDown);
        s.nodes.first().draining = true; // drained on purpose: not a warning
        QCOMPARE(gatewayIndicator(s, connected, false), GatewayIndicator::Running);
        s.accepting = false;
        QCOMPARE(gatewayIndicator(s, connected, false), GatewayIndicator::Paused);
        s.stopping = true;
        QCOMPARE(gatewayIndicator(s, connected, false), GatewayIndicator::Stopping);
        // A gateway the link cannot see is shown as such, whatever it said last.
        link::LinkStatus lost;
        lost.state = link::LinkState::Unreachable;
        lost.reason = u"connection refused"_s;
        lost.retryInMs = 2500;
        QCOMPARE(gatewayIndicator(s, lost, false), GatewayIndicator::Unreachable);
        QCOMPARE(gatewayIndicator(none, link::LinkStatus{}, false), GatewayIndicator::Connecting);
        QCOMPARE(linkStateText(lost), u"Unreachable: connection refused (next try in 3 s)"_s);
        QVERIFY(gatewayIndicatorColor(GatewayIndicator::NodeDown) != gatewayIndicatorColor(GatewayIndicator::Running));
        QVERIFY(!gatewayIndicatorIcon(GatewayIndicator::Off).isNull());
        QVERIFY(!gatewayIndicatorIcon(GatewayIndicator::Unreachable).isNull());
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
        NodeRow b = node(u"b"_s, NodeState::Down, u"all attempts failed"_s);
        b.status.rates.tokensPerSecond = 27.5;
        b.status.rates.requestsPerSecond = 0.4;
        b.status.errorRate = 0.25;
        b.status.window.latencyP95Ms = 1234;
        b.status.inFlight = 3;
        b.status.running = 2;
        b.status.waiting = 1;
        b.status.kvCacheUsage = 0.42;
        b.status.prefixCacheHitRate = 0.875;
        b.status.models = {u"m1"_s, u"m2"_s, u"m1"_s}; // once per key: named once
        model.setNodes({node(u"a"_s), b});
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed.first().at(0).toModelIndex(), model.index(0, 0));
        QCOMPARE(changed.first().at(1).toModelIndex(), model.index(1, NodesModel::ColumnCount - 1));
        QCOMPARE(inserted.size(), 1);
        QCOMPARE(removed.size(), 0);

        const int row = model.rowOf(u"b"_s);
        QCOMPARE(row, 1);
        auto text = [&](int column) { return model.index(row, column).data().toString(); };
        QCOMPARE(text(NodesModel::State), nodeStateText(NodeState::Down));
        QCOMPARE(text(NodesModel::Models), u"m1, m2"_s);
        QCOMPARE(text(NodesModel::Name), u"b"_s);
        QCOMPARE(text(NodesModel::InFlight), u"3"_s);
        QCOMPARE(text(NodesModel::Queue), u"2 / 1"_s);
        QCOMPARE(text(NodesModel::KvCache), u"42 %"_s);
        QCOMPARE(text(NodesModel::CacheHits), u"88 %"_s);
        b.status.predictedPrefixHitRate = 0.8; // cache_aware: the gateway's prediction beside the node's rate
        model.setNodes({node(u"a"_s), b});
        QCOMPARE(text(NodesModel::CacheHits), u"88 % (80 % predicted)"_s);
        QCOMPARE(model.index(row, NodesModel::CacheHits).data(NodesModel::SortRole).toDouble(), 0.875);
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
        QCOMPARE(model.index(0, NodesModel::CacheHits).data().toString(), u"\u2014"_s); // no prefix counters
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

        // Why the request went where it went: its own column and a line of the detail.
        stats::RequestRecord routed = record(40);
        routed.route = u"prefix 87%"_s;
        model.append({routed});
        const int last = model.rowCount() - 1;
        QCOMPARE(model.index(last, RequestsModel::Route).data().toString(), u"prefix 87%"_s);
        QCOMPARE(model.index(0, RequestsModel::Route).data().toString(), u"\u2014"_s); // none recorded
        QVERIFY(RequestsModel::describe(*model.record(last)).contains(u"Routed by: prefix 87%"_s));
        QCOMPARE(RequestsModel::routeText(u"fallback: least outstanding"_s), u"fallback: least outstanding"_s);
        QCOMPARE(RequestsModel::routeText(u"something new"_s), u"something new"_s);
        QCOMPARE(RequestsModel::routeText(u"session, balance"_s), u"session, balance"_s);
        if (const QByteArray shots = qgetenv("SWITCHYARD_SCREENSHOT_DIR"); !shots.isEmpty()) {
            RequestsView view;
            QList<stats::RequestRecord> shown;
            const char *reasons[] = {"session", "prefix 87%", "balance", "fallback: weighted", "least loaded", "pinned"};
            for (int i = 0; i < 6; ++i) {
                stats::RequestRecord r = record(i);
                r.route = QString::fromLatin1(reasons[i]);
                r.node = i % 2 ? u"vllm-server2"_s : u"vllm-server1"_s;
                shown.append(r);
            }
            view.append(shown);
            view.resize(1280, 420);
            view.show();
            QVERIFY(view.grab().save(QString::fromLocal8Bit(shots) + u"/requests-route.png"_s));
        }

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

    // The detail of a failed-over request names every node tried with what it answered and how long it
    // took, and a 2-token answer shows no generation speed (a longer stream does).
    void requestDetailListsTheNodesTried()
    {
        const QString text = RequestsModel::describe(failedOver(1, 2, 50, 51));
        QVERIFY2(text.contains(u"Answered by: a\n"_s), qPrintable(text));
        QVERIFY2(text.contains(u"1. b: failed: HTTP 500: engine overloaded (12 ms)"_s), qPrintable(text));
        QVERIFY2(text.contains(u"2. a: answered 200 (39 ms)"_s), qPrintable(text));
        QVERIFY2(!text.contains(u"Generation speed"_s), qPrintable(text));
        QVERIFY(!text.contains(u"attempts:"_s));

        const QString stream = RequestsModel::describe(failedOver(2, 300, 100, 1100));
        QVERIFY2(stream.contains(u"Generation speed: 300.0 tokens/s"_s), qPrintable(stream));

        // A retry on a fallback model says so; a request every node failed says no node answered.
        stats::RequestRecord all = record(3, 502, u"b"_s);
        all.attempts = 2;
        all.attemptStarted(u"a"_s, stats::Attempt::Via::Candidate, {}, 0);
        all.attemptEnded(stats::Attempt::Outcome::ConnectionError, 0, u"connection refused"_s, 1);
        all.attemptStarted(u"b"_s, stats::Attempt::Via::Retry, u"m2"_s, 200);
        all.attemptEnded(stats::Attempt::Outcome::Timeout, 0, u"no response headers within 5 s"_s, 700);
        const QString failed = RequestsModel::describe(all);
        QVERIFY2(failed.contains(u"no node tried could answer"_s), qPrintable(failed));
        QVERIFY2(failed.contains(u"1. a: failed: connection refused (1 ms)"_s), qPrintable(failed));
        QVERIFY2(failed.contains(u"2. b (retry, fallback model m2): failed: no response headers within 5 s (500 ms)"_s),
                 qPrintable(failed));

        // The view shows the same, and nothing unfinished: no placeholder sentence, no disabled control.
        RequestsView view;
        view.append({failedOver(4, 2, 50, 51)});
        view.table()->setCurrentIndex(view.filter()->index(0, 0));
        QVERIFY(view.detail()->toPlainText().contains(u"1. b: failed"_s));
        QVERIFY(!view.detail()->toPlainText().contains(u"not recorded"_s));
        // (What the live page shows: the history page behind it waits for a search to enable Older.)
        const QList<QWidget *> children = view.findChildren<QWidget *>();
        QVERIFY(std::all_of(children.begin(), children.end(),
                            [&](QWidget *w) { return !w->isVisibleTo(&view) || w->isEnabled(); }));
    }

    // "Failures only" is what clients saw fail: a stream cut after its 200 is one, a request answered
    // after a failover is not.
    void failuresOnlyShowsCutStreams()
    {
        RequestsModel model(nullptr, 100);
        RequestsFilterModel filter;
        filter.setSourceModel(&model);
        stats::RequestRecord cut = record(1, 200, u"a"_s);
        cut.error = u"The node 'a' failed mid-response: connection reset"_s;
        model.append({cut, failedOver(2, 20, 10, 200), record(3, 200, u"a"_s), record(4, 504, u"a"_s)});
        filter.setFailuresOnly(true);
        QCOMPARE(filter.rowCount(), 2);
        QCOMPARE(model.index(0, RequestsModel::Status).data().toString(), u"200, cut"_s);
        QVERIFY(model.index(0, 0).data(RequestsModel::FailedRole).toBool());
        QVERIFY(!model.index(1, 0).data(RequestsModel::FailedRole).toBool());
        // The failed-over node is found by its name.
        filter.setFailuresOnly(false);
        filter.setText(u"b"_s);
        QCOMPARE(filter.rowCount(), 1);
    }

    // A node's recent errors include the attempts it failed that the gateway failed over, and never a
    // client closing its connection (counted apart).
    void recentErrorsIncludeFailoversNotClientAborts()
    {
        RecentErrors errors;
        stats::RequestRecord aborted = record(2, 499, u"a"_s);
        aborted.error = u"client closed the connection"_s;
        aborted.attemptStarted(u"a"_s, stats::Attempt::Via::Candidate, {}, 0);
        aborted.attemptEnded(stats::Attempt::Outcome::ClientClosed, 0, u"client closed the connection"_s, 30);
        stats::RequestRecord oldAbort = record(3, 499, u"a"_s); // from a gateway without attempts listed
        errors.add({failedOver(1, 20, 10, 200), aborted, oldAbort});
        const QList<stats::RequestRecord> b = errors.of(u"b"_s);
        QCOMPARE(b.size(), 1);
        QCOMPARE(b[0].status, 500);
        QVERIFY2(b[0].error.contains(u"engine overloaded"_s) && b[0].error.contains(u"failed over; a answered"_s),
                 qPrintable(b[0].error));
        QVERIFY2(!b[0].error.contains(u"HTTP 500"_s), qPrintable(b[0].error)); // the status is shown beside it
        QVERIFY(errors.of(u"a"_s).isEmpty());
        QCOMPARE(errors.clientClosed(u"a"_s), 2);
        QCOMPARE(errors.clientClosed(u"b"_s), 0);
        // A node retried after its own failure (a pinned request) is not "failed over".
        stats::RequestRecord pinned = record(4, 502, u"b"_s);
        pinned.attempts = 2;
        pinned.attemptStarted(u"b"_s, stats::Attempt::Via::Candidate, {}, 0);
        pinned.attemptEnded(stats::Attempt::Outcome::ErrorStatus, 503, u"HTTP 503"_s, 5);
        pinned.attemptStarted(u"b"_s, stats::Attempt::Via::Retry, {}, 100);
        pinned.attemptEnded(stats::Attempt::Outcome::ErrorStatus, 503, u"HTTP 503"_s, 105);
        errors.add({pinned});
        QCOMPARE(errors.of(u"b"_s).size(), 3);
        QVERIFY2(errors.of(u"b"_s)[1].error.contains(u"retried"_s), qPrintable(errors.of(u"b"_s)[1].error));
        QVERIFY(!errors.of(u"b"_s)[1].error.contains(u"failed over"_s));
        errors.keepOnly({u"b"_s});
        QCOMPARE(errors.clientClosed(u"a"_s), 0);
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
