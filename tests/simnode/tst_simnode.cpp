// The simulated vLLM node over real loopback sockets: vLLM's response and SSE shapes, its error bodies,
// HTTP/1.1 behaviour (pipelining, keep-alive timeout), starting, stopping and its API key. Faults are
// tst_simnodefaults, the batching model and /metrics under load tst_simnodeload.
#include "simnodetesting.h"

using namespace switchyard;
using namespace switchyard::sim;
using namespace switchyard::sim::testing;

class TestSimNode final : public QObject
{
    Q_OBJECT

private slots:
    void servesHealthVersionAndModels()
    {
        auto node = startNode(fastOptions());
        QVERIFY(node);
        QCOMPARE(node->baseUrl(), QStringLiteral("http://127.0.0.1:") + QString::number(node->port()));

        const Response health = fetch(node->port(), httpRequest("GET", "/health"));
        QCOMPARE(health.status, 200);
        QVERIFY(health.body.isEmpty());
        QCOMPARE(health.header("server"), QByteArrayView("uvicorn"));
        QVERIFY(!health.header("date").isEmpty());

        const Json version = fetch(node->port(), httpRequest("GET", "/version")).json();
        QCOMPARE(version["version"].get<std::string>(), std::string("0.11.0"));

        const Response models = fetch(node->port(), httpRequest("GET", "/v1/models"));
        QCOMPARE(models.status, 200);
        QCOMPARE(models.header("content-type"), QByteArrayView("application/json"));
        const Json j = models.json();
        JCOMPARE(j["object"], "list");
        QCOMPARE(j["data"].size(), 2u);
        JCOMPARE(j["data"][0]["id"], "test-model");
        JCOMPARE(j["data"][1]["id"], "alias-model");
        JCOMPARE(j["data"][0]["object"], "model");
        JCOMPARE(j["data"][0]["owned_by"], "vllm");
        JCOMPARE(j["data"][0]["max_model_len"], 32768);
        QVERIFY(j["data"][0]["parent"].is_null());
        QVERIFY(j["data"][0]["permission"].is_array());
    }

    void chatStreamFramingMatchesVllm()
    {
        auto node = startNode(fastOptions());
        QVERIFY(node);
        const Response r =
            fetch(node->port(), httpRequest("POST", "/v1/chat/completions",
                                            chatBody({{"stream", true},
                                                      {"max_tokens", 12},
                                                      {"stream_options", {{"include_usage", true}}}})));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("content-type"), QByteArrayView("text/event-stream; charset=utf-8"));
        QCOMPARE(r.header("transfer-encoding"), QByteArrayView("chunked"));
        // Every event is "data: …" followed by a blank line.
        QVERIFY(r.body.startsWith("data: "));
        QVERIFY(r.body.endsWith("data: [DONE]\n\n"));
        QCOMPARE(r.body.count("\n\n"), r.body.count("data: "));

        const QList<QByteArray> events = r.events();
        QVERIFY(events.size() >= 4);
        QCOMPARE(events.last(), QByteArray("[DONE]"));
        const Json role = Json::parse(events[0].toStdString());
        JCOMPARE(role["object"], "chat.completion.chunk");
        QVERIFY(QByteArray::fromStdString(role["id"].get<std::string>()).startsWith("chatcmpl-"));
        JCOMPARE(role["model"], "test-model");
        JCOMPARE(role["choices"][0]["delta"], Json({{"role", "assistant"}, {"content", ""}}));
        QVERIFY(role["choices"][0]["finish_reason"].is_null());
        QVERIFY(role.contains("usage") && role["usage"].is_null());

