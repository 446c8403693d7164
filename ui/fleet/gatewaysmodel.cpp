#include "fleet/gatewaysmodel.h"

#include "fleet/fleetformat.h"

#include <QApplication>
#include <algorithm>
#include <QDateTime>
#include <QLocale>
#include <QStyle>
#include <QTimer>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {
const QString Dash = u"\u2014"_s;

// A node takes traffic: healthy, or degraded but still answering. Down, recovering (ejected, on
// probation), drained and not yet checked ones do not count as up.
bool isUp(const link::NodeStatus &n)
{
    return n.state == health::NodeState::Healthy || n.state == health::NodeState::Degraded;
}
} // namespace

GatewaysModel::GatewaysModel(QObject *parent) : QAbstractTableModel(parent), m_coalesce(new QTimer(this))
{
    m_coalesce->setSingleShot(true);
    m_coalesce->setInterval(CoalesceMs);
    connect(m_coalesce, &QTimer::timeout, this, &GatewaysModel::refresh);
}

GatewaysModel::~GatewaysModel() = default;

void GatewaysModel::addGateway(link::GatewayLink *link)
{
    if (!link || rowOf(link) >= 0)
        return;
    const int row = int(m_rows.size());
    beginInsertRows({}, row, row);
    Row r;
    r.link = link;
    r.alive = link;
    r.status = link->status();
    r.linkStatus = link->linkStatus();
    r.label = FleetFormat::gatewayLabel(*link);
    m_rows.append(r);
    endInsertRows();
    connect(link, &link::GatewayLink::statusChanged, this, &GatewaysModel::schedule);
    connect(link, &link::GatewayLink::linkStatusChanged, this, &GatewaysModel::schedule);
    connect(link, &QObject::destroyed, this, [this, link] { removeGateway(link); });
    schedule();
}

void GatewaysModel::removeGateway(link::GatewayLink *link)
{
    const int row = rowOf(link);
    if (row < 0)
        return;
    if (m_rows[row].alive)
        disconnect(link, nullptr, this, nullptr);
    beginRemoveRows({}, row, row);
    m_rows.removeAt(row);
    endRemoveRows();
    schedule(); // the drift may be gone with it
}

QList<link::GatewayLink *> GatewaysModel::gateways() const
{
    QList<link::GatewayLink *> out;
    for (const Row &r : m_rows)
        out.append(r.link);
    return out;
}

link::GatewayLink *GatewaysModel::gateway(int row) const
{
    return row >= 0 && row < m_rows.size() ? m_rows[row].link : nullptr;
}

int GatewaysModel::rowOf(const link::GatewayLink *link) const
{
    for (int i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].link == link)
            return i;
    }
    return -1;
}

void GatewaysModel::schedule()
{
    if (!m_coalesce->isActive())
        m_coalesce->start();
}

void GatewaysModel::refresh()
{
    for (Row &r : m_rows) {
        if (!r.alive)
            continue;
        r.status = r.alive->status();
        r.linkStatus = r.alive->linkStatus();
        r.label = FleetFormat::gatewayLabel(*r.alive);
    }
    const QString before = m_driftSummary;
    computeDrift();
    if (!m_rows.isEmpty())
        emit dataChanged(index(0, 0), index(int(m_rows.size()) - 1, ColumnCount - 1));
    if (before != m_driftSummary)
        emit driftChanged(hasDrift(), m_driftSummary);
}

