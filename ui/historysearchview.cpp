#include "historysearchview.h"

#include "requestsmodel.h"
#include "requestsview.h"
#include "stats/requestcsv.h"

#include <QComboBox>
#include <QDateTime>
#include <QDateTimeEdit>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QSplitter>
#include <QTableView>
#include <algorithm>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {

constexpr qint64 MsPerHour = 3'600'000;
// The span box: how far back from now, or 0 for everything, or -1 for the from–to fields.
constexpr qint64 AllTime = 0;
constexpr qint64 CustomRange = -1;

} // namespace

HistorySearchView::HistorySearchView(QWidget *parent)
    : QWidget(parent), m_model(new RequestsModel(this, MaxRows)), m_sorted(new RequestsFilterModel(this)),
      m_span(new QComboBox(this)), m_from(new QDateTimeEdit(this)), m_to(new QDateTimeEdit(this)),
      m_key(new QLineEdit(this)), m_modelEdit(new QLineEdit(this)), m_node(new QLineEdit(this)),
      m_outcome(new QComboBox(this)), m_search(new QPushButton(tr("&Search"), this)),
      m_older(new QPushButton(tr("&Older \u203a"), this)),
      m_export(new QPushButton(tr("Export &CSV\u2026"), this)), m_status(new QLabel(this)),
      m_table(new QTableView(this)), m_detail(new QPlainTextEdit(this)),
      m_nowMs([] { return QDateTime::currentMSecsSinceEpoch(); })
{
    m_model->setShowsDate(true);
    m_sorted->setSourceModel(m_model);

    m_span->setObjectName(u"historySpan"_s);
    m_span->addItem(tr("Last hour"), MsPerHour);
    m_span->addItem(tr("Last 24 hours"), 24 * MsPerHour);
    m_span->addItem(tr("Last 7 days"), 7 * 24 * MsPerHour);
    m_span->addItem(tr("Last 30 days"), 30 * 24 * MsPerHour);
    m_span->addItem(tr("Everything kept"), AllTime);
    m_span->addItem(tr("From \u2026 to \u2026"), CustomRange);
    m_span->setCurrentIndex(1);
    const QDateTime now = QDateTime::currentDateTime();
    for (QDateTimeEdit *edit : {m_from, m_to}) {
        edit->setDisplayFormat(u"yyyy-MM-dd HH:mm"_s);
        edit->setCalendarPopup(true);
    }
    m_from->setDateTime(now.addDays(-1));
    m_to->setDateTime(now);
    m_from->setObjectName(u"historyFrom"_s);
    m_to->setObjectName(u"historyTo"_s);
    connect(m_span, &QComboBox::currentIndexChanged, this, &HistorySearchView::updateControls);

    m_key->setObjectName(u"historyKey"_s);
    m_key->setPlaceholderText(tr("any key (vk_\u2026)"));
    m_modelEdit->setObjectName(u"historyModel"_s);
    m_modelEdit->setPlaceholderText(tr("any model"));
    m_node->setObjectName(u"historyNode"_s);
    m_node->setPlaceholderText(tr("any node"));
    for (QLineEdit *edit : {m_key, m_modelEdit, m_node}) {
        edit->setClearButtonEnabled(true);
        edit->setToolTip(tr("An exact name; empty matches every one."));
        connect(edit, &QLineEdit::returnPressed, this, &HistorySearchView::search);
    }

    using S = history::HistoryQuery::Status;
    m_outcome->setObjectName(u"historyOutcome"_s);
    m_outcome->addItem(tr("Any outcome"), int(S::Any));
    m_outcome->addItem(tr("Succeeded"), int(S::Ok));
    m_outcome->addItem(tr("Client errors (4xx)"), int(S::ClientError));
    m_outcome->addItem(tr("Server errors (5xx)"), int(S::ServerError));
    m_outcome->addItem(tr("Failed (5xx or cut mid-answer)"), int(S::Failed));

    m_search->setObjectName(u"historySearch"_s);
    m_search->setDefault(true);
    m_older->setObjectName(u"historyOlder"_s);
    m_older->setToolTip(tr("The next %1 older requests of this search").arg(PageSize));
    m_export->setObjectName(u"historyExport"_s);
    m_export->setToolTip(tr("Every row shown, as CSV for a spreadsheet (UTC times)"));
    connect(m_search, &QPushButton::clicked, this, &HistorySearchView::search);
    connect(m_older, &QPushButton::clicked, this, &HistorySearchView::loadOlder);
    connect(m_export, &QPushButton::clicked, this, &HistorySearchView::exportInteractive);

    auto *when = new QHBoxLayout();
    when->addWidget(new QLabel(tr("Started:"), this));
    when->addWidget(m_span);
    when->addWidget(m_from);
    when->addWidget(new QLabel(u"\u2013"_s, this));
    when->addWidget(m_to);
    when->addSpacing(12);
    when->addWidget(m_outcome);
    when->addStretch(1);
    auto *who = new QHBoxLayout();
    who->addWidget(m_key, 1);
    who->addWidget(m_modelEdit, 1);
    who->addWidget(m_node, 1);
    who->addWidget(m_search);
    who->addWidget(m_older);
    who->addWidget(m_export);

    m_status->setObjectName(u"historyStatus"_s);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_table->setObjectName(u"historyTable"_s);
    m_table->setModel(m_sorted);
    RequestsView::setUpRequestsTable(m_table);
    const QFontMetrics fm = m_table->fontMetrics();
    m_table->setColumnWidth(RequestsModel::Time, fm.horizontalAdvance(u"2026-12-06 00:00:00.000"_s) + 24);
    m_table->setColumnWidth(RequestsModel::Endpoint,
                            fm.horizontalAdvance(u"POST /v1/chat/completions (stream)"_s) + 24);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &HistorySearchView::updateDetail);

    m_detail->setObjectName(u"historyDetail"_s);
    QSplitter *splitter = RequestsView::tableOverDetail(this, m_table, m_detail);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(when);
    layout->addLayout(who);
    layout->addWidget(m_status);
    layout->addWidget(splitter, 1);

    m_status->setText(
        tr("Search every request this gateway kept on disk (switchyard.history), beyond the live "
           "log's last few thousand."));
    updateControls();
}

