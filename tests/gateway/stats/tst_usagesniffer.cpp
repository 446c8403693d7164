// Token usage read from response bytes as they pass through the gateway (stats/usagesniffer): what
// the request log and the node counters show as prompt/completion tokens, however the node's bytes
// are split across reads.

#include "stats/usagesniffer.h"

#include <QTest>

using switchyard::stats::UsageDialect;
using switchyard::stats::UsageSniffer;

namespace {
QByteArray event(const QByteArray &delta)
{
    return R"(data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":)" + delta +
           R"(,"finish_reason":null}]})" + "\n\n";
}

QByteArray stream(bool withUsage)
{
    QByteArray s = event(R"({"role":"assistant","content":""})"); // role only: no token
    for (int i = 0; i < 5; ++i)
        s += event(R"({"content":"tok"})");
    s += event(R"({"reasoning_content":"hmm"})");
    if (withUsage)
        s +=
            R"(data: {"id":"c1","choices":[],"usage":{"prompt_tokens":1234,"completion_tokens":77,"total_tokens":1311}})"
            "\n\n";
    s += "data: [DONE]\n\n";
    return s;
}

// A Responses API stream as vLLM sends it: three text deltas, the *.done events repeating the text,
// and the usage in response.completed.
QByteArray responsesStream()
{
    QByteArray s = "event: response.created\ndata: {\"response\":{\"id\":\"resp_1\",\"output\":[],\"usage\":null},"
                   "\"sequence_number\":0,\"type\":\"response.created\"}\n\n";
    for (int i = 0; i < 3; ++i)
        s += "event: response.output_text.delta\ndata: {\"content_index\":0,\"delta\":\"tok\",\"item_id\":\"msg_1\","
             "\"type\":\"response.output_text.delta\"}\n\n";
    s += "event: response.output_text.done\ndata: {\"text\":\"toktoktok\",\"type\":\"response.output_text.done\"}\n\n"
         "event: response.completed\ndata: {\"response\":{\"id\":\"resp_1\",\"output\":[{\"content\":[{\"text\":"
         "\"toktoktok\",\"type\":\"output_text\"}]}],\"usage\":{\"input_tokens\":21,\"input_tokens_details\":"
         "{\"cached_tokens\":0},\"output_tokens\":3,\"output_tokens_details\":{\"reasoning_tokens\":0},"
         "\"total_tokens\":24}},\"type\":\"response.completed\"}\n\n";
    return s;
}

// A Messages API stream: a provisional output_tokens in message_start, the final one in message_delta.
QByteArray messagesStart()
{
    return "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"content\":[],"
           "\"usage\":{\"input_tokens\":17,\"output_tokens\":0}}}\n\n"
           "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,"
           "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n";
}
QByteArray messagesDelta()
{
    return "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
           "\"delta\":{\"type\":\"text_delta\",\"text\":\"tok\"}}\n\n";
}
QByteArray messagesEnd(int output)
{
    return "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n"
           "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},"
           "\"usage\":{\"input_tokens\":17,\"output_tokens\":" + QByteArray::number(output) + "}}\n\n"
           "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
}
// A non-streamed chat completion as vLLM sends it, with a reply whose text quotes usage-like keys
// (escaped inside the string, so not the reply's own figures) and the figures' detail objects.
QByteArray wholeChatReply()
{
    return R"({"id":"chatcmpl-9","object":"chat.completion","created":1,"model":"m1","choices":[{"index":0,)"
           "\"message\":{\"role\":\"assistant\",\"content\":\"Set \\\"prompt_tokens\\\": 999 and "
           "\\\"completion_tokens\\\": 998_\","
           R"("tool_calls":[]},"logprobs":null,"finish_reason":"stop","stop_reason":null}],)"
           R"("usage":{"prompt_tokens":1234,"total_tokens":1311,"completion_tokens":77,)"
           R"("prompt_tokens_details":null},"prompt_logprobs":null})";
}

// A non-streamed Messages reply: the cache figures end in input_tokens too, and must not be read as it.
QByteArray wholeMessagesReply()
{
    return R"({"id":"msg_2","type":"message","role":"assistant","content":[{"type":"text","text":"Hi_there"}],)"
           R"("stop_reason":"end_turn","usage":{"input_tokens":9,"cache_creation_input_tokens":100,)"
           R"("cache_read_input_tokens":50,"output_tokens":2,"service_tier":"standard"}})";
}
} // namespace

class TestUsageSniffer final : public QObject
{
    Q_OBJECT

private slots:
    void nonStreamedUsage()
    {
        UsageSniffer u;
        u.feed(
            R"({"id":"x","choices":[{"message":{"content":"hi"}}],"usage":{"prompt_tokens": 9, "completion_tokens": 12}})");
        QCOMPARE(u.promptTokens(), 9);
        QCOMPARE(u.completionTokens(), 12);
    }

