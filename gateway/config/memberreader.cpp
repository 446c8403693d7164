#include "config/memberreader.h"

#include "config/configlimits.h"
#include "config/didyoumean.h"
#include "config/goduration.h"

#include <algorithm>
#include <cstdint>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::config {

namespace {

using Kind = MemberReader::Kind;

bool hasKind(const Json &v, Kind kind)
{
    switch (kind) {
    case Kind::String:
        return v.is_string();
    case Kind::Boolean:
        return v.is_boolean();
    case Kind::Number:
        return v.is_number();
    case Kind::Object:
        return v.is_object();
    case Kind::Array:
        return v.is_array();
    }
    return false;
}

QString kindName(Kind kind)
{
    switch (kind) {
    case Kind::String:
        return u"a string"_s;
    case Kind::Boolean:
        return u"a boolean (true or false)"_s;
    case Kind::Number:
        return u"a number"_s;
    case Kind::Object:
        return u"an object"_s;
    case Kind::Array:
        return u"an array"_s;
    }
    return {};
}

QString rangeText(qint64 min, qint64 max)
{
    return u"must be between "_s + QString::number(min) + u" and "_s + QString::number(max);
}

} // namespace

QString MemberReader::memberPath(const QString &parent, const QString &name)
{
    return problemPath(parent, name);
}

QString MemberReader::memberPath(const QString &parent, const char *name)
{
    return problemPath(parent, QString::fromUtf8(name));
}

QString MemberReader::indexPath(const QString &parent, std::size_t index)
{
    return problemIndexPath(parent, index);
}

QString MemberReader::typeName(const Json &v)
{
    if (v.is_number())
        return u"a number"_s;
    if (v.is_string())
        return u"a string"_s;
    if (v.is_boolean())
        return u"a boolean"_s;
    if (v.is_object())
        return u"an object"_s;
    if (v.is_array())
        return u"an array"_s;
    return u"null"_s;
}

void MemberReader::fail(const QString &path, const QString &message)
{
    m_problems.append(ConfigProblem{path, 0, 0, message});
}

void MemberReader::failType(const QString &path, Kind kind, const Json &v)
{
    // Appended step by step: the equivalent QStringBuilder chain trips a GCC 12 -Wstringop-overflow
    // false positive here.
    QString message = u"must be "_s;
    message += kindName(kind);
    message += u", not "_s;
    message += typeName(v);
    fail(path, message);
}

bool MemberReader::hasProblemAt(const QString &p) const
{
    return std::any_of(m_problems.cbegin(), m_problems.cend(),
                       [&](const ConfigProblem &x) { return x.path == p; });
}

const Json *MemberReader::member(const Json &obj, const char *key)
{
    const auto it = obj.find(key);
    if (it == obj.end() || it->is_null())
        return nullptr;
    return &*it;
}

const Json *MemberReader::get(const Json &obj, const QString &objPath, const char *key, Kind kind,
                              bool required, const QString &requiredHint)
{
    const Json *v = member(obj, key);
    if (!v) {
        if (required)
            fail(memberPath(objPath, key), u"is required"_s + requiredHint);
        return nullptr;
    }
    if (!hasKind(*v, kind)) {
        failType(memberPath(objPath, key), kind, *v);
        return nullptr;
    }
    return v;
}

std::optional<QString> MemberReader::string(const Json &obj, const QString &objPath, const char *key,
                                            bool required)
{
    if (const Json *v = get(obj, objPath, key, Kind::String, required))
        return fromStd(v->get_ref<const std::string &>());
    return std::nullopt;
}

std::optional<bool> MemberReader::boolean(const Json &obj, const QString &objPath, const char *key)
{
    if (const Json *v = get(obj, objPath, key, Kind::Boolean))
        return v->get<bool>();
    return std::nullopt;
}

std::optional<qint64> MemberReader::checkInteger(const Json &v, const QString &path, qint64 min, qint64 max)
{
    qint64 value = 0;
    if (v.is_number_unsigned()) {
        const auto u = v.get<std::uint64_t>();
        if (u > std::uint64_t(max)) {
            fail(path, rangeText(min, max) + u" (got "_s + fromStd(v.dump()) + u")"_s);
            return std::nullopt;
        }
        value = qint64(u);
    } else if (v.is_number_integer()) {
        value = v.get<qint64>();
    } else {
        fail(path, u"must be a whole number, not "_s + fromStd(v.dump()));
        return std::nullopt;
    }
    if (value < min || value > max) {
        fail(path, rangeText(min, max) + u" (got "_s + QString::number(value) + u")"_s);
        return std::nullopt;
    }
    return value;
}

std::optional<qint64> MemberReader::integer(const Json &obj, const QString &objPath, const char *key,
                                            qint64 min, qint64 max)
{
    if (const Json *v = get(obj, objPath, key, Kind::Number))
        return checkInteger(*v, memberPath(objPath, key), min, max);
    return std::nullopt;
}

void MemberReader::forEachString(const Json &array, const QString &arrayPath,
                                 const std::function<void(const QString &path, const QString &text)> &use)
{
    for (std::size_t i = 0; i < array.size(); ++i) {
        const Json &element = array[i];
        if (element.is_string())
            use(indexPath(arrayPath, i), fromStd(element.get_ref<const std::string &>()));
        else
            failType(indexPath(arrayPath, i), Kind::String, element);
    }
}

std::optional<qint64> MemberReader::durationMs(const Json &obj, const QString &objPath, const char *key)
{
    const Json *v = member(obj, key);
    if (!v)
        return std::nullopt;
    const QString path = memberPath(objPath, key);
    if (v->is_number())
        return checkInteger(*v, path, 0, kDayMs);
    if (v->is_string()) {
        const QString text = fromStd(v->get_ref<const std::string &>());
        auto ms = parseGoDurationMs(text);
        if (!ms) {
            fail(path, jsonQuoted(text) + u": "_s + ms.error());
            return std::nullopt;
        }
        return *ms;
    }
    fail(path,
         u"must be a number of milliseconds or a duration string like \"500ms\", not "_s + typeName(*v));
    return std::nullopt;
}

std::optional<QString> MemberReader::resolveSecret(const QString &text, const QString &path)
{
    if (!text.startsWith(u"env."_s))
        return text;
    const QString name = text.mid(4);
    if (name.isEmpty() || name.contains(u'=') || name.contains(QChar(0)) || name.contains(u' ')) {
        fail(path, jsonQuoted(text) + u" does not name a valid environment variable"_s);
        return std::nullopt;
    }
    std::optional<QString> value = m_env ? m_env(name) : std::nullopt;
    if (!value) {
        fail(path, u"environment variable "_s + name + u" is not set (referenced as "_s + jsonQuoted(text) +
                       u")"_s);
        return std::nullopt;
    }
    return value;
}

void MemberReader::rejectUnknownFields(const Json &obj, const QString &path, const QStringList &known)
{
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        const QString name = fromStd(it.key());
        if (known.contains(name))
            continue;
        const QString hint = didYouMean(name, known);
        fail(memberPath(path, name),
             u"unknown field"_s + (hint.isEmpty() ? u"; known fields: "_s + known.join(u", "_s) : hint));
    }
}

} // namespace switchyard::config
