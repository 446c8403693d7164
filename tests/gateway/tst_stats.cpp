// The statistics that reach the panel and scripts: the per-second history of the last hour, and the
// request log that worker threads write without waiting on each other — as units, then through a real
// gateway in front of simulated nodes (/api/history, /api/requests).

#include "common/testhttpclient.h"
#include "gateway/gatewayfixture.h"
#include "stats/recentrequests.h"
#include "stats/secondshistory.h"

#include <QMutex>
#include <QSet>
#include <QTest>
#include <QThread>
#include <nlohmann/json.hpp>

using namespace switchyard;
using namespace switchyard::testing;
using stats::CumulativeSample;
using stats::SecondsHistory;

namespace {

CumulativeSample counts(qint64 requests, qint64 completionTokens = 0)
{
    CumulativeSample c;
    c.requests = requests;
    c.completionTokens = completionTokens;
    return c;
}

stats::RequestRecord recordFor(int n)
{
    stats::RequestRecord r;
    r.model = QStringLiteral("model-%1").arg(n);
    r.node = QStringLiteral("node-%1").arg(n % 7);
    r.status = 200;
    r.durationMs = n;
    return r;
}

} // namespace

class TestStats final : public QObject
{
    Q_OBJECT

private slots:
    // The headless log's line is read by people and by scripts (grep, awk on key=value): its fields,
    // their order, quoting of a route with a space, '"' turned into '\'' inside quotes, '-' for an
    // empty model or node, and text beyond ASCII kept as UTF-8.
    void logLineKeepsItsFormat()
    {
        stats::RequestRecord r;
        r.method = "POST";
        r.path = "/v1/chat/completions";
        r.model = QStringLiteral("qwen/qwen3-8b");
        r.node = QStringLiteral("spark-b");
        r.route = QStringLiteral("prefix 87%");
        r.status = 200;
        r.attempts = 3;
        r.stream = true;
        r.ttftMs = 41;
        r.durationMs = 1234;
        r.promptTokens = 120;
        r.completionTokens = 0;
        stats::Attempt timeout;
        timeout.node = QStringLiteral("spark-a");
        timeout.outcome = stats::Attempt::Outcome::Timeout;
        stats::Attempt error;
        error.node = QStringLiteral("spark-c");
        error.status = 503;
        error.outcome = stats::Attempt::Outcome::ErrorStatus;
        stats::Attempt answered;
        answered.node = QStringLiteral("spark-b");
        answered.status = 200;
        answered.outcome = stats::Attempt::Outcome::Answered;
        r.tried = {timeout, error, answered};
        r.error = QStringLiteral("cut: node said \"bye\" — über");
        QCOMPARE(r.toLogLine(),
                 QStringLiteral("POST /v1/chat/completions model=qwen/qwen3-8b node=spark-b status=200 attempts=3 "
                                "tried=spark-a:timeout,spark-c:503,spark-b:200 route=\"prefix 87%\" stream=1 "
                                "ttft_ms=41 duration_ms=1234 prompt_tokens=120 completion_tokens=0 "
                                "error=\"cut: node said 'bye' — über\""));

        stats::RequestRecord local;
        local.method = "GET";
        local.path = "/v1/models";
        local.status = 401;
        local.attempts = 0;
        QCOMPARE(local.toLogLine(),
                 QStringLiteral("GET /v1/models model=- node=- status=401 attempts=0 stream=0 ttft_ms=- "
                                "duration_ms=0 prompt_tokens=- completion_tokens=-"));

        // A long error goes whole (the stack buffer spills into the line), route without a space unquoted.
        r.route = QStringLiteral("weighted");
        r.error = QString(2000, u'x');
        const QString line = r.toLogLine();
        QVERIFY(line.contains(QStringLiteral(" route=weighted ")));
        QVERIFY(line.endsWith(QStringLiteral("error=\"") + QString(2000, u'x') + u'"'));
    }