    void nothingFound()
    {
        UsageSniffer u;
        u.feed(R"({"object":"list","data":[]})");
        QCOMPARE(u.promptTokens(), -1);
        QCOMPARE(u.completionTokens(), -1);
    }

    void streamWithoutUsageCountsContentEvents()
    {
        UsageSniffer u;
        u.feed(stream(false));
        QCOMPARE(u.promptTokens(), -1);
        QCOMPARE(u.completionTokens(), 6); // 5 content + 1 reasoning, not the role-only event
    }

    void reportedUsageWinsOverCountedEvents()
    {
        UsageSniffer u;
        u.feed(stream(true));
        QCOMPARE(u.promptTokens(), 1234);
        QCOMPARE(u.completionTokens(), 77);
    }

    void anySplitIntoTwoReadsGivesTheSameUsage()
    {
        const QByteArray s = stream(true);
        for (qsizetype cut = 1; cut < s.size(); ++cut) {
            UsageSniffer u;
            u.feed(QByteArrayView(s).first(cut));
            u.feed(QByteArrayView(s).sliced(cut));
            QVERIFY2(u.promptTokens() == 1234 && u.completionTokens() == 77,
                     qPrintable(QString::number(cut)));
        }
    }

    void oneByteAtATimeStillFindsUsage()
    {
        const QByteArray s = stream(true);
        UsageSniffer u;
        for (char c : s)
            u.feed(QByteArrayView(&c, 1));
        QCOMPARE(u.promptTokens(), 1234);
        QCOMPARE(u.completionTokens(), 77);
    }

    void anySplitCountsEachChunkOnce()
    {
        // The live estimate moves the Tokens/s figures while a stream runs: a chunk whose key is cut
        // between two reads counts once, never twice or not at all.
        const QByteArray s = stream(false);
        for (qsizetype cut = 1; cut < s.size(); ++cut) {
            UsageSniffer u;
            u.feed(QByteArrayView(s).first(cut));
            u.feed(QByteArrayView(s).sliced(cut));
            QVERIFY2(u.countedChunks() == 6, qPrintable(QString::number(cut)));
        }
        UsageSniffer bytewise;
        for (char c : s)
            bytewise.feed(QByteArrayView(&c, 1));
        QCOMPARE(bytewise.countedChunks(), 6);
        QVERIFY(!bytewise.usageReported());
    }

    void toolCallsReasoningAndTextCompletionsCount()
    {
        UsageSniffer u;
        u.feed(::event("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"city\\\"\"}}]}"));
        u.feed(::event("{\"reasoning\":\"so\"}")); // newer vLLM's name for reasoning_content
        // Quoted keys inside the text are text.
        u.feed(::event("{\"content\":\"he said \\\"text\\\":\\\"x\\\" twice\"}"));
        u.feed("data: {\"id\":\"c2\",\"object\":\"text_completion\",\"choices\":[{\"index\":0,\"text\":\" Paris\"}]}\n\n");
        u.feed("data: {\"id\":\"c2\",\"object\":\"text_completion\",\"choices\":[{\"index\":0,\"text\":\"\","
               "\"finish_reason\":\"stop\"}]}\n\n");
        QCOMPARE(u.countedChunks(), 4);
        QCOMPARE(u.completionTokens(), 4);
    }

    void responsesDialect()
    {
        const QByteArray s = responsesStream();
        for (qsizetype cut = 1; cut < s.size(); ++cut) {
            UsageSniffer u(UsageDialect::Responses);
            u.feed(QByteArrayView(s).first(cut));
            u.feed(QByteArrayView(s).sliced(cut));
            QVERIFY2(u.countedChunks() == 3, qPrintable(QString::number(cut))); // the *.done text is no token
            QCOMPARE(u.promptTokens(), 21);
            QCOMPARE(u.completionTokens(), 3);
            QVERIFY(u.usageReported());
        }
        UsageSniffer chat; // the chat dialect does not read the Responses API's names
        chat.feed(s);
        QCOMPARE(chat.promptTokens(), -1);
    }

