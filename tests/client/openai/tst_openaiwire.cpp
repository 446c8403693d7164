// The OpenAI wire format (client/openai/): error bodies in every shape the gateway, vLLM (current and
// older), FastAPI and proxies send; the error body the gateway writes; model lists; usage; chat stream
// events and non-streamed completions; the generation requests the chat and the benchmark send. Pure functions over bytes: no sockets needed.
#include "openai/chatcompletion.h"
#include "openai/chatstream.h"
#include "openai/generationrequest.h"
#include "openai/openaierror.h"
#include "openai/openaimodels.h"
#include "openai/openaiusage.h"

#include <QTest>

#include <nlohmann/json.hpp>

using namespace switchyard::openai;
using namespace Qt::Literals::StringLiterals;

class TestOpenAiWire final : public QObject
{
    Q_OBJECT

private slots:
    void errorBodies()
    {
        QCOMPARE(errorMessageFromBody(R"({"error":{"message":"All 2 attempts failed","type":"server_error","param":null,"code":"upstream_error"}})"),
                 u"All 2 attempts failed"_s);
        QCOMPARE(errorMessageFromBody(R"({"object":"error","message":"old vLLM","type":"BadRequestError","param":null,"code":400})"),
                 u"old vLLM"_s);
        QCOMPARE(errorMessageFromBody(R"({"error":"Unauthorized"})"), u"Unauthorized"_s);
        QCOMPARE(errorMessageFromBody("<html>Bad Gateway</html>\n"), u"<html>Bad Gateway</html>"_s);
        QVERIFY(errorMessageFromBody("  ").isEmpty());
        QVERIFY(errorMessageFromBody(QByteArray(1000, 'x')).size() <= 301);
    }

