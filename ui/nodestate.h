#pragma once

// A node's state in the panel's words and order. The state itself is the gateway's
// (health::NodeState, what GET /api/status says); the panel only names and ranks it.

#include "health/nodehealth.h"

#include <QString>

namespace switchyard::link {
struct GatewayStatus;
}

namespace switchyard::ui {

QString nodeStateText(health::NodeState state); // translated

// Worse states rank higher: Down > Degraded > Recovering > Unknown > Draining > Healthy.
int nodeStateSeverity(health::NodeState state);

// The worst state over the nodes that take traffic (draining ones are left out on purpose); nullopt
// without such nodes. What the tray and the status bar colour by.
std::optional<health::NodeState> worstNodeState(const link::GatewayStatus &status);

} // namespace switchyard::ui
