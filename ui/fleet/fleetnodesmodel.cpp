#include "fleet/fleetnodesmodel.h"

#include "fleet/fleetformat.h"

#include <QHash>
#include <QLocale>
#include <QSet>
#include <QTimer>
#include <QUrl>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {
const QString Dash = u"\u2014"_s;
}

FleetNodesModel::FleetNodesModel(QObject *parent) : QAbstractTableModel(parent), m_coalesce(new QTimer(this))
{
    m_coalesce->setSingleShot(true);
    m_coalesce->setInterval(CoalesceMs);
    connect(m_coalesce, &QTimer::timeout, this, &FleetNodesModel::refresh);
}

FleetNodesModel::~FleetNodesModel() = default;

QString FleetNodesModel::canonicalBaseUrl(const QString &baseUrl)
{
    QUrl url(baseUrl.trimmed());
    if (!url.isValid() || url.host().isEmpty())
        return baseUrl.trimmed();
    const QString scheme = url.scheme().toLower();
    url.setScheme(scheme);
    url.setHost(url.host().toLower());
    url.setPort(url.port(scheme == u"https"_s ? 443 : 80));
    QString path = url.path();
    while (path.endsWith(u'/'))
        path.chop(1);
    url.setPath(path);
    return url.toString(QUrl::FullyEncoded);
}

void FleetNodesModel::addGateway(link::GatewayLink *link)
{
    if (!link || gatewayIndex(link) >= 0)
        return;
    const int column = FirstGatewayColumn + int(m_gateways.size());
    beginInsertColumns({}, column, column);
    Gateway g;
    g.link = link;
    g.alive = link;
    g.label = FleetFormat::gatewayLabel(*link);
    g.connected = link->linkStatus().state == link::LinkState::Connected;
    m_gateways.append(g);
    for (MergedNode &n : m_nodes)
        n.views.append(std::nullopt);
    endInsertColumns();
    connect(link, &link::GatewayLink::statusChanged, this, &FleetNodesModel::schedule);
    connect(link, &link::GatewayLink::linkStatusChanged, this, &FleetNodesModel::schedule);
    connect(link, &QObject::destroyed, this, [this, link] { removeGateway(link); });
    schedule();
}

void FleetNodesModel::removeGateway(link::GatewayLink *link)
{
    const int i = gatewayIndex(link);
    if (i < 0)
        return;
    if (m_gateways[i].alive)
        disconnect(link, nullptr, this, nullptr);
    beginRemoveColumns({}, FirstGatewayColumn + i, FirstGatewayColumn + i);
    m_gateways.removeAt(i);
    for (MergedNode &n : m_nodes)
        n.views.removeAt(i);
    endRemoveColumns();
    schedule(); // nodes only that gateway saw leave at the next refresh
}

QList<link::GatewayLink *> FleetNodesModel::gateways() const
{
    QList<link::GatewayLink *> out;
    for (const Gateway &g : m_gateways)
        out.append(g.link);
    return out;
}

int FleetNodesModel::gatewayIndex(const link::GatewayLink *link) const
{
    for (int i = 0; i < m_gateways.size(); ++i) {
        if (m_gateways[i].link == link)
            return i;
    }
    return -1;
}

int FleetNodesModel::columnOf(const link::GatewayLink *link) const
{
    const int i = gatewayIndex(link);
    return i < 0 ? -1 : FirstGatewayColumn + i;
}

int FleetNodesModel::rowOf(const QString &baseUrl) const
{
    const QString key = canonicalBaseUrl(baseUrl);
    for (int i = 0; i < m_nodes.size(); ++i) {
        if (m_nodes[i].baseUrl == key)
            return i;
    }
    return -1;
}

void FleetNodesModel::schedule()
{
    if (!m_coalesce->isActive())
        m_coalesce->start();
}

