// multipart/form-data as audio uploads send it (gateway/http/multipartform): the boundary from the
// Content-Type, the parts' names and value spans, the bodies that must be refused, and a form read as
// it arrives (every prefix of a good form reads without error; a bad one is refused once it shows).
#include "http/multipartform.h"

#include <QTest>

using namespace switchyard::http;

namespace {

QByteArray valueOf(const QByteArray &body, const MultipartForm &form, QByteArrayView name)
{
    const MultipartPart *p = form.part(name);
    return p ? body.mid(p->value.begin, p->value.end - p->value.begin) : QByteArray("<absent>");
}

// A form as the openai SDK writes it: fields first, then the file.
QByteArray sdkForm(const QByteArray &boundary, const QByteArray &audio)
{
    return "--" + boundary + "\r\nContent-Disposition: form-data; name=\"model\"\r\n\r\nwhisper\r\n" + "--" +
           boundary + "\r\nContent-Disposition: form-data; name=\"response_format\"\r\n\r\njson\r\n" + "--" +
           boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.wav\"\r\n" +
           "Content-Type: audio/wav\r\n\r\n" + audio + "\r\n--" + boundary + "--\r\n";
}

} // namespace

class TestMultipartForm final : public QObject
{
    Q_OBJECT

private slots:
    void boundaryFromContentType_data()
    {
        QTest::addColumn<QByteArray>("contentType");
        QTest::addColumn<QByteArray>("boundary"); // empty: none
        QTest::newRow("plain") << QByteArray("multipart/form-data; boundary=abc123") << QByteArray("abc123");
        QTest::newRow("quoted") << QByteArray("multipart/form-data; boundary=\"a b:c\"")
                                << QByteArray("a b:c");
        QTest::newRow("case and spaces")
            << QByteArray("Multipart/Form-Data ;  BOUNDARY = x-1 ") << QByteArray("x-1");
        QTest::newRow("other parameters")
            << QByteArray("multipart/form-data; charset=utf-8; boundary=----Wk") << QByteArray("----Wk");
        QTest::newRow("quoted escape")
            << QByteArray("multipart/form-data; boundary=\"a\\\"b\"") << QByteArray();
        QTest::newRow("no boundary") << QByteArray("multipart/form-data") << QByteArray();
        QTest::newRow("empty boundary") << QByteArray("multipart/form-data; boundary=") << QByteArray();
        QTest::newRow("json") << QByteArray("application/json; boundary=x") << QByteArray();
        QTest::newRow("mixed") << QByteArray("multipart/mixed; boundary=x") << QByteArray();
        QTest::newRow("too long") << QByteArray("multipart/form-data; boundary=" + QByteArray(71, 'a'))
                                  << QByteArray();
        QTest::newRow("70 is fine") << QByteArray("multipart/form-data; boundary=" + QByteArray(70, 'a'))
                                    << QByteArray(70, 'a');
        QTest::newRow("unterminated quote")
            << QByteArray("multipart/form-data; boundary=\"abc") << QByteArray();
        QTest::newRow("trailing space")
            << QByteArray("multipart/form-data; boundary=\"abc \"") << QByteArray();
    }
    void boundaryFromContentType()
    {
        QFETCH(QByteArray, contentType);
        QFETCH(QByteArray, boundary);
        const auto b = multipartBoundary(contentType);
        if (boundary.isEmpty())
            QVERIFY2(!b, b ? b->constData() : "");
        else
            QCOMPARE(b.value_or("<none>"), boundary);
    }

