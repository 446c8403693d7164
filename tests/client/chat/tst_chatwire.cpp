// The chat console's pure parts: the SSE parser fed in every possible cut, the request body, and the
// conversation's history and JSON round trip. The wire format itself (chunks, errors, model lists) is
// tests/client/openai/tst_openaiwire.cpp.
#include "chat/chatclient.h"
#include "chat/conversation.h"
#include "openai/openaistream.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace switchyard::client;
using namespace Qt::Literals::StringLiterals;

namespace {

QList<SseEvent> feedInPieces(SseParser &p, const QByteArray &bytes, qsizetype piece)
{
    QList<SseEvent> out;
    for (qsizetype i = 0; i < bytes.size(); i += piece)
        out += p.feed(QByteArrayView(bytes).sliced(i, std::min(piece, bytes.size() - i)));
    return out;
}

ChatMessage user(const QString &text)
{
    ChatMessage m;
    m.role = ChatMessage::Role::User;
    m.content = text;
    return m;
}

ChatMessage reply(const QString &text, ChatMessage::State state = ChatMessage::State::Complete)
{
    ChatMessage m;
    m.role = ChatMessage::Role::Assistant;
    m.content = text;
    m.state = state;
    return m;
}

} // namespace

class TestChatWire final : public QObject
{
    Q_OBJECT

private slots:
    void sseSplitAnywhere_data()
    {
        QTest::addColumn<QByteArray>("stream");
        const QByteArray events = "data: {\"a\":1}\n\n"
                                  ": keep-alive comment\n\n"
                                  "event: ping\ndata: x\n\n"
                                  "data: line1\ndata: line2\n\n"
                                  "data: [DONE]\n\n";
        QTest::newRow("LF") << events;
        QByteArray crlf = events;
        crlf.replace("\n", "\r\n");
        QTest::newRow("CRLF") << crlf;
        QByteArray cr = events;
        cr.replace("\n", "\r");
        QTest::newRow("CR") << cr;
    }
    void sseSplitAnywhere()
    {
        QFETCH(QByteArray, stream);
        // Every piece size, including one byte at a time (a CR and its LF in different reads).
        for (qsizetype piece = 1; piece <= stream.size(); ++piece) {
            SseParser p;
            const QList<SseEvent> ev = feedInPieces(p, stream, piece);
            QCOMPARE(ev.size(), 4);
            QCOMPARE(ev[0].data, QByteArray("{\"a\":1}"));
            QCOMPARE(ev[1].event, QByteArray("ping"));
            QCOMPARE(ev[1].data, QByteArray("x"));
            QCOMPARE(ev[2].data, QByteArray("line1\nline2"));
            QCOMPARE(ev[3].data, QByteArray("[DONE]"));
            QVERIFY(!p.hasPendingData());
        }
    }

    void sseIncompleteEventWaits()
    {
        SseParser p;
        QVERIFY(p.feed("data: {\"cho").isEmpty());
        QVERIFY(p.hasPendingData());
        QVERIFY(p.feed("ices\":[]}\n").isEmpty()); // the line is complete, the event is not
        const QList<SseEvent> ev = p.feed("\n");
        QCOMPARE(ev.size(), 1);
        QCOMPARE(ev[0].data, QByteArray("{\"choices\":[]}"));
        // "data:" without a space and a field without a colon.
        const QList<SseEvent> ev2 = p.feed("data:x\ndata\n\n");
        QCOMPARE(ev2.size(), 1);
        QCOMPARE(ev2[0].data, QByteArray("x\n"));
    }

