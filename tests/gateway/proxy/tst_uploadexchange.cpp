// Audio uploads forwarded while they arrive (proxy/uploadexchange): the node reads the audio while the
// client still sends it, failover resends what had arrived, an answer the gateway gives before the
// upload ends keeps the connection usable, a client that leaves mid-upload frees the node, and forms
// whose fields come after the file still route. Real loopback sockets: a client sending its upload in
// two halves, the gateway, simulated nodes that count the bytes they read as they arrive.
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

QByteArray head(qsizetype contentLength)
{
    return "POST /v1/audio/transcriptions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
           "Content-Type: multipart/form-data; boundary=" +
           Boundary + "\r\nContent-Length: " + QByteArray::number(contentLength) + "\r\n\r\n";
}

// The same form sent chunked: the gateway reads it whole before it routes (the path uploads took
// before they were forwarded as they arrive).
QByteArray chunked(const QByteArray &form)
{
    return "POST /v1/audio/transcriptions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
           "Content-Type: multipart/form-data; boundary=" +
           Boundary + "\r\nTransfer-Encoding: chunked\r\n\r\n" + QByteArray::number(form.size(), 16) +
           "\r\n" + form + "\r\n0\r\n\r\n";
}

// The transcript the node gives the same form read whole first (sent chunked, the gateway reads it
// before it routes): the same words show the node got the same bytes. Empty unless answered 200.
std::string transcriptReadWhole(quint16 port, const QByteArray &form)
{
    TestClient whole(port);
    whole.sendRaw(chunked(form));
    const TestResponse r = whole.read();
    const nlohmann::json j = parse(r.body);
    return r.status == 200 && j.is_object() && j.contains("text") ? j["text"].get<std::string>() : std::string();
}

} // namespace

