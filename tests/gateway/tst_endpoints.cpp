// The Responses API and Anthropic's Messages API through a real gateway in front of simulated nodes
// (docs/ENDPOINTS.md): passed through with routing, pins and failover like chat completions; a stored
// response's GET, DELETE and cancel reach the node that created it; the Messages API answers errors
// in Anthropic's shape and takes x-api-key; usage reaches the request log and /metrics; allowed_requests
// refuses by Bifrost's request types.

#include "common/testhttpclient.h"
#include "gateway/gatewayfixture.h"

#include <QRegularExpression>
#include <QTest>
#include <nlohmann/json.hpp>

using namespace switchyard;
using namespace switchyard::testing;
using Json = nlohmann::json;

namespace {

QByteArray responsesBody(const QByteArray &model, int maxTokens, bool stream, const QByteArray &extra = {})
{
    return "{\"model\":\"" + model +
           "\",\"input\":\"Tell me about routing\",\"max_output_tokens\":" + QByteArray::number(maxTokens) +
           ",\"ignore_eos\":true" + (stream ? ",\"stream\":true" : "") + extra + "}";
}

QByteArray messagesBody(const QByteArray &model, int maxTokens, bool stream)
{
    return "{\"model\":\"" + model + "\",\"max_tokens\":" + QByteArray::number(maxTokens) +
           ",\"ignore_eos\":true,\"messages\":[{\"role\":\"user\",\"content\":\"Hello\"}]" +
           (stream ? ",\"stream\":true" : "") + "}";
}

Json json(const QByteArray &body)
{
    return Json::parse(body.toStdString(), nullptr, false);
}

// The last request in the gateway's log (written when the exchange finished).
Json lastLogged(quint16 port)
{
    const Json j = json(request(port, "GET", "/api/requests?max=1").body);
    // Until the request is logged (just after its answer ends), an empty record: QTRY asks again.
    return j.is_object() && j.contains("requests") && !j["requests"].empty() ? j["requests"].back() : Json::object();
}

// A stream's events of one type (the "type" member of their data).
std::vector<Json> eventsOfType(const TestResponse &r, const std::string &type)
{
    std::vector<Json> out;
    for (const QByteArray &e : r.sseEvents()) {
        const Json j = json(e);
        if (j.is_object() && j.value("type", "") == type)
            out.push_back(j);
    }
    return out;
}

// Sum of every sample whose line starts with the prefix (all nodes of one counter).
qint64 metricSum(const QByteArray &metrics, const QByteArray &prefix)
{
    qint64 sum = 0;
    for (const QByteArray &line : metrics.split('\n')) {
        if (line.startsWith(prefix))
            sum += line.sliced(line.lastIndexOf(' ') + 1).toLongLong();
    }
    return sum;
}

} // namespace

