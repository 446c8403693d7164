// The simulated vLLM node over real loopback sockets: vLLM's response and SSE shapes, HTTP/1.1
// behaviour (pipelining, keep-alive timeout), faults, /metrics, the batching model's throughput ratio,
// client aborts and hundreds of concurrent streams. Timing is only ever compared as ratios.
#include "http/httpresponseparser.h"
#include "simnode/simnode.h"

#include <QElapsedTimer>
#include <QRegularExpression>
#include <QTcpSocket>
#include <QTest>

#include <nlohmann/json.hpp>

#include <memory>

using namespace switchyard;
using namespace switchyard::sim;
using Json = nlohmann::json;

// QCOMPARE for JSON values: compares their serialisations, so failures print both.
#define JCOMPARE(actual, expected) \
    QCOMPARE(QString::fromStdString(Json(actual).dump()), QString::fromStdString(Json(expected).dump()))

namespace {

const QByteArray Model = "test-model";

SimNodeOptions fastOptions()
{
    SimNodeOptions o;
    o.name = QStringLiteral("test-node");
    o.models = {QString::fromLatin1(Model), QStringLiteral("alias-model")};
    o.performance.tokensPerSecond = 2000;
    o.performance.ttftBaseMs = 5;
    o.text.seed = 42;
    o.text.meanOutputTokens = 20;
    o.text.embeddingDimensions = 64;
    return o;
}

QByteArray httpRequest(const QByteArray &method, const QByteArray &path, const QByteArray &body = {},
                       const QByteArray &extraHeaders = {})
{
    QByteArray r = method + ' ' + path + " HTTP/1.1\r\nHost: node\r\n" + extraHeaders;
    if (!body.isEmpty() || method == "POST")
        r += "Content-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n";
    return r + "\r\n" + body;
}

QByteArray chatBody(const Json &extra = Json::object(), const std::string &content = "Hello")
{
    Json j = {{"model", Model.toStdString()}, {"messages", {{{"role", "user"}, {"content", content}}}}};
    j.update(extra);
    return QByteArray::fromStdString(j.dump());
}

struct Response
{
    int status = 0;
    QByteArray head;       // the head's bytes, which `headers` points into
    http::Headers headers;
    QByteArray body;
    QList<qint64> eventTimesNs; // arrival time of each SSE event, for rate ratios

    QByteArrayView header(QByteArrayView name) const { return http::headerValue(headers, name); }
    Json json() const { return Json::parse(body.begin(), body.end(), nullptr, false); }
    // Payloads of the SSE "data: " events.
    QList<QByteArray> events() const
    {
        QList<QByteArray> out;
        for (const QByteArray &e : body.split('\n')) {
            if (e.startsWith("data: "))
                out.append(e.mid(6));
        }
        return out;
    }
};

// A raw HTTP/1.1 client on one connection, driven by the test's event loop. It parses any number of
// responses in a row (pipelining) and timestamps SSE events as they arrive.
class Client final : public QObject
{
public:
    explicit Client(quint16 port)
    {
        connect(&m_socket, &QTcpSocket::readyRead, this, [this] { onReadyRead(); });
        connect(&m_socket, &QTcpSocket::disconnected, this, [this] { closed = true; });
        connect(&m_socket, &QTcpSocket::errorOccurred, this, [this](QAbstractSocket::SocketError e) {
            if (e == QAbstractSocket::ConnectionRefusedError)
                refused = true;
            if (e != QAbstractSocket::RemoteHostClosedError)
                closed = true;
        });
        m_socket.connectToHost(QHostAddress::LocalHost, port);
        m_clock.start();
    }

    void send(const QByteArray &raw) { m_socket.write(raw); }
    void abort() { m_socket.abort(); }
    bool waitConnected() { return m_socket.waitForConnected(3000); }

    bool waitResponses(int n, int timeoutMs = 10000)
    {
        return QTest::qWaitFor([&] { return responses.size() >= n || closed; }, timeoutMs) && responses.size() >= n;
    }
    bool waitEvents(int n, int timeoutMs = 10000)
    {
        return QTest::qWaitFor([&] { return current.eventTimesNs.size() >= n || !responses.isEmpty() || closed; },
                               timeoutMs);
    }

