#pragma once

// One row per node (a provider of the config), fed by GatewayMonitor samples. Rows are kept in the
// config's order; a sample with other nodes removes and appends rows (no reset, so selections survive),
// and an update of known nodes is one dataChanged over the whole table.

#include "gatewaymonitor.h"

#include <QAbstractTableModel>

namespace switchyard::ui {

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
        TokensPerSec,   // completion tokens per second
        RequestsPerSec, // attempts per second
        LatencyP95,     // end-to-end, last minute
        ErrorRate,      // failed / finished attempts, last 30 s
        LastCheck,      // when the node itself was last read
        ColumnCount
    };
    Q_ENUM(Column)

    enum Role {
        SortRole = Qt::UserRole + 1, // a number (or text) to sort the column by
        NodeNameRole,                // the node's name, on every column
        StateRole,                   // NodeState as int, on every column
    };

    explicit NodesModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void setNodes(const QList<NodeSample> &nodes);
    const QList<NodeSample> &nodes() const { return m_nodes; }
    const NodeSample *node(int row) const;
    int rowOf(const QString &name) const;

    // Display helpers, shared with the detail pane.
    static QString formatRate(double perSecond);
    static QString formatLatency(std::optional<double> ms);
    static QString formatPercent(std::optional<double> fraction);

private:
    QVariant display(const NodeSample &n, int column) const;
    QVariant sortValue(const NodeSample &n, int column) const;

    QList<NodeSample> m_nodes;
};

} // namespace switchyard::ui