        int contentChunks = 0;
        for (qsizetype i = 1; i < events.size() - 2; ++i) {
            const Json c = Json::parse(events[i].toStdString());
            JCOMPARE(c["id"], role["id"]);
            QVERIFY(c.contains("usage") && c["usage"].is_null());
            QCOMPARE(c["choices"].size(), 1u);
            QVERIFY(c["choices"][0]["delta"]["content"].is_string());
            const bool last = i == events.size() - 3;
            JCOMPARE(c["choices"][0]["finish_reason"].is_null(), !last);
            if (last)
                JCOMPARE(c["choices"][0]["finish_reason"], "length");
            ++contentChunks;
        }
        QCOMPARE(contentChunks, 12);
        const Json usage = Json::parse(events[events.size() - 2].toStdString());
        QVERIFY(usage["choices"].is_array() && usage["choices"].empty());
        JCOMPARE(usage["usage"]["completion_tokens"], contentChunks);
        QVERIFY(usage["usage"]["prompt_tokens"].get<int>() > 0);
        JCOMPARE(usage["usage"]["total_tokens"],
                 usage["usage"]["prompt_tokens"].get<int>() + usage["usage"]["completion_tokens"].get<int>());
    }

    void streamWithoutUsageHasNoUsageField()
    {
        auto node = startNode(fastOptions());
        QVERIFY(node);
        const Response r =
            fetch(node->port(), httpRequest("POST", "/v1/chat/completions", chatBody({{"stream", true}})));
        const QList<QByteArray> events = r.events();
        QCOMPARE(events.last(), QByteArray("[DONE]"));
        for (qsizetype i = 0; i < events.size() - 1; ++i) {
            const Json c = Json::parse(events[i].toStdString());
            QVERIFY(!c.contains("usage"));
            QCOMPARE(c["choices"].size(), 1u);
        }
        // A natural stop ends a sentence.
        const Json last = Json::parse(events[events.size() - 2].toStdString());
        JCOMPARE(last["choices"][0]["finish_reason"], "stop");
        QVERIFY(streamedContent(r).endsWith(u'.'));
    }

    void nonStreamUsageAndLimits()
    {
        auto node = startNode(fastOptions());
        QVERIFY(node);
        const Response r =
            fetch(node->port(), httpRequest("POST", "/v1/chat/completions", chatBody({{"max_tokens", 7}})));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("content-type"), QByteArrayView("application/json"));
        const Json j = r.json();
        JCOMPARE(j["object"], "chat.completion");
        JCOMPARE(j["choices"][0]["finish_reason"], "length");
        JCOMPARE(j["choices"][0]["message"]["role"], "assistant");
        const QString content =
            QString::fromStdString(j["choices"][0]["message"]["content"].get<std::string>());
        QCOMPARE(content.split(u' ', Qt::SkipEmptyParts).size(), 7); // a token is a word
        JCOMPARE(j["usage"]["completion_tokens"], 7);
        JCOMPARE(j["usage"]["total_tokens"], j["usage"]["prompt_tokens"].get<int>() + 7);

        // Without max_tokens: a natural stop near --output-tokens (20: 10..30, then to the sentence end).
        const Json natural =
            fetch(node->port(), httpRequest("POST", "/v1/chat/completions", chatBody())).json();
        JCOMPARE(natural["choices"][0]["finish_reason"], "stop");
        const int n = natural["usage"]["completion_tokens"];
        QVERIFY2(n >= 10 && n < 60, qPrintable(QString::number(n)));

        // Longer prompts count more prompt tokens.
        const Json longer =
            fetch(node->port(), httpRequest("POST", "/v1/chat/completions",
                                            chatBody({{"max_tokens", 1}},
                                                     std::string(400, 'x') + " and some more words here")))
                .json();
        QVERIFY(longer["usage"]["prompt_tokens"].get<int>() > j["usage"]["prompt_tokens"].get<int>() + 90);
    }

    void completionsEndpoint()
    {
        auto node = startNode(fastOptions());
        QVERIFY(node);
        const QByteArray body = R"({"model":"alias-model","prompt":"Once upon a time","max_tokens":5})";
        const Json j = fetch(node->port(), httpRequest("POST", "/v1/completions", body)).json();
        JCOMPARE(j["object"], "text_completion");
        JCOMPARE(j["model"], "alias-model");
        QVERIFY(QByteArray::fromStdString(j["id"].get<std::string>()).startsWith("cmpl-"));
        JCOMPARE(j["choices"][0]["finish_reason"], "length");
        QVERIFY(j["choices"][0]["text"].is_string());
        JCOMPARE(j["usage"]["completion_tokens"], 5);

        const QByteArray streamBody =
            R"({"prompt":"Once upon a time","max_tokens":3,"stream":true,"stream_options":{"include_usage":true}})";
        const Response r = fetch(node->port(), httpRequest("POST", "/v1/completions", streamBody));
        const QList<QByteArray> events = r.events();
        QCOMPARE(events.size(), 5); // 3 tokens, usage, [DONE]: no role chunk for completions
        const Json first = Json::parse(events[0].toStdString());
        JCOMPARE(first["object"], "text_completion");
        JCOMPARE(first["model"], "test-model"); // no model: the first served name
        QVERIFY(first["choices"][0]["text"].is_string());
        JCOMPARE(Json::parse(events[2].toStdString())["choices"][0]["finish_reason"], "length");
        JCOMPARE(Json::parse(events[3].toStdString())["usage"]["completion_tokens"], 3);
    }

    void seededTextIsDeterministic()
    {
        auto node = startNode(fastOptions());
        QVERIFY(node);
        auto content = [&](const QByteArray &body) {
            const Json j = fetch(node->port(), httpRequest("POST", "/v1/chat/completions", body)).json();
            return j["choices"][0]["message"]["content"].get<std::string>();
        };
        const std::string a = content(chatBody({{"max_tokens", 30}}));
        QCOMPARE(content(chatBody({{"max_tokens", 30}})), a);
        // Streaming gives the same words.
        const Response s = fetch(node->port(), httpRequest("POST", "/v1/chat/completions",
                                                           chatBody({{"max_tokens", 30}, {"stream", true}})));
        QCOMPARE(streamedContent(s).toStdString(), a);
        QVERIFY(content(chatBody({{"max_tokens", 30}}, "Something else")) != a);
        // A second node with the same seed answers the same.
        auto other = startNode(fastOptions());
        QVERIFY(other);
        const Json j =
            fetch(other->port(), httpRequest("POST", "/v1/chat/completions", chatBody({{"max_tokens", 30}})))
                .json();
        QCOMPARE(j["choices"][0]["message"]["content"].get<std::string>(), a);
    }

    void reasoningContentComesFirst()
    {
        SimNodeOptions o = fastOptions();
        o.text.reasoningTokens = 4;
        auto node = startNode(o);
        QVERIFY(node);
        const Response r = fetch(node->port(), httpRequest("POST", "/v1/chat/completions",
                                                           chatBody({{"stream", true}, {"max_tokens", 10}})));
        const QList<QByteArray> events = r.events();
        QCOMPARE(events.size(), 12); // role, 4 reasoning, 6 content, [DONE]
        for (int i = 1; i <= 4; ++i)
            QVERIFY(
                Json::parse(events[i].toStdString())["choices"][0]["delta"].contains("reasoning_content"));
        for (int i = 5; i <= 10; ++i)
            QVERIFY(Json::parse(events[i].toStdString())["choices"][0]["delta"].contains("content"));

        const Json j =
            fetch(node->port(), httpRequest("POST", "/v1/chat/completions", chatBody({{"max_tokens", 10}})))
                .json();
        QVERIFY(j["choices"][0]["message"]["reasoning_content"].is_string());
        JCOMPARE(j["usage"]["completion_tokens"], 10);
    }

    void embeddings()
    {
        auto node = startNode(fastOptions());
        QVERIFY(node);
        const QByteArray body = R"({"model":"test-model","input":["hello world","another text"]})";
        const Response r = fetch(node->port(), httpRequest("POST", "/v1/embeddings", body));
        QCOMPARE(r.status, 200);
        const Json j = r.json();
        JCOMPARE(j["object"], "list");
        QCOMPARE(j["data"].size(), 2u);
        JCOMPARE(j["data"][0]["object"], "embedding");
        QCOMPARE(j["data"][0]["embedding"].size(), 64u);
        double norm = 0;
        for (double x : j["data"][0]["embedding"])
            norm += x * x;
        QVERIFY(std::abs(norm - 1) < 1e-3);
        QVERIFY(j["usage"]["prompt_tokens"].get<int>() >= 4);
        JCOMPARE(j["usage"]["prompt_tokens"], j["usage"]["total_tokens"]);
        // Deterministic per input.
        const Json again =
            fetch(node->port(), httpRequest("POST", "/v1/embeddings", R"({"input":"hello world"})")).json();
        JCOMPARE(again["data"][0]["embedding"], j["data"][0]["embedding"]);
        QVERIFY(j["data"][1]["embedding"] != j["data"][0]["embedding"]);
        const Json b64 =
            fetch(node->port(), httpRequest("POST", "/v1/embeddings",
                                            R"({"input":"hello world","encoding_format":"base64"})"))
                .json();
        QCOMPARE(
            QByteArray::fromBase64(QByteArray::fromStdString(b64["data"][0]["embedding"].get<std::string>()))
                .size(),
            qsizetype(64 * sizeof(float)));
    }

    void errorShapes_data()
    {
        QTest::addColumn<QByteArray>("request");
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("type");
        QTest::newRow("malformed-json") << httpRequest("POST", "/v1/chat/completions", "{\"model\": ") << 400
                                        << QByteArray("BadRequestError");
        QTest::newRow("not-an-object")
            << httpRequest("POST", "/v1/chat/completions", "[1,2]") << 400 << QByteArray("BadRequestError");
        QTest::newRow("missing-messages")
            << httpRequest("POST", "/v1/chat/completions", R"({"model":"test-model"})") << 400
            << QByteArray("BadRequestError");
        QTest::newRow("bad-max-tokens")
            << httpRequest("POST", "/v1/chat/completions", chatBody({{"max_tokens", 0}})) << 400
            << QByteArray("BadRequestError");
        QTest::newRow("max-tokens-string")
            << httpRequest("POST", "/v1/chat/completions", chatBody({{"max_tokens", "x"}})) << 400
            << QByteArray("BadRequestError");
        QTest::newRow("too-long") << httpRequest("POST", "/v1/chat/completions",
                                                 chatBody({{"max_tokens", 40000}}))
                                  << 400 << QByteArray("BadRequestError");
        QTest::newRow("n>1") << httpRequest("POST", "/v1/chat/completions", chatBody({{"n", 2}})) << 400
                             << QByteArray("BadRequestError");
        QTest::newRow("stream-options-without-stream")
            << httpRequest("POST", "/v1/chat/completions",
                           chatBody({{"stream_options", {{"include_usage", true}}}}))
            << 400 << QByteArray("BadRequestError");
        QTest::newRow("unknown-model")
            << httpRequest("POST", "/v1/chat/completions", chatBody({{"model", "nope"}})) << 404
            << QByteArray("NotFoundError");
        QTest::newRow("embeddings-unknown-model")
            << httpRequest("POST", "/v1/embeddings", R"({"model":"nope","input":"x"})") << 404
            << QByteArray("NotFoundError");
        QTest::newRow("wrong-method")
            << httpRequest("GET", "/v1/chat/completions") << 405 << QByteArray("Method Not Allowed");
        QTest::newRow("unknown-path") << httpRequest("GET", "/v2/whatever") << 404 << QByteArray("Not Found");
    }
    void errorShapes()
    {
        QFETCH(QByteArray, request);
        QFETCH(int, status);
        QFETCH(QByteArray, type);
        if (!m_errorNode)
            m_errorNode = startNode(fastOptions()); // one node for every row
        QVERIFY(m_errorNode);
        const Response r = fetch(m_errorNode->port(), request);
        QCOMPARE(r.status, status);
        QCOMPARE(r.header("content-type"), QByteArrayView("application/json"));
        const Json j = r.json();
        QVERIFY2(j.is_object() && j.contains("error"), r.body.constData());
        const Json &e = j["error"];
        QVERIFY(e["message"].is_string() && !e["message"].get<std::string>().empty());
        QCOMPARE(QByteArray::fromStdString(e["type"].get<std::string>()), type);
        QVERIFY(e.contains("param") && e["param"].is_null());
        JCOMPARE(e["code"], status);
        if (status == 405)
            QCOMPARE(r.header("allow"), QByteArrayView("POST"));
    }

    void brokenHttpIsRejectedAndNodeSurvives()
    {
        auto node = startNode(fastOptions());
        QVERIFY(node);
        Client c(node->port());
        c.send("GARBAGE\r\n\r\n");
        QVERIFY(c.waitResponses(1));
        QCOMPARE(c.responses[0].status, 400);
        QVERIFY(QTest::qWaitFor([&] { return c.closed; }, 3000));
        QCOMPARE(fetch(node->port(), httpRequest("GET", "/health")).status, 200);
    }

    void pipelinedRequestsAnsweredInOrder()
    {
        auto node = startNode(fastOptions());
        QVERIFY(node);
        Client c(node->port());
        c.send(httpRequest("POST", "/v1/chat/completions", chatBody({{"max_tokens", 3}, {"stream", true}})) +
               httpRequest("GET", "/version") +
               httpRequest("POST", "/v1/chat/completions", chatBody({{"max_tokens", 2}})) +
               httpRequest("GET", "/health"));
        QVERIFY(c.waitResponses(4));
        QVERIFY(c.responses[0].body.endsWith("data: [DONE]\n\n"));
        QVERIFY(c.responses[1].body.contains("version"));
        JCOMPARE(c.responses[2].json()["usage"]["completion_tokens"], 2);
        QCOMPARE(c.responses[3].status, 200);
        QVERIFY(!c.closed);
    }

    void idleKeepAliveConnectionsAreClosed()
    {
        SimNodeOptions o = fastOptions();
        o.keepAliveTimeoutMs = 300;
        auto node = startNode(o);
        QVERIFY(node);
        Client c(node->port());
        c.send(httpRequest("GET", "/health"));
        QVERIFY(c.waitResponses(1));
        // Idle a while, well inside the timeout: the connection is reused. (A negative check: 50 ms is a
        // sixth of the keep-alive and far more than a node closing at once would need.)
        QTest::qWait(50);
        c.send(httpRequest("GET", "/health"));
        QVERIFY(c.waitResponses(2));
        QVERIFY(!c.closed);
        QVERIFY(QTest::qWaitFor([&] { return c.closed; }, 3000)); // then closed by the node when idle
        QTRY_COMPARE(node->counters().openConnections, 0);

        // "Connection: close" is honoured at once.
        Client d(node->port());
        d.send(httpRequest("GET", "/health", {}, "Connection: close\r\n"));
        QVERIFY(d.waitResponses(1));
        QCOMPARE(d.responses[0].header("connection"), QByteArrayView("close"));
        QVERIFY(QTest::qWaitFor([&] { return d.closed; }, 1000));
    }

    void faultError500WithFraction()
    {
        auto node = startNode(fastOptions());
        QVERIFY(node);
        node->setFault(FaultMode::Error500);
        const Response r =
            fetch(node->port(), httpRequest("POST", "/v1/chat/completions", chatBody({{"max_tokens", 2}})));
        QCOMPARE(r.status, 500);
        JCOMPARE(r.json()["error"]["code"], 500);
        JCOMPARE(r.json()["error"]["type"], "InternalServerError");
        QCOMPARE(fetch(node->port(), httpRequest("GET", "/health")).status, 200);

        FaultParams half;
        half.errorFraction = 0.5;
        node->setFault(FaultMode::Error500, half);
        Client c(node->port());
        const int n = 60;
        for (int i = 0; i < n; ++i)
            c.send(httpRequest("POST", "/v1/chat/completions", chatBody({{"max_tokens", 1}})));
        QVERIFY(c.waitResponses(n));
        int errors = 0;
        for (const Response &resp : c.responses)
            errors += resp.status == 500;
        QVERIFY2(errors >= 15 && errors <= 45, qPrintable(QString::number(errors)));
        node->setFault(FaultMode::Healthy);
        QCOMPARE(
            fetch(node->port(), httpRequest("POST", "/v1/chat/completions", chatBody({{"max_tokens", 1}})))
                .status,
            200);
    }

    void startFailsWhenThePortIsTaken()
    {
        auto node = startNode(fastOptions());
        QVERIFY(node);
        SimNodeOptions o = fastOptions();
        o.port = node->port();
        SimNode second(o);
        const auto r = second.start();
        QVERIFY(!r);
        QVERIFY(!r.error().isEmpty());
        QVERIFY(!second.isRunning());

        SimNodeOptions bad = fastOptions();
        bad.models.clear();
        QVERIFY(!SimNode(bad).start());
    }

    void stopsCleanlyWithOpenStreams()
    {
        SimNodeOptions o = fastOptions();
        o.performance.tokensPerSecond = 50;
        auto node = startNode(o);
        QVERIFY(node);
        Client c(node->port());
        c.send(
            httpRequest("POST", "/v1/chat/completions", chatBody({{"stream", true}, {"max_tokens", 500}})));
        QVERIFY(c.waitEvents(2));
        node->stop();
        QVERIFY(!node->isRunning());
        QVERIFY(QTest::qWaitFor([&] { return c.closed; }, 3000));
        // And it can start again.
        QVERIFY(node->start());
        QCOMPARE(fetch(node->port(), httpRequest("GET", "/health")).status, 200);
        node.reset(); // the destructor stops it
    }

    void apiKeyGuardsV1()
    {
        SimNodeOptions o = fastOptions();
        o.apiKey = QStringLiteral("sekret");
        auto node = startNode(o);
        QVERIFY(node);
        QCOMPARE(fetch(node->port(), httpRequest("GET", "/v1/models")).status, 401);
        QCOMPARE(fetch(node->port(), httpRequest("GET", "/v1/models", {}, "Authorization: Bearer sekret\r\n"))
                     .status,
                 200);
        QCOMPARE(fetch(node->port(), httpRequest("GET", "/health")).status, 200); // not behind the key
    }

    void cleanupTestCase() { m_errorNode.reset(); }

private:
    std::unique_ptr<SimNode> m_errorNode;
};

QTEST_GUILESS_MAIN(TestSimNode)
#include "tst_simnode.moc"
