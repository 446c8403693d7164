// Audio uploads through the gateway (proxy/audioupload): multipart/form-data to
// /v1/audio/transcriptions and /v1/audio/translations routed by the form's `model` field, the pin's
// bare model spliced in, every response_format and the SSE stream passed through, failover, the body
// limit's 413 before any node, and the 400s for a form the gateway cannot route. Real loopback sockets
// to simulated nodes.
#include "common/testhttpclient.h"
#include "gateway/gatewayfixture.h"
#include "gateway/proxy/uploadforms.h"

#include <QTest>
#include <nlohmann/json.hpp>

using namespace switchyard;
using namespace switchyard::testing;
using namespace switchyard::testing::uploads;
using namespace Qt::Literals::StringLiterals;

namespace {

nlohmann::json parse(const QByteArray &b)
{
    return nlohmann::json::parse(b.begin(), b.end(), nullptr, false);
}

// A form as the openai SDK writes it: fields in order, the file last.
QByteArray form(const QByteArray &model, const QByteArray &extraFields = {}, qsizetype audioBytes = 48000)
{
    QByteArray f;
    if (!model.isNull())
        f += field("model", model);
    f += extraFields;
    f += filePart(audioBytes) + closing();
    return f;
}

const QList<QPair<QByteArray, QByteArray>> FormHeaders = {{"Content-Type", contentType()}};

TestResponse upload(quint16 port, const QByteArray &path, const QByteArray &body,
                    const QList<QPair<QByteArray, QByteArray>> &headers = FormHeaders)
{
    return request(port, "POST", path, body, 10000, headers);
}

} // namespace

