#pragma once

// The Nodes view across a fleet: every node any watched gateway routes to, one row per node however
// many gateways see it. Nodes are the same node when their base URLs are (two replicas in front of the
// same vLLM machines); each gateway has a column with its own view of the node (its state; the reason,
// in-flight requests, rates and latency in the tooltip), and the node's columns sum or worst-case what
// the gateways say: requests/s and in flight summed, p95 the highest, the state the worst with how many
// gateways see it so ("Down on 1 of 2"). Gateways come and go at run time (a column each); links are
// read on one timer (CoalesceMs), like GatewaysModel.

#include "link/gatewaylink.h"

#include <QAbstractTableModel>
#include <QList>
#include <QPointer>

class QTimer;

namespace switchyard::ui {

class FleetNodesModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FleetNodesModel)

public:
    static constexpr int CoalesceMs = 250;

    // Then one column per gateway, in the order they were added (FirstGatewayColumn + i).
    enum Column { Node, BaseUrl, State, InFlight, RequestsPerSec, LatencyP95, FirstGatewayColumn };
    Q_ENUM(Column)

    enum Role {
        SortRole = Qt::UserRole + 1,
        BaseUrlRole,      // the canonical base URL, on every column
        StateRole,        // health::NodeState as int: the worst across gateways, or this gateway's
        SeenByRole,       // how many gateways route to the node
        GatewayRole,      // on a gateway column (and its header): the GatewayLink*, as quintptr
    };

    explicit FleetNodesModel(QObject *parent = nullptr);
    ~FleetNodesModel() override;

    void addGateway(link::GatewayLink *link);
    void removeGateway(link::GatewayLink *link);
    QList<link::GatewayLink *> gateways() const;
    int columnOf(const link::GatewayLink *link) const;
    int rowOf(const QString &baseUrl) const; // any spelling of the URL

    // "http://Host:8000/" and "http://host:8000" are the same node.
    static QString canonicalBaseUrl(const QString &baseUrl);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Gateway
    {
        link::GatewayLink *link = nullptr;
        QPointer<link::GatewayLink> alive;
        QString label;
        bool connected = false;
    };
    struct MergedNode
    {
        QString baseUrl; // canonical
        // One per gateway column; none where that gateway does not route to the node.
        QList<std::optional<link::NodeStatus>> views;
    };

    void schedule();
    void refresh();
    int gatewayIndex(const link::GatewayLink *link) const;
    std::optional<health::NodeState> worstState(const MergedNode &node, int *worstCount, int *seenBy) const;
    QVariant nodeDisplay(const MergedNode &node, int column) const;
    QVariant nodeSort(const MergedNode &node, int column) const;
    QVariant gatewayDisplay(const MergedNode &node, int gateway) const;
    QVariant gatewayToolTip(const MergedNode &node, int gateway) const;

    QList<Gateway> m_gateways;
    QList<MergedNode> m_nodes;
    QTimer *m_coalesce;
};

} // namespace switchyard::ui
