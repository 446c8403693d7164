#include "requestsmodel.h"

#include "nodesmodel.h"

#include <QColor>
#include <QDateTime>
#include <QLocale>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {
const QString Dash = u"\u2014"_s;

// A generation speed is shown only over at least this many tokens and this long a stream: a handful of
// tokens arriving within a few milliseconds of the first measures how the network and the client's
// socket batched them, not how fast the node generates ("2,000 tokens/s" for a 2-token answer). A
// non-streamed answer arrives all at once, so it never has such a window and never shows a speed.
constexpr qint64 MinTokensForSpeed = 5;
constexpr qint64 MinGenerationMsForSpeed = 100;

QString tokens(const stats::RequestRecord &r)
{
    if (r.promptTokens < 0 && r.completionTokens < 0)
        return Dash;
    const QLocale l;
    return (r.promptTokens < 0 ? Dash : l.toString(r.promptTokens)) % u" \u2192 "_s
           % (r.completionTokens < 0 ? Dash : l.toString(r.completionTokens));
}
} // namespace

RequestsModel::RequestsModel(QObject *parent, int capacity) : QAbstractTableModel(parent), m_capacity(qMax(1, capacity)) { }

void RequestsModel::setCapacity(int capacity)
{
    m_capacity = qMax(1, capacity);
    trimTo(m_capacity);
}

int RequestsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_records.size());
}

int RequestsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

const stats::RequestRecord *RequestsModel::record(int row) const
{
    return row >= 0 && row < int(m_records.size()) ? &m_records[size_t(row)] : nullptr;
}

void RequestsModel::trimTo(int size)
{
    const int excess = int(m_records.size()) - size;
    if (excess <= 0)
        return;
    beginRemoveRows({}, 0, excess - 1);
    m_records.erase(m_records.begin(), m_records.begin() + excess);
    endRemoveRows();
}

void RequestsModel::append(const QList<stats::RequestRecord> &records)
{
    if (records.isEmpty())
        return;
    const qsizetype take = qMin<qsizetype>(records.size(), m_capacity);
    trimTo(m_capacity - int(take));
    const int first = int(m_records.size());
    beginInsertRows({}, first, first + int(take) - 1);
    for (qsizetype i = records.size() - take; i < records.size(); ++i)
        m_records.push_back(records[i]);
    endInsertRows();
}

void RequestsModel::clear()
{
    if (m_records.empty())
        return;
    beginRemoveRows({}, 0, int(m_records.size()) - 1);
    m_records.clear();
    endRemoveRows();
}

QVariant RequestsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const stats::RequestRecord &r = m_records[size_t(index.row())];
    const QLocale l;
    const int column = index.column();
    if (role == Qt::DisplayRole) {
        switch (Column(column)) {
        case Time:
            return QDateTime::fromMSecsSinceEpoch(r.startedMsSinceEpoch)
                .toString(m_showsDate ? u"yyyy-MM-dd HH:mm:ss.zzz"_s : u"HH:mm:ss.zzz"_s);
        case Endpoint:
            return QString(QString::fromLatin1(r.method) % u' ' % QString::fromLatin1(r.path)
                           % (r.stream ? tr(" (stream)") : QString()));
        case Model:
            return r.model.isEmpty() ? Dash : r.model;
        case Node:
            return r.node.isEmpty() ? Dash : r.node;
        case Route:
            return r.route.isEmpty() ? Dash : routeText(r.route);
        case Status:
            if (r.status == 0)
                return tr("none");
            return r.cutMidAnswer() ? tr("%1, cut").arg(r.status) : QString::number(r.status);
        case Attempts:
            return l.toString(r.attempts);
        case Ttft:
            return r.ttftMs < 0 ? Dash : NodesModel::formatLatency(double(r.ttftMs));
        case Duration:
            return NodesModel::formatLatency(double(r.durationMs));
        case Tokens:
            return tokens(r);
        case Error:
            return r.error;
        case ColumnCount:
            break;
        }
        return {};
    }
    switch (role) {
    case SortRole:
        switch (Column(column)) {
        case Time:
            return r.startedMsSinceEpoch;
        case Status:
            return r.status;
        case Attempts:
            return r.attempts;
        case Ttft:
            return r.ttftMs;
        case Duration:
            return r.durationMs;
        case Tokens:
            return r.completionTokens;
        default:
            return data(index, Qt::DisplayRole);
        }
    case FailedRole:
        return isFailure(r);
    case SearchTextRole: {
        QString text = QString::fromLatin1(r.path) % u' ' % r.model % u' ' % r.node % u' ' % r.route % u' '
                       % QString::number(r.status) % u' ' % r.error;
        for (const stats::Attempt &a : r.tried)
            text += u' ' % a.node; // a failed-over node is found by its name too
        return text;
    }
    case Qt::ToolTipRole:
        if (column == Error && !r.error.isEmpty())
            return r.error;
        if (column == Route && !r.route.isEmpty())
            return tr("Why the routing strategy sent the request to this node first (docs/ROUTING.md)");
        if (column == Attempts && r.tried.size() > 1) {
            QStringList tried;
            for (const stats::Attempt &a : r.tried)
                tried << describeAttempt(a);
            return tried.join(u'\n');
        }
        return {};
    case Qt::ForegroundRole:
        if (column == Status && isFailure(r))
            return QColor(0xc0, 0x30, 0x30);
        return {};
    case Qt::TextAlignmentRole:
        if (column == Status || column == Attempts || column == Ttft || column == Duration || column == Tokens)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant RequestsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (Column(section)) {
    case Time:
        return tr("Time");
    case Endpoint:
        return tr("Request");
    case Model:
        return tr("Model");
    case Node:
        return tr("Node");
    case Route:
        return tr("Route");
    case Status:
        return tr("Status");
    case Attempts:
        return tr("Attempts");
    case Ttft:
        return tr("TTFT");
    case Duration:
        return tr("Duration");
    case Tokens:
        return tr("Tokens in \u2192 out");
    case Error:
        return tr("Error");
    case ColumnCount:
        break;
    }
    return {};
}