class TestEndpoints final : public QObject
{
    Q_OBJECT

private slots:
    void responsesAnswerWithUsageInTheLog()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}));
        const TestResponse r = request(f.port, "POST", "/v1/responses", responsesBody("m1", 6, false));
        QCOMPARE(r.status, 200);
        const Json j = json(r.body);
        QCOMPARE(j.value("object", ""), "response");
        QCOMPARE(j["usage"].value("output_tokens", -1), 6);
        QVERIFY(j["usage"].value("input_tokens", -1) > 0);
        QVERIFY(!j["output"][0]["content"][0].value("text", "").empty());
        QTRY_COMPARE(lastLogged(f.port).value("path", ""), "/v1/responses");
        const Json logged = lastLogged(f.port);
        QCOMPARE(logged.value("completion_tokens", -1), 6);
        QCOMPARE(logged.value("prompt_tokens", -1), j["usage"].value("input_tokens", -1));
    }

    void streamedResponsesCarryTheirEventsAndUsage()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}));
        const qint64 before =
            metricSum(request(f.port, "GET", "/metrics").body, "switchyard_node_completion_tokens_total");
        const TestResponse r = request(f.port, "POST", "/v1/responses", responsesBody("m1", 12, true));
        QCOMPARE(r.status, 200);
        QVERIFY(r.header("content-type").startsWith("text/event-stream"));
        QCOMPARE(eventsOfType(r, "response.created").size(), size_t(1));
        QCOMPARE(eventsOfType(r, "response.output_text.delta").size(), size_t(12));
        const auto completed = eventsOfType(r, "response.completed");
        QCOMPARE(completed.size(), size_t(1));
        QCOMPARE(completed[0]["response"]["usage"].value("output_tokens", -1), 12);
        QVERIFY(r.body.contains("event: response.completed\n")); // vLLM's named events pass as they are
        QTRY_COMPARE(lastLogged(f.port).value("completion_tokens", -1), 12);
        QVERIFY(lastLogged(f.port).value("prompt_tokens", -1) > 0);
        QCOMPARE(
            metricSum(request(f.port, "GET", "/metrics").body, "switchyard_node_completion_tokens_total"),
            before + 12);
    }

    void storedResponsesGoToTheNodeThatCreatedThem()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a"), QStringLiteral("b")}));
        QHash<QByteArray, QByteArray> creator; // response id → node
        for (int i = 0; i < 4; ++i) {
            const bool stream = i % 2 == 1;
            const TestResponse r = request(f.port, "POST", "/v1/responses", responsesBody("m1", 3, stream));
            QCOMPARE(r.status, 200);
            const Json j = stream ? eventsOfType(r, "response.created").at(0)["response"] : json(r.body);
            creator.insert(QByteArray::fromStdString(j.value("id", "")), r.node());
        }
        QCOMPARE(QSet<QByteArray>(creator.cbegin(), creator.cend()).size(), 2); // both nodes created some
        const QByteArray tokens = "switchyard_node_completion_tokens_total";
        const qint64 generated = 4 * 3;
        QTRY_COMPARE(metricSum(request(f.port, "GET", "/metrics").body, tokens), generated);
        for (auto it = creator.cbegin(); it != creator.cend(); ++it) {
            const TestResponse got = request(f.port, "GET", "/v1/responses/" + it.key());
            QCOMPARE(got.status, 200);
            QCOMPARE(got.node(), it.value());
            QCOMPARE(json(got.body).value("id", ""), it.key().toStdString());
            // A follow-up continuing it goes there too (the other node does not have it).
            for (int i = 0; i < 2; ++i) {
                const TestResponse next =
                    request(f.port, "POST", "/v1/responses",
                            responsesBody("m1", 2, false, ",\"previous_response_id\":\"" + it.key() + "\""));
                QCOMPARE(next.status, 200);
                QCOMPARE(next.node(), it.value());
            }
            const TestResponse cancel = request(f.port, "POST", "/v1/responses/" + it.key() + "/cancel");
            QCOMPARE(cancel.node(), it.value());
            QCOMPARE(cancel.status, 400); // the node's word: it ran in the foreground
        }
        // Reading a response back counts no tokens: they were counted when it was created (the
        // follow-ups above generated 2 each).
        QTRY_COMPARE(metricSum(request(f.port, "GET", "/metrics").body, tokens),
                     generated + 2 * 2 * creator.size());
        const QByteArray id = creator.cbegin().key();
        const TestResponse deleted = request(f.port, "DELETE", "/v1/responses/" + id);
        QCOMPARE(deleted.status, 200);
        QCOMPARE(deleted.node(), creator.value(id));
        QCOMPARE(json(deleted.body).value("deleted", false), true);
        // Forgotten once deleted, and never known: the gateway's own 404, OpenAI-shaped.
        for (const QByteArray &unknown : {id, QByteArray("resp_nobodyknows")}) {
            const TestResponse gone = request(f.port, "GET", "/v1/responses/" + unknown);
            QCOMPARE(gone.status, 404);
            QCOMPARE(json(gone.body)["error"].value("code", ""), "response_not_found");
            QVERIFY(gone.node().isEmpty());
        }
        QCOMPARE(request(f.port, "PUT", "/v1/responses/" + id).status, 405);
        QCOMPARE(request(f.port, "GET", "/v1/responses/" + id + "/other").status, 404);
    }

    void pinsAndFailoverWorkAsForChat()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a"), QStringLiteral("b")}));
        const TestResponse pinned = request(f.port, "POST", "/v1/responses", responsesBody("b/m1", 2, false));
        QCOMPARE(pinned.status, 200);
        QCOMPARE(pinned.node(), "b");
        QCOMPARE(json(pinned.body).value("model", ""), "m1"); // the bare model went upstream
        const TestResponse pinnedMessage =
            request(f.port, "POST", "/v1/messages", messagesBody("a/m1", 2, false));
        QCOMPARE(pinnedMessage.node(), "a");
        QCOMPARE(json(pinnedMessage.body).value("model", ""), "m1");

        f.node(0).setFault(sim::FaultMode::EngineDead);
        for (int i = 0; i < 4; ++i) {
            const TestResponse r =
                request(f.port, "POST", i % 2 ? "/v1/messages" : "/v1/responses",
                        i % 2 ? messagesBody("m1", 3, true) : responsesBody("m1", 3, true));
            QCOMPARE(r.status, 200);
            QCOMPARE(r.node(), "b");
        }
    }

    void messagesStreamAndCountTokens()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}));
        const TestResponse whole = request(f.port, "POST", "/v1/messages", messagesBody("m1", 5, false));
        QCOMPARE(whole.status, 200);
        const Json message = json(whole.body);
        QCOMPARE(message.value("type", ""), "message");
        QCOMPARE(message["usage"].value("output_tokens", -1), 5);
        QTRY_COMPARE(lastLogged(f.port).value("completion_tokens", -1), 5);

        const TestResponse stream = request(f.port, "POST", "/v1/messages", messagesBody("m1", 9, true));
        QCOMPARE(stream.status, 200);
        QCOMPARE(eventsOfType(stream, "message_start").size(), size_t(1));
        QCOMPARE(eventsOfType(stream, "content_block_delta").size(), size_t(9));
        QCOMPARE(eventsOfType(stream, "message_stop").size(), size_t(1));
        QCOMPARE(eventsOfType(stream, "message_delta").at(0)["usage"].value("output_tokens", -1), 9);
        QTRY_COMPARE(lastLogged(f.port).value("completion_tokens", -1), 9);
        QCOMPARE(lastLogged(f.port).value("prompt_tokens", -1),
                 eventsOfType(stream, "message_start").at(0)["message"]["usage"].value("input_tokens", -2));

        const TestResponse counted =
            request(f.port, "POST", "/v1/messages/count_tokens",
                    R"({"model":"m1","messages":[{"role":"user","content":"Hello"}]})");
        QCOMPARE(counted.status, 200);
        QVERIFY(json(counted.body).value("input_tokens", 0) > 0);
    }

    void messagesErrorsAreAnthropicShaped_data()
    {
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QByteArray>("path");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("type");
        QTest::newRow("unknown model")
            << QByteArray("POST") << QByteArray("/v1/messages") << messagesBody("nope", 2, false) << 404
            << QByteArray("not_found_error");
        QTest::newRow("bad json") << QByteArray("POST") << QByteArray("/v1/messages")
                                  << QByteArray("{\"model\":") << 400 << QByteArray("invalid_request_error");
        QTest::newRow("wrong method") << QByteArray("GET") << QByteArray("/v1/messages") << QByteArray()
                                      << 405 << QByteArray("invalid_request_error");
        QTest::newRow("count_tokens without model")
            << QByteArray("POST") << QByteArray("/v1/messages/count_tokens") << QByteArray("{}") << 400
            << QByteArray("invalid_request_error");
        QTest::newRow("unknown sub-path") << QByteArray("POST") << QByteArray("/v1/messages/batches")
                                          << QByteArray("{}") << 404 << QByteArray("not_found_error");
    }

    void messagesErrorsAreAnthropicShaped()
    {
        QFETCH(QByteArray, method);
        QFETCH(QByteArray, path);
        QFETCH(QByteArray, body);
        QFETCH(int, status);
        QFETCH(QByteArray, type);
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}));
        const TestResponse r = request(f.port, method, path, body);
        QCOMPARE(r.status, status);
        const Json j = json(r.body);
        QCOMPARE(j.value("type", ""), "error");
        QCOMPARE(j["error"].value("type", ""), type.toStdString());
        QVERIFY(!j["error"].value("message", "").empty());
    }

    void failuresOnMessagesAreAnthropicShapedToo()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}));
        f.node(0).setFault(sim::FaultMode::EngineDead);
        const TestResponse r = request(f.port, "POST", "/v1/messages", messagesBody("m1", 2, false));
        QCOMPARE(r.status, 502);
        const Json j = json(r.body);
        QCOMPARE(j["error"].value("type", ""), "api_error");
        // The node is named with what it answered; "(last resort)" when health had already marked it down
        // (the dead engine fails its checks too, and on a busy machine a check may come first).
        const QString message = QString::fromStdString(j["error"].value("message", ""));
        QVERIFY2(QRegularExpression(QStringLiteral("\\ba( \\(last resort\\))?: HTTP 500")).match(message).hasMatch(), qPrintable(message));
    }

    void keysAsBearerOrXApiKey()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}, {}, {}, [](config::GatewayConfig &c) {
            c.settings.apiKeys = {QStringLiteral("sk-client")};
        }));
        const QByteArray body = messagesBody("m1", 2, false);
        const TestResponse none = request(f.port, "POST", "/v1/messages", body);
        QCOMPARE(none.status, 401);
        QCOMPARE(json(none.body)["error"].value("type", ""), "authentication_error");
        QCOMPARE(request(f.port, "POST", "/v1/messages", body, 10000, {{"x-api-key", "wrong"}}).status, 401);
        QCOMPARE(request(f.port, "POST", "/v1/messages", body, 10000, {{"x-api-key", "sk-client"}}).status,
                 200);
        QCOMPARE(request(f.port, "POST", "/v1/messages", body, 10000, {{"Authorization", "Bearer sk-client"}})
                     .status,
                 200);
        // x-api-key is a client key on every client endpoint; OpenAI's shape there.
        const TestResponse chat = request(f.port, "POST", "/v1/responses", responsesBody("m1", 2, false),
                                          10000, {{"x-api-key", "sk-client"}});
        QCOMPARE(chat.status, 200);
        const TestResponse refused = request(f.port, "POST", "/v1/responses", responsesBody("m1", 2, false));
        QCOMPARE(json(refused.body)["error"].value("code", ""), "invalid_api_key");
    }

    void allowedRequestsRefuseByBifrostsRequestTypes_data()
    {
        QTest::addColumn<QByteArray>("path");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QByteArray>("flag");
        QTest::newRow("responses") << QByteArray("/v1/responses") << responsesBody("m1", 2, false)
                                   << QByteArray("responses");
        QTest::newRow("responses_stream")
            << QByteArray("/v1/responses") << responsesBody("m1", 2, true) << QByteArray("responses_stream");
        QTest::newRow("messages") << QByteArray("/v1/messages") << messagesBody("m1", 2, false)
                                  << QByteArray("responses");
        QTest::newRow("messages stream")
            << QByteArray("/v1/messages") << messagesBody("m1", 2, true) << QByteArray("responses_stream");
        QTest::newRow("count_tokens")
            << QByteArray("/v1/messages/count_tokens") << QByteArray(R"({"model":"m1","messages":[]})")
            << QByteArray("count_tokens");
    }

    void allowedRequestsRefuseByBifrostsRequestTypes()
    {
        QFETCH(QByteArray, path);
        QFETCH(QByteArray, body);
        QFETCH(QByteArray, flag);
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}, {}, {}, [&](config::GatewayConfig &c) {
            config::AllowedRequests only;
            only.chatCompletion = only.chatCompletionStream = true;
            only.textCompletion = only.textCompletionStream = only.embedding = only.listModels = false;
            only.responses = only.responsesStream = only.countTokens = false;
            // The flag under test stays off; the other two of this group on, so only it refuses.
            only.responses = flag != "responses";
            only.responsesStream = flag != "responses_stream";
            only.countTokens = flag != "count_tokens";
            c.providers[0].allowed = only;
        }));
        const TestResponse r = request(f.port, "POST", path, body);
        QCOMPARE(r.status, 400);
        const Json j = json(r.body);
        const std::string message = j["error"].value("message", ""); // both shapes keep it there
        QVERIFY2(QByteArray::fromStdString(message).contains(QByteArray("allowed_requests." + flag)),
                 message.c_str());
        if (path.startsWith("/v1/messages"))
            QCOMPARE(j.value("type", ""), "error");
        else
            QCOMPARE(j["error"].value("code", ""), "request_type_not_allowed");
        QCOMPARE(f.node(0).counters().requestsReceived, 0); // refused before any node
    }

    void unknownPathListsTheNewEndpoints()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}));
        const TestResponse r = request(f.port, "GET", "/v1/nothing");
        QCOMPARE(r.status, 404);
        for (const char *served :
             {"/v1/responses", "/v1/messages", "/v1/messages/count_tokens", "/v1/chat/completions"})
            QVERIFY2(r.body.contains(served), r.body.constData());
        QCOMPARE(request(f.port, "GET", "/v1/models").status, 200);
    }
};

QTEST_GUILESS_MAIN(TestEndpoints)
#include "tst_endpoints.moc"
