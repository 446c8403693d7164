#include "nodesview.h"

#include "nodesmodel.h"
#include "nodestate.h"
#include "statusicons.h"

#include <QAction>
#include <QActionGroup>
#include <QClipboard>
#include <QDateTime>
#include <QGuiApplication>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

NodesView::NodesView(QWidget *parent)
    : QWidget(parent), m_model(new NodesModel(this)), m_proxy(new QSortFilterProxyModel(this)),
      m_stack(new QStackedWidget(this)), m_table(new QTableView(this)), m_detail(new QTextBrowser(this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(NodesModel::SortRole);
    m_proxy->setDynamicSortFilter(true);

    m_table->setModel(m_proxy);
    m_table->setObjectName(u"nodesTable"_s);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    m_table->setAlternatingRowColors(false);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_table->setSortingEnabled(true);
    // Numbers as wide as they need; the models column takes what is left, so the table fills the width.
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(NodesModel::Models, QHeaderView::Stretch);
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->horizontalHeader()->setHighlightSections(false);
    m_table->setIconSize(QSize(16, 16));
    connect(m_table, &QWidget::customContextMenuRequested, this, &NodesView::showContextMenu);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &NodesView::onSelectionChanged);
    connect(m_model, &NodesModel::dimmingChanged, this, &NodesView::updateDetail);

    m_detail->setObjectName(u"nodeDetail"_s);
    m_detail->setOpenLinks(false);
    m_detail->setPlaceholderText(tr("Select a node to see its state, recent errors and metrics."));

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_table);
    splitter->addWidget(m_detail);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    splitter->setSizes({240, 420}); // a fleet of a few nodes fits; the detail pane gets the rest
    createToolBar();
    auto *nodesPage = new QWidget(this);
    auto *nl = new QVBoxLayout(nodesPage);
    nl->setContentsMargins(0, 0, 0, 0);
    nl->setSpacing(0);
    nl->addWidget(m_toolBar);
    nl->addWidget(splitter, 1);

    // The start page: shown while no node is configured.
    auto *empty = new QWidget(this);
    auto *el = new QVBoxLayout(empty);
    el->addStretch(1);
    auto *title = new QLabel(tr("No nodes configured"), empty);
    QFont tf = title->font();
    tf.setPointSizeF(tf.pointSizeF() * 1.4);
    tf.setBold(true);
    title->setFont(tf);
    title->setAlignment(Qt::AlignCenter);
    auto *text = new QLabel(tr("Open a Bifrost-compatible config file with your vLLM nodes, or start the built-in demo: "
                               "two simulated vLLM nodes (vllm-server1 and vllm-server2 serving nemotron-3-super) behind "
                               "the gateway, to see the panel at work."),
                            empty);
    text->setWordWrap(true);
    text->setAlignment(Qt::AlignCenter);
    text->setMaximumWidth(560);
    auto *demo = new QPushButton(tr("Start the demo"), empty);
    demo->setObjectName(u"startDemoButton"_s);
    auto *open = new QPushButton(tr("Open a config file\u2026"), empty);
    connect(demo, &QPushButton::clicked, this, &NodesView::startDemoRequested);
    auto *add = new QPushButton(tr("Add my nodes\u2026"), empty);
    add->setObjectName(u"addNodesButton"_s);
    connect(open, &QPushButton::clicked, this, &NodesView::openConfigRequested);
    connect(add, &QPushButton::clicked, this, &NodesView::addNodesRequested);
    m_localActions = new QWidget(empty);
    auto *buttons = new QHBoxLayout(m_localActions);
    buttons->setContentsMargins(0, 0, 0, 0);
    buttons->addStretch(1);
    buttons->addWidget(demo);
    buttons->addWidget(open);
    buttons->addWidget(add);
    buttons->addStretch(1);
    demo->setParent(m_localActions);
    open->setParent(m_localActions);
    add->setParent(m_localActions);
    el->addWidget(title);
    el->addSpacing(6);
    el->addWidget(text, 0, Qt::AlignHCenter);
    el->addSpacing(12);
    el->addWidget(m_localActions);
    el->addStretch(2);

    m_stack->addWidget(empty);
    m_stack->addWidget(nodesPage);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);
}

