#include "nodesmodel.h"

#include "nodestate.h"
#include "statusicons.h"

#include <QDateTime>
#include <QLocale>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {
const QString Dash = u"\u2014"_s;

// The config lists a model once per key: the table names each once.
QString models(const QStringList &list)
{
    QStringList unique;
    for (const QString &m : list) {
        if (!unique.contains(m))
            unique.append(m);
    }
    return unique.join(u", "_s);
}

QString count(const std::optional<double> &v)
{
    return v ? QLocale().toString(qint64(*v)) : Dash;
}
} // namespace

NodesModel::NodesModel(QObject *parent) : QAbstractTableModel(parent) { }

int NodesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_nodes.size());
}

int NodesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

const NodeRow *NodesModel::node(int row) const
{
    return row >= 0 && row < m_nodes.size() ? &m_nodes[row] : nullptr;
}

int NodesModel::rowOf(const QString &name) const
{
    for (int i = 0; i < m_nodes.size(); ++i) {
        if (m_nodes[i].status.name == name)
            return i;
    }
    return -1;
}

QString NodesModel::formatRate(double perSecond)
{
    const QLocale l;
    if (perSecond <= 0)
        return l.toString(0);
    if (perSecond < 10)
        return l.toString(perSecond, 'f', 2);
    if (perSecond < 100)
        return l.toString(perSecond, 'f', 1);
    return l.toString(qRound64(perSecond));
}

QString NodesModel::formatLatency(std::optional<double> ms)
{
    if (!ms)
        return Dash;
    const QLocale l;
    if (*ms < 1000)
        return tr("%1 ms").arg(l.toString(qRound64(*ms)));
    return tr("%1 s").arg(l.toString(*ms / 1000.0, 'f', *ms < 10000 ? 2 : 1));
}

QString NodesModel::formatPercent(std::optional<double> fraction)
{
    if (!fraction)
        return Dash;
    const double pct = *fraction * 100.0;
    return tr("%1 %").arg(QLocale().toString(pct, 'f', pct > 0 && pct < 10 ? 1 : 0));
}

QVariant NodesModel::display(const NodeRow &row, int column) const
{
    const QLocale l;
    const link::NodeStatus &n = row.status;
    switch (Column(column)) {
    case State:
        if (!m_stale && !m_trafficNote.isEmpty())
            return tr("%1, no traffic").arg(nodeStateText(n.state));
        return nodeStateText(n.state);
    case Name:
        return n.name;
    case BaseUrl:
        return n.baseUrl;
    case Models:
        return models(n.models);
    case Weight:
        return l.toString(n.weight, 'g', 4);
    case InFlight:
        return l.toString(n.inFlight);
    case Queue:
        if (!n.running && !n.waiting)
            return Dash;
        return tr("%1 / %2").arg(count(n.running), count(n.waiting));
    case KvCache:
        return formatPercent(n.kvCacheUsage);
    case CacheHits:
        // The node's own rate, and beside it what the gateway's cache_aware index predicted for it.
        if (n.prefixCacheHitRate && n.predictedPrefixHitRate)
            return tr("%1 (%2 predicted)").arg(formatPercent(n.prefixCacheHitRate), formatPercent(n.predictedPrefixHitRate));
        return formatPercent(n.prefixCacheHitRate);
    case TokensPerSec:
        return formatRate(n.rates.tokensPerSecond);
    case RequestsPerSec:
        return formatRate(n.rates.requestsPerSecond);
    case LatencyP95:
        return formatLatency(n.window.latencyP95Ms);
    case ErrorRate:
        return formatPercent(n.errorRate);
    case LastCheck:
        if (n.lastCheckMsSinceEpoch <= 0)
            return Dash;
        return QDateTime::fromMSecsSinceEpoch(n.lastCheckMsSinceEpoch).time().toString(u"HH:mm:ss"_s);
    case ColumnCount:
        break;
    }
    return {};
}