void FleetNodesModel::refresh()
{
    const int gatewayCount = int(m_gateways.size());
    // What every gateway says now, merged by base URL, in the order nodes first appear.
    QHash<QString, QList<std::optional<link::NodeStatus>>> seen;
    QStringList order;
    for (int g = 0; g < gatewayCount; ++g) {
        Gateway &gw = m_gateways[g];
        if (!gw.alive)
            continue;
        gw.label = FleetFormat::gatewayLabel(*gw.alive);
        gw.connected = gw.alive->linkStatus().state == link::LinkState::Connected;
        const std::optional<link::GatewayStatus> status = gw.alive->status();
        if (!status)
            continue;
        for (const link::NodeStatus &n : status->nodes) {
            const QString key = canonicalBaseUrl(n.baseUrl);
            auto it = seen.find(key);
            if (it == seen.end()) {
                it = seen.insert(key, QList<std::optional<link::NodeStatus>>(gatewayCount));
                order.append(key);
            }
            (*it)[g] = n;
        }
    }

    // Rows that are gone leave; the rest keep their place (selections survive); new ones are appended.
    for (int i = int(m_nodes.size()) - 1; i >= 0; --i) {
        if (!seen.contains(m_nodes[i].baseUrl)) {
            beginRemoveRows({}, i, i);
            m_nodes.removeAt(i);
            endRemoveRows();
        }
    }
    QSet<QString> known;
    for (MergedNode &n : m_nodes) {
        n.views = seen.value(n.baseUrl);
        known.insert(n.baseUrl);
    }
    QList<MergedNode> added;
    for (const QString &key : std::as_const(order)) {
        if (!known.contains(key))
            added.append({key, seen.value(key)});
    }
    if (!added.isEmpty()) {
        const int first = int(m_nodes.size());
        beginInsertRows({}, first, first + int(added.size()) - 1);
        m_nodes.append(added);
        endInsertRows();
    }
    if (!m_nodes.isEmpty())
        emit dataChanged(index(0, 0), index(int(m_nodes.size()) - 1, columnCount() - 1));
    if (gatewayCount > 0)
        emit headerDataChanged(Qt::Horizontal, FirstGatewayColumn, FirstGatewayColumn + gatewayCount - 1);
}

std::optional<health::NodeState> FleetNodesModel::worstState(const MergedNode &node, int *worstCount, int *seenBy) const
{
    // Gateways the panel reaches speak for the present; the last word of unreachable ones only when no
    // gateway is reachable.
    bool anyConnected = false;
    for (int g = 0; g < node.views.size(); ++g) {
        if (node.views[g] && m_gateways[g].connected)
            anyConnected = true;
    }
    std::optional<health::NodeState> worst;
    int count = 0, seen = 0;
    for (int g = 0; g < node.views.size(); ++g) {
        if (!node.views[g] || (anyConnected && !m_gateways[g].connected))
            continue;
        ++seen;
        const health::NodeState s = node.views[g]->state;
        if (!worst || FleetFormat::severity(s) > FleetFormat::severity(*worst)) {
            worst = s;
            count = 1;
        } else if (s == *worst) {
            ++count;
        }
    }
    if (worstCount)
        *worstCount = count;
    if (seenBy)
        *seenBy = seen;
    return worst;
}

QVariant FleetNodesModel::nodeDisplay(const MergedNode &node, int column) const
{
    const QLocale l;
    switch (column) {
    case Node: {
        QStringList names;
        for (const auto &v : node.views) {
            if (v && !names.contains(v->name))
                names.append(v->name);
        }
        return names.join(u" / "_s);
    }
    case BaseUrl:
        return node.baseUrl;
    case State: {
        int count = 0, seen = 0;
        const auto worst = worstState(node, &count, &seen);
        if (!worst)
            return Dash;
        if (count == seen)
            return FleetFormat::nodeStateText(*worst);
        return tr("%1 on %2 of %3").arg(FleetFormat::nodeStateText(*worst)).arg(count).arg(seen);
    }
    case InFlight: {
        qint64 sum = 0;
        for (const auto &v : node.views)
            sum += v ? v->inFlight : 0;
        return l.toString(sum);
    }
    case RequestsPerSec: {
        double sum = 0;
        for (const auto &v : node.views)
            sum += v ? v->rates.requestsPerSecond : 0;
        return FleetFormat::rate(sum);
    }
    case LatencyP95: {
        std::optional<double> worst;
        for (const auto &v : node.views) {
            if (v && v->window.latencyP95Ms && (!worst || *v->window.latencyP95Ms > *worst))
                worst = v->window.latencyP95Ms;
        }
        return FleetFormat::latency(worst);
    }
    default:
        return gatewayDisplay(node, column - FirstGatewayColumn);
    }
}

QVariant FleetNodesModel::nodeSort(const MergedNode &node, int column) const
{
    switch (column) {
    case State: {
        const auto worst = worstState(node, nullptr, nullptr);
        return worst ? FleetFormat::severity(*worst) : -1;
    }
    case InFlight:
    case RequestsPerSec:
    case LatencyP95: {
        double sum = 0, worst = -1;
        for (const auto &v : node.views) {
            if (!v)
                continue;
            sum += column == InFlight ? double(v->inFlight) : v->rates.requestsPerSecond;
            worst = std::max(worst, v->window.latencyP95Ms.value_or(-1));
        }
        return column == LatencyP95 ? worst : sum;
    }
    case Node:
    case BaseUrl:
        return nodeDisplay(node, column);
    default: {
        const int g = column - FirstGatewayColumn;
        return node.views.value(g) ? FleetFormat::severity(node.views[g]->state) : -1;
    }
    }
}

