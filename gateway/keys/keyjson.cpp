#include "keys/keyjson.h"

#include "config/didyoumean.h"

#include <QDateTime>
#include <algorithm>

using namespace Qt::Literals::StringLiterals;
using nlohmann::json;

namespace switchyard::keys {

namespace {

const QStringList Fields = {u"name"_s,           u"models"_s,         u"providers"_s,  u"requests_per_minute"_s,
                            u"tokens_per_minute"_s, u"tokens_per_day"_s, u"max_concurrent"_s, u"expires_at"_s};

KeyJsonError fieldError(const std::string &field, const QString &what)
{
    return {QString::fromStdString(field) + u": "_s + what, QByteArray::fromStdString(field)};
}

QString shown(const json &v)
{
    QString s = QString::fromStdString(v.dump());
    return s.size() > 40 ? s.left(40) + u"…"_s : s;
}

Expected<QStringList, KeyJsonError> names(const std::string &field, const json &v)
{
    if (!v.is_array())
        return unexpected(fieldError(field, u"must be an array of names (got "_s + shown(v) + u')'));
    if (v.size() > 1000)
        return unexpected(fieldError(field, u"lists more than 1000 names"_s));
    QStringList out;
    for (const json &item : v) {
        if (!item.is_string() || item.get<std::string>().empty() || item.get<std::string>().size() > 256)
            return unexpected(fieldError(field, u"each entry must be a name of 1 to 256 characters (got "_s + shown(item) + u')'));
        out.append(QString::fromStdString(item.get<std::string>()));
    }
    return out;
}

} // namespace

std::optional<qint64> parseTimestamp(const QString &text)
{
    QDateTime t = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!t.isValid())
        t = QDateTime::fromString(text, Qt::ISODate);
    if (!t.isValid() || !(text.endsWith(u'Z') || text.contains(u'+') || text.lastIndexOf(u'-') > 9))
        return std::nullopt; // a time without its zone would mean something else on every machine
    return t.toMSecsSinceEpoch();
}

QString formatTimestamp(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODate);
}