    void requestBody()
    {
        ChatRequest r;
        r.model = u"m1"_s;
        r.messages = nlohmann::ordered_json::array({{{"role", "user"}, {"content", "hi"}}});
        r.temperature = 0.5;
        r.maxTokens = 64;
        const QJsonObject o = QJsonDocument::fromJson(r.body()).object();
        QCOMPARE(o.value("stream"_L1).toBool(), true);
        QCOMPARE(o.value("stream_options"_L1).toObject().value("include_usage"_L1).toBool(), true);
        QCOMPARE(o.value("stream_options"_L1).toObject().value("continuous_usage_stats"_L1).toBool(), true);
        QCOMPARE(o.value("temperature"_L1).toDouble(), 0.5);
        QCOMPARE(o.value("max_tokens"_L1).toInt(), 64);
        r.temperature.reset();
        r.maxTokens = 0;
        const QJsonObject o2 = QJsonDocument::fromJson(r.body()).object();
        QVERIFY(!o2.contains("temperature"_L1));
        QVERIFY(!o2.contains("max_tokens"_L1));
        QCOMPARE(connectableUrl(u"http://0.0.0.0:8080"_s).toString(), u"http://127.0.0.1:8080"_s);
        QCOMPARE(connectableUrl(u"http://[::]:8080"_s).toString(), u"http://[::1]:8080"_s);
    }

    void historyLeavesOutFailedTurns()
    {
        Conversation c;
        c.systemPrompt = u"Be brief."_s;
        ReplyStats st;
        c.messages = {user(u"one"_s), reply(u"first answer"_s), user(u"two"_s), reply(QString(), ChatMessage::State::Failed),
                      user(u"three"_s), reply(u"partial"_s, ChatMessage::State::Stopped), user(u"four"_s)};
        c.messages[5].reasoning = u"thoughts are not sent back"_s;
        const nlohmann::ordered_json m = c.requestMessages();
        QStringList got;
        for (const auto &v : m)
            got << QString::fromStdString(v.at("role").get<std::string>() + ':' + v.at("content").get<std::string>());
        QCOMPARE(got, (QStringList{u"system:Be brief."_s, u"user:one"_s, u"assistant:first answer"_s, u"user:three"_s,
                                   u"assistant:partial"_s, u"user:four"_s}));
    }

    void jsonRoundTrip()
    {
        Conversation c;
        c.model = u"vllm-server1/nemotron-3-super"_s;
        c.systemPrompt = u"You are terse."_s;
        c.temperature = 0.3;
        c.maxTokens = 256;
        c.messages = {user(u"Hello \u2603"_s), reply(u"**Hi**\n\n```cpp\nint x;\n```"_s)};
        c.messages[1].reasoning = u"The user greets."_s;
        c.messages[1].model = c.model;
        c.messages[1].stats.node = u"vllm-server1"_s;
        c.messages[1].stats.attempts = 2;
        c.messages[1].stats.httpStatus = 200;
        c.messages[1].stats.ttftMs = 312;
        c.messages[1].stats.totalMs = 4100;
        c.messages[1].stats.promptTokens = 21;
        c.messages[1].stats.completionTokens = 57;
        c.messages[1].stats.finishReason = u"stop"_s;
        c.messages.append(reply(u"cut"_s, ChatMessage::State::Failed));
        c.messages.last().error = u"HTTP 502: All 2 attempts failed"_s;

        QTemporaryDir dir;
        const QString path = dir.filePath(u"chat.json"_s);
        QVERIFY(c.save(path));
        const auto back = Conversation::load(path);
        QVERIFY2(back.hasValue(), qPrintable(back ? QString() : back.error()));
        QCOMPARE(back->model, c.model);
        QCOMPARE(back->systemPrompt, c.systemPrompt);
        QCOMPARE(back->temperature, c.temperature);
        QCOMPARE(back->maxTokens, 256);
        QCOMPARE(back->messages.size(), 3);
        QCOMPARE(back->messages[0].content, u"Hello \u2603"_s);
        const ChatMessage &r = back->messages[1];
        QCOMPARE(r.content, c.messages[1].content);
        QCOMPARE(r.reasoning, c.messages[1].reasoning);
        QCOMPARE(r.stats.node, u"vllm-server1"_s);
        QCOMPARE(r.stats.attempts, 2);
        QCOMPARE(r.stats.ttftMs, 312);
        QCOMPARE(r.stats.totalMs, 4100);
        QCOMPARE(r.stats.promptTokens, 21);
        QCOMPARE(r.stats.completionTokens, 57);
        QCOMPARE(back->messages[2].state, ChatMessage::State::Failed);
        QCOMPARE(back->messages[2].error, c.messages[2].error);
        QCOMPARE(back->toJson(), c.toJson());
    }

