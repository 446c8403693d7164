#pragma once

// The Nodes view: the nodes table (state with colour, icon and reason), a detail pane for the selected
// node (its state and reason, recent errors, metrics highlights) and a context menu with the node
// actions. With no nodes configured it shows a start page offering the demo or a config file.

#include "gatewaymonitor.h"
#include "simnode/simoptions.h"

#include <QSet>
#include <QWidget>

class QMenu;
class QSortFilterProxyModel;
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

    void setSample(const MonitorSample &sample);
    // Nodes whose fault can be simulated (the demo's); their context menu gets the fault modes.
    void setSimulatedNodes(const QSet<QString> &names) { m_simulated = names; }
    void selectNode(const QString &name);
    QString selectedNode() const;
    // The context menu of a node, as the table shows it (public for tests).
    QMenu *buildContextMenu(const QString &node, QWidget *parent);

signals:
    void drainRequested(const QString &node, bool drain);
    void probeRequested(const QString &node);
    void openInChatRequested(const QString &node);
    void faultRequested(const QString &node, switchyard::sim::FaultMode mode);
    void startDemoRequested();
    void openConfigRequested();
    void addNodesRequested();

private:
    void updateDetail();
    void showContextMenu(const QPoint &pos);

    NodesModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QStackedWidget *m_stack;
    QTableView *m_table;
    QTextBrowser *m_detail;
    QString m_detailHtml;
    QSet<QString> m_simulated;
    bool m_hadNodes = false;
};

} // namespace switchyard::ui