Expected<KeyChange, KeyJsonError> parseKeyChange(QByteArrayView body, bool creating)
{
    const json doc = json::parse(body.begin(), body.end(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
        return unexpected(KeyJsonError{u"The body must be a JSON object, e.g. {\"name\": \"ci-pipeline\", \"requests_per_minute\": 60}"_s, {}});
    KeyChange c;
    for (const auto &[field, v] : doc.items()) {
        const QString name = QString::fromStdString(field);
        if (!Fields.contains(name))
            return unexpected(fieldError(field, u"unknown field"_s + config::didYouMean(name, Fields)));
        if (field == "name") {
            if (!v.is_string() || v.get<std::string>().empty() || QString::fromStdString(v.get<std::string>()).size() > 100)
                return unexpected(fieldError(field, u"must be a name of 1 to 100 characters (got "_s + shown(v) + u')'));
            c.name = QString::fromStdString(v.get<std::string>()).trimmed();
            if (c.name->isEmpty())
                return unexpected(fieldError(field, u"must not be blank"_s));
        } else if (field == "models" || field == "providers") {
            auto list = v.is_null() ? Expected<QStringList, KeyJsonError>(QStringList()) : names(field, v);
            if (!list)
                return unexpected(list.error());
            (field == "models" ? c.models : c.providers) = *list;
        } else if (field == "expires_at") {
            if (v.is_null()) {
                c.expiresMs = 0;
                continue;
            }
            const auto t = v.is_string() ? parseTimestamp(QString::fromStdString(v.get<std::string>())) : std::nullopt;
            if (!t)
                return unexpected(fieldError(field, u"must be a time with its zone, e.g. \"2027-01-31T18:00:00Z\", or null for never (got "_s + shown(v) + u')'));
            c.expiresMs = *t;
        } else {
            qint64 n = 0;
            if (!v.is_null()) {
                if (!v.is_number_integer() || v.get<qint64>() < 0 || v.get<qint64>() > MaxLimit)
                    return unexpected(fieldError(field, u"must be a whole number from 0 (no limit) to 1000000000 (got "_s + shown(v) + u')'));
                n = v.get<qint64>();
            }
            if (field == "requests_per_minute")
                c.requestsPerMinute = n;
            else if (field == "tokens_per_minute")
                c.tokensPerMinute = n;
            else if (field == "tokens_per_day")
                c.tokensPerDay = n;
            else
                c.maxConcurrent = n;
        }
    }
    if (creating && !c.name)
        return unexpected(KeyJsonError{u"name: is required: say whom or what the key is for"_s, "name"});
    return c;
}

nlohmann::ordered_json keyToJson(const VirtualKey &key, const KeyUsage::Snapshot *usage, qint64 nowMs)
{
    using oj = nlohmann::ordered_json;
    const auto list = [](const QStringList &l) {
        oj a = oj::array();
        for (const QString &s : l)
            a.push_back(s.toStdString());
        return a;
    };
    const auto time = [](qint64 ms) { return ms == 0 ? oj(nullptr) : oj(formatTimestamp(ms).toStdString()); };
    oj out = {
        {"id", key.id.toStdString()},
        {"name", key.name.toStdString()},
        {"secret_hint", key.secretHint.toStdString()},
        {"status", key.revokedMs != 0 ? "revoked" : key.isActive(nowMs) ? "active" : "expired"},
        {"models", list(key.models)},
        {"providers", list(key.providers)},
        {"requests_per_minute", key.limits.requestsPerMinute},
        {"tokens_per_minute", key.limits.tokensPerMinute},
        {"tokens_per_day", key.limits.tokensPerDay},
        {"max_concurrent", key.limits.maxConcurrent},
        {"created_at", time(key.createdMs)},
        {"expires_at", time(key.expiresMs)},
        {"revoked_at", time(key.revokedMs)},
    };
    if (usage) {
        out["usage"] = {
            {"requests", usage->requests},
            {"refused", usage->refused},
            {"prompt_tokens", usage->promptTokens},
            {"completion_tokens", usage->completionTokens},
            {"requests_this_minute", usage->requestsThisMinute},
            {"tokens_this_minute", usage->tokensThisMinute},
            {"tokens_today", usage->tokensToday},
            {"in_flight", usage->inFlight},
        };
    }
    return out;
}

} // namespace switchyard::keys

namespace switchyard::keys {

QByteArray keyChangeToJson(const KeyChange &change)
{
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    const auto list = [](const QStringList &l) {
        nlohmann::ordered_json a = nlohmann::ordered_json::array();
        for (const QString &s : l)
            a.push_back(s.toStdString());
        return a;
    };
    if (change.name)
        out["name"] = change.name->toStdString();
    if (change.models)
        out["models"] = list(*change.models);
    if (change.providers)
        out["providers"] = list(*change.providers);
    if (change.requestsPerMinute)
        out["requests_per_minute"] = *change.requestsPerMinute;
    if (change.tokensPerMinute)
        out["tokens_per_minute"] = *change.tokensPerMinute;
    if (change.tokensPerDay)
        out["tokens_per_day"] = *change.tokensPerDay;
    if (change.maxConcurrent)
        out["max_concurrent"] = *change.maxConcurrent;
    if (change.expiresMs)
        out["expires_at"] = *change.expiresMs == 0 ? nlohmann::ordered_json(nullptr)
                                                   : nlohmann::ordered_json(formatTimestamp(*change.expiresMs).toStdString());
    return QByteArray::fromStdString(out.dump());
}

namespace {

QString text(const json &o, const char *field)
{
    const auto it = o.find(field);
    return it != o.end() && it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString();
}

qint64 number(const json &o, const char *field)
{
    const auto it = o.find(field);
    return it != o.end() && it->is_number_integer() ? it->get<qint64>() : 0;
}

qint64 time(const json &o, const char *field)
{
    const QString t = text(o, field);
    return t.isEmpty() ? 0 : parseTimestamp(t).value_or(0);
}

QStringList textList(const json &o, const char *field)
{
    QStringList out;
    const auto it = o.find(field);
    if (it == o.end() || !it->is_array())
        return out;
    for (const json &v : *it) {
        if (v.is_string() && out.size() < 1000)
            out.append(QString::fromStdString(v.get<std::string>()));
    }
    return out;
}

json textArray(const QStringList &l)
{
    json a = json::array();
    for (const QString &s : l)
        a.push_back(s.toStdString());
    return a;
}

} // namespace

Expected<KeyListing, QString> keyListingFromJson(const json &v)
{
    if (!v.is_object() || !v.contains("id") || !v["id"].is_string())
        return unexpected(u"a key without an id"_s);
    KeyListing l;
    VirtualKey &k = l.key;
    k.id = text(v, "id");
    k.name = text(v, "name");
    k.secretHint = text(v, "secret_hint");
    k.models = textList(v, "models");
    k.providers = textList(v, "providers");
    k.limits.requestsPerMinute = number(v, "requests_per_minute");
    k.limits.tokensPerMinute = number(v, "tokens_per_minute");
    k.limits.tokensPerDay = number(v, "tokens_per_day");
    k.limits.maxConcurrent = number(v, "max_concurrent");
    k.createdMs = time(v, "created_at");
    k.expiresMs = time(v, "expires_at");
    k.revokedMs = time(v, "revoked_at");
    if (text(v, "status") == u"revoked"_s && k.revokedMs == 0)
        k.revokedMs = 1; // revoked at a time it did not say
    const auto usage = v.find("usage");
    if (usage != v.end() && usage->is_object()) {
        KeyUsage::Snapshot &u = l.usage;
        u.requests = number(*usage, "requests");
        u.refused = number(*usage, "refused");
        u.promptTokens = number(*usage, "prompt_tokens");
        u.completionTokens = number(*usage, "completion_tokens");
        u.requestsThisMinute = number(*usage, "requests_this_minute");
        u.tokensThisMinute = number(*usage, "tokens_this_minute");
        u.tokensToday = number(*usage, "tokens_today");
        u.inFlight = number(*usage, "in_flight");
    }
    return l;
}

Expected<std::vector<KeyListing>, QString> parseKeyList(QByteArrayView body)
{
    const json doc = json::parse(body.begin(), body.end(), nullptr, false);
    if (!doc.is_object() || !doc.contains("data") || !doc["data"].is_array())
        return unexpected(u"GET /api/keys: the answer is not a list of keys"_s);
    std::vector<KeyListing> out;
    for (const json &item : doc["data"]) {
        if (out.size() >= size_t(KeyRegistry::MaxKeys))
            break;
        auto l = keyListingFromJson(item);
        if (!l)
            return unexpected(u"GET /api/keys: "_s + l.error());
        out.push_back(std::move(*l));
    }
    return out;
}

Expected<CreatedKey, QString> parseCreatedKey(QByteArrayView body)
{
    const json doc = json::parse(body.begin(), body.end(), nullptr, false);
    auto l = keyListingFromJson(doc);
    if (!l)
        return unexpected(u"POST /api/keys: "_s + l.error());
    const QString secret = text(doc, "secret");
    if (secret.isEmpty())
        return unexpected(u"POST /api/keys: the answer holds no secret"_s);
    return CreatedKey{std::move(*l), secret};
}

QByteArray keyRecordToJson(const VirtualKey &k)
{
    const json j = {{"id", k.id.toStdString()},
                    {"name", k.name.toStdString()},
                    {"sha256", k.secretSha256.toHex().toStdString()},
                    {"hint", k.secretHint.toStdString()},
                    {"models", textArray(k.models)},
                    {"providers", textArray(k.providers)},
                    {"rpm", k.limits.requestsPerMinute},
                    {"tpm", k.limits.tokensPerMinute},
                    {"tpd", k.limits.tokensPerDay},
                    {"concurrent", k.limits.maxConcurrent},
                    {"created_ms", k.createdMs},
                    {"expires_ms", k.expiresMs},
                    {"revoked_ms", k.revokedMs}};
    return QByteArray::fromStdString(j.dump());
}

std::optional<VirtualKey> keyRecordFromJson(QByteArrayView raw)
{
    const json v = json::parse(raw.begin(), raw.end(), nullptr, false);
    if (!v.is_object() || !v.contains("id") || !v["id"].is_string() || !v.contains("sha256") || !v["sha256"].is_string())
        return std::nullopt;
    VirtualKey k;
    k.id = text(v, "id");
    k.name = text(v, "name");
    k.secretSha256 = QByteArray::fromHex(text(v, "sha256").toLatin1());
    if (k.id.isEmpty() || k.secretSha256.size() != 32)
        return std::nullopt;
    k.secretHint = text(v, "hint");
    k.models = textList(v, "models");
    k.providers = textList(v, "providers");
    k.limits.requestsPerMinute = std::clamp<qint64>(number(v, "rpm"), 0, MaxLimit);
    k.limits.tokensPerMinute = std::clamp<qint64>(number(v, "tpm"), 0, MaxLimit);
    k.limits.tokensPerDay = std::clamp<qint64>(number(v, "tpd"), 0, MaxLimit);
    k.limits.maxConcurrent = std::clamp<qint64>(number(v, "concurrent"), 0, MaxLimit);
    k.createdMs = number(v, "created_ms");
    k.expiresMs = number(v, "expires_ms");
    k.revokedMs = number(v, "revoked_ms");
    return k;
}

} // namespace switchyard::keys