    void messagesDialectCountsLiveUntilTheFinalUsage()
    {
        UsageSniffer u(UsageDialect::Messages);
        u.feed(messagesStart());
        QCOMPARE(u.promptTokens(), 17);
        QVERIFY(!u.usageReported()); // message_start's output_tokens is provisional
        for (int i = 0; i < 4; ++i)
            u.feed(messagesDelta());
        QCOMPARE(u.completionTokens(), 4); // the live estimate, not message_start's 0
        u.feed(messagesEnd(5));
        QVERIFY(u.usageReported());
        QCOMPARE(u.completionTokens(), 5);

        UsageSniffer whole(UsageDialect::Messages); // a message that did not stream
        whole.feed(R"({"id":"msg_2","type":"message","content":[{"type":"text","text":"Hi there"}],)"
                   R"("usage":{"input_tokens":9,"output_tokens":2}})");
        QVERIFY(whole.usageReported());
        QCOMPARE(whole.completionTokens(), 2);
        QCOMPARE(whole.promptTokens(), 9);
    }

    // A reply that is one JSON document is read for its figures alone (setWholeReply): the request log
    // and the node counters must show the same usage as the full scan, however the reply is cut.
    void aWholeReplyGivesItsUsageHoweverItIsCut_data()
    {
        QTest::addColumn<int>("dialect");
        QTest::addColumn<QByteArray>("reply");
        QTest::addColumn<qint64>("prompt");
        QTest::addColumn<qint64>("completion");
        QTest::newRow("chat") << int(UsageDialect::Completions) << wholeChatReply() << qint64(1234) << qint64(77);
        QTest::newRow("messages") << int(UsageDialect::Messages) << wholeMessagesReply() << qint64(9) << qint64(2);
        QTest::newRow("responses")
            << int(UsageDialect::Responses)
            << QByteArray(R"({"id":"resp_1","object":"response","output":[],"usage":{"input_tokens":21,)"
                          R"("input_tokens_details":{"cached_tokens":0},"output_tokens":3,)"
                          R"("output_tokens_details":{"reasoning_tokens":0},"total_tokens":24}})")
            << qint64(21) << qint64(3);
        QTest::newRow("usage before the text")
            << int(UsageDialect::Completions)
            << QByteArray(R"({"usage":{"prompt_tokens":5,"completion_tokens":6},"choices":[{"message":)"
                          "{\"content\":\"under_scored text_tokens\\\" here\"}}]}")
            << qint64(5) << qint64(6);
    }
    void aWholeReplyGivesItsUsageHoweverItIsCut()
    {
        QFETCH(int, dialect);
        QFETCH(QByteArray, reply);
        QFETCH(qint64, prompt);
        QFETCH(qint64, completion);
        const auto sniffed = [&](const QList<QByteArrayView> &reads) {
            UsageSniffer u{UsageDialect(dialect)};
            u.setWholeReply(true);
            for (QByteArrayView read : reads)
                u.feed(read);
            return std::make_pair(u.promptTokens(), u.completionTokens());
        };
        const auto expected = std::make_pair(prompt, completion);
        QCOMPARE(sniffed({reply}), expected);
        for (qsizetype cut = 1; cut < reply.size(); ++cut) {
            const QByteArrayView r(reply);
            QVERIFY2(sniffed({r.first(cut), r.sliced(cut)}) == expected, qPrintable(QString::number(cut)));
        }
        QList<QByteArrayView> bytes;
        for (qsizetype i = 0; i < reply.size(); ++i)
            bytes.append(QByteArrayView(reply).sliced(i, 1));
        QCOMPARE(sniffed(bytes), expected);

        UsageSniffer full{UsageDialect(dialect)}; // the stream's scan reads the same figures
        full.feed(reply);
        QCOMPARE(std::make_pair(full.promptTokens(), full.completionTokens()), expected);
    }

    void farFromItsKeyOrTooLongIsNoFigure()
    {
        // Beyond what JSON's separators and a token count need, a match could not be told apart from
        // bytes cut across reads (the fuzzer found one that read differently when split).
        for (bool whole : {false, true}) {
            UsageSniffer u;
            u.setWholeReply(whole);
            u.feed(R"({"usage":{"prompt_tokens"::::::::::7,"completion_tokens":1234567890123456}})");
            QCOMPARE(u.promptTokens(), -1);
            QCOMPARE(u.completionTokens(), -1);
            u.feed(R"({"usage":{"prompt_tokens" : 7,"completion_tokens":123456789012345}})");
            QCOMPARE(u.promptTokens(), 7);
            QCOMPARE(u.completionTokens(), 123456789012345);
        }
    }

    void numberCutAtTheEndOfARead()
    {
        UsageSniffer u;
        u.feed(R"({"usage":{"prompt_tokens":12)");
        QCOMPARE(u.promptTokens(), -1); // may continue
        u.feed(R"(34,"completion_tokens":5})");
        QCOMPARE(u.promptTokens(), 1234);
        QCOMPARE(u.completionTokens(), 5);
    }
};

QTEST_APPLESS_MAIN(TestUsageSniffer)
#include "tst_usagesniffer.moc"
