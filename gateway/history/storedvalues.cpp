#include "history/storedvalues.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlError>

using namespace Qt::StringLiterals;

namespace switchyard::history {

qint64 floorToMinute(qint64 ms)
{
    return ms - ((ms % MsPerMinute) + MsPerMinute) % MsPerMinute;
}

QString storedText(const QString &s)
{
    return s.isNull() ? u""_s : s;
}

QString sqlErrorText(const QSqlError &e)
{
    QString t = e.databaseText();
    if (t.isEmpty())
        t = e.driverText();
    return t.isEmpty() ? u"unknown error"_s : t;
}

namespace {

// A JSON string of text, quoted and escaped (RFC 8259): what the writer needs per record, without
// building a document first.
void appendJsonString(QByteArray &out, const QString &text)
{
    const QByteArray utf8 = text.toUtf8();
    out.append('"');
    for (const char c : utf8) {
        switch (c) {
        case '"':
            out.append("\\\"");
            break;
        case '\\':
            out.append("\\\\");
            break;
        case '\n':
            out.append("\\n");
            break;
        case '\r':
            out.append("\\r");
            break;
        case '\t':
            out.append("\\t");
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                static constexpr char Hex[] = "0123456789abcdef";
                out.append("\\u00").append(Hex[(c >> 4) & 0xf]).append(Hex[c & 0xf]);
            } else {
                out.append(c);
            }
        }
    }
    out.append('"');
}

} // namespace

QByteArray triedToJson(const QList<stats::Attempt> &tried)
{
    QByteArray out;
    out.reserve(96 * tried.size() + 2);
    out.append('[');
    for (const stats::Attempt &a : tried) {
        if (out.size() > 1)
            out.append(',');
        out.append("{\"node\":");
        appendJsonString(out, a.node);
        out.append(",\"status\":").append(QByteArray::number(a.status));
        out.append(",\"outcome\":\"").append(stats::attemptOutcomeName(a.outcome));
        out.append("\",\"via\":\"").append(stats::attemptViaName(a.via));
        out.append("\",\"start_ms\":").append(QByteArray::number(a.startMs));
        out.append(",\"duration_ms\":").append(QByteArray::number(a.durationMs));
        if (!a.reason.isEmpty()) {
            out.append(",\"reason\":");
            appendJsonString(out, a.reason);
        }
        if (!a.fallbackModel.isEmpty()) {
            out.append(",\"fallback_model\":");
            appendJsonString(out, a.fallbackModel);
        }
        out.append('}');
    }
    out.append(']');
    return out;
}

QList<stats::Attempt> triedFromJson(const QString &json)
{
    QList<stats::Attempt> out;
    const QJsonArray arr = QJsonDocument::fromJson(json.toUtf8()).array();
    for (const QJsonValue &v : arr) {
        const QJsonObject o = v.toObject();
        stats::Attempt a;
        a.node = o.value(u"node"_s).toString();
        a.status = o.value(u"status"_s).toInt();
        a.outcome = stats::attemptOutcomeFromName(o.value(u"outcome"_s).toString().toLatin1())
                        .value_or(stats::Attempt::Outcome::Open);
        a.via = stats::attemptViaFromName(o.value(u"via"_s).toString().toLatin1())
                    .value_or(stats::Attempt::Via::Candidate);
        a.startMs = o.value(u"start_ms"_s).toInteger();
        a.durationMs = o.value(u"duration_ms"_s).toInteger();
        a.reason = o.value(u"reason"_s).toString();
        a.fallbackModel = o.value(u"fallback_model"_s).toString();
        out.append(a);
    }
    return out;
}

QString listToJson(const QStringList &list)
{
    return QString::fromUtf8(QJsonDocument(QJsonArray::fromStringList(list)).toJson(QJsonDocument::Compact));
}

QStringList listFromJson(const QString &json)
{
    QStringList out;
    const QJsonArray arr = QJsonDocument::fromJson(json.toUtf8()).array();
    for (const QJsonValue &v : arr)
        out.append(v.toString());
    return out;
}

bool isServerError(const stats::RequestRecord &r)
{
    return r.status >= 500 || r.cutMidAnswer();
}

} // namespace switchyard::history