void NodesView::createToolBar()
{
    m_toolBar = new QToolBar(tr("Node actions"), this);
    m_toolBar->setObjectName(u"nodeToolBar"_s);
    m_toolBar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_toolBar->setIconSize(QSize(16, 16));
    m_selectedLabel = new QLabel(m_toolBar);
    m_selectedLabel->setObjectName(u"toolbarSelectedNode"_s);
    m_selectedLabel->setContentsMargins(4, 0, 6, 0);
    m_toolBar->addWidget(m_selectedLabel);
    m_drainAction = m_toolBar->addAction(tr("&Drain"));
    m_drainAction->setObjectName(u"toolbarDrainAction"_s);
    connect(m_drainAction, &QAction::triggered, this, [this] {
        const NodeRow *n = m_model->node(m_model->rowOf(selectedNode()));
        if (n)
            emit drainRequested(n->status.name, !n->status.draining);
    });
    m_probeAction = m_toolBar->addAction(tr("&Probe now"));
    m_probeAction->setObjectName(u"toolbarProbeAction"_s);
    m_probeAction->setToolTip(tr("Run the node's health checks now instead of at the next interval"));
    connect(m_probeAction, &QAction::triggered, this, [this] {
        if (const QString node = selectedNode(); !node.isEmpty())
            emit probeRequested(node);
    });
    m_chatAction = m_toolBar->addAction(tr("Open in c&hat"));
    m_chatAction->setObjectName(u"toolbarChatAction"_s);
    m_chatAction->setToolTip(tr("Chat with this node's model, pinned to this node"));
    connect(m_chatAction, &QAction::triggered, this, [this] {
        if (const QString node = selectedNode(); !node.isEmpty())
            emit openInChatRequested(node);
    });
    // The demo's fault modes: a drop-down, filled when opened so its check mark is the node's fault now.
    m_faultButton = new QToolButton(m_toolBar);
    m_faultButton->setObjectName(u"toolbarFaultButton"_s);
    m_faultButton->setText(tr("Simulated &fault"));
    m_faultButton->setToolTip(tr("Make this simulated node misbehave, to see what the gateway does"));
    m_faultButton->setPopupMode(QToolButton::InstantPopup);
    auto *faults = new QMenu(m_faultButton);
    faults->setObjectName(u"toolbarFaultMenu"_s);
    connect(faults, &QMenu::aboutToShow, this, [this, faults] {
        faults->clear();
        addFaultActions(faults, selectedNode());
    });
    m_faultButton->setMenu(faults);
    m_faultButtonAction = m_toolBar->addWidget(m_faultButton);
    updateToolBar();
}

void NodesView::setNodeActionsEnabled(bool enabled, const QString &why)
{
    m_actionsEnabled = enabled;
    m_actionsDisabledWhy = why;
    updateToolBar();
}

void NodesView::onSelectionChanged()
{
    updateToolBar();
    updateDetail();
}

void NodesView::updateToolBar()
{
    const NodeRow *n = m_model->node(m_model->rowOf(selectedNode()));
    const bool draining = n && n->status.draining;
    const QString label = n ? tr("Node %1:").arg(n->status.name) : tr("Select a node:");
    if (m_selectedLabel->text() != label)
        m_selectedLabel->setText(label);
    m_drainAction->setText(draining ? tr("&Enable") : tr("&Drain"));
    const bool can = n && m_actionsEnabled;
    for (QAction *a : {m_drainAction, m_probeAction})
        a->setEnabled(can);
    m_chatAction->setEnabled(n != nullptr);
    const QString why = !n ? tr("Select a node first") : m_actionsDisabledWhy;
    m_drainAction->setToolTip(!can ? why
                              : draining ? tr("Send new requests to this node again")
                                         : tr("Send no new requests to this node; requests in flight finish"));
    if (!can)
        m_probeAction->setToolTip(why);
    else
        m_probeAction->setToolTip(tr("Run the node's health checks now instead of at the next interval"));
    const bool simulated = n && m_simulated.contains(n->status.name);
    m_faultButtonAction->setVisible(!m_simulated.isEmpty());
    m_faultButton->setEnabled(simulated);
}

