// The gateway's status as one value: what /api/status serves and a remote panel parses back with the
// same code — exact round trips, clear errors for documents that are not a status, and rates and
// windowed percentiles that move while a real gateway serves streams from simulated nodes.

#include "common/testhttpclient.h"
#include "config/configloader.h"
#include "gateway/gatewayfixture.h"
#include "history/historystore.h"
#include "link/gatewaystatus.h"
#include "proxy/statusapi.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <memory>
#include <nlohmann/json.hpp>

using namespace switchyard;
using namespace Qt::StringLiterals;
using namespace switchyard::testing;
using link::GatewayStatus;
using nlohmann::json;

namespace {

GatewayStatus sampleStatus()
{
    GatewayStatus s;
    s.version = QStringLiteral("1.2.3");
    s.uptimeMs = 123456;
    s.running = s.accepting = true;
    s.listenUrl = QStringLiteral("http://127.0.0.1:8080");
    s.configHash = QStringLiteral("ab12");
    s.configGeneration = 7;
    s.requestsTotal = 100;
    s.errorsTotal = 3;
    s.inFlight = 2;
    s.openConnections = 4;
    s.historyDropped = 5;
    s.rates = {12.4, 0.2, 1234.56789};
    s.window = {41.5, 97.25, std::nullopt};
    s.ttftAllTime = {10.1, 20.2, 30.3, 97};
    link::NodeStatus n;
    n.name = QStringLiteral("gpu-1");
    n.baseUrl = QStringLiteral("http://10.0.0.1:8000");
    n.models = {QStringLiteral("m1"), QStringLiteral("m2")};
    n.servedModels = {QStringLiteral("m1")};
    n.version = QStringLiteral("0.6.3");
    n.weight = 2.5;
    n.state = health::NodeState::Degraded;
    n.reason = QStringLiteral("queue 40 waiting");
    n.draining = true;
    n.lastCheckMsSinceEpoch = 1700000000123;
    n.running = 3;
    n.waiting = 40;
    n.kvCacheUsage = 0.8731;
    n.prefixCacheHitRate = 0.625;
    n.predictedPrefixHitRate = 0.6;
    n.attempts = 60;
    n.failures = 1;
    n.errorRate = 1.0 / 60.0;
    n.rates = {1.0 / 3.0, 0, 77.7};
    n.window = {std::nullopt, 12, 0.1};
    s.nodes = {n, link::NodeStatus{}};
    s.nodes[1].name = QStringLiteral("gpu-2");
    return s;
}

QString errorOf(const json &j)
{
    const auto parsed = link::gatewayStatusFromJson(j);
    return parsed ? QString() : parsed.error();
}

} // namespace

class TestGatewayStatus final : public QObject
{
    Q_OBJECT

private slots:
    void jsonRoundTripIsExact()
    {
        const GatewayStatus s = sampleStatus();
        // Through text, as a remote panel receives it.
        const json back = json::parse(link::toJson(s).dump(2));
        const auto parsed = link::gatewayStatusFromJson(back);
        QVERIFY2(parsed, qPrintable(parsed ? QString() : parsed.error()));
        QVERIFY(*parsed == s);
        QCOMPARE(parsed->nodes[0].kvCacheUsage, std::optional<double>(0.8731));
        QCOMPARE(parsed->nodes[0].prefixCacheHitRate, std::optional<double>(0.625)); // the remote panel's column
        QVERIFY(!parsed->nodes[1].running); // no vLLM gauges: none, not zero
        QVERIFY(!parsed->nodes[1].prefixCacheHitRate);
        QCOMPARE(parsed->nodes[0].predictedPrefixHitRate, std::optional<double>(0.6)); // beside it in the column
        QVERIFY(!parsed->nodes[1].predictedPrefixHitRate);

        GatewayStatus paused = s;
        paused.paused = true;
        paused.accepting = false;
        QVERIFY(*link::gatewayStatusFromJson(json::parse(link::toJson(paused).dump())) == paused);
        // A gateway from before pause/resume does not say; it is not paused then.
        json old = link::toJson(s);
        old["gateway"].erase("paused");
        QVERIFY(*link::gatewayStatusFromJson(old) == s);
        // Nor does one from before the dropped-records counter: none dropped, as far as anyone knows.
        old["gateway"].erase("history_dropped");
        QCOMPARE(link::gatewayStatusFromJson(old)->historyDropped, 0);
    }

    void unknownFieldsAreIgnored()
    {
        json j = link::toJson(sampleStatus());
        j["gateway"]["added_later"] = {{"x", 1}};
        j["nodes"][0]["gpu_temperature"] = 71;
        const auto parsed = link::gatewayStatusFromJson(j);
        QVERIFY(parsed);
        QVERIFY(*parsed == sampleStatus());
    }

