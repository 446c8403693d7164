#pragma once

// The Nodes view: a toolbar with the node actions for the selected node (drain or enable, probe, chat,
// and the demo's faults), the nodes table (state with colour, icon and reason), a detail pane for the
// selected node (its state and reason, recent errors, metrics highlights) and a context menu with the
// same node actions. It shows what a GatewayLink reports (setStatus, and the request log for each node's recent
// errors), the same for the gateway of this process and a remote one. With no nodes configured it shows
// a start page offering the demo or a config file.

#include "link/gatewaystatus.h"
#include "nodedescription.h"
#include "nodesmodel.h"
#include "recenterrors.h"
#include "simnode/simoptions.h"
#include "stats/requestrecord.h"

#include <QSet>
#include <QWidget>

class QAction;
class QLabel;
class QMenu;
class QSortFilterProxyModel;
class QToolBar;
class QToolButton;
class QStackedWidget;
class QTableView;
class QTextBrowser;

namespace switchyard::ui {

class NodesModel;

class NodesView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(NodesView)

public:
    explicit NodesView(QWidget *parent = nullptr);

    NodesModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    QTextBrowser *detail() const { return m_detail; }
    QToolBar *toolBar() const { return m_toolBar; }

    void setStatus(const link::GatewayStatus &status);
    // Finished requests as the link delivers them, oldest first: each node's failed ones are its recent errors.
    void addRequests(const QList<stats::RequestRecord> &records);
    // Forgets what the previous gateway said (another link attached).
    void clear();
    // The demo's simulated nodes (this process only): their detail says which fault they play, and their
    // context menu gets the fault modes.
    void setSimulatedNodes(SimulatedNodes nodes);
    // A remote gateway: the start page does not offer this process's demo or files.
    void setLocalActionsAvailable(bool available);
    void selectNode(const QString &name);
    QString selectedNode() const;
    // The context menu of a node, as the table shows it (public for tests).
    QMenu *buildContextMenu(const QString &node, QWidget *parent);
    // Whether the link can take node actions now (a remote gateway out of sight cannot); why: the
    // disabled toolbar's tooltip.
    void setNodeActionsEnabled(bool enabled, const QString &why = {});

signals:
    void drainRequested(const QString &node, bool drain);
    void probeRequested(const QString &node);
    void openInChatRequested(const QString &node);
    void faultRequested(const QString &node, switchyard::sim::FaultMode mode);
    void startDemoRequested();
    void openConfigRequested();
    void addNodesRequested();

private:
    void createToolBar();
    void updateToolBar();
    void onSelectionChanged();
    void updateDetail();
    void showContextMenu(const QPoint &pos);
    // The demo's fault modes for a simulated node, the current one checked (context menu and toolbar).
    void addFaultActions(QMenu *faults, const QString &node);
    NodeRow rowOf(const link::NodeStatus &status) const;

    NodesModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QStackedWidget *m_stack;
    QTableView *m_table;
    QTextBrowser *m_detail;
    QString m_detailHtml;
    SimulatedNodes m_simulated;
    RecentErrors m_errors;
    std::optional<link::GatewayStatus> m_status;
    QWidget *m_localActions = nullptr;
    QToolBar *m_toolBar = nullptr;
    QLabel *m_selectedLabel = nullptr;
    QAction *m_drainAction = nullptr;
    QAction *m_probeAction = nullptr;
    QAction *m_chatAction = nullptr;
    QToolButton *m_faultButton = nullptr;
    QAction *m_faultButtonAction = nullptr; // the button's place in the toolbar (hidden off the demo)
    QString m_toolBarNode;                  // the node the toolbar's fault menu was built for
    bool m_actionsEnabled = true;
    QString m_actionsDisabledWhy;
    bool m_hadNodes = false;
};

} // namespace switchyard::ui
