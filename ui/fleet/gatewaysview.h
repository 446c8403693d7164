#pragma once

// The Gateways view: the fleet at a glance. On top, one row per watched gateway (GatewaysModel) with a
// banner when the gateways run different configs; below, the nodes behind them merged across the
// gateways (FleetNodesModel), one column per gateway. Gateways are added and removed at run time; the
// view never owns a link.

#include <QSet>
#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace switchyard::link {
class GatewayLink;
}

namespace switchyard::ui {

class FleetNodesModel;
class GatewaysModel;

class GatewaysView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(GatewaysView)

public:
    explicit GatewaysView(QWidget *parent = nullptr);
    ~GatewaysView() override;

    void addGateway(link::GatewayLink *link);
    void removeGateway(link::GatewayLink *link);

    GatewaysModel *gatewaysModel() const { return m_gateways; }
    FleetNodesModel *nodesModel() const { return m_nodes; }
    QTableView *gatewaysTable() const { return m_gatewaysTable; }
    QTableView *nodesTable() const { return m_nodesTable; }
    QLabel *driftBanner() const { return m_drift; }
    QPushButton *fleetWindowButton() const { return m_fleetWindow; }

signals:
    // "Open the fleet in one window": the remote gateways' Nodes, Charts and Requests summed and merged.
    void fleetWindowRequested();

private:
    void updateEmpty();

    GatewaysModel *m_gateways;
    FleetNodesModel *m_nodes;
    QLabel *m_drift;
    QLabel *m_empty;
    QTableView *m_gatewaysTable;
    QTableView *m_nodesTable;
    QPushButton *m_fleetWindow;
    QSet<const link::GatewayLink *> m_remote; // the remote gateways listed (the fleet window's members)
};

} // namespace switchyard::ui