    void malformedDocumentsSayWhatIsWrong()
    {
        QVERIFY(errorOf(json::array()).contains(QStringLiteral("not an object")));
        json j = link::toJson(sampleStatus());
        j.erase("gateway");
        QVERIFY(errorOf(j).contains(QStringLiteral("gateway: missing")));

        j = link::toJson(sampleStatus());
        j["nodes"][1].erase("state");
        QVERIFY(errorOf(j).contains(QStringLiteral("nodes[1].state: missing")));

        j = link::toJson(sampleStatus());
        j["nodes"][0]["state"] = "sleepy";
        QVERIFY(errorOf(j).contains(QStringLiteral("nodes[0].state: unknown state \"sleepy\"")));

        j = link::toJson(sampleStatus());
        j["gateway"]["requests_total"] = "many";
        QVERIFY(errorOf(j).contains(QStringLiteral("gateway.requests_total: not a number")));

        j = link::toJson(sampleStatus());
        j["nodes"] = {{"name", "x"}};
        QVERIFY(errorOf(j).contains(QStringLiteral("nodes: not an array")));
    }

    void configHashIsStableAndTheDocumentLoads()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a"), QStringLiteral("b")}));
        const config::GatewayConfig &cfg = f.gateway.config();
        const QString hash = link::configHash(cfg);
        QCOMPARE(hash.size(), 64);
        // The document the hash is taken of is one the loader reads back to the same config.
        const std::string text = link::configToJson(cfg, false).dump();
        const auto parsed = config::parseConfig(QByteArrayView(text.data(), qsizetype(text.size())));
        QVERIFY2(parsed, parsed ? "" : qPrintable(parsed.error().first().toString()));
        QCOMPARE(link::configHash(*parsed), hash);
        // Masked: the key's literal value is not in the text.
        QVERIFY(!QByteArray::fromStdString(link::configToJson(cfg, true).dump()).contains("dummy"));

        config::GatewayConfig changed = cfg;
        changed.providers[0].keys[0].weight = 3;
        QVERIFY(link::configHash(changed) != hash);
    }

    // The lasting history drops records when its writer falls behind the disk (the requests are served
    // regardless): the count reaches /api/status, which the panel's banner reads, and /metrics.
    void droppedHistoryRecordsAreReported()
    {
        QTemporaryDir dir;
        // The writer starts paused (test hook) with room for two records: as when the disk stalls.
        auto opened = history::HistoryStore::open(dir.filePath(u"history.db"_s), {.maxQueued = 2, .startPaused = true});
        QVERIFY2(opened, qPrintable(opened ? QString() : opened.error()));
        const std::shared_ptr<history::HistoryStore> store = std::move(opened.value());
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}));
        stats::GatewayStats stats;
        stats.setRecordSink(store);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"records wait for the disk"_s));
        for (int i = 0; i < 5; ++i) {
            stats::RequestRecord r;
            r.model = u"m1"_s;
            r.status = 200;
            stats.recordRequest(r);
        }
        const GatewayStatus s = link::gatewayStatusOf(*f.gateway.routingTable(), stats, {});
        QCOMPARE(s.historyDropped, 3);
        QCOMPARE(link::gatewayStatusFromJson(json::parse(link::toJson(s).dump()))->historyDropped, 3);
        const QByteArray metrics = proxy::metricsResponse(*f.gateway.routingTable(), stats).body;
        QVERIFY2(metrics.contains("\nswitchyard_history_dropped_total 3\n"), metrics.constData());
        store->resumeWriter();
        store->flush();
        QCOMPARE(store->stats().written, 2u);
        stats.setRecordSink(nullptr);
    }

    void ratesMoveWhileStreamsRun()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a"), QStringLiteral("b")}));
        auto status = [&] { return link::gatewayStatusOf(*f.gateway.routingTable(), f.gateway.stats(), {}); };
        QCOMPARE(status().rates.requestsPerSecond, 0.0);

        // Streams of ~1 s each; the clients read nothing until the end, the gateway keeps serving.
        std::vector<std::unique_ptr<TestClient>> clients;
        for (int i = 0; i < 4; ++i) {
            clients.push_back(std::make_unique<TestClient>(f.port));
            clients.back()->send("POST", "/v1/chat/completions", chatBody("m1", 400, true));
        }
        QTRY_VERIFY_WITH_TIMEOUT(status().rates.requestsPerSecond > 0, 8000);
        QTRY_VERIFY_WITH_TIMEOUT(status().rates.tokensPerSecond > 0, 8000);
        for (auto &c : clients)
            QCOMPARE(c->read().status, 200);
        QTRY_VERIFY_WITH_TIMEOUT(status().window.latencyP95Ms.has_value(), 8000);
        const GatewayStatus s = status();
        QVERIFY(s.window.ttftP95Ms.has_value());
        double nodeRequests = 0;
        for (const link::NodeStatus &n : s.nodes)
            nodeRequests += n.rates.requestsPerSecond;
        QVERIFY(nodeRequests > 0);

        // What /api/status serves is this same value, read back by the remote panel's parser.
        const TestResponse r = request(f.port, "GET", "/api/status");
        QCOMPARE(r.status, 200);
        const auto served = link::gatewayStatusFromJson(json::parse(r.body.toStdString()));
        QVERIFY2(served, served ? "" : qPrintable(served.error()));
        QCOMPARE(served->configHash, link::configHash(f.gateway.config()));
        QCOMPARE(served->nodes.size(), 2);
        QVERIFY(served->running);
    }
};

QTEST_GUILESS_MAIN(TestGatewayStatus)
#include "tst_gatewaystatus.moc"
