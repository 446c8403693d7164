// Token counts of streamed requests through a real gateway in front of simulated nodes, as an
// operator sees them: Tokens/s moves while a stream is still running (not only once it ends), the
// totals end at the node's exact usage, and every stream has exact prompt and completion tokens in the
// request log — the gateway asks the node for usage when the client did not, and the client then
// receives the stream byte for byte as the node would have sent it without the gateway.

#include "common/testhttpclient.h"
#include "gateway/gatewayfixture.h"
#include "link/gatewaystatus.h"

#include <QRegularExpression>
#include <QTest>
#include <nlohmann/json.hpp>

using namespace switchyard;
using namespace switchyard::testing;

namespace {
// A chat stream the client wrote itself; usage: "" (not asked), or its stream_options member.
QByteArray streamBody(int maxTokens, const QByteArray &streamOptions = {}, const QByteArray &prompt = "Hello there")
{
    return "{\"model\":\"m1\",\"messages\":[{\"role\":\"user\",\"content\":\"" + prompt +
           "\"}],\"max_tokens\":" + QByteArray::number(maxTokens) + ",\"ignore_eos\":true,\"stream\":true" +
           (streamOptions.isEmpty() ? QByteArray() : ",\"stream_options\":" + streamOptions) + "}";
}

// The stream with what differs per request (ids, creation second) made equal.
QByteArray comparable(QByteArray body)
{
    QString s = QString::fromUtf8(body);
    s.replace(QRegularExpression(QStringLiteral("\"id\":\"[^\"]*\"")), QStringLiteral("\"id\":\"X\""));
    s.replace(QRegularExpression(QStringLiteral("\"created\":[0-9]+")), QStringLiteral("\"created\":0"));
    return s.toUtf8();
}

struct Usage
{
    qint64 prompt = -1, completion = -1;
};

// The usage chunk of a stream, if it has one.
std::optional<Usage> usageChunk(const TestResponse &r)
{
    for (const QByteArray &e : r.sseEvents()) {
        const nlohmann::json j = nlohmann::json::parse(e.toStdString(), nullptr, false);
        if (j.is_object() && j.contains("usage") && j["usage"].is_object())
            return Usage{j["usage"].value("prompt_tokens", qint64(-1)), j["usage"].value("completion_tokens", qint64(-1))};
    }
    return std::nullopt;
}

link::GatewayStatus status(quint16 port)
{
    const TestResponse r = request(port, "GET", "/api/status");
    auto s = link::gatewayStatusFromJson(nlohmann::json::parse(r.body.toStdString(), nullptr, false));
    return s ? *s : link::GatewayStatus{};
}

const link::NodeStatus *nodeOf(const link::GatewayStatus &s, const QString &name)
{
    for (const link::NodeStatus &n : s.nodes) {
        if (n.name == name)
            return &n;
    }
    return nullptr;
}

quint16 nodePort(GatewayFixture &f)
{
    return f.node(0).port();
}
} // namespace

