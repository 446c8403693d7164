#include "requestsview.h"

#include "historysearchview.h"
#include "requestsmodel.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QToolButton>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

RequestsView::RequestsView(QWidget *parent)
    : QWidget(parent), m_model(new RequestsModel(this)), m_filter(new RequestsFilterModel(this)),
      m_filterEdit(new QLineEdit(this)), m_failuresOnly(new QCheckBox(tr("&Failures only"), this)),
      m_count(new QLabel(this)), m_table(new QTableView(this)), m_detail(new QPlainTextEdit(this)),
      m_history(new HistorySearchView(this)), m_pages(new QStackedWidget(this)),
      m_liveButton(new QToolButton(this)), m_historyButton(new QToolButton(this))
{
    m_filter->setSourceModel(m_model);

    m_filterEdit->setObjectName(u"requestFilter"_s);
    m_filterEdit->setPlaceholderText(tr("Filter by model, node, path, status or error"));
    m_filterEdit->setClearButtonEnabled(true);
    connect(m_filterEdit, &QLineEdit::textChanged, m_filter, &RequestsFilterModel::setText);
    connect(m_failuresOnly, &QCheckBox::toggled, m_filter, &RequestsFilterModel::setFailuresOnly);
    m_failuresOnly->setObjectName(u"requestFailuresOnly"_s);
    m_failuresOnly->setToolTip(
        tr("Show only the requests the client saw fail: an error status (4xx, 5xx), no "
           "response, the client giving up (499), or a stream that began and was then cut "
           "(logged with its 200 and an error). A request that failed over and was answered "
           "by another node is not a failure; its detail lists the nodes tried."));
    auto *clear = new QPushButton(tr("C&lear"), this);
    connect(clear, &QPushButton::clicked, this, [this] {
        m_model->clear();
        m_dropped = 0;
        updateCount();
    });

    auto *bar = new QHBoxLayout();
    bar->addWidget(m_filterEdit, 1);
    bar->addWidget(m_failuresOnly);
    bar->addWidget(m_count);
    bar->addWidget(clear);

    m_table->setObjectName(u"requestsTable"_s);
    m_table->setModel(m_filter);
    setUpRequestsTable(m_table);
    const QFontMetrics fm = m_table->fontMetrics();
    const int widths[] = {fm.horizontalAdvance(u"00:00:00.000"_s),
                          fm.horizontalAdvance(u"POST /v1/chat/completions (stream)"_s),
                          fm.horizontalAdvance(u"nemotron-3-super"_s),
                          fm.horizontalAdvance(u"vllm-server2"_s),
                          fm.horizontalAdvance(u"fallback: least outstanding"_s),
                          fm.horizontalAdvance(u"Status"_s),
                          fm.horizontalAdvance(u"Attempts"_s),
                          fm.horizontalAdvance(u"1,234 ms"_s),
                          fm.horizontalAdvance(u"12.34 s"_s),
                          fm.horizontalAdvance(u"Tokens in \u2192 out"_s)};
    for (int i = 0; i < int(std::size(widths)); ++i)
        m_table->setColumnWidth(i, widths[i] + 24);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &RequestsView::updateDetail);
    connect(m_filter, &QAbstractItemModel::rowsInserted, this, &RequestsView::updateCount);
    connect(m_filter, &QAbstractItemModel::rowsRemoved, this, &RequestsView::updateCount);
    connect(m_filter, &QAbstractItemModel::modelReset, this, &RequestsView::updateCount);
    connect(m_filter, &QAbstractItemModel::layoutChanged, this, &RequestsView::updateCount);

    m_detail->setObjectName(u"requestDetail"_s);
    QSplitter *splitter = tableOverDetail(this, m_table, m_detail);

    auto *live = new QWidget(this);
    auto *liveLayout = new QVBoxLayout(live);
    liveLayout->setContentsMargins(0, 0, 0, 0);
    liveLayout->addLayout(bar);
    liveLayout->addWidget(splitter, 1);
    m_pages->addWidget(live);
    m_pages->addWidget(m_history);

    // Two pages, one switch: what is happening now, and what happened before (on disk).
    m_liveButton->setText(tr("Live log"));
    m_liveButton->setObjectName(u"requestsLive"_s);
    m_liveButton->setToolTip(tr("The last requests, as they finish"));
    m_historyButton->setText(tr("History"));
    m_historyButton->setObjectName(u"requestsHistory"_s);
    m_historyButton->setToolTip(
        tr("Search every request the gateway kept on disk: by time, key, model, node and outcome"));
    auto *pageGroup = new QButtonGroup(this);
    for (QToolButton *b : {m_liveButton, m_historyButton}) {
        b->setCheckable(true);
        b->setAutoRaise(true);
        b->setToolButtonStyle(Qt::ToolButtonTextOnly);
        pageGroup->addButton(b);
    }
    m_liveButton->setChecked(true);
    connect(m_historyButton, &QToolButton::toggled, this, &RequestsView::showHistorySearch);
    auto *switchBar = new QHBoxLayout();
    switchBar->addWidget(m_liveButton);
    switchBar->addWidget(m_historyButton);
    switchBar->addStretch(1);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(switchBar);
    layout->addWidget(m_pages, 1);
    updateCount();
}

void RequestsView::showHistorySearch(bool show)
{
    (show ? m_historyButton : m_liveButton)->setChecked(true);
    m_pages->setCurrentIndex(show ? 1 : 0);
}

void RequestsView::setUpRequestsTable(QTableView *table)
{
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setWordWrap(false);
    table->verticalHeader()->hide();
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
    table->setSortingEnabled(true);
    table->sortByColumn(RequestsModel::Time, Qt::DescendingOrder); // the newest first
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    table->horizontalHeader()->setStretchLastSection(true);
}

QSplitter *RequestsView::tableOverDetail(QWidget *parent, QTableView *table, QPlainTextEdit *detail)
{
    detail->setReadOnly(true);
    detail->setPlaceholderText(
        tr("Select a request to see the nodes it was sent to, its status, timing and tokens."));
    QFont mono(u"monospace"_s);
    mono.setStyleHint(QFont::Monospace);
    detail->setFont(mono);
    auto *splitter = new QSplitter(Qt::Vertical, parent);
    splitter->addWidget(table);
    splitter->addWidget(detail);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({520, 200});
    return splitter;
}

void RequestsView::append(const QList<stats::RequestRecord> &records, qint64 dropped)
{
    m_dropped += dropped;
    m_model->append(records);
    updateCount();
}

void RequestsView::updateCount()
{
    const QLocale l;
    QString text = tr("%1 of %2 shown (the last %3 are kept)")
                       .arg(l.toString(m_filter->rowCount()), l.toString(m_model->rowCount()),
                            l.toString(m_model->capacity()));
    if (m_dropped > 0)
        text += u"; "_s % tr("%1 skipped under load").arg(l.toString(m_dropped));
    m_count->setText(text);
}

void RequestsView::updateDetail()
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    if (!current.isValid()) {
        m_detail->clear();
        return;
    }
    const stats::RequestRecord *r = m_model->record(m_filter->mapToSource(current).row());
    if (!r) {
        m_detail->clear();
        return;
    }
    m_detail->setPlainText(RequestsModel::describe(*r));
}

} // namespace switchyard::ui
