#pragma once

// Colours and icons for node states and for the gateway as a whole (toolbar, status bar, tray). The
// icons are painted, not loaded: a filled disc in the state's colour with a glyph (check, !, x, ?, pause)
// so the state does not depend on colour alone.

#include "gatewaymonitor.h"
#include "nodehealth.h"

#include <QColor>
#include <QIcon>

namespace switchyard::ui {

QColor nodeStateColor(NodeState state);
QIcon nodeStateIcon(NodeState state);

// The gateway at a glance: what the tray icon and the status bar show.
enum class GatewayIndicator {
    Off,        // stopped
    Stopping,   // draining
    Failed,     // the last start failed
    Running,    // listening, every node healthy (or idle)
    Degraded,   // listening, a node is degraded or unknown
    NodeDown,   // listening, a node is down
};

GatewayIndicator gatewayIndicator(const MonitorSample &sample, bool lastStartFailed);
QColor gatewayIndicatorColor(GatewayIndicator indicator);
QIcon gatewayIndicatorIcon(GatewayIndicator indicator);
QString gatewayIndicatorText(GatewayIndicator indicator); // translated
// The on/off switch itself: a power symbol, green when on, grey when off.
QIcon gatewayToggleIcon(bool on);

} // namespace switchyard::ui
