// The management API's answers read back by the remote link (client/remote/managementwire): what the
// panel shows for an applied, stale or invalid config, a gateway of another major version, a body that
// is no status, a request log page and a history series.

#include "link/gatewaystatus.h"
#include "proxy/statusapi.h"
#include "remote/managementwire.h"

#include <QTest>
#include <QUrl>
#include <QUrlQuery>
#include <nlohmann/json.hpp>

using namespace Qt::Literals::StringLiterals;
using namespace switchyard;
using namespace switchyard::client;
using Outcome = link::ConfigPutResult::Outcome;

namespace {

QByteArray statusBody(const QString &version)
{
    link::GatewayStatus s;
    s.version = version;
    s.running = s.accepting = true;
    s.configHash = u"abc"_s;
    link::NodeStatus n;
    n.name = u"a"_s;
    n.baseUrl = u"http://127.0.0.1:1"_s;
    s.nodes.append(n);
    return QByteArray::fromStdString(link::toJson(s).dump());
}

} // namespace

class TestManagementWire final : public QObject
{
    Q_OBJECT

private slots:
    void statusOfTheSameMajorVersion()
    {
        const auto s = statusFromBody(statusBody(u"0.9.1"_s), u"0.1.0"_s);
        QVERIFY2(s.hasValue(), s.hasValue() ? "" : qPrintable(s.error()));
        QCOMPARE(s->nodes.size(), 1);
        QCOMPARE(s->configHash, u"abc"_s);
    }

    void anotherMajorVersionIsNamed()
    {
        const auto s = statusFromBody(statusBody(u"2.0.0"_s), u"0.1.0"_s);
        QVERIFY(!s.hasValue());
        QVERIFY2(s.error().contains(u"2.0.0"_s) && s.error().contains(u"0.1.0"_s), qPrintable(s.error()));
    }

    void notAStatus()
    {
        auto s = statusFromBody("<html>hi</html>", u"0.1.0"_s);
        QVERIFY(!s.hasValue());
        QVERIFY2(s.error().contains(u"not answer JSON"_s) && s.error().contains(u"<html>"_s), qPrintable(s.error()));
        s = statusFromBody(R"({"gateway":{}})", u"0.1.0"_s);
        QVERIFY(!s.hasValue());
        QVERIFY(s.error().contains(u"not a Switchyard status"_s));
    }

    void configPutOutcomes()
    {
        auto r = configPutResultOf(200, R"({"applied":true,"summary":"b reweighted","saved_to":"/etc/s.json","config_hash":"h2"})");
        QCOMPARE(r.outcome, Outcome::Applied);
        QCOMPARE(r.summary, u"b reweighted"_s);
        QCOMPARE(r.savedTo, u"/etc/s.json"_s);
        QCOMPARE(r.configHash, u"h2"_s);

        r = configPutResultOf(412, R"({"error":{"message":"The running config changed","code":"config_changed"},"config_hash":"h3"})");
        QCOMPARE(r.outcome, Outcome::Stale);
        QCOMPARE(r.reason, u"The running config changed"_s);
        QCOMPARE(r.configHash, u"h3"_s);

        r = configPutResultOf(422, R"({"error":{"message":"invalid"},"problems":[{"message":"m","text":"providers: required"}]})");
        QCOMPARE(r.outcome, Outcome::Invalid);
        QCOMPARE(r.problems, QStringList{u"providers: required"_s});

        r = configPutResultOf(503, R"({"error":{"message":"The gateway is shutting down"}})");
        QCOMPARE(r.outcome, Outcome::Failed);
        QVERIFY(r.reason.contains(u"503"_s) && r.reason.contains(u"shutting down"_s));
    }

    void entityTags()
    {
        QCOMPARE(unquotedEntityTag("\"abc\""), u"abc"_s);
        QCOMPARE(unquotedEntityTag(" W/\"abc\" "), u"abc"_s);
        QCOMPARE(unquotedEntityTag("abc"), u"abc"_s);
    }

