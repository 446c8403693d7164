#include "fleet/fleetformat.h"

#include "nodesmodel.h"
#include "nodestate.h"

#include <QLocale>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

QString FleetFormat::gatewayLabel(const link::GatewayLink &link)
{
    if (link.isRemote())
        return link.displayName();
    const QString url = link.apiUrl().toString();
    return url.isEmpty() ? link.displayName() : tr("%1 (%2)").arg(link.displayName(), url);
}

QString FleetFormat::linkStateText(link::LinkState state)
{
    switch (state) {
    case link::LinkState::Connecting: return tr("Connecting");
    case link::LinkState::Connected: return tr("Connected");
    case link::LinkState::Unreachable: return tr("Unreachable");
    case link::LinkState::Unauthorized: return tr("Wrong or missing admin key");
    case link::LinkState::Forbidden: return tr("Refused");
    case link::LinkState::Incompatible: return tr("Incompatible");
    }
    return tr("Unknown");
}

QString FleetFormat::nodeStateText(health::NodeState state)
{
    return ui::nodeStateText(state); // the Nodes view's words, so a state reads the same everywhere
}

int FleetFormat::severity(health::NodeState state)
{
    switch (state) {
    case health::NodeState::Healthy: return 0;
    case health::NodeState::Draining: return 1;
    case health::NodeState::Unknown: return 2;
    case health::NodeState::Recovering: return 3;
    case health::NodeState::Degraded: return 4;
    case health::NodeState::Down: return 5;
    }
    return 2;
}

QColor FleetFormat::stateTint(health::NodeState state)
{
    switch (state) {
    case health::NodeState::Down: return QColor(212, 60, 60, 48);
    case health::NodeState::Degraded:
    case health::NodeState::Recovering: return QColor(224, 142, 0, 40);
    default: return {};
    }
}

// The Nodes view's formats, so a number reads the same in every view.
QString FleetFormat::rate(double perSecond)
{
    return NodesModel::formatRate(perSecond);
}

QString FleetFormat::latency(std::optional<double> ms)
{
    return NodesModel::formatLatency(ms);
}

QString FleetFormat::shortHash(const QString &hash)
{
    return hash.left(8);
}

} // namespace switchyard::ui
