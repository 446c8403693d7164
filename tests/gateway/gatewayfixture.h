#pragma once

// Simulated nodes plus a gateway in front of them, on loopback with ephemeral ports.

#include "gateway.h"
#include "simnode/simnode.h"

#include <QTest>
#include <memory>
#include <vector>

namespace switchyard::testing {

inline sim::SimNodeOptions fastNodeOptions(const QString &name, const QString &model = QStringLiteral("m1"))
{
    sim::SimNodeOptions o;
    o.name = name;
    o.models = {model};
    o.performance.tokensPerSecond = 400; // fast, yet a stream still takes visible time
    o.performance.ttftBaseMs = 5;
    o.text.seed = 7;
    return o;
}

inline config::ProviderConfig providerFor(const QString &name, const QString &baseUrl, double weight = 1,
                                          const QStringList &models = {QStringLiteral("m1")})
{
    config::ProviderConfig p;
    p.name = name;
    config::KeyConfig k;
    k.name = name + QStringLiteral("-key");
    k.value = QStringLiteral("dummy");
    k.models = models;
    k.weight = weight;
    p.keys.push_back(k);
    p.network.baseUrl = baseUrl;
    p.network.requestTimeoutSeconds = 10;
    return p;
}

class GatewayFixture
{
public:
    // Starts one node per name (weights default 1) and a gateway over them.
    bool start(const QStringList &names, const std::vector<double> &weights = {},
               const std::function<void(sim::SimNodeOptions &)> &tweakNode = {},
               const std::function<void(config::GatewayConfig &)> &tweakConfig = {})
    {
        for (const QString &n : names) {
            sim::SimNodeOptions o = fastNodeOptions(n);
            if (tweakNode)
                tweakNode(o);
            auto node = std::make_unique<sim::SimNode>(o);
            auto started = node->start();
            if (!started) {
                qWarning() << "node failed to start:" << started.error();
                return false;
            }
            nodes.push_back(std::move(node));
        }
        for (size_t i = 0; i < nodes.size(); ++i) {
            cfg.providers.push_back(
                providerFor(names[qsizetype(i)], nodes[i]->baseUrl(), i < weights.size() ? weights[i] : 1.0));
        }
        cfg.settings.listenPort = 0;
        cfg.settings.workerThreads = 2;
        if (tweakConfig)
            tweakConfig(cfg);
        gateway.applyConfig(cfg);
        auto url = gateway.start();
        if (!url) {
            qWarning() << "gateway failed to start:" << url.error();
            return false;
        }
        port = gateway.port();
        return true;
    }

    sim::SimNode &node(int i) { return *nodes[size_t(i)]; }

    config::GatewayConfig cfg;
    std::vector<std::unique_ptr<sim::SimNode>> nodes;
    Gateway gateway;
    quint16 port = 0;
};

// The gateway's current view of one node (empty when it has none of that name).
inline NodeSnapshot nodeSnapshot(const Gateway &g, const QString &name)
{
    for (const NodeSnapshot &n : g.snapshot().nodes) {
        if (n.name == name)
            return n;
    }
    return {};
}

// One sample of a /metrics text, e.g. series `switchyard_node_prompt_tokens_total{node="a"}`; -1 when absent.
inline qint64 metricValue(const QByteArray &metrics, const QByteArray &series)
{
    for (const QByteArray &line : metrics.split('\n')) {
        if (line.startsWith(QByteArray(series + ' ')))
            return line.sliced(series.size() + 1).toLongLong();
    }
    return -1;
}

} // namespace switchyard::testing
