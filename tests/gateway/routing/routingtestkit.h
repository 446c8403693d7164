#pragma once

// What the routing tests share: pools of nodes a, b, c … and runtime state a test sets by hand.

#include "routing/routingtable.h"
#include "stats/noderuntime.h"

#include <QTest>

#include <map>

using namespace switchyard;
using namespace Qt::Literals::StringLiterals;
using config::RoutingStrategy;

namespace {
config::KeyConfig key(QStringList models, double weight = 1.0, bool enabled = true)
{
    config::KeyConfig k;
    k.name = QStringLiteral("k");
    k.models = std::move(models);
    k.weight = weight;
    k.enabled = enabled;
    return k;
}

config::ProviderConfig provider(const QString &name, std::vector<config::KeyConfig> keys)
{
    static quint16 nextPort = 9001;
    config::ProviderConfig p;
    p.name = name;
    p.keys = std::move(keys);
    p.network.baseUrl = u"http://127.0.0.1:"_s + QString::number(nextPort++);
    return p;
}

// Nodes a, b, c … serving "m" with the given weights.
config::GatewayConfig weightedPool(const std::vector<double> &weights)
{
    config::GatewayConfig c;
    for (size_t i = 0; i < weights.size(); ++i)
        c.providers.push_back(provider(QString(QChar(u'a' + int(i))), {key({u"m"_s}, weights[i])}));
    return c;
}

QStringList candidateNames(const routing::RoutingTable &table, const routing::Route &route)
{
    QStringList out;
    for (const routing::PoolEntry &e : route.candidates)
        out.append(table.nodes()[size_t(e.node)].name);
    return out;
}

// The first node of each of `count` requests for a model.
QStringList firstPicks(const routing::RoutingTable &table, QByteArrayView model, int count)
{
    QStringList out;
    for (int i = 0; i < count; ++i) {
        const std::optional<routing::Route> r = table.resolve(model, nullptr);
        out.append(r ? candidateNames(table, *r).value(0) : u"<none>"_s);
    }
    return out;
}

// A pin the table refuses: nothing to route to, and the client is told the model is not found there.
[[maybe_unused]] bool pinIsRefused(const routing::RoutingTable &table, QByteArrayView model)
{
    routing::ResolveError error;
    return !table.resolve(model, &error) && error.status == 404 && error.code == "model_not_found";
}

// Runtime state per node name that a test sets directly, as the workers and the prober would.
class Runtimes
{
public:
    routing::RoutingTable::RuntimeLookup lookup()
    {
        return [this](const QString &name) {
            auto &slot = m_byName[name];
            if (!slot)
                slot = std::make_shared<stats::NodeRuntime>();
            return slot;
        };
    }
    stats::NodeRuntime &operator[](const QString &name) { return *lookup()(name); }

private:
    std::map<QString, std::shared_ptr<stats::NodeRuntime>> m_byName;
};
} // namespace
