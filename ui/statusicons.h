#pragma once

// Colours and icons for node states and for the gateway as a whole (toolbar, status bar, tray). The
// icons are painted, not loaded: a filled disc in the state's colour with a glyph (check, !, x, ?, pause)
// so the state does not depend on colour alone.

#include "health/nodehealth.h"
#include "link/gatewaylink.h"

#include <QColor>
#include <QIcon>
#include <optional>

namespace switchyard::ui {

QColor nodeStateColor(health::NodeState state);
QIcon nodeStateIcon(health::NodeState state);

// The gateway at a glance: what the tray icon and the status bar show.
enum class GatewayIndicator {
    Off,        // stopped
    Stopping,   // draining
    Failed,     // the last start failed
    Running,    // listening, every node healthy (or idle)
    Degraded,   // listening, a node is degraded or unknown
    NodeDown,   // listening, a node is down
    Paused,     // running, but new requests get 503 (a remote gateway paused from a panel)
    Connecting, // a remote gateway has not answered yet
    Unreachable, // the link cannot see the gateway (unreachable, a wrong key, another version): why is in LinkStatus
};

// status: the latest the link reported (none yet: Connecting or Unreachable by the link's state).
GatewayIndicator gatewayIndicator(const std::optional<link::GatewayStatus> &status, const link::LinkStatus &link,
                                  bool lastStartFailed);
QColor gatewayIndicatorColor(GatewayIndicator indicator);
QIcon gatewayIndicatorIcon(GatewayIndicator indicator);
QString gatewayIndicatorText(GatewayIndicator indicator); // translated
// The link's state in the panel's words, with its reason ("Unreachable: connection refused").
QString linkStateText(const link::LinkStatus &link); // translated
// The on/off switch itself: a power symbol, green when on, grey when off.
QIcon gatewayToggleIcon(bool on);

} // namespace switchyard::ui