QString RequestsModel::describe(const stats::RequestRecord &r)
{
    const QLocale l;
    const QDateTime started = QDateTime::fromMSecsSinceEpoch(r.startedMsSinceEpoch);
    auto ms = [&l](qint64 v) { return v < 0 ? Dash : tr("%1 ms").arg(l.toString(v)); };
    QStringList lines;
    lines << tr("Request: %1 %2").arg(QString::fromLatin1(r.method), QString::fromLatin1(r.path));
    lines << tr("Model: %1").arg(r.model.isEmpty() ? Dash : r.model);
    lines << tr("Streaming: %1").arg(r.stream ? tr("yes") : tr("no"));
    lines << tr("Status: %1").arg(r.status == 0 ? tr("none (no response was sent)") : QString::number(r.status));
    lines << answeredBy(r);
    if (!r.route.isEmpty())
        lines << tr("Routed by: %1").arg(routeText(r.route));
    // Right under the answer, so a failover is seen without scrolling the pane.
    if (!r.tried.isEmpty()) {
        lines << tr("Nodes tried:");
        for (qsizetype i = 0; i < r.tried.size(); ++i)
            lines << u"  "_s % tr("%1. %2").arg(l.toString(qint64(i + 1)), describeAttempt(r.tried[i]));
        if (r.attempts > r.tried.size())
            lines << u"  "_s % tr("(%1 more attempts are not listed)").arg(l.toString(qint64(r.attempts - r.tried.size())));
    }
    lines << QString();
    lines << tr("Started: %1").arg(started.toString(u"yyyy-MM-dd HH:mm:ss.zzz"_s));
    lines << tr("Time to first token: %1").arg(ms(r.ttftMs));
    lines << tr("Duration: %1").arg(ms(r.durationMs));
    lines << tr("Finished: %1").arg(started.addMSecs(r.durationMs).toString(u"HH:mm:ss.zzz"_s));
    lines << QString();
    lines << tr("Prompt tokens: %1").arg(r.promptTokens < 0 ? Dash : l.toString(r.promptTokens));
    lines << tr("Completion tokens: %1").arg(r.completionTokens < 0 ? Dash : l.toString(r.completionTokens));
    if (const std::optional<double> speed = generationSpeed(r))
        lines << tr("Generation speed: %1 tokens/s").arg(l.toString(*speed, 'f', 1));
    if (!r.error.isEmpty()) {
        lines << QString();
        lines << tr("Error: %1").arg(r.error);
    }
    return lines.join(u'\n');
}

QString RequestsModel::routeText(const QString &reason)
{
    // The gateway's words (routing/routingstrategies.cpp), which the log and /api/requests keep in English.
    if (reason.startsWith(u"fallback: "_s))
        return tr("fallback: %1").arg(routeText(reason.mid(10)));
    if (reason.startsWith(u"prefix "_s) && reason.endsWith(u'%'))
        return tr("prefix %1%").arg(reason.mid(7).chopped(1));
    // Two decisions, e.g. "session, balance": a session's turn moved off its busy node.
    if (const qsizetype comma = reason.indexOf(u", "_s); comma > 0)
        return tr("%1, %2").arg(routeText(reason.left(comma)), routeText(reason.mid(comma + 2)));
    // The words with no number in them, marked for translation in the gateway's spelling.
    static const char *const words[] = {QT_TR_NOOP("session"),           QT_TR_NOOP("balance"),
                                        QT_TR_NOOP("least loaded"),      QT_TR_NOOP("weighted"),
                                        QT_TR_NOOP("least outstanding"), QT_TR_NOOP("load aware"),
                                        QT_TR_NOOP("pinned"),            QT_TR_NOOP("only node")};
    for (const char *w : words) {
        if (reason == QLatin1StringView(w))
            return tr(w);
    }
    return reason; // a newer gateway's word: as it is
}