QVariant FleetNodesModel::gatewayDisplay(const MergedNode &node, int gateway) const
{
    if (gateway < 0 || gateway >= node.views.size() || !node.views[gateway])
        return Dash;
    const link::NodeStatus &n = *node.views[gateway];
    QString text = FleetFormat::nodeStateText(n.state);
    if (n.draining && n.state != health::NodeState::Draining)
        text = tr("%1, draining").arg(text);
    if (!m_gateways[gateway].connected)
        text = tr("%1 (last known)").arg(text);
    return text;
}

QVariant FleetNodesModel::gatewayToolTip(const MergedNode &node, int gateway) const
{
    if (gateway < 0 || gateway >= node.views.size())
        return {};
    const QString &label = m_gateways[gateway].label;
    if (!node.views[gateway])
        return tr("%1 does not route to this node.").arg(label);
    const link::NodeStatus &n = *node.views[gateway];
    QStringList lines;
    lines.append(tr("%1 calls it %2: %3").arg(label, n.name, FleetFormat::nodeStateText(n.state)));
    if (!n.reason.isEmpty())
        lines.append(n.reason);
    lines.append(tr("In flight %1, %2 requests/s, p95 %3")
                     .arg(QLocale().toString(n.inFlight), FleetFormat::rate(n.rates.requestsPerSecond),
                          FleetFormat::latency(n.window.latencyP95Ms)));
    if (!m_gateways[gateway].connected)
        lines.append(tr("The gateway is not reachable now: this is the last it said."));
    return lines.join(u'\n');
}

int FleetNodesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_nodes.size());
}

int FleetNodesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : FirstGatewayColumn + int(m_gateways.size());
}

QVariant FleetNodesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const MergedNode &node = m_nodes[index.row()];
    const int column = index.column();
    const int gateway = column - FirstGatewayColumn;
    switch (role) {
    case Qt::DisplayRole:
        return nodeDisplay(node, column);
    case SortRole:
        return nodeSort(node, column);
    case BaseUrlRole:
        return node.baseUrl;
    case StateRole: {
        if (gateway >= 0)
            return node.views.value(gateway) ? QVariant(int(node.views[gateway]->state)) : QVariant();
        const auto worst = worstState(node, nullptr, nullptr);
        return worst ? QVariant(int(*worst)) : QVariant();
    }
    case SeenByRole: {
        int seen = 0;
        for (const auto &v : node.views)
            seen += v ? 1 : 0;
        return seen;
    }
    case GatewayRole:
        return gateway >= 0 ? QVariant::fromValue(quintptr(m_gateways[gateway].link)) : QVariant();
    case Qt::ToolTipRole: {
        if (gateway >= 0)
            return gatewayToolTip(node, gateway);
        if (column == State || column == Node) {
            QStringList lines;
            for (int g = 0; g < node.views.size(); ++g)
                lines.append(gatewayToolTip(node, g).toString());
            return lines.join(u"\n\n"_s);
        }
        return {};
    }
    case Qt::BackgroundRole: {
        std::optional<health::NodeState> s;
        if (gateway >= 0) {
            if (node.views.value(gateway))
                s = node.views[gateway]->state;
        } else if (column == State) {
            s = worstState(node, nullptr, nullptr);
        }
        const QColor tint = s ? FleetFormat::stateTint(*s) : QColor();
        return tint.isValid() ? QVariant(tint) : QVariant();
    }
    case Qt::ForegroundRole:
        if (gateway >= 0 && !m_gateways[gateway].connected)
            return QColor(128, 128, 128);
        return {};
    case Qt::TextAlignmentRole:
        if (column >= InFlight && column <= LatencyP95)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant FleetNodesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return {};
    const int gateway = section - FirstGatewayColumn;
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Node: return tr("Node");
        case BaseUrl: return tr("Base URL");
        case State: return tr("State");
        case InFlight: return tr("In flight");
        case RequestsPerSec: return tr("Requests/s");
        case LatencyP95: return tr("p95");
        default: return m_gateways[gateway].label;
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case State: return tr("The worst state any gateway sees, and on how many of the gateways that route to the node");
        case InFlight: return tr("Summed over the gateways");
        case RequestsPerSec: return tr("Summed over the gateways");
        case LatencyP95: return tr("The highest of the gateways' p95 over the last minute");
        default:
            return gateway >= 0 ? QVariant(tr("The node as %1 sees it").arg(m_gateways[gateway].label)) : QVariant();
        }
    }
    if (role == GatewayRole && gateway >= 0)
        return QVariant::fromValue(quintptr(m_gateways[gateway].link));
    return {};
}

} // namespace switchyard::ui
