#include "history/storedvalues.h"

#include "http/bytewriter.h"
#include "http/jsonbodyscanner.h"

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

namespace {

// A JSON string of text, quoted and escaped (RFC 8259): what the writer needs per record, without
// building a document first. Only quotes, backslashes and control characters are escaped; the rest
// is the text's UTF-8.
void appendJsonString(std::string &out, QStringView text)
{
    out.push_back('"');
    const size_t from = out.size();
    appendUtf8(out, text);
    const auto needsEscape = [](char c) {
        char buffer[6];
        return !http::jsonEscape(c, buffer).isEmpty();
    };
    if (std::any_of(out.begin() + qsizetype(from), out.end(), needsEscape)) {
        const std::string raw = out.substr(from);
        out.resize(from);
        char buffer[6];
        for (const char c : raw) {
            const QByteArrayView escape = http::jsonEscape(c, buffer);
            if (escape.isEmpty())
                out.push_back(c);
            else
                out.append(escape.data(), size_t(escape.size()));
        }
    }
    out.push_back('"');
}

void appendNumber(std::string &out, qint64 n)
{
    char digits[24];
    const QByteArrayView text = http::decimalDigits(n, digits);
    out.append(text.data(), size_t(text.size()));
}

} // namespace

void triedToJson(const QList<stats::Attempt> &tried, std::string &out)
{
    out.clear();
    out.push_back('[');
    for (const stats::Attempt &a : tried) {
        if (out.size() > 1)
            out.push_back(',');
        out.append("{\"node\":");
        appendJsonString(out, a.node);
        out.append(",\"status\":");
        appendNumber(out, a.status);
        const QByteArray outcome = stats::attemptOutcomeName(a.outcome), via = stats::attemptViaName(a.via);
        out.append(",\"outcome\":\"").append(outcome.constData(), size_t(outcome.size()));
        out.append("\",\"via\":\"").append(via.constData(), size_t(via.size()));
        out.append("\",\"start_ms\":");
        appendNumber(out, a.startMs);
        out.append(",\"duration_ms\":");
        appendNumber(out, a.durationMs);
        if (!a.reason.isEmpty()) {
            out.append(",\"reason\":");
            appendJsonString(out, a.reason);
        }
        if (!a.fallbackModel.isEmpty()) {
            out.append(",\"fallback_model\":");
            appendJsonString(out, a.fallbackModel);
        }
        out.push_back('}');
    }
    out.push_back(']');
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
