#include "openaierror.h"

#include "openaijson.h"

#include <QStringList>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::openai {

namespace {

QString shortened(QString text)
{
    if (text.size() <= ErrorMessageMaxChars)
        return text;
    qsizetype keep = ErrorMessageMaxChars;
    if (text.at(keep - 1).isHighSurrogate())
        --keep; // never half a character
    text.truncate(keep);
    return text + u'\u2026';
}

// FastAPI's validation errors: [{"loc":["body","messages",0,"content"],"msg":"Field required",…},…].
QString validationErrors(const nlohmann::json &list)
{
    QStringList parts;
    qsizetype length = 0;
    for (const nlohmann::json &item : list) {
        QString part;
        if (item.is_string()) {
            part = QString::fromStdString(item.get_ref<const std::string &>());
        } else if (const QString msg = stringMember(item, "msg"); !msg.isEmpty()) {
            QStringList where;
            if (const nlohmann::json *loc = member(item, "loc"); loc && loc->is_array()) {
                for (const nlohmann::json &step : *loc)
                    where.append(step.is_string() ? QString::fromStdString(step.get_ref<const std::string &>())
                                                  : compactJson(step));
            }
            part = where.isEmpty() ? msg : where.join(u'.') % u": "_s % msg;
        } else {
            part = compactJson(item);
        }
        parts.append(part);
        length += part.size() + 2;
        if (length > ErrorMessageMaxChars)
            break; // the rest would be cut anyway
    }
    return parts.join(u"; "_s);
}

QString detailMessage(const nlohmann::json &detail)
{
    if (detail.is_string())
        return QString::fromStdString(detail.get_ref<const std::string &>());
    if (detail.is_array())
        return validationErrors(detail);
    return compactJson(detail); // HTTPException(detail={…}): the object is all there is
}

// The message of a parsed body in one of the known shapes, untrimmed and uncut; empty if none.
QString messageOf(const nlohmann::json &json)
{
    if (json.is_string())
        return QString::fromStdString(json.get_ref<const std::string &>()); // a body of one JSON string
    const nlohmann::json *error = member(json, "error");
    if (error && error->is_object()) {
        if (QString m = stringMember(*error, "message"); !m.trimmed().isEmpty())
            return m;
    }
    if (error && error->is_string() && !error->get_ref<const std::string &>().empty())
        return QString::fromStdString(error->get_ref<const std::string &>());
    if (QString m = stringMember(json, "message"); !m.trimmed().isEmpty())
        return m;
    if (const nlohmann::json *detail = member(json, "detail"))
        return detailMessage(*detail);
    return {};
}

} // namespace

QByteArray errorBody(const QString &message, QByteArrayView type, QByteArrayView code, QByteArrayView param)
{
    const auto orNull = [](QByteArrayView text) {
        return text.isEmpty() ? nlohmann::json(nullptr) : nlohmann::json(std::string(text.data(), size_t(text.size())));
    };
    nlohmann::json error = {
        {"message", message.toStdString()},
        {"type", std::string(type.data(), size_t(type.size()))},
        {"param", orNull(param)},
        {"code", orNull(code)},
    };
    const std::string text =
        nlohmann::json{{"error", std::move(error)}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return QByteArray(text.data(), qsizetype(text.size()));
}

QString errorMessageFromJson(const nlohmann::json &json, QByteArrayView body)
{
    const QString message = messageOf(json).trimmed();
    return message.isEmpty() ? bodyExcerpt(body) : shortened(message);
}

QString errorMessageFromBody(QByteArrayView body)
{
    const QByteArrayView trimmed = body.trimmed();
    if (trimmed.isEmpty())
        return {};
    return errorMessageFromJson(parseJson(trimmed), trimmed);
}

QString bodyExcerpt(QByteArrayView text)
{
    // Only the start is shown: decode no more of a huge body than could fill it after white space is
    // folded, and cut at the start of a UTF-8 sequence so the last character stays whole.
    constexpr qsizetype MaxBytes = 64 * 1024;
    text = text.trimmed();
    const bool cut = text.size() > MaxBytes;
    if (cut) {
        qsizetype end = MaxBytes;
        while (end > 0 && (uchar(text[end]) & 0xC0) == 0x80)
            --end;
        text = text.first(end);
    }
    const QString folded = QString::fromUtf8(text).simplified();
    if (cut && folded.size() <= ErrorMessageMaxChars)
        return folded + u'\u2026';
    return shortened(folded);
}

} // namespace switchyard::openai