    void loadsPlainOpenAiBodies()
    {
        const auto c = Conversation::fromJson(
            R"({"model":"m1","messages":[{"role":"system","content":"sys"},{"role":"user","content":[{"type":"text","text":"hi"}]},{"role":"assistant","content":"yo"}]})");
        QVERIFY(c.hasValue());
        QCOMPARE(c->model, u"m1"_s);
        QCOMPARE(c->systemPrompt, u"sys"_s);
        QCOMPARE(c->messages.size(), 2);
        QCOMPARE(c->messages[0].content, u"hi"_s);

        QVERIFY(!Conversation::fromJson("{").hasValue());
        QVERIFY(!Conversation::fromJson(R"({"nothing":1})").hasValue());
        QVERIFY(!Conversation::fromJson(R"([{"role":"tool","content":"x"}])").hasValue());
        QVERIFY(!Conversation::fromJson(R"({"format":"switchyard-chat","version":99,"messages":[]})").hasValue());
        QVERIFY(!Conversation::load(u"/nonexistent/chat.json"_s).hasValue());
    }

    void tokensPerSecond()
    {
        ReplyStats s;
        s.ttftMs = 1000;
        s.totalMs = 11000;
        s.completionTokens = 150;
        QCOMPARE(s.tokensPerSecond(), 15.0);
        s.completionTokens = -1;
        QCOMPARE(s.tokensPerSecond(), -1.0);
    }

    void responsesApiBodyAndEvents()
    {
        ChatRequest req;
        req.model = u"m1"_s;
        req.messages = nlohmann::ordered_json::array({{{"role", "user"}, {"content", "Hi"}}});
        req.maxTokens = 12;
        req.responsesApi = true;
        const QJsonObject body = QJsonDocument::fromJson(req.body()).object();
        QCOMPARE(body.value("input"_L1).toArray().size(), 1);
        QCOMPARE(body.value("max_output_tokens"_L1).toInt(), 12);
        QVERIFY(body.value("stream"_L1).toBool());
        QVERIFY(!body.contains("messages"_L1) && !body.contains("stream_options"_L1));

        const ChatStreamEvent delta = parseResponsesStreamEvent(
            R"({"content_index":0,"delta":"Hel","item_id":"msg_1","type":"response.output_text.delta"})");
        QCOMPARE(delta.kind, ChatStreamEvent::Kind::Chunk);
        QCOMPARE(delta.content, u"Hel"_s);
        const ChatStreamEvent created = parseResponsesStreamEvent(
            R"({"response":{"id":"resp_1","status":"in_progress","usage":null},"type":"response.created"})");
        QVERIFY(created.content.isEmpty() && !created.hasUsage);
        const ChatStreamEvent completed = parseResponsesStreamEvent(
            R"({"response":{"id":"resp_1","model":"m1","status":"incomplete","usage":{"input_tokens":7,)"
            R"("input_tokens_details":{"cached_tokens":2},"output_tokens":12}},"type":"response.completed"})");
        QVERIFY(completed.hasUsage);
        QCOMPARE(completed.usage.promptTokens, 7);
        QCOMPARE(completed.usage.completionTokens, 12);
        QCOMPARE(completed.usage.cachedPromptTokens, 2);
        QCOMPARE(completed.finishReason, u"length"_s);
        const ChatStreamEvent error = parseResponsesStreamEvent(R"({"type":"error","code":"x","message":"it broke"})");
        QCOMPARE(error.kind, ChatStreamEvent::Kind::Error);
        QCOMPARE(error.error, u"it broke"_s);
    }
};

QTEST_GUILESS_MAIN(TestChatWire)
#include "tst_chatwire.moc"