NodeRow NodesView::rowOf(const link::NodeStatus &status) const
{
    NodeRow row;
    row.status = status;
    row.description = NodeDescriber::describe(status);
    m_simulated.describe(status.name, row.description);
    row.recentErrors = m_errors.of(status.name);
    return row;
}

void NodesView::setStatus(const link::GatewayStatus &status)
{
    m_status = status;
    QList<NodeRow> rows;
    QStringList names;
    rows.reserve(status.nodes.size());
    for (const link::NodeStatus &n : status.nodes) {
        rows.append(rowOf(n));
        names.append(n.name);
    }
    m_errors.keepOnly(names);
    m_model->setNodes(rows);
    const bool hasNodes = !rows.isEmpty();
    m_stack->setCurrentIndex(hasNodes ? 1 : 0);
    if (hasNodes && !m_hadNodes && !m_table->selectionModel()->hasSelection())
        m_table->selectRow(0);
    m_hadNodes = hasNodes;
    updateToolBar();
    updateDetail();
}

void NodesView::addRequests(const QList<stats::RequestRecord> &records)
{
    m_errors.add(records);
    // Shown with the next status (a few times a second), not once per page of records.
}

void NodesView::clear()
{
    m_errors.clear();
    m_status.reset();
    m_model->setNodes({});
    m_stack->setCurrentIndex(0);
    m_hadNodes = false;
    updateToolBar();
    updateDetail();
}

void NodesView::setSimulatedNodes(SimulatedNodes nodes)
{
    m_simulated = std::move(nodes);
    if (m_status)
        setStatus(*m_status);
    updateToolBar();
}

void NodesView::setLocalActionsAvailable(bool available)
{
    m_localActions->setVisible(available);
}

void NodesView::selectNode(const QString &name)
{
    const int row = m_model->rowOf(name);
    if (row < 0)
        return;
    m_table->selectRow(m_proxy->mapFromSource(m_model->index(row, 0)).row());
}

QString NodesView::selectedNode() const
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    return rows.isEmpty() ? QString() : rows.first().data(NodesModel::NodeNameRole).toString();
}

