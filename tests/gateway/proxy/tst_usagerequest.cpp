// Asking the node for usage in a client's stead (proxy/usagerequest): the body the node receives asks
// for `stream_options.include_usage`, every other byte is the client's, and the model and fallbacks
// edits the gateway makes afterwards still land where they belong.

#include "http/jsonbodyscanner.h"
#include "proxy/usagerequest.h"

#include <QTest>
#include <nlohmann/json.hpp>

using namespace switchyard;

namespace {
struct Asked
{
    std::optional<QByteArray> body;
    http::ScannedBody scan;
};

Asked ask(const QByteArray &body)
{
    Asked a;
    a.scan = http::scanRequestBody(body);
    if (!a.scan.valid)
        qWarning() << "invalid test body" << a.scan.error;
    a.body = proxy::bodyAskingForUsage(body, a.scan);
    return a;
}
} // namespace

class TestUsageRequest final : public QObject
{
    Q_OBJECT

private slots:
    void addsStreamOptionsAfterTheLastMember()
    {
        // A brace inside a string is no end of the object.
        const Asked a = ask("{\"model\":\"m1\",\"messages\":[{\"role\":\"user\",\"content\":\"}\"}],\"stream\":true}");
        QVERIFY(a.body);
        QCOMPARE(*a.body, QByteArray("{\"model\":\"m1\",\"messages\":[{\"role\":\"user\",\"content\":\"}\"}],"
                                     "\"stream\":true,\"stream_options\":{\"include_usage\":true}}"));
        QVERIFY(a.scan.includeUsage);
        // Pretty-printed bodies keep their layout; the member goes after the last value.
        const Asked p = ask("{\n  \"model\": \"m1\",\n  \"stream\": true\n}\n");
        QCOMPARE(*p.body, QByteArray("{\n  \"model\": \"m1\",\n  \"stream\": true,\"stream_options\":{\"include_usage\":true}\n}\n"));
    }

    void setsIncludeUsageInTheClientsOptions()
    {
        QCOMPARE(*ask(R"({"stream":true,"stream_options":{"include_usage":false},"model":"m"})").body,
                 QByteArray(R"({"stream":true,"stream_options":{"include_usage":true},"model":"m"})"));
        QCOMPARE(*ask(R"({"stream":true,"stream_options":{"continuous_usage_stats":false}})").body,
                 QByteArray(R"({"stream":true,"stream_options":{"include_usage":true,"continuous_usage_stats":false}})"));
        QCOMPARE(*ask(R"({"stream":true,"stream_options": { } })").body,
                 QByteArray(R"({"stream":true,"stream_options": {"include_usage":true} })"));
        QCOMPARE(*ask(R"({"stream":true,"stream_options":null})").body,
                 QByteArray(R"({"stream":true,"stream_options":{"include_usage":true}})"));
    }

    void leavesAloneWhatItShouldNotTouch()
    {
        QVERIFY(!ask(R"({"model":"m","stream":true,"stream_options":{"include_usage":true}})").body); // asked
        QVERIFY(!ask(R"({"model":"m","stream":false})").body);
        QVERIFY(!ask(R"({"model":"m"})").body);
        QVERIFY(!ask(R"({"model":"m","stream":true,"stream_options":"yes"})").body); // the node says what is wrong
        QVERIFY(proxy::streamCanCarryUsage("/v1/chat/completions"));
        QVERIFY(proxy::streamCanCarryUsage("/v1/completions?x=1"));
        QVERIFY(!proxy::streamCanCarryUsage("/v1/embeddings"));
        QVERIFY(!proxy::streamCanCarryUsage("/v1/responses"));
    }

    void modelAndFallbacksEditsStillApply()
    {
        // The template splices the model and removes fallbacks after the usage edit: spans moved along.
        for (const QByteArray &body : {
                 QByteArray(R"({"stream_options":{"include_usage":false},"fallbacks":["b"],"model":"a","stream":true})"),
                 QByteArray(R"({"stream":true,"stream_options":null,"model":"a","fallbacks":["b"]})"),
                 QByteArray(R"({"model":"a","fallbacks":["b"],"stream":true})"),
                 QByteArray(R"({"stream":true,"model":"a","stream_options":{},"fallbacks":["b"]})")}) {
            const Asked a = ask(body);
            QVERIFY2(a.body, body.constData());
            const QByteArray sent = http::makeBodyTemplate(*a.body, a.scan).withModel("upstream-a");
            const nlohmann::json j = nlohmann::json::parse(sent.toStdString(), nullptr, false);
            QVERIFY2(!j.is_discarded(), sent.constData());
            QCOMPARE(j.size(), size_t(3));
            QVERIFY(j["model"] == "upstream-a");
            QVERIFY(j["stream"] == true);
            QVERIFY(j["stream_options"]["include_usage"] == true);
        }
    }

    void repeatedStreamOptionsAreRefused()
    {
        // The gateway acts on stream_options now: two copies would leave the node to pick one.
        QVERIFY(!http::scanRequestBody(R"({"stream":true,"stream_options":{},"stream_options":{}})").valid);
    }
};

QTEST_APPLESS_MAIN(TestUsageRequest)
#include "tst_usagerequest.moc"
