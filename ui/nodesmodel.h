#pragma once

// One row per node of the gateway's status (link::GatewayStatus, local or remote), in the gateway's
// order; a status with other nodes removes and appends rows (no reset, so selections survive), and an
// update of known nodes is one dataChanged over the whole table. Every number is the gateway's own.

#include "link/gatewaystatus.h"
#include "nodedescription.h"
#include "stats/requestrecord.h"

#include <QAbstractTableModel>

namespace switchyard::ui {

// One node as the Nodes view shows it.
struct NodeRow
{
    link::NodeStatus status;
    NodeDescription description;
    QList<stats::RequestRecord> recentErrors; // oldest first, bounded (RecentErrors)
};

class NodesModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(NodesModel)

public:
    enum Column {
        State,
        Name,
        BaseUrl,
        Models,
        Weight,
        InFlight,
        Queue,          // vLLM running / waiting
        KvCache,        // vLLM KV-cache usage
        CacheHits,      // vLLM prefix-cache hit rate, the last minute (from the node's counters)
        TokensPerSec,   // completion tokens per second
        RequestsPerSec, // attempts per second
        LatencyP95,     // end-to-end, the gateway's percentile window
        ErrorRate,      // failed share of attempts, the gateway's error window
        LastCheck,      // when the node itself was last read
        ColumnCount
    };
    Q_ENUM(Column)

    enum Role {
        SortRole = Qt::UserRole + 1, // a number (or text) to sort the column by
        NodeNameRole,                // the node's name, on every column
        StateRole,                   // health::NodeState as int, on every column
    };

    explicit NodesModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void setNodes(const QList<NodeRow> &nodes);
    const QList<NodeRow> &nodes() const { return m_nodes; }
    // The panel cannot see the gateway now (unreachable, refused …): the rows are what it said last, shown
    // greyed and without the state's colour, so a lost gateway's nodes never look healthy. reason: why.
    void setStale(bool stale, const QString &reason = {});
    bool isStale() const { return m_stale; }
    // The gateway takes no traffic (off, paused, stopping): the nodes are greyed like stale ones and
    // their state says so, so a switched-off gateway's nodes never look as if they were serving. note:
    // what the rows say ("Not receiving traffic: the gateway is off"); empty: taking traffic.
    void setTrafficNote(const QString &note);
    QString trafficNote() const { return m_trafficNote; }
    const NodeRow *node(int row) const;
    int rowOf(const QString &name) const;

signals:
    // setStale or setTrafficNote changed how the rows look (the detail pane follows).
    void dimmingChanged();

public:
    // Display helpers, shared with the detail pane.
    static QString formatRate(double perSecond);
    static QString formatLatency(std::optional<double> ms);
    static QString formatPercent(std::optional<double> fraction);

private:
    bool m_stale = false;
    QString m_staleReason;
    QString m_trafficNote;
    QVariant display(const NodeRow &n, int column) const;
    QVariant sortValue(const NodeRow &n, int column) const;

    QList<NodeRow> m_nodes;
};

} // namespace switchyard::ui
