#include "nodestate.h"

#include "link/gatewaystatus.h"

#include <QCoreApplication>

namespace switchyard::ui {

QString nodeStateText(health::NodeState state)
{
    switch (state) {
    case health::NodeState::Unknown:
        return QCoreApplication::translate("switchyard::ui::NodeState", "Unknown");
    case health::NodeState::Healthy:
        return QCoreApplication::translate("switchyard::ui::NodeState", "Healthy");
    case health::NodeState::Degraded:
        return QCoreApplication::translate("switchyard::ui::NodeState", "Degraded");
    case health::NodeState::Down:
        return QCoreApplication::translate("switchyard::ui::NodeState", "Down");
    case health::NodeState::Recovering:
        return QCoreApplication::translate("switchyard::ui::NodeState", "Recovering");
    case health::NodeState::Draining:
        return QCoreApplication::translate("switchyard::ui::NodeState", "Draining");
    }
    return {};
}

int nodeStateSeverity(health::NodeState state)
{
    switch (state) {
    case health::NodeState::Healthy:
        return 0;
    case health::NodeState::Draining:
        return 1;
    case health::NodeState::Unknown:
        return 2;
    case health::NodeState::Recovering:
        return 3;
    case health::NodeState::Degraded:
        return 4;
    case health::NodeState::Down:
        return 5;
    }
    return 0;
}

std::optional<health::NodeState> worstNodeState(const link::GatewayStatus &status)
{
    std::optional<health::NodeState> worst;
    for (const link::NodeStatus &n : status.nodes) {
        if (n.draining)
            continue;
        if (!worst || nodeStateSeverity(n.state) > nodeStateSeverity(*worst))
            worst = n.state;
    }
    return worst;
}

} // namespace switchyard::ui
