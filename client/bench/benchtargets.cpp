#include "benchtargets.h"

#include "upstream/pinnedcertificate.h"

#include <QHash>

#include <nlohmann/json.hpp>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::bench {

Target nodeTarget(const config::ProviderConfig &provider)
{
    Target t;
    t.label = provider.name;
    t.baseUrl = provider.network.baseUrl;
    for (const config::KeyConfig &k : provider.keys) {
        if (!k.enabled)
            continue;
        if (t.apiKey.isEmpty())
            t.apiKey = k.value;
        for (const QString &m : k.models) {
            if (m != u"*" && t.model.isEmpty())
                t.model = m;
        }
    }
    return t; // a wildcard-only provider gets its model from GET /v1/models
}

std::optional<Target> poolTarget(const config::GatewayConfig &config, const QString &gatewayUrl)
{
    if (gatewayUrl.isEmpty())
        return std::nullopt;
    // The pool worth measuring is the one with the most nodes behind it; ties go to config order.
    QHash<QString, int> providersPerModel;
    QStringList order;
    for (const config::ProviderConfig &p : config.providers) {
        QStringList seen;
        for (const config::KeyConfig &k : p.keys) {
            if (!k.enabled)
                continue;
            for (const QString &m : k.models) {
                if (m == u"*" || seen.contains(m))
                    continue;
                seen << m;
                if (!order.contains(m))
                    order << m;
                ++providersPerModel[m];
            }
        }
    }
    QString best;
    for (const QString &m : std::as_const(order)) {
        if (best.isEmpty() || providersPerModel.value(m) > providersPerModel.value(best))
            best = m;
    }
    QString url = gatewayUrl;
    url.replace(u"//0.0.0.0:"_s, u"//127.0.0.1:"_s).replace(u"//[::]:"_s, u"//[::1]:"_s);
    Target t;
    t.baseUrl = url;
    t.model = best;
    const int nodes = providersPerModel.value(best);
    t.label = nodes > 1 ? u"gateway pool (%1 nodes)"_s.arg(nodes) : nodes == 1 ? u"gateway pool (1 node)"_s : u"gateway"_s;
    t.apiKey = config.settings.ownToolsKey();
    // The gateway's own certificate, self-signed or not, is the one this process serves: trust it.
    t.pinnedSha256 = upstream::leafSha256(config.settings.tls.certificateChain);
    return t;
}

QList<Target> targetsFromConfig(const config::GatewayConfig &config, const QString &gatewayUrl)
{
    QList<Target> out;
    for (const config::ProviderConfig &p : config.providers)
        out << nodeTarget(p);
    if (auto pool = poolTarget(config, gatewayUrl))
        out << *pool;
    return out;
}

QByteArray configWithDefaultStrategy(QByteArrayView json, const QString &strategy)
{
    auto doc = nlohmann::ordered_json::parse(json.begin(), json.end(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
        return {};
    auto &sy = doc["switchyard"];
    if (!sy.is_object())
        sy = nlohmann::ordered_json::object();
    auto &routing = sy["routing"];
    if (!routing.is_object())
        routing = nlohmann::ordered_json::object();
    routing["default_strategy"] = strategy.toStdString();
    const std::string out = doc.dump();
    return QByteArray(out.data(), qsizetype(out.size()));
}

} // namespace switchyard::bench