class TestStreamTokens final : public QObject
{
    Q_OBJECT

private slots:
    void tokensPerSecondMovesWhileAStreamRuns()
    {
        // A slow node: 300 tokens at 20 tokens/s is a 15 s stream. Before the issue this was about,
        // its tokens were only counted once it had ended.
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("slow")}, {}, [](sim::SimNodeOptions &o) { o.performance.tokensPerSecond = 20; }));
        TestClient client(f.port);
        client.send("POST", "/v1/chat/completions", streamBody(300));
        TestResponse head = client.readHead();
        QCOMPARE(head.status, 200);

        QTRY_VERIFY_WITH_TIMEOUT(status(f.port).rates.tokensPerSecond > 0, 10000);
        const link::GatewayStatus during = status(f.port);
        // Still in flight: the request has not finished (nothing in the log yet) and the node's
        // Tokens/s and token total move too, which the Nodes view and the charts read.
        QCOMPARE(during.inFlight, 1);
        QVERIFY(f.gateway.recentRequests().isEmpty());
        const link::NodeStatus *node = nodeOf(during, QStringLiteral("slow"));
        QVERIFY(node);
        QVERIFY(node->rates.tokensPerSecond > 0);
        QVERIFY(node->completionTokens > 0);
        QVERIFY(node->completionTokens < 300);
        QVERIFY(!f.gateway.history(stats::SecondsHistory::GatewaySeries, 10).isEmpty());
        // The client's going away ends the stream; the tokens it received stay counted.
    }

    void streamWithoutStreamOptionsHasExactUsageAndNoExtraChunk()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}));
        const QByteArray direct = "/v1/chat/completions";
        // What the node itself sends: without stream_options, and the usage when asked.
        const TestResponse plain = request(nodePort(f), "POST", direct, streamBody(12));
        const TestResponse asked = request(nodePort(f), "POST", direct, streamBody(12, "{\"include_usage\":true}"));
        QVERIFY(plain.complete && asked.complete);
        QVERIFY(!usageChunk(plain));
        const std::optional<Usage> exact = usageChunk(asked);
        QVERIFY(exact);
        QCOMPARE(exact->completion, 12);

        const TestResponse via = request(f.port, "POST", "/v1/chat/completions", streamBody(12));
        QCOMPARE(via.status, 200);
        QVERIFY(via.complete);
        QVERIFY(!usageChunk(via));
        QVERIFY(!via.body.contains("\"usage\"")); // not even the "usage":null of the other chunks
        QCOMPARE(comparable(via.body), comparable(plain.body));

        // The request log has the node's exact figures, and the node's totals are exactly them.
        QTRY_COMPARE(f.gateway.recentRequests().size(), 1);
        const stats::RequestRecord r = f.gateway.recentRequests().last();
        QVERIFY(r.stream);
        QCOMPARE(r.promptTokens, exact->prompt);
        QCOMPARE(r.completionTokens, exact->completion);
        const link::GatewayStatus now = status(f.port); // the node's entry points into it
        const link::NodeStatus *node = nodeOf(now, QStringLiteral("a"));
        QVERIFY(node);
        QCOMPARE(node->promptTokens, exact->prompt);
        QCOMPARE(node->completionTokens, exact->completion);
        // /metrics says the same.
        const TestResponse m = request(f.port, "GET", "/metrics");
        const auto line = [](const char *metric, qint64 value) {
            return QByteArray(QByteArray(metric) + "{node=\"a\"} " + QByteArray::number(value) + '\n');
        };
        QVERIFY(m.body.contains(line("switchyard_node_prompt_tokens_total", exact->prompt)));
        QVERIFY(m.body.contains(line("switchyard_node_completion_tokens_total", exact->completion)));

        // A text completion too.
        const QByteArray prompt = "{\"model\":\"m1\",\"prompt\":\"Once upon\",\"max_tokens\":5,\"ignore_eos\":true,\"stream\":true}";
        const TestResponse nodeText = request(nodePort(f), "POST", "/v1/completions", prompt);
        const TestResponse viaText = request(f.port, "POST", "/v1/completions", prompt);
        QVERIFY(viaText.complete);
        QCOMPARE(comparable(viaText.body), comparable(nodeText.body));
        QTRY_COMPARE(f.gateway.recentRequests().size(), 2);
        QCOMPARE(f.gateway.recentRequests().last().completionTokens, 5);
        QVERIFY(f.gateway.recentRequests().last().promptTokens > 0);
    }

    void clientThatAskedGetsTheUsageChunkUnchanged()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}));
        for (const QByteArray &options : {QByteArray("{\"include_usage\":true}"),
                                          QByteArray("{\"include_usage\":true,\"continuous_usage_stats\":true}")}) {
            const QByteArray body = streamBody(7, options);
            const TestResponse direct = request(nodePort(f), "POST", "/v1/chat/completions", body);
            const TestResponse via = request(f.port, "POST", "/v1/chat/completions", body);
            QVERIFY(via.complete);
            QVERIFY(usageChunk(via));
            QCOMPARE(comparable(via.body), comparable(direct.body));
        }
        // A client's include_usage:false is its own too: asked for it by the gateway, taken back out.
        const TestResponse plain = request(nodePort(f), "POST", "/v1/chat/completions", streamBody(7));
        const TestResponse off = request(f.port, "POST", "/v1/chat/completions", streamBody(7, "{\"include_usage\":false}"));
        QCOMPARE(comparable(off.body), comparable(plain.body));
        QTRY_COMPARE(f.gateway.recentRequests().size(), 3);
        for (const stats::RequestRecord &r : f.gateway.recentRequests())
            QCOMPARE(r.completionTokens, 7);
    }

    void totalsAfterStreamsEqualTheExactUsage()
    {
        // Counted per chunk while they run, reconciled when the usage arrives: the totals end exact,
        // including reasoning tokens (one per chunk here, as with vLLM).
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}, {}, [](sim::SimNodeOptions &o) { o.text.reasoningTokens = 4; }));
        qint64 prompt = 0, completion = 0;
        for (int i = 0; i < 3; ++i) {
            const QByteArray body = streamBody(10 + i, {}, "prompt number " + QByteArray::number(i));
            const TestResponse direct =
                request(nodePort(f), "POST", "/v1/chat/completions", streamBody(10 + i, "{\"include_usage\":true}",
                                                                                "prompt number " + QByteArray::number(i)));
            const std::optional<Usage> u = usageChunk(direct);
            QVERIFY(u);
            prompt += u->prompt;
            completion += u->completion;
            QVERIFY(request(f.port, "POST", "/v1/chat/completions", body).complete);
        }
        QTRY_COMPARE(f.gateway.recentRequests().size(), 3);
        const link::GatewayStatus s = status(f.port);
        const link::NodeStatus *node = nodeOf(s, QStringLiteral("a"));
        QVERIFY(node);
        QCOMPARE(node->completionTokens, completion);
        QCOMPARE(node->promptTokens, prompt);
        QCOMPARE(completion, 10 + 11 + 12);
    }

    void nodeWithoutStreamUsageFallsBackToTheEstimate()
    {
        // A server that ignores stream_options: the chunks are counted, nothing is made up.
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("old")}, {}, [](sim::SimNodeOptions &o) { o.streamUsage = false; }));
        const TestResponse direct = request(nodePort(f), "POST", "/v1/chat/completions", streamBody(9));
        const TestResponse via = request(f.port, "POST", "/v1/chat/completions", streamBody(9));
        QVERIFY(via.complete);
        QCOMPARE(comparable(via.body), comparable(direct.body));
        QTRY_COMPARE(f.gateway.recentRequests().size(), 1);
        const stats::RequestRecord r = f.gateway.recentRequests().last();
        QCOMPARE(r.promptTokens, -1); // not known: shown as "—", not guessed
        QCOMPARE(r.completionTokens, 9);
        QCOMPARE(nodeOf(status(f.port), QStringLiteral("old"))->completionTokens, 9);
    }

    void aNodeThatRefusesStreamOptionsIsNotAskedWhenTheConfigSaysSo()
    {
        // Some OpenAI-compatible servers answer 400 to any member they do not know. Asking them for
        // usage would break every stream a client did not ask usage for; with stream_usage: false the
        // gateway leaves the body as the client wrote it and counts the chunks instead.
        auto refuses = [](sim::SimNodeOptions &o) { o.refuseStreamOptions = true; };
        {
            GatewayFixture f;
            QVERIFY(f.start({QStringLiteral("strict")}, {}, refuses));
            const TestResponse r = request(f.port, "POST", "/v1/chat/completions", streamBody(6));
            QCOMPARE(r.status, 400); // what the switch is for
        }
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("strict")}, {}, refuses,
                        [](config::GatewayConfig &c) { c.providers[0].streamUsage = false; }));
        const TestResponse direct = request(nodePort(f), "POST", "/v1/chat/completions", streamBody(6));
        const TestResponse via = request(f.port, "POST", "/v1/chat/completions", streamBody(6));
        QCOMPARE(via.status, 200);
        QVERIFY(via.complete);
        QCOMPARE(comparable(via.body), comparable(direct.body));
        QTRY_COMPARE(f.gateway.recentRequests().size(), 1);
        const stats::RequestRecord r = f.gateway.recentRequests().last();
        QCOMPARE(r.completionTokens, 6); // counted per chunk: one token each, as vLLM sends them
        QCOMPARE(r.promptTokens, -1);
        // A client that asks for usage itself still sends its own stream_options: the node's answer is
        // the client's to see.
        QCOMPARE(request(f.port, "POST", "/v1/chat/completions", streamBody(6, "{\"include_usage\":true}")).status, 400);
    }
};

QTEST_GUILESS_MAIN(TestStreamTokens)
#include "tst_streamtokens.moc"