    void readsTheSdksForm()
    {
        const QByteArray audio("RIFF\x00\x01\r\n--notit\r\n\xff",
                               19); // bytes that look like delimiters but are not
        const QByteArray body = sdkForm("b0", audio);
        MultipartError e;
        const auto form = parseMultipartForm(body, "b0", &e);
        QVERIFY2(form, e.message.constData());
        QCOMPARE(form->parts.size(), size_t(3));
        QCOMPARE(valueOf(body, *form, "model"), QByteArray("whisper"));
        QCOMPARE(valueOf(body, *form, "response_format"), QByteArray("json"));
        QCOMPARE(valueOf(body, *form, "file"), audio);
        const MultipartPart *file = form->part("file");
        QVERIFY(file->hasFilename);
        QCOMPARE(file->filename, QByteArray("a.wav"));
        QCOMPARE(file->contentType, QByteArray("audio/wav"));
        QVERIFY(!form->part("model")->hasFilename);
        QCOMPARE(form->part("nope"), nullptr);
    }

    void preambleEpilogueEmptyValuesAndPadding()
    {
        const QByteArray body =
            "ignored preamble\r\n--b \t\r\ncontent-disposition: FORM-DATA; name=empty\r\n\r\n"
            "\r\n--b\r\nContent-Disposition: form-data; name=\"q\\\"x\"\r\n\r\nv\r\n--b--\r\nepilogue";
        MultipartError e;
        const auto form = parseMultipartForm(body, "b", &e);
        QVERIFY2(form, e.message.constData());
        QCOMPARE(form->parts.size(), size_t(2));
        QCOMPARE(valueOf(body, *form, "empty"), QByteArray());
        QCOMPARE(valueOf(body, *form, "q\"x"), QByteArray("v"));
    }

    void partWithoutHeadersIsRefusedByName()
    {
        MultipartError e;
        QVERIFY(!parseMultipartForm("--b\r\n\r\nvalue\r\n--b--", "b", &e));
        QVERIFY2(e.message.contains("Content-Disposition"), e.message.constData());
    }

