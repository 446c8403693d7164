#include "history/storedvalues.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlError>

#include <algorithm>

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

void appendUtf8(std::string &out, QStringView text)
{
    const size_t at = out.size();
    out.resize(at + size_t(text.size()) * 3); // UTF-8 needs at most 3 bytes per UTF-16 unit
    char *dst = out.data() + at;
    const char16_t *src = text.utf16();
    const char16_t *const end = src + text.size();
    // Names, models, routes and most error texts are ASCII: copied a unit at a time.
    while (src != end && *src < 0x80)
        *dst++ = char(*src++);
    while (src != end) {
        const char32_t c = *src++;
        if (c < 0x80) {
            *dst++ = char(c);
        } else if (c < 0x800) {
            *dst++ = char(0xc0 | (c >> 6));
            *dst++ = char(0x80 | (c & 0x3f));
        } else if (QChar::isHighSurrogate(c) && src != end && QChar::isLowSurrogate(*src)) {
            const char32_t u = QChar::surrogateToUcs4(char16_t(c), *src++); // 2 units → 4 bytes
            *dst++ = char(0xf0 | (u >> 18));
            *dst++ = char(0x80 | ((u >> 12) & 0x3f));
            *dst++ = char(0x80 | ((u >> 6) & 0x3f));
            *dst++ = char(0x80 | (u & 0x3f));
        } else {
            // A lone surrogate has no UTF-8 form: U+FFFD, as QString::toUtf8 writes it.
            const char32_t u = QChar::isSurrogate(c) ? char32_t(0xfffd) : c;
            *dst++ = char(0xe0 | (u >> 12));
            *dst++ = char(0x80 | ((u >> 6) & 0x3f));
            *dst++ = char(0x80 | (u & 0x3f));
        }
    }
    out.resize(size_t(dst - out.data()));
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