QVariant NodesModel::sortValue(const NodeRow &row, int column) const
{
    const link::NodeStatus &n = row.status;
    switch (Column(column)) {
    case State:
        return nodeStateSeverity(n.state);
    case Name:
    case BaseUrl:
    case Models:
        return display(row, column);
    case Weight:
        return n.weight;
    case InFlight:
        return n.inFlight;
    case Queue:
        return n.waiting.value_or(-1) * 100000 + n.running.value_or(-1);
    case KvCache:
        return n.kvCacheUsage.value_or(-1);
    case CacheHits:
        return n.prefixCacheHitRate.value_or(-1);
    case TokensPerSec:
        return n.rates.tokensPerSecond;
    case RequestsPerSec:
        return n.rates.requestsPerSecond;
    case LatencyP95:
        return n.window.latencyP95Ms.value_or(-1);
    case ErrorRate:
        return n.errorRate.value_or(-1);
    case LastCheck:
        return n.lastCheckMsSinceEpoch;
    case ColumnCount:
        break;
    }
    return {};
}

QVariant NodesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const NodeRow &row = m_nodes[index.row()];
    const link::NodeStatus &n = row.status;
    const bool down = n.state == health::NodeState::Down;
    const int column = index.column();
    // Greyed, without the state's colour: a gateway the panel cannot see, or one that takes no traffic.
    const bool dimmed = m_stale || !m_trafficNote.isEmpty();
    switch (role) {
    case Qt::DisplayRole:
        return display(row, column);
    case SortRole:
        return sortValue(row, column);
    case NodeNameRole:
        return n.name;
    case StateRole:
        return int(n.state);
    case Qt::DecorationRole:
        if (column == State)
            return dimmed ? nodeStateIcon(health::NodeState::Unknown) : nodeStateIcon(n.state);
        return {};
    case Qt::ToolTipRole:
        if (m_stale && (column == State || column == Name))
            return tr("Last known: %1. The panel cannot see the gateway now: %2").arg(nodeStateText(n.state), m_staleReason);
        if (!m_trafficNote.isEmpty() && (column == State || column == Name))
            return tr("%1.\nLast health check: %2: %3").arg(m_trafficNote, nodeStateText(n.state), row.description.reason);
        if (column == State || column == Name)
            return QString(nodeStateText(n.state) % u": "_s % row.description.reason);
        if (column == ErrorRate)
            return tr("%1 failed attempts/s over the last %2 s").arg(formatRate(n.rates.errorsPerSecond)).arg(link::RateWindowSeconds);
        if (down && (column == Queue || column == KvCache || column == CacheHits))
            return tr("The last reading before the node went down");
        if (column == LatencyP95 && n.window.latencyP50Ms)
            return tr("p50 %1, p95 %2; time to first token p95 %3")
                .arg(formatLatency(n.window.latencyP50Ms), formatLatency(n.window.latencyP95Ms),
                     formatLatency(n.window.ttftP95Ms));
        return {};
    case Qt::ForegroundRole:
        if (dimmed)
            return QColor(128, 128, 128);
        if (down && (column == Queue || column == KvCache || column == CacheHits))
            return QColor(128, 128, 128); // the last reading before it went down
        return {};
    case Qt::BackgroundRole: {
        if (dimmed)
            return {};
        // A translucent tint so it works on light and dark palettes alike.
        if (down)
            return QColor(212, 60, 60, 48);
        if (n.state == health::NodeState::Degraded || n.state == health::NodeState::Recovering)
            return QColor(224, 142, 0, 40);
        return {};
    }
    case Qt::TextAlignmentRole:
        if (column >= Weight && column <= LastCheck)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
    default:
        return {};
    }
}