history::HistoryQuery HistorySearchView::query() const
{
    history::HistoryQuery q;
    const qint64 span = m_span->currentData().toLongLong();
    if (span == CustomRange) {
        q.fromMs = m_from->dateTime().toMSecsSinceEpoch();
        q.toMs = m_to->dateTime().toMSecsSinceEpoch();
    } else if (span > 0) {
        const qint64 now = m_nowMs();
        q.fromMs = now - span;
        q.toMs = now;
    }
    q.keyId = m_key->text().trimmed();
    q.model = m_modelEdit->text().trimmed();
    q.node = m_node->text().trimmed();
    q.status = history::HistoryQuery::Status(m_outcome->currentData().toInt());
    q.limit = PageSize;
    return q;
}

void HistorySearchView::search()
{
    const history::HistoryQuery q = query();
    if (q.toMs != 0 && q.fromMs > q.toMs) {
        m_status->setText(tr("The start of the range is after its end."));
        return;
    }
    m_model->clear();
    m_detail->clear();
    m_current = q;
    m_nextBeforeId = 0;
    ask(q);
}

void HistorySearchView::loadOlder()
{
    if (m_nextBeforeId == 0 || m_waiting)
        return;
    history::HistoryQuery q = m_current;
    q.beforeId = m_nextBeforeId;
    ask(q);
}

void HistorySearchView::ask(const history::HistoryQuery &query)
{
    m_waiting = true;
    m_status->setText(tr("Searching\u2026"));
    updateControls();
    emit searchRequested(++m_ticket, query);
}

void HistorySearchView::showResult(const link::HistorySearchResult &result)
{
    if (result.ticket != m_ticket || !m_waiting)
        return; // an answer to a search that was replaced since
    m_waiting = false;
    if (!result.ok) {
        m_nextBeforeId = 0;
        m_status->setText(result.error);
        updateControls();
        return;
    }
    // Newest first from the gateway; the model keeps its newest last, and the table sorts by time.
    QList<stats::RequestRecord> records;
    records.reserve(qsizetype(result.page.entries.size()));
    for (auto it = result.page.entries.rbegin(); it != result.page.entries.rend(); ++it)
        records.append(it->record);
    m_model->append(records);
    m_nextBeforeId = result.page.nextBeforeId;
    const QLocale l;
    // Spelled out: without a loaded translation, "%n request(s)" would show its "(s)".
    const int rows = m_model->rowCount();
    QString text =
        rows == 1 ? tr("1 request shown") : tr("%1 requests shown, newest first").arg(l.toString(rows));
    if (m_nextBeforeId != 0 && m_model->rowCount() + PageSize > MaxRows) {
        text += u"; "_s % tr("more match: narrow the search, or page on through the API (docs/HISTORY.md)");
        m_nextBeforeId = 0;
    } else if (m_nextBeforeId != 0) {
        text += u"; "_s % tr("more match: Older shows the next %1").arg(l.toString(PageSize));
    }
    m_status->setText(text);
    updateControls();
}

bool HistorySearchView::exportCsv(const QString &path, QString *error) const
{
    std::vector<stats::RequestRecord> records;
    records.reserve(size_t(m_model->rowCount()));
    for (int row = 0; row < m_model->rowCount(); ++row)
        records.push_back(*m_model->record(row));
    // As shown: newest first.
    std::stable_sort(records.begin(), records.end(),
                     [](const stats::RequestRecord &a, const stats::RequestRecord &b) {
                         return a.startedMsSinceEpoch > b.startedMsSinceEpoch;
                     });
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(stats::requestsCsv(records)) < 0 || !file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

void HistorySearchView::exportInteractive()
{
    const QString suggested = u"switchyard-history.csv"_s;
    const QString path = m_chooser ? m_chooser(suggested)
                                   : QFileDialog::getSaveFileName(this, tr("Export the history shown as CSV"),
                                                                  suggested, tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportCsv(path, &error)) {
        QMessageBox::warning(this, tr("Export failed"), tr("Could not write %1: %2").arg(path, error));
        return;
    }
    m_status->setText(tr("%1 rows written to %2").arg(QLocale().toString(m_model->rowCount()), path));
}

void HistorySearchView::updateControls()
{
    const bool custom = m_span->currentData().toLongLong() == CustomRange;
    m_from->setEnabled(custom);
    m_to->setEnabled(custom);
    m_older->setEnabled(!m_waiting && m_nextBeforeId != 0);
    m_export->setEnabled(!m_waiting && m_model->rowCount() > 0);
}

void HistorySearchView::updateDetail()
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    const stats::RequestRecord *r =
        current.isValid() ? m_model->record(m_sorted->mapToSource(current).row()) : nullptr;
    if (!r) {
        m_detail->clear();
        return;
    }
    m_detail->setPlainText(RequestsModel::describe(*r));
}

} // namespace switchyard::ui