class TestUploadExchange final : public QObject
{
    Q_OBJECT

private slots:
    void theNodeReadsTheUploadWhileItArrives()
    {
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s}));
        const QByteArray form = field("model", "m1") + filePart(2 * 1024 * 1024) + closing();
        const qsizetype half = form.size() / 2;

        TestClient client(f.port);
        client.sendRaw(head(form.size()) + form.first(half));
        // The node has the first half of the audio while the client has not sent the second.
        QTRY_VERIFY_WITH_TIMEOUT(f.node(0).counters().bytesReceived >= half, 10000);
        QCOMPARE(f.node(0).counters().requestsReceived, 0);
        client.sendRaw(form.sliced(half));
        const TestResponse streamed = client.read();
        QVERIFY2(streamed.status == 200, streamed.body.constData());

        // Read whole first (chunked), the same form gets the same transcript: the node got the same bytes.
        const std::string text = parse(streamed.body)["text"].get<std::string>();
        QVERIFY(!text.empty());
        QCOMPARE(transcriptReadWhole(f.port, form), text);
    }

    void aPinnedUploadReachesItsNodeWithTheBareModel()
    {
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s, u"b"_s}));
        const QByteArray form = field("model", "b/m1") + filePart(256 * 1024) + closing();
        TestClient client(f.port);
        client.sendRaw(head(form.size()) + form.first(form.size() / 3));
        client.sendRaw(form.sliced(form.size() / 3));
        // The node answers 404 for a model it does not serve and 400 for a body shorter or longer than its
        // Content-Length: a 200 shows "m1" arrived and the length followed the shorter field.
        const TestResponse r = client.read();
        QVERIFY2(r.status == 200, r.body.constData());
        QCOMPARE(r.node(), QByteArray("b"));
    }

    void failoverResendsTheWholeUpload()
    {
        // Node a (nearly always picked first) reads the upload as it arrives, then answers 500; node b
        // is sent every byte again from what the gateway kept, and answers.
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s, u"b"_s}, {1000, 1}));
        sim::FaultParams always;
        always.errorFraction = 1.0;
        f.node(0).setFault(sim::FaultMode::Error500, always);
        const QByteArray form = field("model", "m1") + filePart(1024 * 1024) + closing();
        const qsizetype half = form.size() / 2;
        TestClient client(f.port);
        client.sendRaw(head(form.size()) + form.first(half));
        QTRY_VERIFY_WITH_TIMEOUT(f.node(0).counters().bytesReceived >= half, 10000);
        client.sendRaw(form.sliced(half));
        const TestResponse r = client.read();
        QVERIFY2(r.status == 200, r.body.constData());
        QCOMPARE(r.node(), QByteArray("b"));
        QCOMPARE(r.attempts(), 2);
        QVERIFY(f.node(1).counters().bytesReceived >= form.size());
        const std::string text = parse(r.body)["text"].get<std::string>();
        QVERIFY(!text.empty());
        QCOMPARE(transcriptReadWhole(f.port, form), text);
    }

    void anAnswerBeforeTheUploadEndsKeepsTheConnection()
    {
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s}));
        const QByteArray refused = field("model", "no-such-model") + filePart(512 * 1024) + closing();
        TestClient client(f.port);
        client.sendRaw(head(refused.size()) + refused.first(refused.size() / 2));
        // The refusal comes while half the upload is unsent, and nothing reached the node.
        const TestResponse r = client.read();
        QVERIFY2(r.status >= 400 && r.status < 500, r.body.constData());
        QVERIFY2(parse(r.body)["error"].is_object(), r.body.constData());
        QVERIFY(r.header("connection") != "close");
        // The rest of that upload is read and dropped; the next request on the same connection is served.
        client.sendRaw(refused.sliced(refused.size() / 2));
        const QByteArray form = field("model", "m1") + filePart(64 * 1024) + closing();
        client.sendRaw(head(form.size()) + form);
        const TestResponse next = client.read();
        QVERIFY2(next.status == 200, next.body.constData());
        QCOMPARE(f.node(0).counters().requestsReceived, 1);
    }

    void aClientLeavingMidUploadFreesTheNode()
    {
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s}));
        const QByteArray form = field("model", "m1") + filePart(1024 * 1024) + closing();
        {
            TestClient client(f.port);
            client.sendRaw(head(form.size()) + form.first(form.size() / 2));
            QTRY_COMPARE_WITH_TIMEOUT(f.node(0).counters().openConnections, 1, 10000);
        } // the client leaves
        // The gateway closes its connection to the node, which stops reading an upload no one waits for,
        // and the request is over in the gateway's counts.
        QTRY_COMPARE_WITH_TIMEOUT(f.node(0).counters().openConnections, 0, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(f.gateway.stats().inFlight.load(), 0, 10000);
        QCOMPARE(f.node(0).counters().requestsReceived, 0);
        QCOMPARE(request(f.port, "POST", "/v1/audio/transcriptions", form, 10000,
                         {{"Content-Type", contentType()}})
                     .status,
                 200);
    }

    void fieldsAfterTheFileStillRoute_data()
    {
        QTest::addColumn<QByteArray>("form");
        QTest::addColumn<bool>("stream");
        // The openai SDK for Node writes the parts in the order of the caller's object: {file, model}.
        QTest::newRow("model after the file")
            << QByteArray(filePart(300 * 1024) + field("model", "m1") + closing()) << false;
        // A stream field after the audio is read only by the node: its event stream is passed on as one.
        QTest::newRow("stream after the file")
            << QByteArray(field("model", "m1") + filePart(300 * 1024) + field("stream", "true") + closing())
            << true;
    }
    void fieldsAfterTheFileStillRoute()
    {
        QFETCH(QByteArray, form);
        QFETCH(bool, stream);
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s}));
        TestClient client(f.port);
        for (qsizetype at = 0; at < form.size(); at += 64 * 1024)
            client.sendRaw((at == 0 ? head(form.size()) : QByteArray()) +
                           form.sliced(at, std::min<qsizetype>(64 * 1024, form.size() - at)));
        const TestResponse r = client.read();
        QVERIFY2(r.status == 200, r.body.constData());
        QCOMPARE(r.header("content-type").startsWith("text/event-stream"), stream);
        if (stream) {
            QVERIFY(r.sseEvents().size() > 2);
            QCOMPARE(r.sseEvents().last(), QByteArray("[DONE]"));
            const auto log = parse(request(f.port, "GET", "/api/requests").body)["requests"];
            QVERIFY(log.back()["stream"].get<bool>());
        }
    }

    void aFormBrokenBeforeTheFileIsRefusedAtOnce()
    {
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s}));
        // A part without a name: wrong whatever follows, so answered without waiting for the rest.
        const QByteArray form = "--" + Boundary + "\r\nContent-Disposition: form-data\r\n\r\nm1\r\n" +
                                filePart(512 * 1024) + closing();
        TestClient client(f.port);
        client.sendRaw(head(form.size()) + form.first(4096));
        const TestResponse r = client.read();
        QCOMPARE(r.status, 400);
        QCOMPARE(parse(r.body)["error"]["code"].get<std::string>(), std::string("invalid_multipart"));
        QCOMPARE(f.node(0).counters().requestsReceived, 0);
    }
};

QTEST_GUILESS_MAIN(TestUploadExchange)
#include "tst_uploadexchange.moc"