    void requestsPage()
    {
        const auto p = parseRequestsPage(R"({"cursor":7,"missed":2,"requests":[{"started_ms_since_epoch":5,"method":"POST",
            "path":"/v1/chat/completions","model":"m1","node":"a","status":200,"attempts":1,"stream":true,"ttft_ms":null,
            "duration_ms":12,"prompt_tokens":3,"completion_tokens":null,"error":""}]})");
        QVERIFY(p.hasValue());
        QCOMPARE(p->cursor, quint64(7));
        QCOMPARE(p->missed, 2);
        QCOMPARE(p->records.size(), 1);
        QCOMPARE(p->records[0].node, u"a"_s);
        QCOMPARE(p->records[0].ttftMs, -1);
        QCOMPARE(p->records[0].promptTokens, 3);
        QVERIFY(p->records[0].stream);
        QVERIFY(!parseRequestsPage(R"({"requests":[]})").hasValue());
    }

    // What the gateway serves for a failed-over request reads back as the same attempts, and a page from
    // a gateway without the list (or with unknown words in it) still reads.
    void attemptsRoundTrip()
    {
        stats::GatewayStats gatewayStats;
        stats::RequestRecord r;
        r.startedMsSinceEpoch = 1000;
        r.method = "POST";
        r.path = "/v1/chat/completions";
        r.model = u"m1"_s;
        r.node = u"a"_s;
        r.status = 200;
        r.attempts = 3;
        r.attemptStarted(u"b"_s, stats::Attempt::Via::Candidate, {}, 0);
        r.attemptEnded(stats::Attempt::Outcome::ErrorStatus, 500, u"HTTP 500: engine overloaded"_s, 12);
        r.attemptStarted(u"c"_s, stats::Attempt::Via::LastResort, {}, 12);
        r.attemptEnded(stats::Attempt::Outcome::Timeout, 0, u"connect timed out after 2 s"_s, 2012);
        r.attemptStarted(u"a"_s, stats::Attempt::Via::Retry, u"m2"_s, 2100);
        r.attemptAnswered(200);
        r.attemptEnded(stats::Attempt::Outcome::Answered, 200, {}, 2400);
        gatewayStats.recordRequest(r);

        const proxy::LocalResponse served = proxy::requestsResponse(gatewayStats, "/api/requests");
        QCOMPARE(served.status, 200);
        const auto page = parseRequestsPage(served.body);
        QVERIFY(page.hasValue());
        QCOMPARE(page->records.size(), 1);
        const stats::RequestRecord &back = page->records[0];
        QCOMPARE(back.attempts, 3);
        QCOMPARE(back.tried, r.tried);
        QCOMPARE(back.tried[1].status, 0);
        QCOMPARE(back.tried[2].fallbackModel, u"m2"_s);
        QCOMPARE(back.tried[2].durationMs, 300);

        const auto old = parseRequestsPage(R"({"cursor":1,"requests":[{"node":"a","status":200,"attempts":2,
            "tried":[{"node":"b","status":503,"outcome":"something_new","via":"elsewhere"},7]}]})");
        QVERIFY(old.hasValue());
        QCOMPARE(old->records[0].tried.size(), 1);
        QCOMPARE(old->records[0].tried[0].node, u"b"_s);
        QCOMPARE(old->records[0].tried[0].status, 503);
        QCOMPARE(old->records[0].tried[0].via, stats::Attempt::Via::Candidate);
    }

    void failedAttemptsColumnRoundTrips()
    {
        stats::GatewayStats gatewayStats;
        stats::CumulativeSample c;
        gatewayStats.history.record(100, {{u"*"_s, c}});
        c.requests = 4;
        c.failedAttempts = 3;
        c.errors = 1;
        gatewayStats.history.record(101, {{u"*"_s, c}});
        const proxy::LocalResponse served = proxy::historyResponse(gatewayStats, "/api/history?seconds=10");
        const auto h = parseHistorySeries(served.body, u"*"_s);
        QVERIFY(h.hasValue());
        QCOMPARE(h->size(), 1);
        QCOMPARE(h->at(0).failedAttempts, 3.f);
        QCOMPARE(h->at(0).errors, 1.f);
        QCOMPARE(h->at(0).requests, 4.f);
    }

    void historySeries()
    {
        const QByteArray body = R"({"interval_s":1,"series":{"*":{"second":[10,11],"requests_per_s":[1,2.5],
            "errors_per_s":[0,0],"latency_p95_ms":[null,40],"prefix_cache_hit_rate":[null,0.75]}}})";
        const auto h = parseHistorySeries(body, u"*"_s);
        QVERIFY(h.hasValue());
        QCOMPARE(h->size(), 2);
        QCOMPARE(h->at(1).second, 11);
        QCOMPARE(h->at(1).requests, 2.5f);
        QCOMPARE(h->at(0).latencyP95Ms, -1.f);
        QCOMPARE(h->at(1).latencyP95Ms, 40.f);
        QCOMPARE(h->at(1).ttftP50Ms, -1.f); // a column the gateway did not send
        QCOMPARE(h->at(0).prefixHitRate, -1.f); // the node had no prefix-cache counters then
        QCOMPARE(h->at(1).prefixHitRate, 0.75f);
        QVERIFY(parseHistorySeries(body, u"nosuch"_s)->isEmpty());
    }

    // A history search's query string: every filter set, each value encoded so a model name with '&', '+'
    // or spaces reaches the gateway as typed; filters left empty are not sent.
    void historySearchQuery()
    {
        history::HistoryQuery q;
        QCOMPARE(historySearchPath(q), u"/api/history/requests?limit=100"_s);
        q.fromMs = 1000;
        q.toMs = 2000;
        q.keyId = u"vk_1"_s;
        q.model = u"a b&c+d"_s;
        q.node = u"vllm-server1"_s;
        q.status = history::HistoryQuery::Status::ClientError;
        q.limit = 5000; // above what the gateway takes: sent as its maximum
        q.beforeId = 77;
        const QUrlQuery sent(QUrl(u"http://gw"_s + historySearchPath(q)));
        QCOMPARE(sent.queryItemValue(u"from"_s), u"1000"_s);
        QCOMPARE(sent.queryItemValue(u"to"_s), u"2000"_s);
        QCOMPARE(sent.queryItemValue(u"key"_s), u"vk_1"_s);
        QCOMPARE(sent.queryItemValue(u"model"_s, QUrl::FullyDecoded), u"a b&c+d"_s);
        QCOMPARE(sent.queryItemValue(u"node"_s), u"vllm-server1"_s);
        QCOMPARE(sent.queryItemValue(u"status"_s), u"client_error"_s);
        QCOMPARE(sent.queryItemValue(u"limit"_s), u"1000"_s);
        QCOMPARE(sent.queryItemValue(u"before"_s), u"77"_s);

        const auto page = parseHistoryPage(R"({"object":"list","data":[{"id":5,"status":502,"node":"b","tried":[]}],"next_before":null})");
        QVERIFY(page);
        QCOMPARE(page->entries.size(), size_t(1));
        QCOMPARE(page->entries[0].id, 5);
        QCOMPARE(page->entries[0].record.status, 502);
        QCOMPARE(page->nextBeforeId, 0);
        QVERIFY(!parseHistoryPage("<html>"));

        const auto sums = parseRollups(R"({"bucket_minutes":5,"data":[{"bucket_start_ms":300000,"requests":4,"errors":1,)"
                                       R"("client_errors":0,"prompt_tokens":40,"completion_tokens":80,"mean_duration_ms":1500.5,)"
                                       R"("mean_ttft_ms":null}]})");
        QVERIFY(sums);
        QCOMPARE(sums->size(), size_t(1));
        QCOMPARE(sums->at(0).requests, 4);
        QCOMPARE(sums->at(0).meanDurationMs, 1500.5);
        QCOMPARE(sums->at(0).meanTtftMs, -1.0);
        history::RollupQuery week;
        week.bucketMinutes = 60;
        week.node = u"vllm-server1"_s;
        const QUrlQuery asked(QUrl(u"http://gw"_s + rollupsPath(week)));
        QCOMPARE(asked.queryItemValue(u"bucket_minutes"_s), u"60"_s);
        QCOMPARE(asked.queryItemValue(u"node"_s), u"vllm-server1"_s);
        QVERIFY(!asked.hasQueryItem(u"from"_s));
        QVERIFY(!asked.hasQueryItem(u"split"_s));
        QVERIFY(!parseHistoryPage(R"({"data":[1]})"));

        // Split sums: asked with split=key, each point's group read from the member named after it.
        week.split = history::RollupSplit::Key;
        QCOMPARE(QUrlQuery(QUrl(u"http://gw"_s + rollupsPath(week))).queryItemValue(u"split"_s), u"key"_s);
        const auto byKey = parseRollups(R"({"split":"key","data":[{"bucket_start_ms":0,"key":"vk_1","key_name":"ci","requests":2},)"
                                        R"({"bucket_start_ms":0,"key":"","key_name":"","requests":1}]})");
        QVERIFY(byKey);
        QCOMPARE(byKey->size(), size_t(2));
        QCOMPARE(byKey->at(0).group, u"vk_1"_s);
        QCOMPARE(byKey->at(0).groupName, u"ci"_s);
        QCOMPARE(byKey->at(1).group, QString());
        QCOMPARE(byKey->at(1).groupName, QString());
        QCOMPARE(byKey->at(1).requests, 1);
        QVERIFY(parseRollups(R"({"split":7,"data":[]})")); // a split that names nothing: no groups
    }
};

QTEST_GUILESS_MAIN(TestManagementWire)
#include "tst_managementwire.moc"
