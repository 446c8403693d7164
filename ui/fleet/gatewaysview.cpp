#include "fleet/gatewaysview.h"

#include "fleet/fleetnodesmodel.h"
#include "fleet/gatewaysmodel.h"

#include "link/gatewaylink.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {
QTableView *makeTable(QAbstractItemModel *model, int sortRole, QWidget *parent)
{
    auto *proxy = new QSortFilterProxyModel(parent);
    proxy->setSourceModel(model);
    proxy->setSortRole(sortRole);
    auto *table = new QTableView(parent);
    table->setModel(proxy);
    table->setSortingEnabled(true);
    table->sortByColumn(-1, Qt::AscendingOrder); // the order gateways and nodes were added, until asked
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setAlternatingRowColors(false);
    table->setWordWrap(false);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setStretchLastSection(true);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    table->horizontalHeader()->setHighlightSections(false);
    return table;
}

QLabel *makeHeading(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    QFont f = label->font();
    f.setBold(true);
    label->setFont(f);
    return label;
}
} // namespace

GatewaysView::GatewaysView(QWidget *parent)
    : QWidget(parent),
      m_gateways(new GatewaysModel(this)),
      m_nodes(new FleetNodesModel(this)),
      m_drift(new QLabel(this)),
      m_empty(new QLabel(tr("No gateway is watched yet: File ▸ Connect to gateway… adds one."), this)),
      m_fleetWindow(new QPushButton(tr("Open the fleet in one window"), this))
{
    setObjectName(u"gatewaysView"_s);
    m_gatewaysTable = makeTable(m_gateways, GatewaysModel::SortRole, this);
    m_gatewaysTable->setObjectName(u"gatewaysTable"_s);
    // The link column carries the reasons (unreachable: why), so it takes the room that is left.
    m_gatewaysTable->horizontalHeader()->setStretchLastSection(false);
    m_gatewaysTable->horizontalHeader()->setSectionResizeMode(GatewaysModel::Link, QHeaderView::Stretch);
    m_nodesTable = makeTable(m_nodes, FleetNodesModel::SortRole, this);
    m_nodesTable->setObjectName(u"fleetNodesTable"_s);

    m_drift->setObjectName(u"driftBanner"_s);
    m_drift->setWordWrap(true);
    m_drift->setTextFormat(Qt::PlainText);
    m_drift->setAutoFillBackground(true);
    m_drift->setMargin(6);
    QPalette p = m_drift->palette();
    p.setColor(QPalette::Window, QColor(255, 236, 179));
    p.setColor(QPalette::WindowText, QColor(80, 50, 0));
    m_drift->setPalette(p);
    m_drift->hide();
    connect(m_gateways, &GatewaysModel::driftChanged, this, [this](bool drift, const QString &summary) {
        m_drift->setText(u"\u26a0 "_s + summary);
        m_drift->setVisible(drift);
    });

    auto *top = new QWidget(this);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    m_fleetWindow->setObjectName(u"fleetWindowButton"_s);
    m_fleetWindow->setToolTip(tr("One window for every remote gateway watched here: their nodes once each, their "
                                 "charts summed, their requests merged by time; drain, probe and config apply "
                                 "to all of them."));
    m_fleetWindow->setEnabled(false);
    connect(m_fleetWindow, &QPushButton::clicked, this, &GatewaysView::fleetWindowRequested);
    auto *headingRow = new QHBoxLayout;
    headingRow->addWidget(makeHeading(tr("Gateways"), top));
    headingRow->addStretch(1);
    headingRow->addWidget(m_fleetWindow);
    topLayout->addLayout(headingRow);
    topLayout->addWidget(m_drift);
    topLayout->addWidget(m_empty);
    topLayout->addWidget(m_gatewaysTable, 1);
    auto *bottom = new QWidget(this);
    auto *bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addWidget(makeHeading(tr("Nodes across the gateways"), bottom));
    bottomLayout->addWidget(m_nodesTable, 1);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(top);
    splitter->addWidget(bottom);
    splitter->setChildrenCollapsible(false);
    // A fleet is a few gateways in front of more nodes: the nodes get the larger part.
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(splitter);

    connect(m_gateways, &QAbstractItemModel::rowsInserted, this, &GatewaysView::updateEmpty);
    connect(m_gateways, &QAbstractItemModel::rowsRemoved, this, &GatewaysView::updateEmpty);
    // Columns fit their content once data arrives, then stay where the operator puts them.
    connect(m_gateways, &QAbstractItemModel::dataChanged, this, [this] {
        if (m_gatewaysTable->property("fitted").toBool() || m_gateways->rowCount() == 0)
            return;
        m_gatewaysTable->resizeColumnsToContents();
        // Fitting sizes sections by hand; setting the mode again lays the stretching one out anew.
        m_gatewaysTable->horizontalHeader()->setSectionResizeMode(GatewaysModel::Link, QHeaderView::Stretch);
        m_gatewaysTable->setProperty("fitted", true);
    });
    connect(m_nodes, &QAbstractItemModel::columnsInserted, this, [this] { m_nodesTable->setProperty("fitted", false); });
    connect(m_nodes, &QAbstractItemModel::dataChanged, this, [this] {
        if (m_nodesTable->property("fitted").toBool() || m_nodes->rowCount() == 0)
            return;
        m_nodesTable->resizeColumnsToContents();
        m_nodesTable->horizontalHeader()->setStretchLastSection(false);
        m_nodesTable->horizontalHeader()->setStretchLastSection(true);
        m_nodesTable->setProperty("fitted", true);
    });
    updateEmpty();
}

GatewaysView::~GatewaysView() = default;

void GatewaysView::addGateway(link::GatewayLink *link)
{
    if (link->isRemote()) {
        m_remote.insert(link);
        connect(link, &QObject::destroyed, this, [this, link] {
            m_remote.remove(link);
            updateEmpty();
        });
    }
    m_gateways->addGateway(link);
    m_nodes->addGateway(link);
}

void GatewaysView::removeGateway(link::GatewayLink *link)
{
    m_remote.remove(link);
    disconnect(link, &QObject::destroyed, this, nullptr);
    m_gateways->removeGateway(link);
    m_nodes->removeGateway(link);
}

void GatewaysView::updateEmpty()
{
    m_empty->setVisible(m_gateways->rowCount() == 0);
    m_fleetWindow->setEnabled(m_remote.size() >= 2); // one gateway is already its own window
    m_gatewaysTable->setProperty("fitted", false);
}

} // namespace switchyard::ui
