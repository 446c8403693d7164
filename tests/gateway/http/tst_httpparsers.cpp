// HTTP/1.1 request and response parsing, chunked decoding, and the request-body scanner.
#include "http/httprequestparser.h"
#include "http/httpresponseparser.h"
#include "http/jsonbodyscanner.h"

#include <QTest>

#include <limits>

using namespace switchyard::http;

class TestHttpParsers final : public QObject
{
    Q_OBJECT

private slots:
    void parsesSimpleRequest()
    {
        RequestParser p;
        QByteArray buf("POST /v1/chat/completions?x=1 HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n"
                       "Content-Type: application/json\r\n\r\n{}");
        QCOMPARE(p.parse(buf), RequestParser::Status::Complete);
        const Request r = p.takeRequest();
        QCOMPARE(r.method, QByteArray("POST"));
        QCOMPARE(r.path, QByteArray("/v1/chat/completions"));
        QCOMPARE(r.body, QByteArray("{}"));
        QCOMPARE(r.header("content-type"), QByteArrayView("application/json"));
        QVERIFY(r.keepAlive);
        QVERIFY(buf.isEmpty());
    }

    void parsesByteByByteAndPipelined()
    {
        const QByteArray two("GET /a HTTP/1.1\r\nHost: x\r\n\r\n"
                             "POST /b HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                             "3;ext=1\r\nabc\r\n2\r\nde\r\n0\r\nTrailer: y\r\n\r\n");
        RequestParser p;
        QByteArray buf;
        QList<Request> got;
        for (char c : two) {
            buf.append(c);
            while (true) {
                const auto s = p.parse(buf);
                QVERIFY(s != RequestParser::Status::Error);
                if (s != RequestParser::Status::Complete)
                    break;
                got.append(p.takeRequest());
            }
        }
        QCOMPARE(got.size(), 2);
        QCOMPARE(got[0].path, QByteArray("/a"));
        QCOMPARE(got[1].body, QByteArray("abcde"));
    }

    void rejectsHostileFraming_data()
    {
        QTest::addColumn<QByteArray>("raw");
        QTest::addColumn<int>("status");
        QTest::newRow("cl+te") << QByteArray("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n"
                                             "Transfer-Encoding: chunked\r\n\r\n")
                               << 400;
        QTest::newRow("dup-cl") << QByteArray("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n"
                                              "Content-Length: 4\r\n\r\n")
                                << 400;
        QTest::newRow("te-gzip") << QByteArray(
                                        "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n")
                                 << 501;
        QTest::newRow("te-chunked-twice")
            << QByteArray("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, chunked\r\n\r\n") << 400;
        QTest::newRow("folding") << QByteArray("GET / HTTP/1.1\r\nHost: x\r\nA: b\r\n  c\r\n\r\n") << 400;
        QTest::newRow("no-host") << QByteArray("GET / HTTP/1.1\r\n\r\n") << 400;
        QTest::newRow("bad-cl") << QByteArray("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n")
                                << 400;
        QTest::newRow("http2") << QByteArray("GET / HTTP/2.0\r\nHost: x\r\n\r\n") << 505;
        QTest::newRow("bad-chunk") << QByteArray(
                                          "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                                          "zz\r\n")
                                   << 400;
        QTest::newRow("body-too-large")
            << QByteArray("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999\r\n\r\n") << 413;
    }
    void rejectsHostileFraming()
    {
        QFETCH(QByteArray, raw);
        QFETCH(int, status);
        RequestParser p;
        QCOMPARE(p.parse(raw), RequestParser::Status::Error);
        QCOMPARE(p.error().status, status);
    }

    void enforcesHeaderLimitAsBytesArrive()
    {
        RequestParser p({1024, 1024});
        QByteArray buf("GET / HTTP/1.1\r\nHost: x\r\nX: ");
        buf.append(QByteArray(2000, 'a'));
        QCOMPARE(p.parse(buf), RequestParser::Status::Error);
        QCOMPARE(p.error().status, 431);
    }

    void rejectsWhatIsNoHttpAtTheFirstBytes()
    {
        // A TLS ClientHello (what `curl https://` sends to an http:// gateway) has no CRLF: waiting for a
        // complete head would hold the client until a timeout. Its first byte says enough.
        RequestParser tls({1024, 1024});
        QByteArray hello("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", 11);
        QCOMPARE(tls.parse(hello), RequestParser::Status::Error);
        QCOMPARE(tls.error().status, 400);
        QVERIFY(tls.error().message.contains("https://"));
        RequestParser junk({1024, 1024});
        QByteArray ssh("SSH-2.0-OpenSSH_9.2\x00", 20);
        QCOMPARE(junk.parse(ssh), RequestParser::Status::Error);
        // A request line still arriving byte by byte is fine.
        RequestParser slow({1024, 1024});
        QByteArray part("POS");
        QCOMPARE(slow.parse(part), RequestParser::Status::NeedMore);
        part += "T /v1/chat";
        QCOMPARE(slow.parse(part), RequestParser::Status::NeedMore);
    }

    void chunkedBodyLimit()
    {
        RequestParser p({1024, 4});
        QByteArray buf(
            "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nabcde\r\n0\r\n\r\n");
        QCOMPARE(p.parse(buf), RequestParser::Status::Error);
        QCOMPARE(p.error().status, 413);
    }

    void parsesResponsesOfEachFraming()
    {
        ResponseParser p;
        QByteArray buf("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n"
                       "Content-Type: text/event-stream\r\n\r\n5\r\ndata:\r\n0\r\n\r\n");
        QCOMPARE(p.parseHead(buf), ResponseParser::Status::HeadComplete);
        QCOMPARE(p.status(), 200);
        QCOMPARE(p.framing(), ResponseParser::Framing::Chunked);
        QByteArray body;
        qsizetype used = 0;
        QCOMPARE(p.feedBody(buf, used, [&](QByteArrayView v) { body.append(v); }),
                 ResponseParser::Status::BodyComplete);
        QCOMPARE(body, QByteArray("data:"));

        p.reset();
        QByteArray b2("HTTP/1.0 503 Service Unavailable\r\nContent-Length: 3\r\n\r\nabc");
        QCOMPARE(p.parseHead(b2), ResponseParser::Status::HeadComplete);
        QCOMPARE(p.status(), 503);
        QVERIFY(!p.keepAlive());
        body.clear();
        QCOMPARE(p.feedBody(b2, used, [&](QByteArrayView v) { body.append(v); }),
                 ResponseParser::Status::BodyComplete);
        QCOMPARE(body, QByteArray("abc"));

        p.reset();
        QByteArray b3("HTTP/1.1 200 OK\r\nContent-Type: x\r\n\r\n");
        QCOMPARE(p.parseHead(b3), ResponseParser::Status::HeadComplete);
        QCOMPARE(p.framing(), ResponseParser::Framing::UntilClose);
        QVERIFY(p.finishOnClose());
    }

    // Regression (fuzz_requestparser, tests/fuzz/regressions/requestparser/): a stray CRLF before a request
    // that arrives split across two reads ("\r", then "\n...") must be skipped as when it arrives whole;
    // it used to stay in front of the request line and turn a valid request into a 400.
    void skipsLeadingCrlfSplitAcrossReads()
    {
        RequestParser p;
        QByteArray buf("\r");
        QCOMPARE(p.parse(buf), RequestParser::Status::NeedMore);
        buf.append("\nGET /health HTTP/1.1\r\nHost: a\r\n\r\n");
        QCOMPARE(p.parse(buf), RequestParser::Status::Complete);
        QCOMPARE(p.takeRequest().path, QByteArray("/health"));
    }

    // Regression (fuzz_responseparser, tests/fuzz/regressions/responseparser/): a status outside 100..599
    // from a node is a malformed response (a 502 for the client), not a status to relay.
    void rejectsOutOfRangeResponseStatus_data()
    {
        QTest::addColumn<QByteArray>("head");
        QTest::newRow("000") << QByteArray("HTTP/1.1 000 Continue\r\n\r\n");
        QTest::newRow("099") << QByteArray("HTTP/1.1 099 X\r\nContent-Length: 0\r\n\r\n");
        QTest::newRow("600") << QByteArray("HTTP/1.1 600 X\r\nContent-Length: 0\r\n\r\n");
        QTest::newRow("999") << QByteArray("HTTP/1.1 999 X\r\nContent-Length: 0\r\n\r\n");
    }
    void rejectsOutOfRangeResponseStatus()
    {
        QFETCH(QByteArray, head);
        ResponseParser p;
        QCOMPARE(p.parseHead(head), ResponseParser::Status::Error);
    }

    void scansAndRewritesBody()
    {
        const QByteArray body(
            R"({"model": "vllm-server1/nemotron", "messages":[{"role":"user","content":"hi \u0022x"}],)"
            R"( "fallbacks": ["vllm-server2/nemotron"], "stream": true, "temperature": 0.5e-1})");
        const ScannedBody s = scanRequestBody(body);
        QVERIFY2(s.valid, s.error.constData());
        QCOMPARE(*s.model, QByteArray("vllm-server1/nemotron"));
        QCOMPARE(s.fallbacks, QList<QByteArray>{"vllm-server2/nemotron"});
        QVERIFY(s.stream);
        const QByteArray out = rewriteBody(body, s, "nemotron");
        QCOMPARE(out,
                 QByteArray(R"({"model": "nemotron", "messages":[{"role":"user","content":"hi \u0022x"}],)"
                            R"( "stream": true, "temperature": 0.5e-1})"));
        // Fallbacks as the last member: the comma before it goes.
        const QByteArray last(R"({"model":"m","fallbacks":["a/b"]})");
        const ScannedBody s2 = scanRequestBody(last);
        QVERIFY(s2.valid);
        QCOMPARE(rewriteBody(last, s2, "n"), QByteArray(R"({"model":"n"})"));
        // Escaped model names are decoded.
        const ScannedBody s3 = scanRequestBody(R"({"model":"a\/b\u0041"})");
        QCOMPARE(*s3.model, QByteArray("a/bA"));
    }

    // The request to a node is written as head + body in one buffer, its Content-Length announced before
    // the body is: the announced size must be the bytes written, for plain and escaped model names.
    void bodyTemplateAnnouncesTheSizeItWrites()
    {
        const QByteArray body(R"({"model":"a/m","fallbacks":["b/m"],"messages":[]})");
        const ScannedBody s = scanRequestBody(body);
        QVERIFY(s.valid);
        const BodyTemplate t = makeBodyTemplate(body, s);
        for (const QByteArray &model : {QByteArray("m"), QByteArray("q\"uo\\te\n\x01"), QByteArray()}) {
            QByteArray out("HEAD\r\n");
            t.appendWithModel(out, model);
            QCOMPARE(out.size() - 6, t.sizeWithModel(model));
            QCOMPARE(out.sliced(6), t.withModel(model));
            QCOMPARE(out.sliced(6), rewriteBody(body, s, model));
            const ScannedBody again = scanRequestBody(out.sliced(6));
            QVERIFY(again.valid);
            QCOMPARE(*again.model, model);
        }
        QCOMPARE(jsonQuote("a\"\x1f"), QByteArray("\"a\\\"\\u001f\""));
    }

    void appendsDecimals()
    {
        for (const qint64 n : {qint64(0), qint64(7), qint64(-42), qint64(626), std::numeric_limits<qint64>::max(),
                               std::numeric_limits<qint64>::min()}) {
            QByteArray out("x");
            appendDecimal(out, n);
            QCOMPARE(out, "x" + QByteArray::number(n));
        }
    }

    // A chunk-size line (or trailer) over ChunkedDecoder::MaxLineLength is refused whether it arrives in
    // one read or in pieces.
    void chunkLineLimitHoldsWhateverTheReads()
    {
        const QByteArray line =
            "1;" + QByteArray(ChunkedDecoder::MaxLineLength + 10, 'x') + "\r\na\r\n0\r\n\r\n";
        ChunkedDecoder whole;
        qsizetype used = 0;
        QCOMPARE(whole.feed(line, used, [](QByteArrayView) {}), ChunkedDecoder::Result::Error);
        ChunkedDecoder trailer;
        const QByteArray t = "0\r\nX: " + QByteArray(ChunkedDecoder::MaxLineLength + 10, 'x') + "\r\n\r\n";
        QCOMPARE(trailer.feed(t, used, [](QByteArrayView) {}), ChunkedDecoder::Result::Error);
    }

    void nestedRepeatedKeysAreFine()
    {
        const ScannedBody s =
            scanRequestBody(R"({"model":"m","tools":[{"model":1},{"model":2}],"x":{"stream":1,"stream":2}})");
        QVERIFY(s.valid);
        QCOMPARE(*s.model, QByteArray("m"));
    }

    // A member name written with escapes is the same member: an escaped "model" is routed on, and an
    // escaped second "stream" is a duplicate like any other.
    void escapedMemberNamesAreTheSameMembers()
    {
        const ScannedBody s = scanRequestBody(R"({"mo\u0064el":"m1","str\u0065am":true,"max_tokens":4})");
        QVERIFY2(s.valid, s.error.constData());
        QCOMPARE(*s.model, QByteArray("m1"));
        QVERIFY(s.stream);
        QVERIFY(!scanRequestBody(R"({"model":"m","stream":true,"\u0073tream":false})").valid);
        QVERIFY(!scanRequestBody("{\"mo\x01" "del\":\"m\"}").valid); // a control character in a name
        QVERIFY(!scanRequestBody("{\"model").valid);                   // cut off in a name
    }

    void rejectsInvalidJson_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("trailing-comma") << QByteArray(R"({"model":"m",})");
        QTest::newRow("unterminated") << QByteArray("{\"model\":\"m");
        QTest::newRow("garbage-after") << QByteArray(R"({"model":"m"} x)");
        QTest::newRow("bad-number") << QByteArray(R"({"n": 01})");
        QTest::newRow("empty") << QByteArray("");
        QTest::newRow("deep") << QByteArray(200, '[');
        // Regression (fuzz_requestbody, tests/fuzz/regressions/requestbody/): repeated members the gateway
        // routes on or strips are ambiguous between parsers, so refused.
        QTest::newRow("duplicate-model")
            << QByteArray(R"({"model":"allowed","messages":[],"model":"other"})");
        QTest::newRow("duplicate-fallbacks")
            << QByteArray(R"({"model":"m","fallbacks":["a"],"fallbacks":["b"]})");
        QTest::newRow("duplicate-stream") << QByteArray(R"({"model":"m","stream":false,"stream":true})");
    }
    void rejectsInvalidJson()
    {
        QFETCH(QByteArray, body);
        const ScannedBody s = scanRequestBody(body);
        QVERIFY(!s.valid);
        QVERIFY(!s.error.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestHttpParsers)
#include "tst_httpparsers.moc"