void NodesModel::setStale(bool stale, const QString &reason)
{
    if (stale == m_stale && reason == m_staleReason)
        return;
    m_stale = stale;
    m_staleReason = reason;
    if (!m_nodes.isEmpty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    emit dimmingChanged();
}

void NodesModel::setTrafficNote(const QString &note)
{
    if (note == m_trafficNote)
        return;
    m_trafficNote = note;
    if (!m_nodes.isEmpty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    emit dimmingChanged();
}

QVariant NodesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole) {
        switch (Column(section)) {
        case State:
            return tr("State");
        case Name:
            return tr("Node");
        case BaseUrl:
            return tr("Base URL");
        case Models:
            return tr("Models");
        case Weight:
            return tr("Weight");
        case InFlight:
            return tr("In flight");
        case Queue:
            return tr("Run / wait");
        case KvCache:
            //: Column header, kept short: the node's KV-cache usage (vLLM). Translate it (e.g. "KV 缓存").
            return tr("KV cache");
        case CacheHits:
            //: Column header, kept short: the node's prefix-cache hit rate (vLLM). Translate it (e.g. "缓存命中").
            return tr("Cache hits");
        case TokensPerSec:
            //: Column header, kept short: completion tokens generated per second. Translate it (e.g. "令牌/秒").
            return tr("Tokens/s");
        case RequestsPerSec:
            return tr("Req/s");
        case LatencyP95:
            return tr("p95 latency");
        case ErrorRate:
            return tr("Errors");
        case LastCheck:
            return tr("Last check");
        case ColumnCount:
            break;
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (Column(section)) {
        case State:
            return tr("The gateway's verdict from its health checks and from real traffic. Hover a row for the reason.");
        case InFlight:
            return tr("Requests the gateway has open on this node");
        case Queue:
            return tr("Requests running / waiting in the vLLM scheduler (from the node's metrics)");
        case KvCache:
            return tr("vLLM KV-cache usage (from the node's /metrics)");
        case CacheHits:
            return tr("Share of prompt tokens served from the node's prefix cache over the last minute "
                      "(vllm:prefix_cache_hits / queries); — when the node has no such counters. With "
                      "cache_aware routing, beside it: the share the gateway's prefix index predicted for the "
                      "prompts it sent the node in that minute");
        case TokensPerSec:
            return tr("Completion tokens per second over the last %1 s").arg(link::RateWindowSeconds);
        case RequestsPerSec:
            return tr("Attempts sent to the node per second over the last %1 s").arg(link::RateWindowSeconds);
        case LatencyP95:
            return tr("95th percentile of end-to-end time of successful requests, last %1 s").arg(link::PercentileWindowSeconds);
        case ErrorRate:
            return tr("Failed share of the attempts finished in the last %1 s").arg(link::ErrorRateWindowSeconds);
        case LastCheck:
            return tr("When the gateway last checked the node");
        default:
            return {};
        }
    }
    return QAbstractTableModel::headerData(section, orientation, role);
}

void NodesModel::setNodes(const QList<NodeRow> &nodes)
{
    // Drop the rows of nodes that are gone (from the end, so indexes stay valid).
    for (int row = int(m_nodes.size()) - 1; row >= 0; --row) {
        const QString &name = m_nodes[row].status.name;
        const bool kept = std::any_of(nodes.begin(), nodes.end(), [&](const NodeRow &n) { return n.status.name == name; });
        if (!kept) {
            beginRemoveRows({}, row, row);
            m_nodes.removeAt(row);
            endRemoveRows();
        }
    }
    // Update the known ones, append the new ones.
    QList<NodeRow> added;
    for (const NodeRow &n : nodes) {
        const int row = rowOf(n.status.name);
        if (row >= 0)
            m_nodes[row] = n;
        else
            added.append(n);
    }
    if (!m_nodes.isEmpty())
        emit dataChanged(index(0, 0), index(int(m_nodes.size()) - 1, ColumnCount - 1));
    if (!added.isEmpty()) {
        beginInsertRows({}, int(m_nodes.size()), int(m_nodes.size() + added.size()) - 1);
        m_nodes.append(added);
        endInsertRows();
    }
}

} // namespace switchyard::ui