void GatewaysModel::computeDrift()
{
    // Gateways grouped by the config they run, in the order they were added.
    struct Group
    {
        QString hash;
        QStringList labels;
    };
    QList<Group> groups;
    for (const Row &r : std::as_const(m_rows)) {
        if (!r.status || r.status->configHash.isEmpty())
            continue;
        auto it = std::find_if(groups.begin(), groups.end(), [&](const Group &g) { return g.hash == r.status->configHash; });
        if (it == groups.end())
            groups.append({r.status->configHash, {r.label}});
        else
            it->labels.append(r.label);
    }
    for (Row &r : m_rows) {
        r.drift = false;
        r.driftTip.clear();
    }
    if (groups.size() < 2) {
        m_driftSummary.clear();
        return;
    }
    // The config most gateways run is the reference (the first one added on a tie); the others drift.
    const Group *reference = &groups.first();
    for (const Group &g : std::as_const(groups)) {
        if (g.labels.size() > reference->labels.size())
            reference = &g;
    }
    QStringList parts;
    for (const Group &g : std::as_const(groups))
        parts.append(tr("%1 runs %2").arg(g.labels.join(u", "_s), FleetFormat::shortHash(g.hash)));
    m_driftSummary = tr("The gateways run different configs: %1.").arg(parts.join(u"; "_s));

    for (Row &r : m_rows) {
        if (!r.status || r.status->configHash.isEmpty())
            continue;
        const QString mine = r.status->configHash;
        if (mine != reference->hash) {
            r.drift = true;
            r.driftTip = tr("This gateway runs config %1, unlike %2 (%3).")
                             .arg(FleetFormat::shortHash(mine), reference->labels.join(u", "_s),
                                  FleetFormat::shortHash(reference->hash));
        } else {
            QStringList others;
            for (const Group &g : std::as_const(groups)) {
                if (g.hash != mine)
                    others.append(tr("%1 (%2)").arg(g.labels.join(u", "_s), FleetFormat::shortHash(g.hash)));
            }
            r.driftTip = tr("Config %1; another config runs on %2.").arg(FleetFormat::shortHash(mine), others.join(u"; "_s));
        }
    }
}

int GatewaysModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int GatewaysModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant GatewaysModel::display(const Row &row, int column) const
{
    const std::optional<link::GatewayStatus> &s = row.status;
    switch (Column(column)) {
    case Gateway:
        return row.label;
    case Link: {
        const link::LinkState state = row.linkStatus.state;
        if (state == link::LinkState::Connected) {
            if (s && !s->running)
                return tr("Connected, gateway off");
            if (s && s->stopping)
                return tr("Connected, stopping");
            if (s && !s->accepting)
                return tr("Connected, paused");
            return FleetFormat::linkStateText(state);
        }
        if (row.linkStatus.reason.isEmpty())
            return FleetFormat::linkStateText(state);
        return tr("%1: %2").arg(FleetFormat::linkStateText(state), row.linkStatus.reason);
    }
    case Version:
        return s && !s->version.isEmpty() ? s->version : Dash;
    case Config:
        if (!s || s->configHash.isEmpty())
            return Dash;
        return row.drift ? tr("%1 (differs)").arg(FleetFormat::shortHash(s->configHash))
                         : FleetFormat::shortHash(s->configHash);
    case RequestsPerSec:
        return s ? FleetFormat::rate(s->rates.requestsPerSecond) : Dash;
    case ErrorsPerSec:
        return s ? FleetFormat::rate(s->rates.errorsPerSecond) : Dash;
    case LatencyP95:
        return s ? FleetFormat::latency(s->window.latencyP95Ms) : Dash;
    case NodesUp: {
        if (!s)
            return Dash;
        const auto up = std::count_if(s->nodes.cbegin(), s->nodes.cend(), isUp);
        return tr("%1/%2").arg(up).arg(s->nodes.size());
    }
    case ColumnCount:
        break;
    }
    return {};
}

QVariant GatewaysModel::sortValue(const Row &row, int column) const
{
    const std::optional<link::GatewayStatus> &s = row.status;
    switch (Column(column)) {
    case Gateway:
    case Version:
    case Config:
        return display(row, column);
    case Link:
        return int(row.linkStatus.state);
    case RequestsPerSec:
        return s ? s->rates.requestsPerSecond : -1.0;
    case ErrorsPerSec:
        return s ? s->rates.errorsPerSecond : -1.0;
    case LatencyP95:
        return s ? s->window.latencyP95Ms.value_or(-1) : -1.0;
    case NodesUp:
        return s ? int(std::count_if(s->nodes.cbegin(), s->nodes.cend(), isUp)) : -1;
    case ColumnCount:
        break;
    }
    return {};
}

