// Taking back out of a stream the usage the gateway asked for in the client's stead
// (proxy/usagechunkfilter): the client receives the stream byte for byte as the node would have sent
// it without stream_options, however the node's bytes are cut into reads, and what the filter holds
// stays bounded.

#include "proxy/usagechunkfilter.h"

#include <QTest>

using switchyard::proxy::UsageChunkFilter;

namespace {
QByteArray chunk(const QByteArray &content, bool usageNull)
{
    return R"(data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":")" +
           content + R"("},"finish_reason":null}])" + (usageNull ? R"(,"usage":null)" : "") + "}\n\n";
}

// The stream as a node sends it with include_usage (asked) and without (what the client expects).
QByteArray nodeStream(bool asked, const QByteArray &lineEnd = "\n")
{
    QByteArray s = ": keep-alive\n\n";
    for (const char *t : {"Hel", "lo \\\"usage\\\":null", " there"})
        s += chunk(t, asked);
    if (asked)
        s += R"(data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":9,"total_tokens":12,"completion_tokens":3}})"
             "\n\n";
    s += "data: [DONE]\n\n";
    if (lineEnd != "\n")
        s.replace("\n", lineEnd);
    return s;
}

QByteArray run(UsageChunkFilter &f, QByteArrayView in, qsizetype readSize)
{
    QByteArray out;
    for (qsizetype pos = 0; pos < in.size(); pos += readSize)
        out += f.feed(in.sliced(pos, std::min(readSize, in.size() - pos))).toByteArray();
    out += f.takeHeld();
    return out;
}
} // namespace

class TestUsageChunkFilter final : public QObject
{
    Q_OBJECT

private slots:
    void clientGetsTheStreamItDidNotAskUsageFor()
    {
        for (const QByteArray &lineEnd : {QByteArray("\n"), QByteArray("\r\n"), QByteArray("\r")}) {
            const QByteArray expected = nodeStream(false, lineEnd);
            for (qsizetype readSize : {qsizetype(1), qsizetype(2), qsizetype(7), qsizetype(64), qsizetype(100000)}) {
                UsageChunkFilter f;
                QCOMPARE(run(f, nodeStream(true, lineEnd), readSize), expected);
                QCOMPARE(f.removedChunks(), 1);
            }
        }
    }

    void untouchedReadsPassWithoutACopy()
    {
        UsageChunkFilter f;
        const QByteArray in = chunk("a", false) + chunk("b", false);
        const QByteArrayView out = f.feed(in);
        QCOMPARE(out.data(), in.constData());
        QCOMPARE(out.size(), in.size());
    }

    void usageMemberAnywhereIsCut()
    {
        UsageChunkFilter f;
        QCOMPARE(f.feed("data: {\"usage\":null,\"choices\":[{\"text\":\"x\"}]}\n\n").toByteArray(),
                 QByteArray("data: {\"choices\":[{\"text\":\"x\"}]}\n\n"));
        // A server that reports usage on the last choice chunk: the member goes, the chunk stays.
        QCOMPARE(f.feed("data: {\"choices\":[{\"delta\":{}}], \"usage\": {\"completion_tokens\": 3}}\n\n").toByteArray(),
                 QByteArray("data: {\"choices\":[{\"delta\":{}}]}\n\n"));
        QCOMPARE(f.removedChunks(), 0);
    }

    void errorEventsAndOddEventsPassUnchanged()
    {
        UsageChunkFilter f;
        const QByteArray in = "data: {\"error\":{\"message\":\"boom\"}}\n\nevent: x\ndata: {\"usage\":{}}\ndata: more\n\n"
                              "data: {not json\n\n";
        QCOMPARE(run(f, in, 5), in);
    }

    void longEventsAreNotHeld()
    {
        // An event longer than the bound is passed on as it comes: the filter holds at most the bound.
        UsageChunkFilter f;
        const QByteArray big = "data: {\"choices\":[{\"delta\":{\"content\":\"" +
                               QByteArray(3 * UsageChunkFilter::MaxHeldEventBytes, 'x') + "\"}}],\"usage\":null}\n\n";
        QByteArray out;
        const qsizetype read = 16 * 1024;
        for (qsizetype pos = 0; pos < big.size(); pos += read) {
            const qsizetype n = std::min(read, big.size() - pos);
            out += f.feed(QByteArrayView(big).sliced(pos, n)).toByteArray();
            QVERIFY(pos + n - out.size() <= UsageChunkFilter::MaxHeldEventBytes + read);
        }
        out += f.takeHeld();
        QCOMPARE(out, big);
        // The next ordinary event is filtered again.
        QCOMPARE(f.feed(chunk("y", true)).toByteArray(), chunk("y", false));
    }

    void streamCutMidEventKeepsItsBytes()
    {
        UsageChunkFilter f;
        QCOMPARE(f.feed("data: {\"choices\":[{\"delta\":{\"content\":\"par").size(), 0);
        QCOMPARE(f.takeHeld(), QByteArray("data: {\"choices\":[{\"delta\":{\"content\":\"par"));
    }
};

QTEST_APPLESS_MAIN(TestUsageChunkFilter)
#include "tst_usagechunkfilter.moc"
