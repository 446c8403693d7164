#include "statusicons.h"

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

Glyph nodeGlyph(NodeState s)
{
    switch (s) {
    case NodeState::Healthy:
        return Glyph::Check;
    case NodeState::Degraded:
        return Glyph::Bang;
    case NodeState::Down:
        return Glyph::Cross;
    case NodeState::Unknown:
        return Glyph::Question;
    case NodeState::Recovering:
        return Glyph::Cycle;
    case NodeState::Draining:
        return Glyph::Pause;
    }
    return Glyph::None;
}

} // namespace

QColor nodeStateColor(NodeState state)
{
    switch (state) {
    case NodeState::Healthy:
        return QColor(0x2e, 0x9d, 0x4a);
    case NodeState::Degraded:
        return QColor(0xe0, 0x8e, 0x00);
    case NodeState::Down:
        return QColor(0xd4, 0x3c, 0x3c);
    case NodeState::Unknown:
        return QColor(0x86, 0x8c, 0x96);
    case NodeState::Recovering:
        return QColor(0x1f, 0x93, 0xa3);
    case NodeState::Draining:
        return QColor(0x3b, 0x7d, 0xd8);
    }
    return Qt::gray;
}

QIcon nodeStateIcon(NodeState state)
{
    static const QIcon icons[] = {
        discIcon(nodeStateColor(NodeState::Unknown), nodeGlyph(NodeState::Unknown)),
        discIcon(nodeStateColor(NodeState::Healthy), nodeGlyph(NodeState::Healthy)),
        discIcon(nodeStateColor(NodeState::Degraded), nodeGlyph(NodeState::Degraded)),
        discIcon(nodeStateColor(NodeState::Down), nodeGlyph(NodeState::Down)),
        discIcon(nodeStateColor(NodeState::Recovering), nodeGlyph(NodeState::Recovering)),
        discIcon(nodeStateColor(NodeState::Draining), nodeGlyph(NodeState::Draining)),
    };
    return icons[int(state)];
}

GatewayIndicator gatewayIndicator(const MonitorSample &sample, bool lastStartFailed)
{
    if (sample.stopping)
        return GatewayIndicator::Stopping;
    if (!sample.running)
        return lastStartFailed ? GatewayIndicator::Failed : GatewayIndicator::Off;
    switch (sample.worstState) {
    case NodeState::Down:
        return GatewayIndicator::NodeDown;
    case NodeState::Degraded:
    case NodeState::Recovering:
        return GatewayIndicator::Degraded;
    case NodeState::Unknown:
        // Idle nodes are Unknown until traffic or health checks say otherwise: not a warning by itself.
        return sample.nodes.isEmpty() ? GatewayIndicator::Degraded : GatewayIndicator::Running;
    case NodeState::Healthy:
    case NodeState::Draining:
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
        return nodeStateColor(NodeState::Down);
    case GatewayIndicator::Running:
        return nodeStateColor(NodeState::Healthy);
    case GatewayIndicator::Degraded:
        return nodeStateColor(NodeState::Degraded);
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
    }
    return {};
}

QIcon gatewayToggleIcon(bool on)
{
    static const QIcon onIcon = discIcon(nodeStateColor(NodeState::Healthy), Glyph::Power);
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
    }
    return {};
}

} // namespace switchyard::ui
