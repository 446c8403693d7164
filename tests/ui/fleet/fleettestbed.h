#pragma once

// Two real gateways in this process in front of the same simulated nodes, each behind a
// LocalGatewayLink, as two replicas of a fleet would be: "a" and "b" behind both, "c" behind the second
// only, and the second's config weighs "a" differently (so the two run different configs: drift).

#include "gateway/gatewayfixture.h"
#include "link/localgatewaylink.h"

#include <memory>

namespace switchyard::testing {

class FleetTestbed
{
public:
    bool start()
    {
        auto onlyTwo = [](config::GatewayConfig &c) {
            c.providers.pop_back(); // "c" is not behind the first gateway
            c.settings.healthCheckIntervalMs = 150;
        };
        if (!first.start({QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")}, {}, {}, onlyTwo))
            return false;
        config::GatewayConfig cfg = first.cfg;
        cfg.providers.push_back(providerFor(QStringLiteral("c"), first.node(2).baseUrl()));
        cfg.providers[0].keys[0].weight = 3;
        second.applyConfig(cfg);
        if (!second.start()) {
            qWarning() << "second gateway failed to start";
            return false;
        }
        firstLink = std::make_unique<link::LocalGatewayLink>(&first.gateway);
        secondLink = std::make_unique<link::LocalGatewayLink>(&second);
        firstLink->start();
        secondLink->start();
        return true;
    }

    // Destroyed in reverse: the links before the gateways they read.
    GatewayFixture first;
    Gateway second;
    std::unique_ptr<link::LocalGatewayLink> firstLink, secondLink;
};

} // namespace switchyard::testing
