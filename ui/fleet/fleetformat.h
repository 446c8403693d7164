#pragma once

// Words and numbers shared by the fleet views (Gateways, the merged Nodes): a gateway's label, the
// states of links and nodes in the operator's language, rates and latencies.

#include "health/nodehealth.h"
#include "link/gatewaylink.h"

#include <QColor>
#include <QCoreApplication>
#include <QString>
#include <optional>

namespace switchyard::ui {

struct FleetFormat
{
    Q_DECLARE_TR_FUNCTIONS(switchyard::ui::FleetFormat)

public:
    // A remote gateway by its URL; this process's gateway by that name and where it listens (so two
    // in-process gateways, as in tests and the demo, can be told apart).
    static QString gatewayLabel(const link::GatewayLink &link);
    static QString linkStateText(link::LinkState state);
    static QString nodeStateText(health::NodeState state);
    // Worse states rank higher: Down > Degraded > Recovering > Unknown > Draining > Healthy.
    static int severity(health::NodeState state);
    // A translucent tint (light and dark palettes alike); invalid for states that need none.
    static QColor stateTint(health::NodeState state);
    static QString rate(double perSecond);
    static QString latency(std::optional<double> ms);
    // The first 8 hex digits: enough to tell configs apart at a glance.
    static QString shortHash(const QString &hash);
};

} // namespace switchyard::ui
