// The memory of which node created which stored response (proxy/responseidmemory.h), the scanner that
// finds a created response's id in the node's first bytes (proxy/responseidscanner.h), and the
// Anthropic error types by status (proxy/anthropicerror.h).

#include "proxy/anthropicerror.h"
#include "proxy/responseidmemory.h"
#include "proxy/responseidscanner.h"

#include <QTest>

using namespace switchyard::proxy;

class TestResponseIdMemory final : public QObject
{
    Q_OBJECT

private slots:
    void remembersAndForgets()
    {
        ResponseIdMemory m(10, 1000);
        m.remember("resp_1", QStringLiteral("a"), 0);
        m.remember("resp_2", QStringLiteral("b"), 0);
        QCOMPARE(m.nodeFor("resp_1", 1), QStringLiteral("a"));
        QCOMPARE(m.nodeFor("resp_2", 1), QStringLiteral("b"));
        QVERIFY(!m.nodeFor("resp_3", 1));
        m.forget("resp_1");
        QVERIFY(!m.nodeFor("resp_1", 1));
        m.remember("resp_2", QStringLiteral("c"), 2); // the latest word wins
        QCOMPARE(m.nodeFor("resp_2", 2), QStringLiteral("c"));
        QCOMPARE(m.size(), 1);
    }

    void boundedBySizeLeastRecentlyUsedFirst()
    {
        ResponseIdMemory m(3, 1'000'000);
        for (int i = 0; i < 3; ++i)
            m.remember("resp_" + QByteArray::number(i), QStringLiteral("n"), i);
        QVERIFY(m.nodeFor("resp_0", 10)); // used: now the freshest
        m.remember("resp_3", QStringLiteral("n"), 11);
        QCOMPARE(m.size(), 3);
        QVERIFY(m.nodeFor("resp_0", 12));
        QVERIFY(!m.nodeFor("resp_1", 12)); // the least recently used went
        QVERIFY(m.nodeFor("resp_2", 12));
        QVERIFY(m.nodeFor("resp_3", 12));
    }

    void boundedByAge()
    {
        ResponseIdMemory m(100, 1000);
        m.remember("old", QStringLiteral("a"), 0);
        m.remember("young", QStringLiteral("b"), 900);
        QVERIFY(!m.nodeFor("old", 1500));
        QVERIFY(m.nodeFor("young", 1500)); // used at 1500: fresh for another second
        QVERIFY(m.nodeFor("young", 2400));
        QVERIFY(!m.nodeFor("young", 3401));
        QCOMPARE(m.size(), 0);
    }

    void refusesUnboundedIds()
    {
        ResponseIdMemory m;
        m.remember(QByteArray(ResponseIdMemory::MaxIdBytes + 1, 'x'), QStringLiteral("a"), 0);
        m.remember(QByteArray(), QStringLiteral("a"), 0);
        QCOMPARE(m.size(), 0);
    }

    void scannerFindsTheFirstIdAcrossReads_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QByteArray>("id");
        QTest::newRow("whole object")
            << QByteArray(R"({"id":"resp_abc","output":[{"id":"msg_x"}]})") << QByteArray("resp_abc");
        QTest::newRow("spaces") << QByteArray("{ \"id\" : \"resp_sp\" }") << QByteArray("resp_sp");
        QTest::newRow("created event")
            << QByteArray("event: response.created\ndata: {\"response\":{\"id\":\"resp_ev\","
                          "\"previous_response_id\":\"resp_prev\"},\"type\":\"response.created\"}\n\n")
            << QByteArray("resp_ev");
        QTest::newRow("id as a value first")
            << QByteArray(R"({"name":"id","id":"resp_v"})") << QByteArray("resp_v");
        QTest::newRow("not a string") << QByteArray(R"({"id":7,"x":{"id":"resp_late"}})") << QByteArray();
    }

    void scannerFindsTheFirstIdAcrossReads()
    {
        QFETCH(QByteArray, body);
        QFETCH(QByteArray, id);
        for (qsizetype split = 1; split < body.size(); ++split) {
            ResponseIdScanner s;
            std::optional<QByteArray> found = s.feed(QByteArrayView(body).first(split));
            const std::optional<QByteArray> second = s.feed(QByteArrayView(body).sliced(split));
            if (!found)
                found = second;
            else
                QVERIFY(!second); // once
            QCOMPARE(found.value_or(QByteArray()), id);
        }
    }

    void scannerLooksOnlyAtTheHead()
    {
        ResponseIdScanner s;
        QVERIFY(!s.feed(QByteArray(ResponseIdScanner::MaxScanBytes, ' ')));
        QVERIFY(!s.feed(R"({"id":"resp_too_late"})"));
    }

    void anthropicTypesByStatus()
    {
        QCOMPARE(anthropicErrorType(400), "invalid_request_error");
        QCOMPARE(anthropicErrorType(405), "invalid_request_error");
        QCOMPARE(anthropicErrorType(401), "authentication_error");
        QCOMPARE(anthropicErrorType(403), "permission_error");
        QCOMPARE(anthropicErrorType(404), "not_found_error");
        QCOMPARE(anthropicErrorType(413), "request_too_large");
        QCOMPARE(anthropicErrorType(429), "rate_limit_error");
        QCOMPARE(anthropicErrorType(500), "api_error");
        QCOMPARE(anthropicErrorType(502), "api_error");
        QCOMPARE(anthropicErrorType(504), "api_error");
        QCOMPARE(anthropicErrorType(503), "overloaded_error");
        QCOMPARE(anthropicErrorType(529), "overloaded_error");
        const LocalResponse shaped =
            toAnthropicShape({404, "Content-Type: application/json\r\n",
                              R"({"error":{"message":"no such model","type":"invalid_request_error"}})"});
        QCOMPARE(shaped.body,
                 R"({"type":"error","error":{"type":"not_found_error","message":"no such model"}})");
    }
};

QTEST_GUILESS_MAIN(TestResponseIdMemory)
#include "tst_responseidmemory.moc"