    void malformedBodies_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QByteArray>("says");
        const QByteArray part = "Content-Disposition: form-data; name=\"model\"\r\n\r\nm";
        QTest::newRow("no boundary in body")
            << QByteArray("hello") << QByteArray("does not contain the boundary");
        QTest::newRow("no closing delimiter")
            << QByteArray("--b\r\n" + part) << QByteArray("closing boundary");
        QTest::newRow("bare LF delimiters") << QByteArray("--b\n" + part + "\n--b--") << QByteArray("CRLF");
        QTest::newRow("LF after headers")
            << QByteArray("--b\r\nContent-Disposition: form-data; name=m\n\nv\r\n--b--")
            << QByteArray("headers do not end");
        QTest::newRow("boundary prefix") << QByteArray("--b\r\n" + part + "\r\n--bx\r\n" + part + "\r\n--b--")
                                         << QByteArray("not followed by CRLF");
        QTest::newRow("no name") << QByteArray("--b\r\nContent-Disposition: form-data\r\n\r\nv\r\n--b--")
                                 << QByteArray("no name");
        QTest::newRow("not form-data")
            << QByteArray("--b\r\nContent-Disposition: attachment; name=x\r\n\r\nv\r\n--b--")
            << QByteArray("not form-data");
        QTest::newRow("header without colon")
            << QByteArray("--b\r\nnonsense\r\n\r\nv\r\n--b--") << QByteArray("no name");
        QTest::newRow("unterminated name")
            << QByteArray("--b\r\nContent-Disposition: form-data; name=\"x\r\n\r\nv\r\n--b--")
            << QByteArray("unterminated");
        QTest::newRow("headers too long")
            << QByteArray("--b\r\nContent-Disposition: form-data; name=x\r\nX: " +
                          QByteArray(MaxPartHeaderBytes, 'a') + "\r\n\r\nv\r\n--b--")
            << QByteArray("too long");
    }
    void malformedBodies()
    {
        QFETCH(QByteArray, body);
        QFETCH(QByteArray, says);
        MultipartError e;
        QVERIFY(!parseMultipartForm(body, "b", &e));
        QVERIFY2(e.message.contains(says), e.message.constData());
    }

    void aFormReadsAsItArrives()
    {
        const QByteArray body = sdkForm("b", QByteArray("RIFF\r\n--\x00audio", 13).repeated(20));
        const auto whole = parseMultipartForm(body, "b");
        QVERIFY(whole);
        size_t seen = 0;
        const qsizetype closed = body.lastIndexOf("--b--") + 5; // what follows is an epilogue
        for (qsizetype n = 0; n <= body.size(); ++n) {
            MultipartError e;
            const auto prefix = parseMultipartPrefix(body.first(n), "b", &e);
            QVERIFY2(prefix, QByteArray(QByteArray::number(n) + ": " + e.message).constData());
            QCOMPARE(prefix->complete, n >= closed);
            // Parts only ever grow, each as the whole form reads it, once its next delimiter arrived.
            QVERIFY(prefix->parts.size() >= seen);
            seen = prefix->parts.size();
            for (size_t i = 0; i < prefix->parts.size(); ++i) {
                QCOMPARE(prefix->parts[i].name, whole->parts[i].name);
                QCOMPARE(prefix->parts[i].value.begin, whole->parts[i].value.begin);
                QCOMPARE(prefix->parts[i].value.end, whole->parts[i].value.end);
            }
            if (prefix->arriving) {
                QCOMPARE(prefix->arriving->name, whole->parts[prefix->parts.size()].name);
                QCOMPARE(prefix->arriving->value.end, qsizetype(-1));
            }
        }
        QCOMPARE(seen, whole->parts.size());
        // While the audio arrives, the fields before it are known and the file part is the one arriving.
        const auto midAudio = parseMultipartPrefix(body.first(body.indexOf("RIFF") + 3), "b");
        QVERIFY(midAudio && midAudio->arriving);
        QVERIFY(midAudio->arriving->hasFilename);
        QCOMPARE(valueOf(body, *midAudio, "model"), QByteArray("whisper"));
    }

    void aPrefixIsRefusedOnlyForWhatNoByteCouldMend()
    {
        // Wrong whatever follows: refused as soon as it shows, as the whole body is.
        const QByteArray noName = "--b\r\nContent-Disposition: form-data\r\n\r\nv";
        MultipartError e;
        QVERIFY(!parseMultipartPrefix(noName, "b", &e));
        QVERIFY2(e.message.contains("no name"), e.message.constData());
        QVERIFY(!parseMultipartPrefix("--b\nContent-Disposition", "b"));
        // Not yet wrong: no boundary so far may be a preamble; headers may still end.
        QVERIFY(parseMultipartPrefix("a preamble", "b"));
        QVERIFY(parseMultipartPrefix("--b\r\nContent-Disposition: form-data; name=\"x", "b"));
        QVERIFY(parseMultipartPrefix("--b\r\nContent-Disposition: form-data; name=x\r\n\r\nv\r\n--b  ", "b"));
    }

    void partsAreBounded()
    {
        QByteArray body;
        for (int i = 0; i <= MaxParts; ++i)
            body += "--b\r\nContent-Disposition: form-data; name=f" + QByteArray::number(i) + "\r\n\r\nv\r\n";
        body += "--b--";
        MultipartError e;
        QVERIFY(!parseMultipartForm(body, "b", &e));
        QVERIFY2(e.message.contains("too many parts"), e.message.constData());
        // One fewer is fine.
        const qsizetype last = body.lastIndexOf("--b\r\n");
        body.remove(last, body.size() - last);
        body += "--b--";
        QVERIFY(parseMultipartForm(body, "b"));
    }

    void firstPartWinsAndFilenameMayBeEmpty()
    {
        const QByteArray body =
            "--b\r\nContent-Disposition: form-data; name=model\r\n\r\none\r\n"
            "--b\r\nContent-Disposition: form-data; name=model; filename=\"\"\r\n\r\ntwo\r\n--b--";
        const auto form = parseMultipartForm(body, "b");
        QVERIFY(form);
        QCOMPARE(valueOf(body, *form, "model"), QByteArray("one"));
        QVERIFY(form->parts[1].hasFilename);
        QVERIFY(form->parts[1].filename.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestMultipartForm)
#include "tst_multipartform.moc"