void NodesView::updateDetail()
{
    const QString name = selectedNode();
    const int row = m_model->rowOf(name);
    const NodeRow *n = m_model->node(row);
    QString html;
    if (n) {
        const NodeDescription &h = n->description;
        const link::NodeStatus &c = n->status;
        // Not the state's colour while the gateway takes no traffic or cannot be seen: nothing looks healthy then.
        const bool dimmed = m_model->isStale() || !m_model->trafficNote().isEmpty();
        const QString colour = dimmed ? u"#808080"_s : nodeStateColor(c.state).name();
        html += u"<h3 style='margin:0'>"_s % c.name.toHtmlEscaped() % u" &nbsp;<span style='color:"_s % colour
                % u"'>\u25CF "_s % nodeStateText(c.state).toHtmlEscaped() % u"</span></h3>"_s;
        if (!m_model->trafficNote().isEmpty() && !m_model->isStale())
            html += u"<p style='margin-top:4px'><b>"_s % m_model->trafficNote().toHtmlEscaped() % u"</b></p>"_s;
        html += u"<p style='margin-top:4px'>"_s % h.reason.toHtmlEscaped().replace(u'\n', u"<br>"_s) % u"</p>"_s;
        html += u"<table cellspacing='0' cellpadding='2'><tr><td valign='top' style='padding-right:28px'>"_s;
        // Traffic, as the gateway sees it.
        const QLocale l;
        html += u"<b>"_s % tr("Gateway traffic").toHtmlEscaped() % u"</b><br>"_s;
        auto row2 = [](const QString &k, const QString &v) {
            return QString(u"<tr><td style='padding-right:12px'>"_s % k.toHtmlEscaped() % u"</td><td>"_s % v.toHtmlEscaped() % u"</td></tr>"_s);
        };
        html += u"<table cellspacing='0' cellpadding='1'>"_s;
        html += row2(tr("Base URL"), c.baseUrl);
        html += row2(tr("Attempts"), l.toString(c.attempts));
        html += row2(tr("Answered / failed"), l.toString(c.successes) % u" / "_s % l.toString(c.failures));
        html += row2(tr("In flight"), l.toString(c.inFlight));
        html += row2(tr("Tokens in / out"), l.toString(c.promptTokens) % u" / "_s % l.toString(c.completionTokens));
        html += row2(tr("Latency p50 / p95"), NodesModel::formatLatency(c.window.latencyP50Ms) % u" / "_s % NodesModel::formatLatency(c.window.latencyP95Ms));
        html += row2(tr("Time to first token p95"), NodesModel::formatLatency(c.window.ttftP95Ms));
        html += u"</table></td><td valign='top' style='padding-right:28px'>"_s;
        // What the node says about itself.
        html += u"<b>"_s % tr("Last health check").toHtmlEscaped() % u"</b><br>"_s;
        if (h.metrics.isEmpty()) {
            html += u"<i>"_s % tr("Not checked yet.").toHtmlEscaped() % u"</i>"_s;
        } else {
            html += u"<table cellspacing='0' cellpadding='1'>"_s;
            for (const auto &m : h.metrics)
                html += row2(m.first, m.second);
            html += u"</table>"_s;
            if (c.lastCheckMsSinceEpoch > 0)
                html += u"<small>"_s % tr("checked at %1").arg(QDateTime::fromMSecsSinceEpoch(c.lastCheckMsSinceEpoch).time().toString(u"HH:mm:ss"_s)).toHtmlEscaped() % u"</small>"_s;
        }
        html += u"</td><td valign='top' style='padding-right:28px'>"_s;
        if (!h.simulation.isEmpty()) {
            html += u"<b>"_s % tr("Simulated node").toHtmlEscaped() % u"</b><br><table cellspacing='0' cellpadding='1'>"_s;
            for (const auto &m : h.simulation)
                html += row2(m.first, m.second);
            html += u"</table><br>"_s;
        }
        html += u"<b>"_s % tr("Recent errors").toHtmlEscaped() % u"</b><br>"_s;
        if (n->recentErrors.isEmpty()) {
            html += u"<i>"_s % tr("None recorded.").toHtmlEscaped() % u"</i>"_s;
        } else {
            html += u"<table cellspacing='0' cellpadding='1'>"_s;
            for (qsizetype i = n->recentErrors.size() - 1, shown = 0; i >= 0 && shown < 8; --i, ++shown) {
                const stats::RequestRecord &r = n->recentErrors[i];
                const QString when = QDateTime::fromMSecsSinceEpoch(r.startedMsSinceEpoch + r.durationMs).time().toString(u"HH:mm:ss"_s);
                const QString what = (r.status ? QString::number(r.status) % u' ' : QString()) % (r.error.isEmpty() ? tr("(no message)") : r.error);
                html += u"<tr><td style='padding-right:8px' valign='top'>"_s % when % u"</td><td>"_s % what.toHtmlEscaped() % u"</td></tr>"_s;
            }
            html += u"</table>"_s;
        }
        if (const qint64 closed = m_errors.clientClosed(c.name)) // not the node's errors: listed apart
            html += u"<br>"_s % tr("Client closed the connection: %1").arg(l.toString(closed)).toHtmlEscaped();
        html += u"</td></tr></table>"_s;
    }
    if (html != m_detailHtml) {
        m_detailHtml = html;
        m_detail->setHtml(html);
    }
}