QVariant GatewaysModel::toolTip(const Row &row, int column) const
{
    const std::optional<link::GatewayStatus> &s = row.status;
    switch (Column(column)) {
    case Gateway:
        return row.alive ? QVariant(row.alive->apiUrl().toString()) : QVariant();
    case Link: {
        QStringList lines;
        if (!row.linkStatus.reason.isEmpty())
            lines.append(row.linkStatus.reason);
        if (row.linkStatus.lastAnswerMs > 0)
            lines.append(tr("Last answer at %1")
                             .arg(QDateTime::fromMSecsSinceEpoch(row.linkStatus.lastAnswerMs).time().toString(u"HH:mm:ss"_s)));
        if (row.linkStatus.state != link::LinkState::Connected && row.linkStatus.retryInMs > 0)
            lines.append(tr("Next try in %1 s").arg(QLocale().toString((row.linkStatus.retryInMs + 999) / 1000)));
        if (row.linkStatus.state != link::LinkState::Connected && s)
            lines.append(tr("The numbers shown are the last ones it sent."));
        return lines.isEmpty() ? QVariant() : QVariant(lines.join(u'\n'));
    }
    case Config:
        if (!s)
            return {};
        return row.driftTip.isEmpty() ? tr("Config %1").arg(s->configHash) : QString(row.driftTip + u"\n"_s + s->configHash);
    case LatencyP95:
        if (!s)
            return {};
        return tr("Over the last %1 s: p50 %2, p95 %3; time to first token p95 %4")
            .arg(link::PercentileWindowSeconds)
            .arg(FleetFormat::latency(s->window.latencyP50Ms), FleetFormat::latency(s->window.latencyP95Ms),
                 FleetFormat::latency(s->window.ttftP95Ms));
    case RequestsPerSec:
    case ErrorsPerSec:
        return tr("Per second over the last %1 s").arg(link::RateWindowSeconds);
    case NodesUp: {
        if (!s)
            return {};
        QStringList lines;
        for (const link::NodeStatus &n : s->nodes) {
            if (!isUp(n))
                lines.append(n.reason.isEmpty() ? tr("%1: %2").arg(n.name, FleetFormat::nodeStateText(n.state))
                                                : tr("%1: %2 (%3)").arg(n.name, FleetFormat::nodeStateText(n.state), n.reason));
        }
        return lines.isEmpty() ? tr("Every node is up") : lines.join(u'\n');
    }
    case Version:
    case ColumnCount:
        break;
    }
    return {};
}

QVariant GatewaysModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows[index.row()];
    const int column = index.column();
    const bool connected = row.linkStatus.state == link::LinkState::Connected;
    switch (role) {
    case Qt::DisplayRole:
        return display(row, column);
    case SortRole:
        return sortValue(row, column);
    case Qt::ToolTipRole:
        return toolTip(row, column);
    case LinkStateRole:
        return int(row.linkStatus.state);
    case DriftRole:
        return row.drift;
    case ConfigHashRole:
        return row.status ? row.status->configHash : QString();
    case Qt::DecorationRole:
        if (column == Config && row.drift)
            return QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
        return {};
    case Qt::ForegroundRole:
        // Numbers from a gateway the panel no longer reaches are its last word, not the present.
        if (!connected && column >= Version)
            return QColor(128, 128, 128);
        return {};
    case Qt::BackgroundRole:
        if (!connected && row.linkStatus.state != link::LinkState::Connecting)
            return QColor(212, 60, 60, 48);
        if (column == Config && row.drift)
            return QColor(224, 142, 0, 56);
        if (column == NodesUp && row.status) {
            const auto up = std::count_if(row.status->nodes.cbegin(), row.status->nodes.cend(), isUp);
            if (up < row.status->nodes.size())
                return QColor(224, 142, 0, 40);
        }
        return {};
    case Qt::TextAlignmentRole:
        if (column >= RequestsPerSec)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant GatewaysModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::DisplayRole) {
        switch (Column(section)) {
        case Gateway: return tr("Gateway");
        case Link: return tr("Link");
        case Version: return tr("Version");
        case Config: return tr("Config");
        case RequestsPerSec: return tr("Requests/s");
        case ErrorsPerSec: return tr("Errors/s");
        case LatencyP95: return tr("p95");
        case NodesUp: return tr("Nodes up");
        case ColumnCount: break;
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (Column(section)) {
        case Link: return tr("Whether the panel reaches the gateway, and why not");
        case Config: return tr("The running config's hash; marked where gateways run different configs");
        case LatencyP95: return tr("End-to-end latency, 95th percentile, last minute");
        case NodesUp: return tr("Nodes healthy or degraded, of all the gateway's nodes");
        default: return {};
        }
    }
    return {};
}

} // namespace switchyard::ui