class TestAudioUpload final : public QObject
{
    Q_OBJECT

private slots:
    void transcriptionAnswersJson()
    {
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s, u"b"_s}));
        const TestResponse r = upload(f.port, "/v1/audio/transcriptions", form("m1"));
        QCOMPARE(r.status, 200);
        QVERIFY(r.node() == "a" || r.node() == "b");
        const auto j = parse(r.body);
        QVERIFY2(j.is_object() && !j["text"].get<std::string>().empty(), r.body.constData());
        QCOMPARE(j["usage"]["type"].get<std::string>(), std::string("duration"));
        // The same upload reads the same on either node.
        QVERIFY(parse(upload(f.port, "/v1/audio/transcriptions", form("m1")).body)["text"] == j["text"]);
    }

    void responseFormatsPassThrough_data()
    {
        QTest::addColumn<QByteArray>("format");
        QTest::addColumn<QByteArray>("contentType");
        QTest::addColumn<QByteArray>("starts");
        QTest::newRow("json") << QByteArray("json") << QByteArray("application/json")
                              << QByteArray("{\"text\":");
        QTest::newRow("verbose_json") << QByteArray("verbose_json") << QByteArray("application/json")
                                      << QByteArray("{\"task\":\"translate\"");
        QTest::newRow("text") << QByteArray("text") << QByteArray("text/plain; charset=utf-8")
                              << QByteArray();
        QTest::newRow("srt") << QByteArray("srt") << QByteArray("text/plain; charset=utf-8")
                             << QByteArray("1\n00:00:00,000 --> ");
        QTest::newRow("vtt") << QByteArray("vtt") << QByteArray("text/plain; charset=utf-8")
                             << QByteArray("WEBVTT\n\n00:00:00.000 --> ");
    }
    void responseFormatsPassThrough()
    {
        QFETCH(QByteArray, format);
        QFETCH(QByteArray, contentType);
        QFETCH(QByteArray, starts);
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s}));
        const TestResponse r =
            upload(f.port, "/v1/audio/translations", form("m1", field("response_format", format)));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("content-type"), contentType);
        QVERIFY2(r.body.startsWith(starts) && !r.body.isEmpty(), r.body.constData());
        if (format == "verbose_json")
            QVERIFY(!parse(r.body)["segments"].empty());
        // The answer reports seconds of audio, no tokens: the segments' texts are not counted as tokens.
        QCOMPARE(metricValue(request(f.port, "GET", "/metrics").body,
                             "switchyard_node_completion_tokens_total{node=\"a\"}"),
                 0);
    }

    void streamedTranscriptionPassesThroughWithUsage()
    {
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s}));
        const TestResponse r =
            upload(f.port, "/v1/audio/transcriptions",
                   form("m1", field("stream", "true") + field("stream_include_usage", "true")));
        QCOMPARE(r.status, 200);
        QVERIFY(r.header("content-type").startsWith("text/event-stream"));
        const QList<QByteArray> events = r.sseEvents();
        QVERIFY(events.size() > 3);
        QCOMPARE(events.last(), QByteArray("[DONE]"));
        const auto first = parse(events.first());
        QCOMPARE(first["object"].get<std::string>(), std::string("transcription.chunk"));
        const auto usage = parse(events[events.size() - 2])["usage"];
        QVERIFY2(usage.is_object(), events[events.size() - 2].constData());
        // The node's usage reaches the gateway's counters.
        QTRY_COMPARE(metricValue(request(f.port, "GET", "/metrics").body,
                                 "switchyard_node_completion_tokens_total{node=\"a\"}"),
                     usage["completion_tokens"].get<qint64>());
        const auto log = parse(request(f.port, "GET", "/api/requests").body)["requests"];
        QCOMPARE(log.back()["path"].get<std::string>(), std::string("/v1/audio/transcriptions"));
        QVERIFY(log.back()["stream"].get<bool>());
    }

    void streamCutByTheNodeEndsWithAnErrorEvent()
    {
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s}));
        sim::FaultParams cut;
        cut.dropAfterTokens = 3;
        f.node(0).setFault(sim::FaultMode::DropStream, cut);
        const TestResponse r =
            upload(f.port, "/v1/audio/transcriptions", form("m1", field("stream", "true")));
        QCOMPARE(r.status, 200); // the stream had begun
        const QList<QByteArray> events = r.sseEvents();
        QCOMPARE(events.size(), 5); // three words, the gateway's error, [DONE]
        QVERIFY2(parse(events[3])["error"].is_object(), events[3].constData());
        QCOMPARE(events.last(), QByteArray("[DONE]"));
    }

    void pinReachesThePinnedNodeWithTheBareModel()
    {
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s, u"b"_s}));
        for (int i = 0; i < 4; ++i) {
            // The node answers 404 for a model it does not serve: a 200 shows "m1" arrived, and a body
            // whose length did not follow the shorter field would not parse at the node.
            const TestResponse r = upload(f.port, "/v1/audio/transcriptions", form("b/m1"));
            QVERIFY2(r.status == 200, r.body.constData());
            QCOMPARE(r.node(), QByteArray("b"));
        }
        QCOMPARE(f.node(0).counters().requestsReceived, 0);
        QCOMPARE(f.node(1).counters().requestsReceived, 4);
    }

    void failsOverBeforeTheFirstByte()
    {
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s, u"b"_s}));
        sim::FaultParams always;
        always.errorFraction = 1.0;
        f.node(1).setFault(sim::FaultMode::Error500, always);
        for (int i = 0; i < 4; ++i) {
            const TestResponse r = upload(f.port, "/v1/audio/transcriptions", form("m1"));
            QCOMPARE(r.status, 200);
            QCOMPARE(r.node(), QByteArray("a"));
        }
        QVERIFY(f.node(1).counters().faultsInjected >= 1);
    }

    void oversizedUploadIs413AndReachesNoNode()
    {
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s, u"b"_s}, {}, {},
                        [](config::GatewayConfig &c) { c.settings.maxRequestBodyBytes = 64 * 1024; }));
        const TestResponse r = upload(f.port, "/v1/audio/transcriptions", form("m1", {}, 100 * 1024));
        QCOMPARE(r.status, 413);
        const auto e = parse(r.body)["error"];
        QVERIFY2(e.is_object() && e.contains("message") && e.contains("type"), r.body.constData());
        QCOMPARE(f.node(0).counters().requestsReceived, 0);
        QCOMPARE(f.node(1).counters().requestsReceived, 0);
        // Within the limit it goes through.
        QCOMPARE(upload(f.port, "/v1/audio/transcriptions", form("m1", {}, 32 * 1024)).status, 200);
    }

    void formsTheGatewayCannotRouteAre400_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QByteArray>("contentType");
        QTest::addColumn<QByteArray>("code");
        const QByteArray multipart = "multipart/form-data; boundary=" + Boundary;
        QTest::newRow("no model") << form(QByteArray()) << multipart << QByteArray("missing_model");
        QTest::newRow("empty model") << form("") << multipart << QByteArray("missing_model");
        QTest::newRow("model as a file")
            << QByteArray(
                   "--" + Boundary +
                   "\r\nContent-Disposition: form-data; name=\"model\"; filename=\"m\"\r\n\r\nm1\r\n--" +
                   Boundary + "--\r\n")
            << multipart << QByteArray("missing_model");
        QTest::newRow("json body") << QByteArray("{\"model\":\"m1\"}") << QByteArray("application/json")
                                   << QByteArray("invalid_content_type");
        QTest::newRow("no boundary") << form("m1") << QByteArray("multipart/form-data")
                                     << QByteArray("invalid_content_type");
        QTest::newRow("wrong boundary") << form("m1") << QByteArray("multipart/form-data; boundary=other")
                                        << QByteArray("invalid_multipart");
        QTest::newRow("cut short") << form("m1").chopped(12) << multipart << QByteArray("invalid_multipart");
    }
    void formsTheGatewayCannotRouteAre400()
    {
        QFETCH(QByteArray, body);
        QFETCH(QByteArray, contentType);
        QFETCH(QByteArray, code);
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s}));
        const TestResponse r =
            upload(f.port, "/v1/audio/transcriptions", body, {{"Content-Type", contentType}});
        QCOMPARE(r.status, 400);
        const auto e = parse(r.body)["error"];
        QVERIFY2(e["code"].is_string(), r.body.constData());
        QCOMPARE(e["code"].get<std::string>(), code.toStdString());
        if (code == "missing_model") {
            QCOMPARE(e["param"].get<std::string>(), std::string("model"));
            QVERIFY(QByteArray::fromStdString(e["message"].get<std::string>()).contains("'model'"));
        }
        QCOMPARE(f.node(0).counters().requestsReceived, 0);
    }

    void allowedRequestsRefuseTranscriptions()
    {
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s, u"b"_s}, {}, {}, [](config::GatewayConfig &c) {
            c.providers[0].allowed.transcription = false;
            c.providers[0].allowed.transcriptionStream = false;
            c.providers[1].allowed.translation = false;
        }));
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(upload(f.port, "/v1/audio/transcriptions", form("m1")).node(), QByteArray("b"));
            QCOMPARE(upload(f.port, "/v1/audio/translations", form("m1")).node(), QByteArray("a"));
        }
        const TestResponse pinned =
            upload(f.port, "/v1/audio/transcriptions", form("a/m1", field("stream", "true")));
        QCOMPARE(pinned.status, 400);
        QVERIFY2(pinned.body.contains("allowed_requests.transcription_stream"), pinned.body.constData());
    }
};

QTEST_GUILESS_MAIN(TestAudioUpload)
#include "tst_audioupload.moc"
