#include "statusicons.h"

#include "nodestate.h"

#include <QCoreApplication>
#include <QPainter>
#include <QPainterPath>
#include <QPixmap>

namespace switchyard::ui {

namespace {

enum class Glyph { None, Check, Bang, Cross, Question, Pause, Power, Cycle };

QPixmap paintDisc(const QColor &color, Glyph glyph, int size)
{
    QPixmap pm(size, size);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    const qreal m = size * 0.06;
    const QRectF r(m, m, size - 2 * m, size - 2 * m);
    p.setPen(QPen(color.darker(140), qMax(1.0, size / 16.0)));
    p.setBrush(color);
    p.drawEllipse(r);
    QPen pen(Qt::white, qMax(1.5, size / 9.0), Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
    p.setPen(pen);
    p.setBrush(Qt::NoBrush);
    const qreal s = size;
    auto pt = [s](qreal x, qreal y) { return QPointF(x * s, y * s); };
    switch (glyph) {
    case Glyph::None:
        break;
    case Glyph::Check:
        p.drawPolyline(QPolygonF({pt(0.30, 0.52), pt(0.44, 0.66), pt(0.70, 0.36)}));
        break;
    case Glyph::Bang:
        p.drawLine(pt(0.5, 0.27), pt(0.5, 0.56));
        p.drawPoint(pt(0.5, 0.72));
        break;
    case Glyph::Cross:
        p.drawLine(pt(0.34, 0.34), pt(0.66, 0.66));
        p.drawLine(pt(0.66, 0.34), pt(0.34, 0.66));
        break;
    case Glyph::Question: {
        QPainterPath path;
        path.moveTo(pt(0.37, 0.38));
        path.cubicTo(pt(0.37, 0.22), pt(0.64, 0.22), pt(0.63, 0.38));
        path.cubicTo(pt(0.62, 0.48), pt(0.5, 0.48), pt(0.5, 0.58));
        p.drawPath(path);
        p.drawPoint(pt(0.5, 0.73));
        break;
    }
    case Glyph::Pause:
        p.drawLine(pt(0.41, 0.33), pt(0.41, 0.67));
        p.drawLine(pt(0.59, 0.33), pt(0.59, 0.67));
        break;
    case Glyph::Cycle:
        p.drawArc(QRectF(pt(0.30, 0.30), pt(0.70, 0.70)), 60 * 16, 270 * 16);
        p.drawPolyline(QPolygonF({pt(0.56, 0.22), pt(0.62, 0.32), pt(0.50, 0.36)}));
        break;
    case Glyph::Power:
        p.drawArc(QRectF(pt(0.30, 0.32), pt(0.70, 0.72)), 120 * 16, 300 * 16);
        p.drawLine(pt(0.5, 0.25), pt(0.5, 0.5));
        break;
    }
    return pm;
}

QIcon discIcon(const QColor &color, Glyph glyph)
{
    QIcon icon;
    for (int size : {16, 22, 32, 48, 64})
        icon.addPixmap(paintDisc(color, glyph, size));
    return icon;
}

Glyph nodeGlyph(health::NodeState s)
{
    switch (s) {
    case health::NodeState::Healthy:
        return Glyph::Check;
    case health::NodeState::Degraded:
        return Glyph::Bang;
    case health::NodeState::Down:
        return Glyph::Cross;
    case health::NodeState::Unknown:
        return Glyph::Question;
    case health::NodeState::Recovering:
        return Glyph::Cycle;
    case health::NodeState::Draining:
        return Glyph::Pause;
    }
    return Glyph::None;
}

} // namespace

QColor nodeStateColor(health::NodeState state)
{
    switch (state) {
    case health::NodeState::Healthy:
        return QColor(0x2e, 0x9d, 0x4a);
    case health::NodeState::Degraded:
        return QColor(0xe0, 0x8e, 0x00);
    case health::NodeState::Down:
        return QColor(0xd4, 0x3c, 0x3c);
    case health::NodeState::Unknown:
        return QColor(0x86, 0x8c, 0x96);
    case health::NodeState::Recovering:
        return QColor(0x1f, 0x93, 0xa3);
    case health::NodeState::Draining:
        return QColor(0x3b, 0x7d, 0xd8);
    }
    return Qt::gray;
}

QIcon nodeStateIcon(health::NodeState state)
{
    static const QIcon icons[] = {
        discIcon(nodeStateColor(health::NodeState::Unknown), nodeGlyph(health::NodeState::Unknown)),
        discIcon(nodeStateColor(health::NodeState::Healthy), nodeGlyph(health::NodeState::Healthy)),
        discIcon(nodeStateColor(health::NodeState::Degraded), nodeGlyph(health::NodeState::Degraded)),
        discIcon(nodeStateColor(health::NodeState::Down), nodeGlyph(health::NodeState::Down)),
        discIcon(nodeStateColor(health::NodeState::Recovering), nodeGlyph(health::NodeState::Recovering)),
        discIcon(nodeStateColor(health::NodeState::Draining), nodeGlyph(health::NodeState::Draining)),
    };
    return icons[int(state)];
}

GatewayIndicator gatewayIndicator(const std::optional<link::GatewayStatus> &status, const link::LinkStatus &link,
                                  bool lastStartFailed)
{
    // A gateway the panel cannot see is shown as such, not as its last known state.
    if (link.state == link::LinkState::Connecting && !status)
        return GatewayIndicator::Connecting;
    if (link.state != link::LinkState::Connected && link.state != link::LinkState::Connecting)
        return GatewayIndicator::Unreachable;
    if (!status)
        return GatewayIndicator::Connecting;
    if (status->stopping)
        return GatewayIndicator::Stopping;
    if (!status->running)
        return lastStartFailed ? GatewayIndicator::Failed : GatewayIndicator::Off;
    if (!status->accepting)
        return GatewayIndicator::Paused;
    const std::optional<health::NodeState> worst = worstNodeState(*status);
    if (!worst) // no nodes (a config without any), or every one drained on purpose
        return status->nodes.isEmpty() ? GatewayIndicator::Degraded : GatewayIndicator::Running;
    switch (*worst) {
    case health::NodeState::Down:
        return GatewayIndicator::NodeDown;
    case health::NodeState::Degraded:
    case health::NodeState::Recovering:
        return GatewayIndicator::Degraded;
    case health::NodeState::Unknown: // idle nodes before their first check: not a warning by itself
    case health::NodeState::Healthy:
    case health::NodeState::Draining:
        return GatewayIndicator::Running;
    }
    return GatewayIndicator::Running;
}

QColor gatewayIndicatorColor(GatewayIndicator indicator)
{
    switch (indicator) {
    case GatewayIndicator::Off:
        return QColor(0x86, 0x8c, 0x96);
    case GatewayIndicator::Stopping:
        return QColor(0x3b, 0x7d, 0xd8);
    case GatewayIndicator::Failed:
    case GatewayIndicator::NodeDown:
        return nodeStateColor(health::NodeState::Down);
    case GatewayIndicator::Running:
        return nodeStateColor(health::NodeState::Healthy);
    case GatewayIndicator::Degraded:
        return nodeStateColor(health::NodeState::Degraded);
    case GatewayIndicator::Paused:
    case GatewayIndicator::Connecting:
        return QColor(0x3b, 0x7d, 0xd8);
    case GatewayIndicator::Unreachable:
        return nodeStateColor(health::NodeState::Down);
    }
    return Qt::gray;
}

QIcon gatewayIndicatorIcon(GatewayIndicator indicator)
{
    const QColor c = gatewayIndicatorColor(indicator);
    switch (indicator) {
    case GatewayIndicator::Off:
        return discIcon(c, Glyph::Power);
    case GatewayIndicator::Stopping:
        return discIcon(c, Glyph::Pause);
    case GatewayIndicator::Failed:
    case GatewayIndicator::NodeDown:
        return discIcon(c, Glyph::Cross);
    case GatewayIndicator::Degraded:
        return discIcon(c, Glyph::Bang);
    case GatewayIndicator::Running:
        return discIcon(c, Glyph::Check);
    case GatewayIndicator::Paused:
        return discIcon(c, Glyph::Pause);
    case GatewayIndicator::Connecting:
        return discIcon(c, Glyph::Cycle);
    case GatewayIndicator::Unreachable:
        return discIcon(c, Glyph::Question);
    }
    return {};
}

QIcon gatewayToggleIcon(bool on)
{
    static const QIcon onIcon = discIcon(nodeStateColor(health::NodeState::Healthy), Glyph::Power);
    static const QIcon offIcon = discIcon(QColor(0x86, 0x8c, 0x96), Glyph::Power);
    return on ? onIcon : offIcon;
}

QString gatewayIndicatorText(GatewayIndicator indicator)
{
    switch (indicator) {
    case GatewayIndicator::Off:
        return QCoreApplication::translate("switchyard::ui::GatewayIndicator", "Gateway off");
    case GatewayIndicator::Stopping:
        return QCoreApplication::translate("switchyard::ui::GatewayIndicator", "Gateway draining");
    case GatewayIndicator::Failed:
        return QCoreApplication::translate("switchyard::ui::GatewayIndicator", "Gateway failed to start");
    case GatewayIndicator::Running:
        return QCoreApplication::translate("switchyard::ui::GatewayIndicator", "Gateway on");
    case GatewayIndicator::Degraded:
        return QCoreApplication::translate("switchyard::ui::GatewayIndicator", "Gateway on, a node is degraded");
    case GatewayIndicator::NodeDown:
        return QCoreApplication::translate("switchyard::ui::GatewayIndicator", "Gateway on, a node is down");
    case GatewayIndicator::Paused:
        return QCoreApplication::translate("switchyard::ui::GatewayIndicator", "Gateway paused");
    case GatewayIndicator::Connecting:
        return QCoreApplication::translate("switchyard::ui::GatewayIndicator", "Connecting to the gateway");
    case GatewayIndicator::Unreachable:
        return QCoreApplication::translate("switchyard::ui::GatewayIndicator", "Gateway not reachable");
    }
    return {};
}

QString linkStateText(const link::LinkStatus &link)
{
    QString state;
    switch (link.state) {
    case link::LinkState::Connecting:
        state = QCoreApplication::translate("switchyard::ui::LinkState", "Connecting");
        break;
    case link::LinkState::Connected:
        state = QCoreApplication::translate("switchyard::ui::LinkState", "Connected");
        break;
    case link::LinkState::Unreachable:
        state = QCoreApplication::translate("switchyard::ui::LinkState", "Unreachable");
        break;
    case link::LinkState::Unauthorized:
        state = QCoreApplication::translate("switchyard::ui::LinkState", "Unauthorized (no or a wrong admin key)");
        break;
    case link::LinkState::Forbidden:
        state = QCoreApplication::translate("switchyard::ui::LinkState", "Forbidden (not an admin key)");
        break;
    case link::LinkState::Incompatible:
        state = QCoreApplication::translate("switchyard::ui::LinkState", "Incompatible gateway");
        break;
    }
    if (!link.reason.isEmpty())
        state = QCoreApplication::translate("switchyard::ui::LinkState", "%1: %2").arg(state, link.reason);
    if (link.state != link::LinkState::Connected && link.retryInMs > 0)
        state += u' ' + QCoreApplication::translate("switchyard::ui::LinkState", "(next try in %1 s)").arg((link.retryInMs + 999) / 1000);
    return state;
}

} // namespace switchyard::ui