    QList<Response> responses;
    Response current; // the response being received
    bool headDone = false;
    bool closed = false;
    bool refused = false;

private:
    void onReadyRead()
    {
        m_buffer.append(m_socket.readAll());
        for (;;) {
            if (!headDone) {
                const auto s = m_parser.parseHead(m_buffer);
                if (s == http::ResponseParser::Status::NeedMore)
                    return;
                if (s == http::ResponseParser::Status::Error) {
                    closed = true;
                    return;
                }
                current.status = m_parser.status();
                current.head = m_parser.headBlock(); // keeps the bytes the header views point into
                current.headers = m_parser.headers();
                headDone = true;
                if (s == http::ResponseParser::Status::BodyComplete) {
                    finishResponse();
                    continue;
                }
            }
            qsizetype used = 0;
            const auto s = m_parser.feedBody(m_buffer, used, [&](QByteArrayView piece) {
                current.body.append(piece);
                const qint64 now = m_clock.nsecsElapsed();
                while (current.eventTimesNs.size() < current.body.count("\n\n"))
                    current.eventTimesNs.append(now);
            });
            m_buffer.remove(0, used);
            if (s != http::ResponseParser::Status::BodyComplete)
                return;
            finishResponse();
        }
    }
    void finishResponse()
    {
        responses.append(std::move(current));
        current = Response();
        headDone = false;
        m_parser.reset();
    }