QString RequestsModel::answeredBy(const stats::RequestRecord &r)
{
    if (r.tried.isEmpty()) {
        // Answered by the gateway itself, or a record from a gateway that does not list its attempts.
        if (r.node.isEmpty())
            return tr("Answered by: the gateway itself");
        return tr("Answered by: %1 (attempts: %2)").arg(r.node).arg(r.attempts);
    }
    const stats::Attempt &last = r.tried.last();
    switch (last.outcome) {
    case stats::Attempt::Outcome::Answered:
        return tr("Answered by: %1").arg(last.node);
    case stats::Attempt::Outcome::Cut:
        return tr("Answered by: %1, which failed mid-answer").arg(last.node);
    case stats::Attempt::Outcome::ClientClosed:
        return tr("Answered by: no node; the client closed the connection first");
    case stats::Attempt::Outcome::GatewayStopped:
        return tr("Answered by: no node; the gateway shut down first");
    default:
        return tr("Answered by: the gateway, with an error: no node tried could answer");
    }
}

QString RequestsModel::describeAttempt(const stats::Attempt &a)
{
    using Outcome = stats::Attempt::Outcome;
    const QLocale l;
    QString what;
    switch (a.outcome) {
    case Outcome::Answered:
        what = tr("answered %1").arg(a.status);
        break;
    case Outcome::ErrorStatus:
    case Outcome::ConnectionError:
    case Outcome::Timeout:
        what = tr("failed: %1").arg(a.reason.isEmpty() ? tr("(no message)") : a.reason);
        break;
    case Outcome::Cut:
        what = tr("answered %1, then failed mid-answer: %2").arg(a.status).arg(a.reason);
        break;
    case Outcome::ClientClosed:
        what = tr("still working when the client closed the connection");
        break;
    case Outcome::GatewayStopped:
        what = tr("still working when the gateway shut down");
        break;
    case Outcome::Open:
        what = tr("no outcome recorded");
        break;
    }
    QString how;
    switch (a.via) {
    case stats::Attempt::Via::Candidate:
        break;
    case stats::Attempt::Via::LastResort:
        how = tr("last resort");
        break;
    case stats::Attempt::Via::Retry:
        how = tr("retry");
        break;
    }
    if (!a.fallbackModel.isEmpty())
        how = how.isEmpty() ? tr("fallback model %1").arg(a.fallbackModel)
                            : tr("%1, fallback model %2").arg(how, a.fallbackModel);
    const QString node = how.isEmpty() ? a.node : tr("%1 (%2)").arg(a.node, how);
    return tr("%1: %2 (%3)").arg(node, what, tr("%1 ms").arg(l.toString(a.durationMs)));
}

std::optional<double> RequestsModel::generationSpeed(const stats::RequestRecord &r)
{
    if (r.completionTokens < MinTokensForSpeed || r.ttftMs < 0)
        return std::nullopt;
    const qint64 generationMs = r.durationMs - r.ttftMs;
    if (generationMs < MinGenerationMsForSpeed)
        return std::nullopt;
    return double(r.completionTokens) * 1000.0 / double(generationMs);
}

RequestsFilterModel::RequestsFilterModel(QObject *parent) : QSortFilterProxyModel(parent)
{
    setSortRole(RequestsModel::SortRole);
    setDynamicSortFilter(true);
}

void RequestsFilterModel::setText(const QString &text)
{
    if (text == m_text)
        return;
    m_text = text;
    invalidateFilter();
}

void RequestsFilterModel::setFailuresOnly(bool failuresOnly)
{
    if (failuresOnly == m_failuresOnly)
        return;
    m_failuresOnly = failuresOnly;
    invalidateFilter();
}

bool RequestsFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QModelIndex i = sourceModel()->index(sourceRow, 0, sourceParent);
    if (m_failuresOnly && !i.data(RequestsModel::FailedRole).toBool())
        return false;
    if (m_text.isEmpty())
        return true;
    const QString haystack = i.data(RequestsModel::SearchTextRole).toString();
    const QStringList words = m_text.split(u' ', Qt::SkipEmptyParts);
    return std::all_of(words.begin(), words.end(), [&](const QString &w) { return haystack.contains(w, Qt::CaseInsensitive); });
}

} // namespace switchyard::ui