QMenu *NodesView::buildContextMenu(const QString &node, QWidget *parent)
{
    const NodeRow *n = m_model->node(m_model->rowOf(node));
    auto *menu = new QMenu(parent);
    if (!n)
        return menu;
    const bool draining = n->status.draining;
    QAction *drain = menu->addAction(draining ? tr("&Enable") : tr("&Drain"));
    drain->setObjectName(u"drainAction"_s);
    drain->setToolTip(draining ? tr("Send new requests to this node again")
                               : tr("Send no new requests to this node; requests in flight finish"));
    connect(drain, &QAction::triggered, this, [this, node, draining] { emit drainRequested(node, !draining); });

    QAction *probe = menu->addAction(tr("&Probe now"));
    probe->setObjectName(u"probeAction"_s);
    probe->setToolTip(tr("Run the node's health checks now instead of at the next interval"));
    connect(probe, &QAction::triggered, this, [this, node] { emit probeRequested(node); });
    QAction *copy = menu->addAction(tr("&Copy base URL"));
    const QString url = n->status.baseUrl;
    connect(copy, &QAction::triggered, this, [url] { QGuiApplication::clipboard()->setText(url); });
    QAction *chat = menu->addAction(tr("Open in c&hat"));
    chat->setObjectName(u"chatAction"_s);
    chat->setToolTip(tr("Chat with this node's model, pinned to this node"));
    connect(chat, &QAction::triggered, this, [this, node] { emit openInChatRequested(node); });
    menu->setToolTipsVisible(true);

    if (m_simulated.contains(node)) {
        menu->addSeparator();
        QMenu *faults = menu->addMenu(tr("Simulated &fault"));
        faults->setObjectName(u"faultMenu"_s);
        addFaultActions(faults, node);
    }
    return menu;
}

void NodesView::addFaultActions(QMenu *faults, const QString &node)
{
    const NodeRow *n = m_model->node(m_model->rowOf(node));
    if (!n || !m_simulated.contains(node))
        return;
    auto *group = new QActionGroup(faults);
    const struct
    {
        sim::FaultMode mode;
        const char *label;
    } modes[] = {
        {sim::FaultMode::Healthy, QT_TR_NOOP("Healthy (no fault)")},
        {sim::FaultMode::Slow, QT_TR_NOOP("Slow (4\u00d7 slower)")},
        {sim::FaultMode::Error500, QT_TR_NOOP("Answer with HTTP 500")},
        {sim::FaultMode::DropStream, QT_TR_NOOP("Cut streams after a few tokens")},
        {sim::FaultMode::Hang, QT_TR_NOOP("Hang (accept, never answer)")},
        {sim::FaultMode::Refuse, QT_TR_NOOP("Refuse connections")},
        {sim::FaultMode::EngineDead, QT_TR_NOOP("Engine dead")},
    };
    for (const auto &m : modes) {
        QAction *a = faults->addAction(tr(m.label));
        a->setCheckable(true);
        a->setObjectName(u"fault-"_s % sim::faultModeName(m.mode));
        a->setChecked(n->description.simulatedFault == sim::faultModeName(m.mode));
        group->addAction(a);
        const sim::FaultMode mode = m.mode;
        connect(a, &QAction::triggered, this, [this, node, mode] { emit faultRequested(node, mode); });
    }
}

void NodesView::showContextMenu(const QPoint &pos)
{
    const QModelIndex index = m_table->indexAt(pos);
    if (!index.isValid())
        return;
    const QString node = index.data(NodesModel::NodeNameRole).toString();
    QMenu *menu = buildContextMenu(node, this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(m_table->viewport()->mapToGlobal(pos));
}

} // namespace switchyard::ui
