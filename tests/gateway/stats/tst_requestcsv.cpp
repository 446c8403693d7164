// Finished requests as CSV (stats/requestcsv): what a spreadsheet reads back is what was recorded —
// quoting of commas, quotes and line breaks, empty cells for unknown counts, UTC times, the nodes tried
// in one cell — and text a node or client sent is never run as a formula.
#include "stats/requestcsv.h"

#include <QTest>

using namespace switchyard::stats;
using namespace Qt::Literals::StringLiterals;

namespace {

// A minimal RFC 4180 reader: the rows of text, each a list of cells.
QList<QStringList> readCsv(const QByteArray &text)
{
    QList<QStringList> rows;
    QStringList row;
    QString cell;
    bool quoted = false;
    const QString s = QString::fromUtf8(text);
    for (qsizetype i = 0; i < s.size(); ++i) {
        const QChar c = s[i];
        if (quoted) {
            if (c == u'"' && i + 1 < s.size() && s[i + 1] == u'"') {
                cell += u'"';
                ++i;
            } else if (c == u'"') {
                quoted = false;
            } else {
                cell += c;
            }
        } else if (c == u'"') {
            quoted = true;
        } else if (c == u',') {
            row << cell;
            cell.clear();
        } else if (c == u'\r' && i + 1 < s.size() && s[i + 1] == u'\n') {
            row << cell;
            rows << row;
            row.clear();
            cell.clear();
            ++i;
        } else {
            cell += c;
        }
    }
    return rows;
}

} // namespace

class TestRequestCsv final : public QObject
{
    Q_OBJECT

private slots:
    void roundTripsThroughASpreadsheetReader()
    {
        RequestRecord failedOver;
        failedOver.startedMsSinceEpoch = 1'780'000'000'123; // 2026-05-28T20:26:40.123Z
        failedOver.keyId = u"vk_3f9c"_s;
        failedOver.method = "POST";
        failedOver.path = "/v1/chat/completions";
        failedOver.model = u"nemotron, \"super\""_s;
        failedOver.node = u"b"_s;
        failedOver.route = u"weighted"_s;
        failedOver.status = 200;
        failedOver.attempts = 2;
        failedOver.stream = true;
        failedOver.ttftMs = 312;
        failedOver.durationMs = 4100;
        failedOver.promptTokens = 21;
        failedOver.completionTokens = 57;
        Attempt a;
        a.node = u"a"_s;
        a.status = 500;
        a.outcome = Attempt::Outcome::ErrorStatus;
        Attempt b;
        b.node = u"b"_s;
        b.status = 200;
        b.outcome = Attempt::Outcome::Answered;
        failedOver.tried = {a, b};

        RequestRecord unknown; // no key, no first byte, no usage; an error over two lines
        unknown.startedMsSinceEpoch = 1'780'000'001'000;
        unknown.method = "POST";
        unknown.path = "/v1/embeddings";
        unknown.status = 502;
        unknown.error = u"All 2 attempts failed:\nHTTP 500"_s;

        const QList<RequestRecord> records{failedOver, unknown};
        const QList<QStringList> rows = readCsv(requestsCsv(records));
        QCOMPARE(rows.size(), 3);
        const QStringList header = rows[0];
        QCOMPARE(header.size(), 16);
        for (const QStringList &r : rows)
            QCOMPARE(r.size(), header.size());
        const auto at = [&](int row, const char *column) {
            return rows[row][header.indexOf(QLatin1StringView(column))];
        };
        QCOMPARE(at(1, "started_utc"), u"2026-05-28T20:26:40.123Z"_s);
        QCOMPARE(at(1, "key"), u"vk_3f9c"_s);
        QCOMPARE(at(1, "model"), u"nemotron, \"super\""_s);
        QCOMPARE(at(1, "stream"), u"true"_s);
        QCOMPARE(at(1, "ttft_ms"), u"312"_s);
        QCOMPARE(at(1, "completion_tokens"), u"57"_s);
        QCOMPARE(at(1, "nodes_tried"), u"a 500 error_status; b 200 answered"_s);
        QCOMPARE(at(2, "key"), QString());
        QCOMPARE(at(2, "ttft_ms"), QString());
        QCOMPARE(at(2, "prompt_tokens"), QString());
        QCOMPARE(at(2, "status"), u"502"_s);
        QCOMPARE(at(2, "error"), u"All 2 attempts failed:\nHTTP 500"_s);
    }

    void textIsNeverAFormula_data()
    {
        QTest::addColumn<QString>("error");
        QTest::newRow("=") << u"=HYPERLINK(\"http://evil\",\"x\")"_s;
        QTest::newRow("+") << u"+1+1"_s;
        QTest::newRow("-") << u"-2+3"_s;
        QTest::newRow("@") << u"@SUM(A1)"_s;
    }

    void textIsNeverAFormula()
    {
        QFETCH(QString, error);
        RequestRecord r;
        r.error = error;
        const QList<QStringList> rows = readCsv(requestsCsv(QList<RequestRecord>{r}));
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows[1].last(), u'\'' + error);
    }

    void emptySearchIsTheHeaderAlone()
    {
        QCOMPARE(requestsCsv({}), requestsCsvHeader());
        QVERIFY(requestsCsvHeader().endsWith("\r\n"));
    }
};

QTEST_GUILESS_MAIN(TestRequestCsv)
#include "tst_requestcsv.moc"