    QTcpSocket m_socket;
    http::ResponseParser m_parser;
    QByteArray m_buffer;
    QElapsedTimer m_clock;
};

// One request on a fresh connection, waited for.
Response fetch(quint16 port, const QByteArray &raw, int timeoutMs = 10000)
{
    Client c(port);
    c.send(raw);
    if (!c.waitResponses(1, timeoutMs))
        return Response();
    return c.responses.first();
}

std::unique_ptr<SimNode> startNode(SimNodeOptions options)
{
    auto node = std::make_unique<SimNode>(std::move(options));
    const auto started = node->start();
    if (!started) {
        qWarning() << "node failed to start:" << started.error();
        return nullptr;
    }
    return node;
}

// Prometheus text → {"name{labels}": value}; fails the parse on any malformed line.
bool parsePrometheus(const QByteArray &text, QMap<QString, double> &out)
{
    static const QRegularExpression sampleLine(
        QStringLiteral(R"(^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)$)"));
    static const QRegularExpression commentLine(QStringLiteral(R"(^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+$)"));
    for (const QByteArray &raw : text.split('\n')) {
        const QString line = QString::fromUtf8(raw);
        if (line.isEmpty())
            continue;
        if (line.startsWith(u'#')) {
            if (!commentLine.match(line).hasMatch())
                return false;
            continue;
        }
        const auto m = sampleLine.match(line);
        if (!m.hasMatch())
            return false;
        bool ok = false;
        const double v = m.captured(3) == QStringLiteral("+Inf") ? qInf() : m.captured(3).toDouble(&ok);
        if (!ok)
            return false;
        out.insert(m.captured(1) + m.captured(2), v);
    }
    return true;
}

double metric(const QMap<QString, double> &m, const QString &nameAndExtraLabels)
{
    // Every vLLM series carries model_name and engine; tests name the rest.
    const qsizetype brace = nameAndExtraLabels.indexOf(u'{');
    const QString name = brace < 0 ? nameAndExtraLabels : nameAndExtraLabels.first(brace);
    QString labels = QStringLiteral("model_name=\"test-model\",engine=\"0\"");
    if (brace >= 0)
        labels += u',' + nameAndExtraLabels.sliced(brace + 1).chopped(1);
    return m.value(name + u'{' + labels + u'}', -1);
}

QMap<QString, double> scrape(quint16 port)
{
    const Response r = fetch(port, httpRequest("GET", "/metrics"));
    QMap<QString, double> m;
    if (r.status != 200 || !parsePrometheus(r.body, m))
        qWarning() << "unparseable /metrics:" << r.status << r.body.left(400);
    return m;
}

// Content text of a chat stream's events.
QString streamedContent(const Response &r)
{
    QString out;
    for (const QByteArray &e : r.events()) {
        const Json j = Json::parse(e.begin(), e.end(), nullptr, false);
        if (j.is_object() && j.contains("choices") && !j["choices"].empty()) {
            const Json &delta = j["choices"][0]["delta"];
            if (delta.contains("content") && delta["content"].is_string())
                out += QString::fromStdString(delta["content"].get<std::string>());
        }
    }
    return out;
}

} // namespace

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
        const Response r = fetch(node->port(), httpRequest("POST", "/v1/chat/completions",
            chatBody({{"stream", true}, {"max_tokens", 12}, {"stream_options", {{"include_usage", true}}}})));
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
        const Response r = fetch(node->port(), httpRequest("POST", "/v1/chat/completions", chatBody({{"stream", true}})));
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
        const Response r = fetch(node->port(), httpRequest("POST", "/v1/chat/completions", chatBody({{"max_tokens", 7}})));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("content-type"), QByteArrayView("application/json"));
        const Json j = r.json();
        JCOMPARE(j["object"], "chat.completion");
        JCOMPARE(j["choices"][0]["finish_reason"], "length");
        JCOMPARE(j["choices"][0]["message"]["role"], "assistant");
        const QString content = QString::fromStdString(j["choices"][0]["message"]["content"].get<std::string>());
        QCOMPARE(content.split(u' ', Qt::SkipEmptyParts).size(), 7); // a token is a word
        JCOMPARE(j["usage"]["completion_tokens"], 7);
        JCOMPARE(j["usage"]["total_tokens"], j["usage"]["prompt_tokens"].get<int>() + 7);

        // Without max_tokens: a natural stop near --output-tokens (20: 10..30, then to the sentence end).
        const Json natural = fetch(node->port(), httpRequest("POST", "/v1/chat/completions", chatBody())).json();
        JCOMPARE(natural["choices"][0]["finish_reason"], "stop");
        const int n = natural["usage"]["completion_tokens"];
        QVERIFY2(n >= 10 && n < 60, qPrintable(QString::number(n)));

        // Longer prompts count more prompt tokens.
        const Json longer = fetch(node->port(), httpRequest("POST", "/v1/chat/completions",
            chatBody({{"max_tokens", 1}}, std::string(400, 'x') + " and some more words here"))).json();
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
        const Json j = fetch(other->port(), httpRequest("POST", "/v1/chat/completions", chatBody({{"max_tokens", 30}}))).json();
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
            QVERIFY(Json::parse(events[i].toStdString())["choices"][0]["delta"].contains("reasoning_content"));
        for (int i = 5; i <= 10; ++i)
            QVERIFY(Json::parse(events[i].toStdString())["choices"][0]["delta"].contains("content"));

        const Json j = fetch(node->port(), httpRequest("POST", "/v1/chat/completions", chatBody({{"max_tokens", 10}}))).json();
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
        const Json again = fetch(node->port(), httpRequest("POST", "/v1/embeddings", R"({"input":"hello world"})")).json();
        JCOMPARE(again["data"][0]["embedding"], j["data"][0]["embedding"]);
        QVERIFY(j["data"][1]["embedding"] != j["data"][0]["embedding"]);
        const Json b64 = fetch(node->port(), httpRequest("POST", "/v1/embeddings",
                                                         R"({"input":"hello world","encoding_format":"base64"})")).json();
        QCOMPARE(QByteArray::fromBase64(QByteArray::fromStdString(b64["data"][0]["embedding"].get<std::string>())).size(),
                 qsizetype(64 * sizeof(float)));
    }

    void errorShapes_data()
    {
        QTest::addColumn<QByteArray>("request");
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("type");
        QTest::newRow("malformed-json") << httpRequest("POST", "/v1/chat/completions", "{\"model\": ") << 400
                                        << QByteArray("BadRequestError");
        QTest::newRow("not-an-object") << httpRequest("POST", "/v1/chat/completions", "[1,2]") << 400
                                       << QByteArray("BadRequestError");
        QTest::newRow("missing-messages") << httpRequest("POST", "/v1/chat/completions", R"({"model":"test-model"})")
                                          << 400 << QByteArray("BadRequestError");
        QTest::newRow("bad-max-tokens") << httpRequest("POST", "/v1/chat/completions", chatBody({{"max_tokens", 0}}))
                                        << 400 << QByteArray("BadRequestError");
        QTest::newRow("max-tokens-string") << httpRequest("POST", "/v1/chat/completions", chatBody({{"max_tokens", "x"}}))
                                           << 400 << QByteArray("BadRequestError");
        QTest::newRow("too-long") << httpRequest("POST", "/v1/chat/completions", chatBody({{"max_tokens", 40000}}))
                                  << 400 << QByteArray("BadRequestError");
        QTest::newRow("n>1") << httpRequest("POST", "/v1/chat/completions", chatBody({{"n", 2}})) << 400
                             << QByteArray("BadRequestError");
        QTest::newRow("stream-options-without-stream")
            << httpRequest("POST", "/v1/chat/completions", chatBody({{"stream_options", {{"include_usage", true}}}}))
            << 400 << QByteArray("BadRequestError");
        QTest::newRow("unknown-model") << httpRequest("POST", "/v1/chat/completions", chatBody({{"model", "nope"}}))
                                       << 404 << QByteArray("NotFoundError");
        QTest::newRow("embeddings-unknown-model")
            << httpRequest("POST", "/v1/embeddings", R"({"model":"nope","input":"x"})") << 404 << QByteArray("NotFoundError");
        QTest::newRow("wrong-method") << httpRequest("GET", "/v1/chat/completions") << 405
                                      << QByteArray("Method Not Allowed");
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
        c.send(httpRequest("POST", "/v1/chat/completions", chatBody({{"max_tokens", 3}, {"stream", true}}))
               + httpRequest("GET", "/version") + httpRequest("POST", "/v1/chat/completions", chatBody({{"max_tokens", 2}}))
               + httpRequest("GET", "/health"));
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
        const Response r = fetch(node->port(), httpRequest("POST", "/v1/chat/completions", chatBody({{"max_tokens", 2}})));
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
        QCOMPARE(fetch(node->port(), httpRequest("POST", "/v1/chat/completions", chatBody({{"max_tokens", 1}}))).status, 200);
    }

    void faultHangHoldsRequestsUntilHealthy()
    {
        auto node = startNode(fastOptions());
        QVERIFY(node);
        node->setFault(FaultMode::Hang);
        Client c(node->port());
        c.send(httpRequest("POST", "/v1/chat/completions", chatBody({{"max_tokens", 3}})));
        Client health(node->port());
        health.send(httpRequest("GET", "/health"));
        QTRY_COMPARE(node->counters().requestsReceived, 1);
        // The control endpoint still answers, and lifting the fault releases the parked requests.
        const Response stats = fetch(node->port(), httpRequest("GET", "/control/stats"));
        QCOMPARE(stats.status, 200);
        JCOMPARE(stats.json()["fault"], "hang");
        // Neither is answered. (A negative check: a healthy node answers them in
        // about 15 ms; 50 ms is enough to tell.)
        QVERIFY(!c.waitResponses(1, 50));
        QVERIFY(!c.closed);
        QVERIFY(health.responses.isEmpty()); // health hangs too
        QVERIFY(!health.closed);
        node->setFault(FaultMode::Healthy);
        QVERIFY(c.waitResponses(1));
        QCOMPARE(c.responses[0].status, 200);
        QVERIFY(health.waitResponses(1));
        QCOMPARE(health.responses[0].status, 200);
    }

    void faultRefuseClosesTheListener()
    {
        auto node = startNode(fastOptions());
        QVERIFY(node);
        const quint16 port = node->port();
        Client idle(port);
        idle.send(httpRequest("GET", "/health"));
        QVERIFY(idle.waitResponses(1));

        node->setFault(FaultMode::Refuse);
        Client refused(port);
        QVERIFY(QTest::qWaitFor([&] { return refused.refused; }, 3000));
        QVERIFY(QTest::qWaitFor([&] { return idle.closed; }, 3000)); // pooled idle connections go too

        node->setFault(FaultMode::Healthy);
        QCOMPARE(node->port(), port);
        QCOMPARE(fetch(port, httpRequest("GET", "/health")).status, 200);

        // Timed refusal through the control endpoint: back on the same port by itself.
        const Response set = fetch(port, httpRequest("POST", "/control/fault", R"({"mode":"refuse","refuse_ms":300})"));
        QCOMPARE(set.status, 200);
        JCOMPARE(set.json()["mode"], "refuse");
        Client during(port);
        QVERIFY(QTest::qWaitFor([&] { return during.refused; }, 3000));
        QVERIFY(QTest::qWaitFor([&] { return fetch(port, httpRequest("GET", "/health"), 500).status == 200; }, 5000));
        QCOMPARE(node->fault(), FaultMode::Healthy);
    }

    void faultDropStreamCutsWithoutDone()
    {
        auto node = startNode(fastOptions());
        QVERIFY(node);
        FaultParams p;
        p.dropAfterTokens = 5;
        node->setFault(FaultMode::DropStream, p);
        Client c(node->port());
        c.send(httpRequest("POST", "/v1/chat/completions", chatBody({{"stream", true}, {"max_tokens", 50}})));
        QVERIFY(QTest::qWaitFor([&] { return c.closed; }, 5000));
        QVERIFY(c.responses.isEmpty()); // the chunked body never ended
        QCOMPARE(c.current.status, 200);
        const QList<QByteArray> events = c.current.events();
        QCOMPARE(events.size(), 6); // role + 5 tokens
        QVERIFY(!c.current.body.contains("[DONE]"));
        QTRY_COMPARE(node->counters().running, 0);
        QCOMPARE(node->counters().faultsInjected, 1);
        QCOMPARE(node->counters().clientAborts, 0);
    }

    void faultSlowStretchesLatency()
    {
        SimNodeOptions o = fastOptions();
        o.performance.ttftBaseMs = 20;
        o.performance.tokensPerSecond = 500;
        auto node = startNode(o);
        QVERIFY(node);
        auto timed = [&] {
            QElapsedTimer t;
            t.start();
            const Response r = fetch(node->port(), httpRequest("POST", "/v1/chat/completions", chatBody({{"max_tokens", 40}})));
            return r.status == 200 ? t.nsecsElapsed() : qint64(-1);
        };
        const qint64 normal = timed();
        FaultParams p;
        p.slowFactor = 5;
        node->setFault(FaultMode::Slow, p);
        const qint64 slow = timed();
        QVERIFY(normal > 0 && slow > 0);
        QVERIFY2(double(slow) / double(normal) > 2.5, qPrintable(QString::number(double(slow) / double(normal))));
    }

    void faultEngineDead()
    {
        SimNodeOptions o = fastOptions();
        o.performance.tokensPerSecond = 50;
        auto node = startNode(o);
        QVERIFY(node);
        Client running(node->port());
        running.send(httpRequest("POST", "/v1/chat/completions", chatBody({{"stream", true}, {"max_tokens", 200}})));
        QVERIFY(running.waitEvents(3));

        node->setFault(FaultMode::EngineDead);
        QCOMPARE(fetch(node->port(), httpRequest("GET", "/health")).status, 503);
        const Response r = fetch(node->port(), httpRequest("POST", "/v1/chat/completions", chatBody()));
        QCOMPARE(r.status, 500);
        QVERIFY(r.json()["error"]["message"].get<std::string>().find("EngineDeadError") != std::string::npos);
        // The running stream ends with an error event and [DONE], status still 200.
        QVERIFY(running.waitResponses(1));
        const QList<QByteArray> events = running.responses[0].events();
        QCOMPARE(events.last(), QByteArray("[DONE]"));
        QVERIFY(Json::parse(events[events.size() - 2].toStdString()).contains("error"));

        node->setFault(FaultMode::Healthy);
        QCOMPARE(fetch(node->port(), httpRequest("GET", "/health")).status, 200);
    }

    void controlEndpoint()
    {
        auto node = startNode(fastOptions());
        QVERIFY(node);
        const quint16 port = node->port();
        const Response set = fetch(port, httpRequest("POST", "/control/fault", R"({"mode":"error500","error_fraction":1})"));
        QCOMPARE(set.status, 200);
        QCOMPARE(node->fault(), FaultMode::Error500);
        QCOMPARE(fetch(port, httpRequest("POST", "/v1/chat/completions", chatBody())).status, 500);
        QCOMPARE(fetch(port, httpRequest("POST", "/control/fault", R"({"mode":"bogus"})")).status, 400);
        QCOMPARE(fetch(port, httpRequest("POST", "/control/fault", R"({"mode":"healthy"})")).status, 200);
        QCOMPARE(fetch(port, httpRequest("POST", "/v1/chat/completions", chatBody({{"max_tokens", 2}}))).status, 200);

        const Json stats = fetch(port, httpRequest("GET", "/control/stats")).json();
        JCOMPARE(stats["requests_received"], 2);
        JCOMPARE(stats["completed"], 2);
        JCOMPARE(stats["faults_injected"], 1);
        JCOMPARE(stats["generation_tokens"], 2);
        JCOMPARE(stats["fault"], "healthy");
        const SimNode::Counters c = node->counters();
        QCOMPARE(c.requestsReceived, 2);
        QCOMPARE(c.completed, 2);
        QCOMPARE(c.generationTokens, 2);
        QVERIFY(c.promptTokens > 0);
    }

    void metricsMoveUnderLoad()
    {
        SimNodeOptions o = fastOptions();
        o.performance.tokensPerSecond = 100;
        auto node = startNode(o);
        QVERIFY(node);
        const QMap<QString, double> before = scrape(node->port());
        QCOMPARE(metric(before, QStringLiteral("vllm:num_requests_running")), 0.0);
        QCOMPARE(metric(before, QStringLiteral("vllm:generation_tokens_total")), 0.0);
        QCOMPARE(metric(before, QStringLiteral("vllm:request_success_total{finished_reason=\"stop\"}")), 0.0);

        std::vector<std::unique_ptr<Client>> streams;
        for (int i = 0; i < 3; ++i) {
            streams.push_back(std::make_unique<Client>(node->port()));
            streams.back()->send(httpRequest("POST", "/v1/chat/completions",
                                             chatBody({{"stream", true}, {"max_tokens", 40}, {"ignore_eos", true}})));
        }
        for (auto &s : streams)
            QVERIFY(s->waitEvents(2));
        const QMap<QString, double> during = scrape(node->port());
        QCOMPARE(metric(during, QStringLiteral("vllm:num_requests_running")), 3.0);
        QVERIFY(metric(during, QStringLiteral("vllm:kv_cache_usage_perc")) > 0);
        QCOMPARE(metric(during, QStringLiteral("vllm:gpu_cache_usage_perc")),
                 metric(during, QStringLiteral("vllm:kv_cache_usage_perc")));
        QVERIFY(metric(during, QStringLiteral("vllm:prompt_tokens_total")) > 0);
        QCOMPARE(node->counters().running, 3);

        for (auto &s : streams)
            QVERIFY(s->waitResponses(1));
        const QMap<QString, double> after = scrape(node->port());
        QCOMPARE(metric(after, QStringLiteral("vllm:num_requests_running")), 0.0);
        QCOMPARE(metric(after, QStringLiteral("vllm:generation_tokens_total")), 120.0);
        QCOMPARE(metric(after, QStringLiteral("vllm:request_success_total{finished_reason=\"length\"}")), 3.0);
        for (const char *h : {"vllm:time_to_first_token_seconds", "vllm:e2e_request_latency_seconds",
                              "vllm:request_queue_time_seconds"}) {
            const QString name = QString::fromLatin1(h);
            QCOMPARE(metric(after, name + QStringLiteral("_count")), 3.0);
            QCOMPARE(metric(after, name + QStringLiteral("_bucket{le=\"+Inf\"}")), 3.0);
            QVERIFY(metric(after, name + QStringLiteral("_sum")) >= 0);
        }
        QCOMPARE(metric(after, QStringLiteral("vllm:inter_token_latency_seconds_count")), 3.0 * 39);
        // Buckets are cumulative.
        QVERIFY(metric(after, QStringLiteral("vllm:e2e_request_latency_seconds_bucket{le=\"0.3\"}"))
                <= metric(after, QStringLiteral("vllm:e2e_request_latency_seconds_bucket{le=\"5.0\"}")));
        QVERIFY(metric(after, QStringLiteral("vllm:num_preemptions_total")) >= 0);
    }

    void prefixCacheServesARepeatedPrefix()
    {
        SimNodeOptions o = fastOptions();
        o.performance.prefillTokensPerSecond = 2000; // a 1000-token prompt: 0.5 s of prefill uncached
        auto node = startNode(o);
        QVERIFY(node);
        const std::string system(4000, 's'); // 1000 tokens
        auto messages = [&](int turns) {
            Json m = Json::array({{{"role", "system"}, {"content", system}}});
            for (int i = 0; i < turns; ++i) {
                m.push_back({{"role", "user"}, {"content", "question " + std::to_string(i)}});
                m.push_back({{"role", "assistant"}, {"content", "the answer to question " + std::to_string(i)}});
            }
            m.push_back({{"role", "user"}, {"content", "next?"}});
            return m;
        };
        // The stream's final usage; ttftNs: when its first event (sent with the first token) arrived,
        // counted from the connection's start.
        auto streamed = [&](const Json &msgs, qint64 &ttftNs) {
            Client c(node->port());
            c.send(httpRequest("POST", "/v1/chat/completions",
                               chatBody({{"messages", msgs}, {"stream", true}, {"max_tokens", 2},
                                         {"stream_options", {{"include_usage", true}}}})));
            if (!c.waitResponses(1))
                return Json();
            ttftNs = c.responses.first().eventTimesNs.value(0);
            const QList<QByteArray> events = c.responses.first().events();
            return Json::parse(events[events.size() - 2].toStdString(), nullptr, false);
        };

        qint64 coldNs = 0, warmNs = 0;
        const Json cold = streamed(messages(1), coldNs);
        QVERIFY(cold.is_object());
        JCOMPARE(cold["usage"]["prompt_tokens_details"]["cached_tokens"], 0);
        const QMap<QString, double> afterCold = scrape(node->port());
        const double coldPrompt = cold["usage"]["prompt_tokens"].get<double>();
        QCOMPARE(metric(afterCold, QStringLiteral("vllm:prefix_cache_queries_total")), coldPrompt);
        QCOMPARE(metric(afterCold, QStringLiteral("vllm:prefix_cache_hits_total")), 0.0);

        // The next turn extends the conversation: system prompt and turn 1 come from the cache.
        const Json warm = streamed(messages(2), warmNs);
        QVERIFY(warm.is_object());
        const int cached = warm["usage"]["prompt_tokens_details"]["cached_tokens"];
        QVERIFY2(cached >= 1000 && cached % 16 == 0, qPrintable(QString::number(cached)));
        QVERIFY(cached < warm["usage"]["prompt_tokens"].get<int>());
        // Timing as a ratio only: ~0.5 s of prefill against ~10 ms.
        QVERIFY2(warmNs * 3 < coldNs, qPrintable(QStringLiteral("cold %1 ns, warm %2 ns").arg(coldNs).arg(warmNs)));
        const QMap<QString, double> afterWarm = scrape(node->port());
        QCOMPARE(metric(afterWarm, QStringLiteral("vllm:prefix_cache_queries_total")),
                 coldPrompt + warm["usage"]["prompt_tokens"].get<double>());
        QCOMPARE(metric(afterWarm, QStringLiteral("vllm:prefix_cache_hits_total")), double(cached));
        QCOMPARE(node->counters().cachedPromptTokens, qint64(cached));

        // Non-stream and completions answers carry it too.
        const Json whole = fetch(node->port(), httpRequest("POST", "/v1/chat/completions",
            chatBody({{"messages", messages(2)}, {"max_tokens", 1}}))).json();
        QVERIFY(whole["usage"]["prompt_tokens_details"]["cached_tokens"].get<int>() >= cached);
        const QByteArray completion = QByteArray::fromStdString(
            Json{{"model", Model.toStdString()}, {"prompt", system}, {"max_tokens", 1}}.dump());
        fetch(node->port(), httpRequest("POST", "/v1/completions", completion));
        const Json again = fetch(node->port(), httpRequest("POST", "/v1/completions", completion)).json();
        QVERIFY(again["usage"]["prompt_tokens_details"]["cached_tokens"].get<int>() >= 992);
    }

    void noPrefixCachingReportsNoDetails()
    {
        SimNodeOptions o = fastOptions();
        o.performance.prefixCaching = false;
        auto node = startNode(o);
        QVERIFY(node);
        const QByteArray body = chatBody({{"max_tokens", 1}}, std::string(800, 'x'));
        fetch(node->port(), httpRequest("POST", "/v1/chat/completions", body));
        const Json j = fetch(node->port(), httpRequest("POST", "/v1/chat/completions", body)).json();
        QVERIFY(j["usage"].contains("prompt_tokens_details") && j["usage"]["prompt_tokens_details"].is_null());
        const QMap<QString, double> m = scrape(node->port());
        QCOMPARE(metric(m, QStringLiteral("vllm:prefix_cache_queries_total")), 0.0);
        QCOMPARE(metric(m, QStringLiteral("vllm:prefix_cache_hits_total")), 0.0);
    }

    void waitingBeyondMaxNumSeqs()
    {
        SimNodeOptions o = fastOptions();
        o.performance.maxNumSeqs = 2;
        o.performance.tokensPerSecond = 200;
        auto node = startNode(o);
        QVERIFY(node);
        std::vector<std::unique_ptr<Client>> streams;
        for (int i = 0; i < 5; ++i) {
            streams.push_back(std::make_unique<Client>(node->port()));
            streams.back()->send(httpRequest("POST", "/v1/chat/completions", chatBody({{"stream", true}, {"max_tokens", 30}})));
        }
        QTRY_COMPARE(node->counters().waiting, 3);
        QCOMPARE(node->counters().running, 2);
        QCOMPARE(metric(scrape(node->port()), QStringLiteral("vllm:num_requests_waiting")), 3.0);
        for (auto &s : streams)
            QVERIFY(s->waitResponses(1));
        QCOMPARE(node->counters().waiting, 0);
        QVERIFY(metric(scrape(node->port()), QStringLiteral("vllm:request_queue_time_seconds_sum")) > 0);
    }

    void concurrencyRaisesTotalThroughputSubLinearly()
    {
        SimNodeOptions o = fastOptions();
        o.performance.tokensPerSecond = 400;
        auto node = startNode(o);
        QVERIFY(node);
        const QByteArray body = chatBody({{"stream", true}, {"max_tokens", 200}, {"ignore_eos", true}});
        // Tokens per second over the decode phase of n simultaneous streams, as a client sees them.
        auto measure = [&](int n) {
            std::vector<std::unique_ptr<Client>> clients;
            for (int i = 0; i < n; ++i) {
                clients.push_back(std::make_unique<Client>(node->port()));
                clients.back()->send(httpRequest("POST", "/v1/chat/completions", body));
            }
            qint64 first = LLONG_MAX;
            qint64 last = 0;
            int tokens = 0;
            for (auto &c : clients) {
                if (!c->waitResponses(1, 15000))
                    return -1.0;
                const QList<qint64> &t = c->responses[0].eventTimesNs;
                // events: role, 200 tokens, [DONE]; the clock counts from each client's creation, all
                // created together.
                first = std::min(first, t[1]);
                last = std::max(last, t[200]);
                tokens += 199;
            }
            return tokens / (double(last - first) / 1e9);
        };
        const double single = measure(1);
        const double five = measure(5);
        QVERIFY(single > 0 && five > 0);
        const double ratio = five / single;
        qInfo("single %.0f tok/s, five %.0f tok/s, ratio %.2f (model: %.2f)", single, five, ratio,
              std::pow(5.0, DefaultConcurrencyExponent));
        QVERIFY2(ratio > 1.5 && ratio < 2.3, qPrintable(QString::number(ratio)));
    }

    void clientAbortIsCountedAndFreesTheSlot()
    {
        SimNodeOptions o = fastOptions();
        o.performance.maxNumSeqs = 1;
        o.performance.tokensPerSecond = 100;
        auto node = startNode(o);
        QVERIFY(node);
        Client first(node->port());
        first.send(httpRequest("POST", "/v1/chat/completions", chatBody({{"stream", true}, {"max_tokens", 1000}})));
        QVERIFY(first.waitEvents(2));
        Client second(node->port());
        second.send(httpRequest("POST", "/v1/chat/completions", chatBody({{"max_tokens", 3}})));
        QTRY_COMPARE(node->counters().waiting, 1);
        first.abort();
        QTRY_COMPARE(node->counters().clientAborts, 1);
        QVERIFY(second.waitResponses(1, 5000)); // the slot went to the waiting request
        QCOMPARE(second.responses[0].status, 200);
        QTRY_COMPARE(node->counters().running, 0);
        QCOMPARE(metric(scrape(node->port()), QStringLiteral("vllm:request_success_total{finished_reason=\"abort\"}")), 1.0);
    }

    void manyConcurrentStreams()
    {
        SimNodeOptions o = fastOptions();
        o.performance.tokensPerSecond = 2000;
        auto node = startNode(o);
        QVERIFY(node);
        const int n = 256;
        const QByteArray request = httpRequest("POST", "/v1/chat/completions",
                                               chatBody({{"stream", true}, {"max_tokens", 60}, {"ignore_eos", true}}));
        std::vector<std::unique_ptr<Client>> clients;
        for (int i = 0; i < n; ++i) {
            clients.push_back(std::make_unique<Client>(node->port()));
            clients.back()->send(request);
        }
        int maxRunning = 0;
        const bool done = QTest::qWaitFor([&] {
            maxRunning = std::max(maxRunning, node->counters().running);
            return std::all_of(clients.begin(), clients.end(), [](const auto &c) { return !c->responses.isEmpty() || c->closed; });
        }, 20000);
        QVERIFY(done);
        for (const auto &c : clients) {
            QCOMPARE(c->responses.size(), 1);
            QVERIFY(c->responses[0].body.endsWith("data: [DONE]\n\n"));
            QCOMPARE(c->responses[0].events().size(), 62);
        }
        QCOMPARE(maxRunning, n);
        QCOMPARE(node->counters().completed, n);
        QCOMPARE(node->counters().generationTokens, qint64(n) * 60);
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
        c.send(httpRequest("POST", "/v1/chat/completions", chatBody({{"stream", true}, {"max_tokens", 500}})));
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
        QCOMPARE(fetch(node->port(), httpRequest("GET", "/v1/models", {}, "Authorization: Bearer sekret\r\n")).status, 200);
        QCOMPARE(fetch(node->port(), httpRequest("GET", "/health")).status, 200); // not behind the key
    }

    void cleanupTestCase() { m_errorNode.reset(); }

private:
    std::unique_ptr<SimNode> m_errorNode;
};

QTEST_GUILESS_MAIN(TestSimNode)
#include "tst_simnode.moc"