    void errorBodyShapes_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("message");
        QTest::newRow("OpenAI") << QByteArray(R"({"error":{"message":"Incorrect API key provided","type":"invalid_request_error","param":null,"code":"invalid_api_key"}})")
                                << u"Incorrect API key provided"_s;
        QTest::newRow("vLLM >= 0.10.1") << QByteArray(R"({"error":{"message":"The model `x` does not exist.","type":"NotFoundError","param":null,"code":404}})")
                                        << u"The model `x` does not exist."_s;
        QTest::newRow("vLLM < 0.10.1") << QByteArray(R"({"object":"error","message":"max_tokens is too large","type":"BadRequestError","param":null,"code":400})")
                                       << u"max_tokens is too large"_s;
        QTest::newRow("vLLM API key") << QByteArray(R"({"error":"Unauthorized"})") << u"Unauthorized"_s;
        QTest::newRow("FastAPI detail") << QByteArray(R"({"detail":"Not Found"})") << u"Not Found"_s;
        QTest::newRow("FastAPI validation")
            << QByteArray(R"({"detail":[{"type":"missing","loc":["body","messages",0,"content"],"msg":"Field required","input":{}},)"
                          R"({"type":"float_parsing","loc":["body","temperature"],"msg":"Input should be a valid number"}]})")
            << u"body.messages.0.content: Field required; body.temperature: Input should be a valid number"_s;
        QTest::newRow("FastAPI detail object") << QByteArray(R"({"detail":{"reason":"busy"}})") << uR"({"reason":"busy"})"_s;
        QTest::newRow("message trimmed") << QByteArray(R"({"error":{"message":"  spaced out \n"}})") << u"spaced out"_s;
        // An error object without a message says nothing readable: the body itself is shown.
        QTest::newRow("error without message") << QByteArray(R"({"error":{"code":"x"}})") << uR"({"error":{"code":"x"}})"_s;
        QTest::newRow("JSON string") << QByteArray(R"("Internal Server Error")") << u"Internal Server Error"_s;
        QTest::newRow("unknown JSON") << QByteArray(R"({"status":"down"})") << uR"({"status":"down"})"_s;
        QTest::newRow("HTML") << QByteArray("<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>nginx</body>\r\n</html>\r\n")
                              << u"<html> <head><title>502 Bad Gateway</title></head> <body>nginx</body> </html>"_s;
        QTest::newRow("plain text") << QByteArray("  upstream connect error\n") << u"upstream connect error"_s;
        QTest::newRow("empty") << QByteArray() << QString();
        QTest::newRow("blank") << QByteArray(" \r\n\t") << QString();
    }
    void errorBodyShapes()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, message);
        QCOMPARE(errorMessageFromBody(body), message);
    }

    void errorMessagesAreCut()
    {
        // Every shape is cut at the one length, ending in "…", so a page or a trace never floods a line.
        const QString cut = QString(ErrorMessageMaxChars, u'x') + u'\u2026';
        const QByteArray longText(5000, 'x');
        QCOMPARE(errorMessageFromBody(longText), cut);
        const auto wrapped = [&longText](const char *before, const char *after) -> QByteArray {
            return QByteArray(before) + longText + QByteArray(after);
        };
        QCOMPARE(errorMessageFromBody(wrapped(R"({"error":{"message":")", R"("}})")), cut);
        QCOMPARE(errorMessageFromBody(wrapped(R"({"object":"error","message":")", R"("})")), cut);
        QCOMPARE(errorMessageFromBody(wrapped(R"({"detail":")", R"("})")), cut);
        QCOMPARE(errorMessageFromBody(QByteArray(ErrorMessageMaxChars, 'x')), QString(ErrorMessageMaxChars, u'x'));

        // A huge body (a runaway HTML page) is read only as far as it can be shown.
        QByteArray huge = "<html><body>" + QByteArray(8 * 1024 * 1024, 'y');
        const QString shown = errorMessageFromBody(huge);
        QCOMPARE(shown.size(), ErrorMessageMaxChars + 1);
        QVERIFY(shown.startsWith(u"<html><body>yyy"_s));

        // A cut never splits a character: 2-byte UTF-8 letters and a surrogate pair at the edge.
        const QString letters = errorMessageFromBody(QString(1000, u'\u00e9').toUtf8());
        QCOMPARE(letters, QString(ErrorMessageMaxChars, u'\u00e9') + u'\u2026');
        const QString emoji = QString(ErrorMessageMaxChars - 1, u'a') + u"\U0001F600\U0001F600"_s;
        const QString cutEmoji = errorMessageFromBody(emoji.toUtf8());
        QCOMPARE(cutEmoji, QString(ErrorMessageMaxChars - 1, u'a') + u'\u2026');
        // A huge page of multi-byte text is cut at a character boundary before it is decoded.
        const QString wide = errorMessageFromBody(QString(40 * 1024, u'\u4e2d').toUtf8());
        QCOMPARE(wide, QString(ErrorMessageMaxChars, u'\u4e2d') + u'\u2026');
    }

    void writesErrorBody()
    {
        const QByteArray body = errorBody(u"Node \u00e9 failed"_s, "server_error", "upstream_error");
        const nlohmann::json j = nlohmann::json::parse(body.toStdString());
        const auto text = [&j](const char *key) { return QString::fromStdString(j["error"][key].get<std::string>()); };
        QCOMPARE(text("message"), u"Node \u00e9 failed"_s);
        QCOMPARE(text("type"), u"server_error"_s);
        QCOMPARE(text("code"), u"upstream_error"_s);
        QVERIFY(j["error"]["param"].is_null());
        QVERIFY(nlohmann::json::parse(errorBody(u"x"_s, "invalid_request_error").toStdString())["error"]["code"].is_null());
        QVERIFY(nlohmann::json::parse(errorBody(u"x"_s, "invalid_request_error", {}, "model").toStdString())["error"]["param"]
                == "model");
        // What the gateway writes, every reader here reads back.
        QCOMPARE(errorMessageFromBody(body), u"Node \u00e9 failed"_s);
    }

    void modelList()
    {
        QString error;
        const QList<ModelEntry> models = parseModelList(
            R"({"object":"list","data":[{"id":"m1","object":"model","owned_by":"a,b"},{"id":"org/m2","owned_by":"a"},)"
            R"({"id":"a/m1","owned_by":"a"},{"id":"a/org/m2","owned_by":"a"}]})",
            &error);
        QVERIFY(error.isEmpty());
        QCOMPARE(models.size(), 4);
        QCOMPARE(models[0].providers, (QStringList{u"a"_s, u"b"_s}));
        QVERIFY(!models[0].pinned());
        QVERIFY(!models[1].pinned()); // a Hugging Face style name is not a pin
        QVERIFY(models[2].pinned());
        QVERIFY(models[3].pinned());
        QVERIFY(parseModelList("{}", &error).isEmpty());
        QVERIFY(!error.isEmpty());
    }

    void modelListOddEntries()
    {
        // vLLM's own list (owned_by "vllm"), entries without an id or not objects, spaces in owned_by.
        QString error;
        const QList<ModelEntry> models = parseModelList(
            R"({"object":"list","data":[{"id":"Qwen/Qwen3-8B","object":"model","owned_by":"vllm","max_model_len":32768},)"
            R"({"object":"model"},{"id":""},{"id":42},"m",null,{"id":"m3","owned_by":" a , ,b "},{"id":"m4","owned_by":null}]})",
            &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(models.size(), 3);
        QCOMPARE(models[0].id, u"Qwen/Qwen3-8B"_s);
        QCOMPARE(models[0].providers, QStringList{u"vllm"_s});
        QVERIFY(!models[0].pinned());
        QCOMPARE(models[1].providers, (QStringList{u"a"_s, u"b"_s}));
        QVERIFY(models[2].providers.isEmpty());
        QVERIFY(!models[2].pinned());

        QVERIFY(parseModelList(R"({"object":"list","data":[]})", &error).isEmpty());
        QVERIFY(error.isEmpty()); // an empty list is a list
        QVERIFY(parseModelList(R"({"data":[{"id":"m1"}]})").size() == 1); // no error out-parameter needed
    }

    void malformedModelLists_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("why");
        QTest::newRow("empty") << QByteArray() << u"empty response"_s;
        QTest::newRow("HTML") << QByteArray("<html>Not Found</html>") << u"not JSON: <html>Not Found</html>"_s;
        QTest::newRow("truncated") << QByteArray(R"({"data":[{"id":"m1")") << uR"(not JSON: {"data":[{"id":"m1")"_s;
        QTest::newRow("array") << QByteArray(R"([{"id":"m1"}])") << u"not a JSON object"_s;
        QTest::newRow("no data") << QByteArray(R"({"object":"list"})") << u"no \"data\" array in the model list"_s;
        QTest::newRow("data not array") << QByteArray(R"({"data":{"id":"m1"}})") << u"no \"data\" array in the model list"_s;
        QTest::newRow("data null") << QByteArray(R"({"data":null})") << u"no \"data\" array in the model list"_s;
    }
    void malformedModelLists()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, why);
        QString error;
        QVERIFY(parseModelList(body, &error).isEmpty());
        QCOMPARE(error, why);
    }

    void usage()
    {
        // vLLM with --enable-prompt-tokens-details, and OpenAI: cached prompt tokens.
        auto u = usageOf(nlohmann::json::parse(
            R"({"usage":{"prompt_tokens":120,"completion_tokens":34,"total_tokens":154,"prompt_tokens_details":{"cached_tokens":96}}})"));
        QVERIFY(u.has_value());
        QCOMPARE(u->promptTokens, 120);
        QCOMPARE(u->completionTokens, 34);
        QCOMPARE(u->cachedPromptTokens, 96);
        // vLLM's default: the details are null.
        u = usageOf(nlohmann::json::parse(R"({"usage":{"prompt_tokens":5,"completion_tokens":0,"prompt_tokens_details":null}})"));
        QVERIFY(u.has_value());
        QCOMPARE(u->promptTokens, 5);
        QCOMPARE(u->completionTokens, 0);
        QCOMPARE(u->cachedPromptTokens, -1);
        // Counts written as whole floats count; anything else is "not reported".
        u = usageOf(nlohmann::json::parse(R"({"usage":{"prompt_tokens":7.0,"completion_tokens":"9","prompt_tokens_details":{"cached_tokens":-1}}})"));
        QCOMPARE(u->promptTokens, 7);
        QCOMPARE(u->completionTokens, -1);
        QCOMPARE(u->cachedPromptTokens, -1);
        u = usageOf(nlohmann::json::parse(R"({"usage":{"prompt_tokens":1.5,"completion_tokens":-3}})"));
        QCOMPARE(u->promptTokens, -1);
        QCOMPARE(u->completionTokens, -1);
        // No usage: every chunk before vLLM's last one says "usage":null.
        QVERIFY(!usageOf(nlohmann::json::parse(R"({"usage":null})")).has_value());
        QVERIFY(!usageOf(nlohmann::json::parse(R"({"choices":[]})")).has_value());
        QVERIFY(!usageOf(nlohmann::json::parse(R"({"usage":3})")).has_value());
        QVERIFY(!usageOf(nlohmann::json::parse(R"([1,2])")).has_value());
    }

    void chunkShapes()
    {
        // vLLM's first delta, a reasoning delta, a content delta with finish reason, the usage chunk.
        ChatStreamEvent e = parseChatStreamEvent(
            R"({"id":"c1","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}],"usage":null})");
        QCOMPARE(e.kind, ChatStreamEvent::Kind::Chunk);
        QVERIFY(e.content.isEmpty());
        QVERIFY(!e.hasUsage);
        QCOMPARE(e.model, u"m"_s);

        e = parseChatStreamEvent(R"({"choices":[{"index":0,"delta":{"reasoning_content":"hmm "}}]})");
        QCOMPARE(e.reasoning, u"hmm "_s);
        e = parseChatStreamEvent(R"({"choices":[{"index":0,"delta":{"reasoning":"newer "}}]})");
        QCOMPARE(e.reasoning, u"newer "_s);

        e = parseChatStreamEvent(R"({"choices":[{"index":0,"delta":{"content":"Hi \u00e9"},"finish_reason":"stop"}]})");
        QCOMPARE(e.content, u"Hi \u00e9"_s);
        QCOMPARE(e.finishReason, u"stop"_s);

        e = parseChatStreamEvent(R"({"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":34,"total_tokens":46}})");
        QVERIFY(e.hasUsage);
        QCOMPARE(e.usage.promptTokens, 12);
        QCOMPARE(e.usage.completionTokens, 34);

        QCOMPARE(parseChatStreamEvent(" [DONE] ").kind, ChatStreamEvent::Kind::Done);
        QCOMPARE(parseChatStreamEvent("{not json").kind, ChatStreamEvent::Kind::Invalid);

        // A failure after the stream began, as the gateway and vLLM send it.
        e = parseChatStreamEvent(R"({"error":{"message":"The node 'a' failed mid-response: closed","type":"server_error","param":null,"code":"upstream_error"}})");
        QCOMPARE(e.kind, ChatStreamEvent::Kind::Error);
        QCOMPARE(e.error, u"The node 'a' failed mid-response: closed"_s);
    }

    void streamEventCorners()
    {
        // Only the first choice is shown; a reasoning delta in both of vLLM's names counts once.
        ChatStreamEvent e = parseChatStreamEvent(
            R"({"choices":[{"index":1,"delta":{"content":"other"}},{"index":0,"delta":{"content":"mine","reasoning_content":"r","reasoning":"r"}}]})");
        QCOMPARE(e.kind, ChatStreamEvent::Kind::Chunk);
        QCOMPARE(e.content, u"mine"_s);
        QCOMPARE(e.reasoning, u"r"_s);
        // Newer vLLM sends an empty reasoning_content next to the text in "reasoning".
        e = parseChatStreamEvent(R"({"choices":[{"delta":{"reasoning_content":"","reasoning":"thinking"}}]})");
        QCOMPARE(e.reasoning, u"thinking"_s);
        // Mistyped fields are absent, not a failure.
        e = parseChatStreamEvent(R"({"model":7,"choices":[{"index":"0","delta":{"content":null},"finish_reason":3}],"usage":"n/a"})");
        QCOMPARE(e.kind, ChatStreamEvent::Kind::Chunk);
        QVERIFY(e.content.isEmpty() && e.model.isEmpty() && e.finishReason.isEmpty() && !e.hasUsage);
        // The usage chunk with cached prompt tokens.
        e = parseChatStreamEvent(R"({"choices":[],"usage":{"prompt_tokens":50,"completion_tokens":1,"prompt_tokens_details":{"cached_tokens":48}}})");
        QCOMPARE(e.usage.cachedPromptTokens, 48);
        // "data:[DONE]\r\n" style leftovers.
        QCOMPARE(parseChatStreamEvent("[DONE]\r\n").kind, ChatStreamEvent::Kind::Done);

        // Error events: older vLLM's flat shape, a string error, one without a message.
        e = parseChatStreamEvent(R"({"object":"error","message":"engine dead","code":500})");
        QCOMPARE(e.kind, ChatStreamEvent::Kind::Error);
        QCOMPARE(e.error, u"engine dead"_s);
        e = parseChatStreamEvent(R"({"error":"Unauthorized"})");
        QCOMPARE(e.kind, ChatStreamEvent::Kind::Error);
        QCOMPARE(e.error, u"Unauthorized"_s);
        e = parseChatStreamEvent(R"({"error":{"code":503}})");
        QCOMPARE(e.kind, ChatStreamEvent::Kind::Error);
        QCOMPARE(e.error, uR"({"error":{"code":503}})"_s);
        // "error": null is no error (a chunk that names the field but leaves it empty).
        QCOMPARE(parseChatStreamEvent(R"({"error":null,"choices":[]})").kind, ChatStreamEvent::Kind::Chunk);

        // Invalid events say what was wrong.
        for (const QByteArray &bad : {QByteArray(""), QByteArray("  "), QByteArray("{}"), QByteArray("[1]"),
                                      QByteArray("42"), QByteArray("{\"choices\":"), QByteArray("data: x")}) {
            e = parseChatStreamEvent(bad);
            QCOMPARE(e.kind, ChatStreamEvent::Kind::Invalid);
            QVERIFY2(!e.error.isEmpty(), bad.constData());
        }
        QCOMPARE(parseChatStreamEvent("{\"choices\":").error, u"not JSON: {\"choices\":"_s);
    }

    void chatCompletion()
    {
        ChatCompletion c = parseChatCompletion(
            R"({"id":"chatcmpl-1","object":"chat.completion","model":"m1","choices":[{"index":0,"message":{"role":"assistant","content":"ok","reasoning_content":"why"},"finish_reason":"length"}],)"
            R"("usage":{"prompt_tokens":5,"completion_tokens":1,"total_tokens":6,"prompt_tokens_details":{"cached_tokens":4}}})");
        QVERIFY(c.valid);
        QCOMPARE(c.content, u"ok"_s);
        QCOMPARE(c.reasoning, u"why"_s);
        QCOMPARE(c.finishReason, u"length"_s);
        QCOMPARE(c.usage.promptTokens, 5);
        QCOMPARE(c.usage.completionTokens, 1);
        QCOMPARE(c.usage.cachedPromptTokens, 4);

        // A tool call answer: content null.
        c = parseChatCompletion(R"({"choices":[{"message":{"role":"assistant","content":null},"finish_reason":"tool_calls"}]})");
        QVERIFY(c.valid);
        QVERIFY(c.content.isEmpty());
        QCOMPARE(c.usage.completionTokens, -1);

        // Not a completion; the usage is still read where there is one.
        c = parseChatCompletion(R"({"choices":[],"usage":{"completion_tokens":3}})");
        QVERIFY(!c.valid);
        QCOMPARE(c.usage.completionTokens, 3);
        QVERIFY(!parseChatCompletion(R"({"error":{"message":"x"}})").valid);
        QVERIFY(!parseChatCompletion("<html></html>").valid);
        QVERIFY(!parseChatCompletion("").valid);
    }

    // The chat console and the benchmark send their turns through this one builder: each API gets its
    // own field names, and what only chat completions know is never sent to the Responses API.
    void generationRequests()
    {
        GenerationRequest r;
        r.model = u"vllm-server1/m1"_s;
        r.messages = nlohmann::ordered_json::array({{{"role", "user"}, {"content", "Hello \u2603"}}});
        r.maxTokens = 64;
        r.temperature = 0.5;
        r.user = u"session-7"_s;
        r.ignoreEos = true;
        r.continuousUsage = true;
        QVERIFY(generationPath(r.api) == QByteArrayView("/v1/chat/completions"));
        auto chat = nlohmann::json::parse(generationBody(r).toStdString());
        QVERIFY(chat.at("model") == "vllm-server1/m1");
        QVERIFY(chat.at("messages").at(0).at("content") == "Hello \u2603");
        QVERIFY(chat.at("max_tokens") == 64);
        QVERIFY(chat.at("temperature") == 0.5);
        QVERIFY(chat.at("stream") == true);
        QVERIFY(chat.at("user") == "session-7");
        QVERIFY(chat.at("ignore_eos") == true);
        QVERIFY(chat.at("stream_options") == (nlohmann::json{{"include_usage", true}, {"continuous_usage_stats", true}}));
        QVERIFY(!chat.contains("input") && !chat.contains("store"));

        r.api = GenerationApi::Responses;
        QVERIFY(generationPath(r.api) == QByteArrayView("/v1/responses"));
        auto responses = nlohmann::json::parse(generationBody(r).toStdString());
        QVERIFY(responses.at("input") == chat.at("messages"));
        QVERIFY(responses.at("max_output_tokens") == 64);
        QVERIFY(responses.at("store") == false);
        QVERIFY(responses.at("stream") == true);
        for (const char *chatOnly : {"messages", "max_tokens", "stream_options", "user", "ignore_eos"})
            QVERIFY2(!responses.contains(chatOnly), chatOnly);

        // Left out when not set: the node's defaults apply, and a node serving one model takes any name.
        GenerationRequest bare;
        auto minimal = nlohmann::json::parse(generationBody(bare).toStdString());
        QVERIFY(!minimal.contains("model") && !minimal.contains("max_tokens") && !minimal.contains("temperature"));
        QVERIFY(minimal.at("messages") == nlohmann::json::array());
        QVERIFY(minimal.at("stream_options") == (nlohmann::json{{"include_usage", true}}));

        // A prompt with a broken UTF-8 sequence still goes out (replaced), rather than throwing.
        bare.messages = nlohmann::ordered_json::array({{{"role", "user"}, {"content", std::string("a\xff" "b")}}});
        const QByteArray body = generationBody(bare);
        QVERIFY(!nlohmann::json::parse(body.toStdString(), nullptr, false).is_discarded());
        QVERIFY(body.contains("\xef\xbf\xbd"));
    }
};

QTEST_GUILESS_MAIN(TestOpenAiWire)
#include "tst_openaiwire.moc"