    void historyTurnsCountersIntoRates()
    {
        SecondsHistory h;
        const QString a = QStringLiteral("a");
        h.record(1000, {{a, counts(10, 100)}}); // baseline only
        QVERIFY(h.last(a, 60).isEmpty());
        h.record(1001, {{a, counts(15, 160)}});
        h.record(1001, {{a, counts(17, 180)}}); // a second sample within the same second…
        h.record(1002, {{a, counts(20, 200)}}); // …loses nothing: 1001→1002 counts from 15
        const QList<stats::SecondSample> s = h.last(a, 60);
        QCOMPARE(s.size(), 2);
        QCOMPARE(s[0].second, 1001);
        QCOMPARE(s[0].requests, 5.0f);
        QCOMPARE(s[0].completionTokens, 60.0f);
        QCOMPARE(s[1].requests, 5.0f);
        QCOMPARE(s[1].completionTokens, 40.0f);
        QCOMPARE(s[1].latencyP50Ms, -1.0f); // nothing finished: no latency, not zero

        // A stalled sampler: 4 seconds later, 40 requests are spread as 10/s over each second.
        h.record(1006, {{a, counts(60)}});
        const QList<stats::SecondSample> g = h.last(a, 4);
        QCOMPARE(g.size(), 4);
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(g[i].second, 1003 + i);
            QCOMPARE(g[i].requests, 10.0f);
        }
        // A series no longer given is dropped (the node left the config).
        h.record(1007, {{QStringLiteral("b"), counts(1)}});
        QVERIFY(h.last(a, 60).isEmpty());
        QCOMPARE(h.seriesNames(), QStringList{QStringLiteral("b")});
    }

    void historyKeepsOneHourInFixedMemory()
    {
        SecondsHistory h;
        const QString a = QStringLiteral("a");
        for (qint64 t = 0; t <= SecondsHistory::Capacity + 500; ++t)
            h.record(t, {{a, counts(t * 2)}});
        const QList<stats::SecondSample> s = h.last(a, 100000);
        QCOMPARE(s.size(), SecondsHistory::Capacity);
        QCOMPARE(s.last().second, SecondsHistory::Capacity + 500);
        QCOMPARE(s.first().second, 501);
        QCOMPARE(s.first().requests, 2.0f);
    }

    void historyLatencyFromHistogramDifference()
    {
        SecondsHistory h;
        stats::Histogram lat;
        for (int i = 0; i < 100; ++i)
            lat.record(2000); // an old, slow period…
        CumulativeSample c;
        c.latency = lat.snapshot();
        h.record(10, {{QStringLiteral("n"), c}});
        for (int i = 0; i < 10; ++i)
            lat.record(30); // …does not colour this second
        c.latency = lat.snapshot();
        h.record(11, {{QStringLiteral("n"), c}});
        const float p50 = h.last(QStringLiteral("n"), 1).value(0).latencyP50Ms;
        QVERIFY2(p50 > 25 && p50 <= 50, qPrintable(QString::number(p50)));
    }

    void requestLogFollowsWithCursor()
    {
        stats::RecentRequests log(8);
        QCOMPARE(log.since(0, 100).records.size(), 0);
        for (int i = 1; i <= 5; ++i)
            QCOMPARE(log.append(recordFor(i)), quint64(i));
        stats::RecentRequests::Page p = log.since(0, 100);
        QCOMPARE(p.records.size(), 5);
        QCOMPARE(p.records.first().durationMs, 1);
        QCOMPARE(p.cursor, 5u);
        p = log.since(3, 100);
        QCOMPARE(p.records.size(), 2);
        QCOMPARE(p.records.first().durationMs, 4);
        // The ring wraps: a reader that fell behind learns how many it missed.
        for (int i = 6; i <= 20; ++i)
            log.append(recordFor(i));
        p = log.since(5, 100);
        QCOMPARE(p.missed, 7u); // 6…12 are gone, 13…20 kept
        QCOMPARE(p.records.size(), 8);
        QCOMPARE(p.records.first().durationMs, 13);
        QCOMPARE(p.records.last().durationMs, 20);
        // max keeps the newest.
        QCOMPARE(log.latest(3).first().durationMs, 18);
        QCOMPARE(log.since(20, 10).records.size(), 0);
        QCOMPARE(log.since(20, 10).cursor, 20u);
    }

    void requestLogTakesConcurrentWritersAndReaders()
    {
        // Four writers and a reader at once: every record read is whole (its fields belong together)
        // and appears in sequence order; nothing is duplicated.
        stats::RecentRequests log(256);
        constexpr int PerWriter = 20000;
        std::atomic<bool> stop{false};
        std::atomic<int> torn{0}, outOfOrder{0};
        std::atomic<qint64> read{0};
        QThread *reader = QThread::create([&] {
            quint64 cursor = 0;
            while (!stop.load()) {
                const auto page = log.since(cursor, 256);
                qint64 prev = -1;
                for (const stats::RequestRecord &r : page.records) {
                    if (r.model != QStringLiteral("model-%1").arg(r.durationMs))
                        ++torn;
                    if (r.durationMs <= prev && r.durationMs / PerWriter == prev / PerWriter)
                        ++outOfOrder;
                    prev = r.durationMs;
                }
                read += page.records.size();
                cursor = page.cursor;
            }
        });
        reader->start();
        std::vector<QThread *> writers;
        for (int w = 0; w < 4; ++w) {
            writers.push_back(QThread::create([&log, w] {
                for (int i = 0; i < PerWriter; ++i)
                    log.append(recordFor(w * PerWriter + i));
            }));
            writers.back()->start();
        }
        for (QThread *t : writers) {
            QVERIFY(t->wait(60000));
            delete t;
        }
        stop = true;
        QVERIFY(reader->wait(10000));
        delete reader;
        QCOMPARE(torn.load(), 0);
        QCOMPARE(log.lastSequence(), quint64(4 * PerWriter));
        QVERIFY(read.load() > 0);
        const QList<stats::RequestRecord> last = log.latest(256);
        QCOMPARE(last.size(), 256);
        QSet<qint64> seen;
        for (const stats::RequestRecord &r : last)
            seen.insert(r.durationMs);
        QCOMPARE(seen.size(), 256);
    }

    void historyAndLogOverHttp()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a"), QStringLiteral("b")}));
        for (int i = 0; i < 6; ++i)
            QCOMPARE(request(f.port, "POST", "/v1/chat/completions", chatBody("m1")).status, 200);

        // The log, followed with a cursor.
        TestResponse r = request(f.port, "GET", "/api/requests?max=4");
        QCOMPARE(r.status, 200);
        nlohmann::json j = nlohmann::json::parse(r.body.toStdString());
        QCOMPARE(j["requests"].size(), size_t(4));
        QCOMPARE(j["cursor"].get<int>(), 6);
        QCOMPARE(j["requests"][3]["status"].get<int>(), 200);
        QCOMPARE(j["requests"][3]["model"].get<std::string>(), std::string("m1"));
        QCOMPARE(request(f.port, "POST", "/v1/chat/completions", chatBody("m1")).status, 200);
        j = nlohmann::json::parse(request(f.port, "GET", "/api/requests?after=6").body.toStdString());
        QCOMPARE(j["requests"].size(), size_t(1));
        QCOMPARE(j["cursor"].get<int>(), 7);

        // The history: after the sampler has run across the requests, the per-second rates of the two
        // nodes add up to the 7 requests sent.
        auto sumOf = [&](const char *series) {
            const TestResponse h = request(f.port, "GET", "/api/history?seconds=60");
            const nlohmann::json doc = nlohmann::json::parse(h.body.toStdString());
            double sum = 0;
            if (doc["series"].contains(series)) {
                for (const auto &v : doc["series"][series]["requests_per_s"])
                    sum += v.get<double>();
            }
            return sum;
        };
        QTRY_COMPARE_WITH_TIMEOUT(sumOf("a") + sumOf("b"), 7.0, 5000);
        QTRY_COMPARE_WITH_TIMEOUT(sumOf("*"), 7.0, 5000);
        QCOMPARE(f.gateway.history(QStringLiteral("*"), 3600).isEmpty(), false);
        QCOMPARE(request(f.port, "POST", "/api/history").status, 405);
    }

    // A node answering 500 behind a healthy one: the request the client sees answered lists both nodes,
    // the failed one first with what it said; the log line, /api/requests and the per-second history
    // (failed attempts apart from failed requests) all show the failover.
    void failedOverRequestListsEveryNodeTried()
    {
        GatewayFixture f;
        QStringList lines;
        QMutex mutex;
        f.gateway.setRequestLogger([&](const stats::RequestRecord &r) {
            QMutexLocker l(&mutex);
            lines << r.toLogLine();
        });
        QVERIFY(f.start({QStringLiteral("a"), QStringLiteral("b")}));
        f.node(1).setFault(sim::FaultMode::Error500);
        // Weighted round robin over two equal nodes: one of the first two requests goes to b first.
        for (int i = 0; i < 4; ++i)
            QCOMPARE(request(f.port, "POST", "/v1/chat/completions", chatBody("m1")).status, 200);

        QTRY_COMPARE_WITH_TIMEOUT(f.gateway.recentRequests().size(), 4, 2000);
        const QList<stats::RequestRecord> records = f.gateway.recentRequests();
        const auto failover = std::find_if(records.begin(), records.end(),
                                           [](const stats::RequestRecord &r) { return r.attempts == 2; });
        QVERIFY(failover != records.end());
        const stats::RequestRecord &r = *failover;
        QCOMPARE(r.node, QStringLiteral("a"));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.tried.size(), 2);
        const stats::Attempt &failed = r.tried[0];
        QCOMPARE(failed.node, QStringLiteral("b"));
        QCOMPARE(failed.status, 500);
        QCOMPARE(failed.outcome, stats::Attempt::Outcome::ErrorStatus);
        QVERIFY2(failed.reason.startsWith(QStringLiteral("HTTP 500")), qPrintable(failed.reason));
        QVERIFY(failed.failed());
        const stats::Attempt &answered = r.tried[1];
        QCOMPARE(answered.node, QStringLiteral("a"));
        QCOMPARE(answered.status, 200);
        QCOMPARE(answered.outcome, stats::Attempt::Outcome::Answered);
        QCOMPARE(answered.via, stats::Attempt::Via::Candidate);
        QVERIFY(answered.startMs >= failed.startMs + failed.durationMs);
        QVERIFY(answered.startMs + answered.durationMs <= r.durationMs);
        {
            QMutexLocker l(&mutex);
            QVERIFY(std::any_of(lines.begin(), lines.end(), [](const QString &line) {
                return line.contains(QStringLiteral("attempts=2 tried=b:500,a:200"));
            }));
        }
        // A request with one attempt lists that one.
        const auto single = std::find_if(records.begin(), records.end(),
                                         [](const stats::RequestRecord &x) { return x.attempts == 1; });
        QVERIFY(single != records.end());
        QCOMPARE(single->tried.size(), 1);
        QCOMPARE(single->tried[0].outcome, stats::Attempt::Outcome::Answered);

        // The same over the management API.
        const nlohmann::json page = nlohmann::json::parse(request(f.port, "GET", "/api/requests").body.toStdString());
        int failoversSeen = 0;
        for (const auto &rec : page["requests"]) {
            if (rec["attempts"].get<int>() != 2)
                continue;
            ++failoversSeen;
            QCOMPARE(rec["tried"].size(), size_t(2));
            QCOMPARE(rec["tried"][0]["node"].get<std::string>(), std::string("b"));
            QCOMPARE(rec["tried"][0]["status"].get<int>(), 500);
            QCOMPARE(rec["tried"][0]["outcome"].get<std::string>(), std::string("error_status"));
            QVERIFY(rec["tried"][0]["reason"].get<std::string>().find("500") != std::string::npos);
            QCOMPARE(rec["tried"][1]["node"].get<std::string>(), std::string("a"));
            QCOMPARE(rec["tried"][1]["outcome"].get<std::string>(), std::string("answered"));
        }
        QVERIFY(failoversSeen >= 1);

        // The history: every failed attempt of b is counted, and no request failed.
        int failedAttempts = 0;
        for (const stats::RequestRecord &x : records)
            failedAttempts += int(std::count_if(x.tried.begin(), x.tried.end(),
                                                [](const stats::Attempt &a) { return a.failed(); }));
        auto sumOf = [&](const char *column) {
            const nlohmann::json doc =
                nlohmann::json::parse(request(f.port, "GET", "/api/history?seconds=60").body.toStdString());
            double sum = 0;
            if (doc["series"].contains("*")) {
                for (const auto &v : doc["series"]["*"][column])
                    sum += v.get<double>();
            }
            return qRound(sum);
        };
        QTRY_COMPARE_WITH_TIMEOUT(sumOf("requests_per_s"), 4, 5000);
        QTRY_COMPARE_WITH_TIMEOUT(sumOf("failed_attempts_per_s"), failedAttempts, 5000);
        QCOMPARE(sumOf("errors_per_s"), 0);
    }

    // A client that hangs up mid-stream: the record says so (499, the attempt ended by the client) and
    // the node's failure count is untouched — it did nothing wrong.
    void clientAbortIsNoFailureOfTheNode()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}, {}, [](sim::SimNodeOptions &o) { o.performance.tokensPerSecond = 20; }));
        {
            TestClient client(f.port);
            client.send("POST", "/v1/chat/completions", chatBody("m1", 200, true));
            const TestResponse head = client.readHead();
            QCOMPARE(head.status, 200);
        } // closed mid-stream
        QTRY_VERIFY_WITH_TIMEOUT(!f.gateway.recentRequests().isEmpty(), 5000);
        const stats::RequestRecord r = f.gateway.recentRequests().last();
        QCOMPARE(r.status, 499);
        QCOMPARE(r.tried.size(), 1);
        QCOMPARE(r.tried[0].outcome, stats::Attempt::Outcome::ClientClosed);
        QVERIFY(!r.tried[0].failed());
        QCOMPARE(r.tried[0].status, 200);
        const nlohmann::json metrics = nlohmann::json::parse(request(f.port, "GET", "/api/status").body.toStdString());
        for (const auto &n : metrics["nodes"])
            QCOMPARE(n["failures"].get<int>(), 0);
    }

    // A stream the node cuts after its 200: one failed attempt, and a failed request — the client
    // did not get its answer, whatever status was logged.
    void streamCutMidAnswerIsAFailedRequest()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}));
        f.node(0).setFault(sim::FaultMode::DropStream);
        const TestResponse resp = request(f.port, "POST", "/v1/chat/completions", chatBody("m1", 50, true));
        QCOMPARE(resp.status, 200);
        QTRY_VERIFY_WITH_TIMEOUT(!f.gateway.recentRequests().isEmpty(), 5000);
        const stats::RequestRecord r = f.gateway.recentRequests().last();
        QVERIFY(r.cutMidAnswer());
        QCOMPARE(r.tried.size(), 1);
        QCOMPARE(r.tried[0].outcome, stats::Attempt::Outcome::Cut);
        QVERIFY(r.tried[0].failed());
        QTRY_COMPARE_WITH_TIMEOUT(f.gateway.snapshot().errorsTotal, qint64(1), 2000);
    }
};

QTEST_GUILESS_MAIN(TestStats)
#include "tst_stats.moc"
