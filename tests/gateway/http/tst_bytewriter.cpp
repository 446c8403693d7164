// http::ByteWriter: what it writes is exactly what QByteArray::append would have made, whatever the
// estimate it was given, after whatever the array held, and it leaves no unwritten bytes behind.

#include "http/bytewriter.h"

#include <QTest>
#include <limits>

using namespace switchyard::http;

class TestByteWriter final : public QObject
{
    Q_OBJECT

private slots:
    void writesWhatAppendWouldHave()
    {
        QByteArray written = "GET";
        {
            ByteWriter w(written, 64);
            w.put(' ').put("/v1/models").put(" HTTP/1.1\r\nContent-Length: ").decimal(1234).put("\r\n\r\n");
            QCOMPARE(w.size(), qsizetype(3 + 1 + 10 + 27 + 4 + 4));
        }
        QByteArray appended = "GET";
        appended.append(' ').append("/v1/models").append(" HTTP/1.1\r\nContent-Length: ").append("1234").append("\r\n\r\n");
        QCOMPARE(written, appended);
    }

    // An estimate far too small (or zero) only costs a regrowth: nothing is cut off or left over.
    void growsPastItsEstimate()
    {
        QByteArray out;
        const QByteArray piece(1000, 'x');
        {
            ByteWriter w(out, 0);
            for (int i = 0; i < 50; ++i)
                w.put(piece).put(char('0' + i % 10));
        }
        QCOMPARE(out.size(), qsizetype(50 * 1001));
        QCOMPARE(out.at(1000), '0');
        QCOMPARE(out.at(50 * 1001 - 1), '9');
        QVERIFY(out.startsWith(piece));
    }

    void writesEveryDecimal()
    {
        const qint64 numbers[] = {0, 7, 10, -1, -42, 1'000'000'007, std::numeric_limits<qint64>::max(),
                                  std::numeric_limits<qint64>::min()};
        for (const qint64 n : numbers) {
            QByteArray out;
            {
                ByteWriter w(out, 4);
                w.decimal(n);
            }
            QCOMPARE(out, QByteArray::number(n));
        }
    }

    // Nothing written: the array is as it was (the room reserved for the estimate is given back).
    void writingNothingChangesNothing()
    {
        QByteArray out = "kept";
        {
            ByteWriter w(out, 500);
            w.put(QByteArrayView());
        }
        QCOMPARE(out, QByteArray("kept"));
    }
};

QTEST_GUILESS_MAIN(TestByteWriter)
#include "tst_bytewriter.moc"
