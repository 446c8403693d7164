#include "stats/requestcsv.h"

#include <QDateTime>
#include <QStringList>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::stats {

QByteArray csvCell(const QString &text)
{
    QByteArray out = text.toUtf8();
    // A spreadsheet runs "=HYPERLINK(…)" as a formula: text that came from a client or a node never does.
    if (!out.isEmpty() && QByteArrayView("=+-@\t\r").contains(out.front()))
        out.prepend('\'');
    if (out.contains(',') || out.contains('"') || out.contains('\n') || out.contains('\r')) {
        out.replace("\"", "\"\"");
        out = '"' + out + '"';
    }
    return out;
}

namespace {

QByteArray count(qint64 v)
{
    return v < 0 ? QByteArray() : QByteArray::number(v);
}

// "a 500 error_status; b 200 answered": the nodes tried, in order, in one cell.
QString triedText(const QList<Attempt> &tried)
{
    QStringList parts;
    for (const Attempt &a : tried) {
        parts << a.node % u' ' % QString::number(a.status) % u' ' %
                     QString::fromLatin1(attemptOutcomeName(a.outcome));
    }
    return parts.join(u"; "_s);
}

} // namespace

QByteArray requestsCsvHeader()
{
    return "started_utc,key,method,path,model,node,route,status,attempts,stream,ttft_ms,duration_ms,"
           "prompt_tokens,completion_tokens,nodes_tried,error\r\n";
}

QByteArray requestsCsvRows(std::span<const RequestRecord> records)
{
    QByteArray out;
    out.reserve(qsizetype(records.size()) * 160);
    for (const RequestRecord &r : records) {
        const QString started =
            QDateTime::fromMSecsSinceEpoch(r.startedMsSinceEpoch, Qt::UTC).toString(Qt::ISODateWithMs);
        out += csvCell(started) + ',' + csvCell(r.keyId) + ',' + csvCell(QString::fromLatin1(r.method)) + ',' +
               csvCell(QString::fromUtf8(r.path)) + ',' + csvCell(r.model) + ',' + csvCell(r.node) + ',' +
               csvCell(r.route) + ',' + QByteArray::number(r.status) + ',' + QByteArray::number(r.attempts) +
               ',' + (r.stream ? "true" : "false") + ',' + count(r.ttftMs) + ',' + count(r.durationMs) + ',' +
               count(r.promptTokens) + ',' + count(r.completionTokens) + ',' + csvCell(triedText(r.tried)) +
               ',' + csvCell(r.error) + "\r\n";
    }
    return out;
}

QByteArray requestsCsv(std::span<const RequestRecord> records)
{
    return requestsCsvHeader() + requestsCsvRows(records);
}

} // namespace switchyard::stats
