#include "openaijson.h"

#include "openaierror.h"

#include <cmath>
#include <limits>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::openai {

nlohmann::json parseJson(QByteArrayView text)
{
    return nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
}

nlohmann::json parseJsonObject(QByteArrayView text, QString *why)
{
    nlohmann::json json = parseJson(text);
    if (json.is_object())
        return json;
    *why = json.is_discarded() ? u"not JSON: "_s + bodyExcerpt(text) : u"not a JSON object"_s;
    return nlohmann::json(nlohmann::json::value_t::discarded);
}

QString compactJson(const nlohmann::json &value)
{
    return QString::fromStdString(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

const nlohmann::json *member(const nlohmann::json &o, const char *key)
{
    if (!o.is_object())
        return nullptr;
    const auto it = o.find(key);
    if (it == o.end() || it->is_null())
        return nullptr;
    return &*it;
}

QString stringMember(const nlohmann::json &o, const char *key)
{
    const nlohmann::json *v = member(o, key);
    if (!v || !v->is_string())
        return {};
    return QString::fromStdString(v->get_ref<const std::string &>());
}

qint64 countMember(const nlohmann::json &o, const char *key)
{
    const nlohmann::json *v = member(o, key);
    if (!v)
        return -1;
    if (v->is_number_unsigned()) {
        const auto n = v->get<std::uint64_t>();
        return n <= std::uint64_t(std::numeric_limits<qint64>::max()) ? qint64(n) : -1;
    }
    if (v->is_number_integer()) {
        const auto n = v->get<std::int64_t>();
        return n >= 0 ? qint64(n) : -1;
    }
    if (v->is_number_float()) {
        // Some servers write counts as 12.0; a fraction or a negative number is not a count.
        const double d = v->get<double>();
        return d >= 0 && d < 9e15 && d == std::floor(d) ? qint64(d) : -1;
    }
    return -1;
}

QString reasoningText(const nlohmann::json &messageOrDelta)
{
    const QString older = stringMember(messageOrDelta, "reasoning_content");
    return older.isEmpty() ? stringMember(messageOrDelta, "reasoning") : older;
}

} // namespace switchyard::openai
