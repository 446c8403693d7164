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

QString triedToJson(const QList<stats::Attempt> &tried)
{
    QJsonArray out;
    for (const stats::Attempt &a : tried) {
        QJsonObject o{
            {u"node"_s, a.node},
            {u"status"_s, a.status},
            {u"outcome"_s, QString::fromLatin1(stats::attemptOutcomeName(a.outcome))},
            {u"via"_s, QString::fromLatin1(stats::attemptViaName(a.via))},
            {u"start_ms"_s, a.startMs},
            {u"duration_ms"_s, a.durationMs},
        };
        if (!a.reason.isEmpty())
            o.insert(u"reason"_s, a.reason);
        if (!a.fallbackModel.isEmpty())
            o.insert(u"fallback_model"_s, a.fallbackModel);
        out.append(o);
    }
    return QString::fromUtf8(QJsonDocument(out).toJson(QJsonDocument::Compact));
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
