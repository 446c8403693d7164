#pragma once

// Benchmark targets from a gateway config: each provider's node directly (its base_url, the first model
// its keys serve, its key) and the gateway's weighted pool for the model most providers serve. The panel
// and `switchyard --bench --config/--demo` offer the same targets this way.

#include "benchtypes.h"
#include "config/config.h"

#include <optional>

namespace switchyard::bench {

Target nodeTarget(const config::ProviderConfig &provider);
// gatewayUrl as Gateway::listenUrl() gives it (a wildcard listen address is reached on loopback).
std::optional<Target> poolTarget(const config::GatewayConfig &config, const QString &gatewayUrl);
// Every provider, then the pool when gatewayUrl is set.
QList<Target> targetsFromConfig(const config::GatewayConfig &config, const QString &gatewayUrl = {});
// The config document with switchyard.routing.default_strategy set to strategy (a name as the config
// takes it, checked by the config loader, not here); empty when json is not a JSON object.
QByteArray configWithDefaultStrategy(QByteArrayView json, const QString &strategy);

} // namespace switchyard::bench
