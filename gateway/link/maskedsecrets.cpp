#include "link/maskedsecrets.h"

#include <nlohmann/json.hpp>

using namespace Qt::Literals::StringLiterals;
using Json = nlohmann::ordered_json;

namespace switchyard::link {

namespace {

bool isMask(const Json &v)
{
    return v.is_string() && v.get_ref<const std::string &>() == MaskedSecret.data();
}

QString fromStd(const std::string &s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

// A key's secret as the config file holds it: the reference when it came from the environment.
QString writtenValue(const config::KeyConfig &k)
{
    return k.valueRef.isEmpty() ? k.value : k.valueRef;
}

const config::KeyConfig *runningKey(const config::ProviderConfig &p, const Json &key, std::size_t index)
{
    if (const auto name = key.find("name"); name != key.end() && name->is_string()) {
        for (const config::KeyConfig &k : p.keys) {
            if (k.name == fromStd(name->get_ref<const std::string &>()))
                return &k;
        }
    }
    return index < p.keys.size() ? &p.keys[index] : nullptr;
}

std::optional<QString> runningHeader(const config::ProviderConfig &p, const QString &name)
{
    for (const auto &[n, v] : p.network.extraHeaders) {
        if (QString::fromUtf8(n).compare(name, Qt::CaseInsensitive) == 0)
            return QString::fromUtf8(v);
    }
    return std::nullopt;
}

class Restorer final
{
public:
    explicit Restorer(const config::GatewayConfig &running) : m_running(running) {}

    void providers(Json &providers)
    {
        if (!providers.is_object())
            return;
        for (auto it = providers.begin(); it != providers.end(); ++it) {
            const QString name = fromStd(it.key());
            const QString path = config::problemPath(u"providers"_s, name);
            const config::ProviderConfig *p = m_running.provider(name);
            keys(it.value(), p, path);
            headers(it.value(), p, path);
        }
    }

    void settings(Json &doc)
    {
        const auto s = doc.find("switchyard");
        if (s == doc.end() || !s->is_object())
            return;
        keyList(*s, "api_keys", m_running.settings.apiKeys, m_running.settings.apiKeyRefs);
        keyList(*s, "admin_keys", m_running.settings.adminKeys, m_running.settings.adminKeyRefs);
        if (const auto url = s->find("redis_url"); url != s->end() && isMask(*url)) {
            const config::GatewaySettings &r = m_running.settings;
            put(*url, r.redisUrlRef.isEmpty() ? r.redisUrl : r.redisUrlRef, u"switchyard.redis_url"_s);
        }
    }

    bool changed() const { return m_changed; }
    const config::ConfigProblems &problems() const { return m_problems; }

private:
    void keys(Json &provider, const config::ProviderConfig *p, const QString &path)
    {
        const auto keys = provider.find("keys");
        if (keys == provider.end() || !keys->is_array())
            return;
        for (std::size_t i = 0; i < keys->size(); ++i) {
            Json &key = (*keys)[i];
            const auto value = key.is_object() ? key.find("value") : key.end();
            if (value == key.end() || !isMask(*value))
                continue;
            const config::KeyConfig *k = p ? runningKey(*p, key, i) : nullptr;
            put(*value, k ? std::optional<QString>(writtenValue(*k)) : std::nullopt,
                config::problemPath(config::problemIndexPath(config::problemPath(path, u"keys"_s), i), u"value"_s));
        }
    }

    void headers(Json &provider, const config::ProviderConfig *p, const QString &path)
    {
        const auto network = provider.find("network_config");
        if (network == provider.end() || !network->is_object())
            return;
        const auto headers = network->find("extra_headers");
        if (headers == network->end() || !headers->is_object())
            return;
        const QString headersPath = config::problemPath(config::problemPath(path, u"network_config"_s), u"extra_headers"_s);
        for (auto it = headers->begin(); it != headers->end(); ++it) {
            if (!isMask(it.value()))
                continue;
            const QString name = fromStd(it.key());
            put(it.value(), p ? runningHeader(*p, name) : std::nullopt, config::problemPath(headersPath, name));
        }
    }

    void keyList(Json &settings, const char *member, const QStringList &running, const QStringList &refs)
    {
        const auto list = settings.find(member);
        if (list == settings.end() || !list->is_array())
            return;
        const QString path = config::problemPath(u"switchyard"_s, QString::fromLatin1(member));
        for (std::size_t i = 0; i < list->size(); ++i) {
            if (!isMask((*list)[i]))
                continue;
            const qsizetype at = qsizetype(i);
            std::optional<QString> secret;
            if (at < running.size())
                secret = refs.value(at).isEmpty() ? running[at] : refs[at];
            put((*list)[i], secret, config::problemIndexPath(path, i));
        }
    }

    void put(Json &at, const std::optional<QString> &secret, const QString &path)
    {
        if (!secret || secret->isEmpty()) {
            m_problems.append({path, 0, 0,
                               u"is masked (\"********\") but the running config has no secret at this place; "
                               "type the value"_s});
            return;
        }
        at = secret->toStdString();
        m_changed = true;
    }

    const config::GatewayConfig &m_running;
    config::ConfigProblems m_problems;
    bool m_changed = false;
};

} // namespace

Expected<QByteArray, config::ConfigProblems> restoreMaskedSecrets(const QByteArray &text,
                                                                 const config::GatewayConfig &running)
{
    if (!text.contains(MaskedSecret.data()))
        return text;
    Json doc = Json::parse(text.constData(), text.constData() + text.size(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
        return text; // not a document the loader took; nothing to restore in it
    Restorer r(running);
    if (const auto providers = doc.find("providers"); providers != doc.end())
        r.providers(*providers);
    r.settings(doc);
    if (!r.problems().isEmpty())
        return unexpected(r.problems());
    if (!r.changed())
        return text;
    const std::string out = doc.dump(2, ' ', false, Json::error_handler_t::replace);
    return QByteArray(out.data(), qsizetype(out.size()));
}

} // namespace switchyard::link
