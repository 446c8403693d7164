#include "bench/benchmarkresulttables.h"

#include <QHeaderView>
#include <QCoreApplication>
#include <QLabel>
#include <QLocale>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {

const QString Dash = u"—"_s; // no successful request, so no number

QString rowLabel(const bench::BenchmarkResults &run, const bench::TargetResult &t, bool withRun)
{
    return withRun ? t.target.label % u" ("_s % run.startedAt.toLocalTime().toString(u"HH:mm"_s) % u')' : t.target.label;
}

QTableWidgetItem *cell(const QString &text, bool number = true)
{
    auto *item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    item->setTextAlignment(number ? (Qt::AlignRight | Qt::AlignVCenter) : (Qt::AlignLeft | Qt::AlignVCenter));
    return item;
}

QString ms(double v)
{
    return QLocale(QLocale::English, QLocale::UnitedStates).toString(v, 'f', 0);
}

QString rate(double v)
{
    return QLocale(QLocale::English, QLocale::UnitedStates).toString(v, 'f', 1);
}

// "5/5 ✓" in green or "3/5 ✗" in red, the failures' reasons in the tooltip. (The exports use the article's
// ✅; widget fonts often have no colour emoji.)
QTableWidgetItem *successCell(int succeeded, int requests, const QList<bench::RequestSample> &samples)
{
    const bool all = succeeded == requests && requests > 0;
    auto *item = cell(u"%1/%2 %3"_s.arg(succeeded).arg(requests).arg(all ? u"\u2713"_s : u"\u2717"_s));
    item->setForeground(all ? QColor(0x1b, 0x7f, 0x2a) : QColor(0xc0, 0x1c, 0x1c));
    QStringList errors;
    for (const bench::RequestSample &r : samples) {
        if (!r.ok)
            errors << r.error;
    }
    if (!errors.isEmpty())
        item->setToolTip(errors.join(u'\n'));
    return item;
}

// The column that takes the rest of the width: the target's label, elided in the middle (labels differ
// at their ends: "vllm-server1", "gateway pool (2 nodes)").
constexpr int LabelColumn = 1;

QTableWidget *makeTable(const QString &objectName, const QStringList &headers, int labelColumn, QWidget *parent)
{
    auto *t = new QTableWidget(0, int(headers.size()), parent);
    t->setObjectName(objectName);
    t->setHorizontalHeaderLabels(headers);
    t->verticalHeader()->setVisible(false);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setAlternatingRowColors(true);
    t->setWordWrap(false);
    t->setTextElideMode(Qt::ElideMiddle);
    QHeaderView *h = t->horizontalHeader();
    // Numbers and headers (two lines, whatever their language) decide the widths; the label gets the rest.
    h->setSectionResizeMode(QHeaderView::ResizeToContents);
    h->setSectionResizeMode(labelColumn, QHeaderView::Stretch);
    h->setStretchLastSection(false);
    h->setMinimumSectionSize(std::max(h->minimumSectionSize(), t->fontMetrics().horizontalAdvance(u"vllm-s…1"_s)));
    h->setDefaultAlignment(Qt::AlignCenter);
    t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 6);
    return t;
}

// Sized to its rows (within bounds), so the table below gets the rest of the height.
void fitHeight(QTableWidget *table, int minRows, int maxRows)
{
    const int rows = std::clamp(table->rowCount(), minRows, maxRows);
    table->setFixedHeight(table->horizontalHeader()->sizeHint().height()
                          + rows * table->verticalHeader()->defaultSectionSize() + 2 * table->frameWidth() + 2);
}

QString percentiles(const bench::LatencyStats &s)
{
    return QCoreApplication::translate("switchyard::ui::BenchmarkResultTables",
                                       "P50 %1 ms · P95 %2 ms · P99 %3 ms · max %4 ms")
        .arg(ms(s.p50), ms(s.p95), ms(s.p99), ms(s.max));
}

} // namespace

BenchmarkResultTables::BenchmarkResultTables(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);
    layout->addWidget(new QLabel(tr("<b>Single requests</b>"), this));
    // Units live in the headers (on a line of their own) so the columns stay narrow enough to sit beside
    // the charts.
    m_singles = makeTable(u"benchSingles"_s,
                          {tr("Test"), tr("Target"), tr("Avg latency\n(ms)"), tr("Throughput\n(tok/s)"), tr("P95\n(ms)"),
                           tr("Avg TTFT\n(ms)"), tr("Decode\n(tok/s)"), tr("Success")},
                          LabelColumn, this);
    layout->addWidget(m_singles, 0);
    m_concurrencyTitle = new QLabel(this);
    layout->addWidget(m_concurrencyTitle);
    m_concurrency = makeTable(u"benchConcurrency"_s,
                              {tr("Target"), tr("Total time\n(ms)"), tr("Effective throughput\n(tok/s)"),
                               tr("Success rate"), tr("Avg latency\n(ms)"), tr("P95\n(ms)"), tr("Avg TTFT\n(ms)")},
                              0, this);
    layout->addWidget(m_concurrency, 0);
    m_sweepTitle = new QLabel(tr("<b>Concurrency sweep</b> (plotted on the right)"), this);
    layout->addWidget(m_sweepTitle);
    m_sweep = makeTable(u"benchSweep"_s,
                        {tr("Target"), tr("Parallel"), tr("Effective\n(tok/s)"), tr("Per request\n(tok/s)"),
                         tr("Avg latency\n(ms)"), tr("P95\n(ms)"), tr("Avg TTFT\n(ms)"), tr("Success")},
                        0, this);
    layout->addWidget(m_sweep, 2);
    layout->addStretch(0);
}

void BenchmarkResultTables::setSummary(const QString &text)
{
    m_summary->setText(text);
}

void BenchmarkResultTables::showRuns(const QList<bench::BenchmarkResults> &runs)
{
    fillSingles(runs);
    fillRounds(runs);
    // The article's two tables fit their rows (up to a point); the sweep table gets the rest.
    fitHeight(m_singles, 3, 12);
    fitHeight(m_concurrency, 1, 6);
    // What this run did not measure takes no room (with nothing shown at all, the shapes still say what a
    // run fills in).
    const bool nothing = runs.isEmpty();
    m_concurrencyTitle->setVisible(nothing || m_concurrency->rowCount() > 0);
    m_concurrency->setVisible(nothing || m_concurrency->rowCount() > 0);
    m_sweepTitle->setVisible(nothing || m_sweep->rowCount() > 0);
    m_sweep->setVisible(nothing || m_sweep->rowCount() > 0);
    for (QTableWidget *t : {m_singles, m_concurrency, m_sweep}) {
        for (int row = 0; row < t->rowCount(); ++row) {
            if (QTableWidgetItem *label = t->item(row, t == m_singles ? LabelColumn : 0))
                label->setToolTip(label->text());
        }
    }
}

void BenchmarkResultTables::fillSingles(const QList<bench::BenchmarkResults> &runs)
{
    const bool withRun = runs.size() > 1;
    // Grouped by test, the targets side by side, as in the article's table.
    QList<int> tests;
    for (const bench::BenchmarkResults &run : runs) {
        for (const bench::TargetResult &t : run.targets) {
            for (const bench::SingleResult &s : t.singles) {
                if (!tests.contains(s.maxTokens))
                    tests << s.maxTokens;
            }
        }
    }
    m_singles->setRowCount(0);
    for (int tokens : std::as_const(tests)) {
        for (const bench::BenchmarkResults &run : runs) {
            for (const bench::TargetResult &t : run.targets) {
                for (const bench::SingleResult &s : t.singles) {
                    if (s.maxTokens != tokens)
                        continue;
                    const int row = m_singles->rowCount();
                    m_singles->insertRow(row);
                    const bool any = s.succeeded > 0;
                    m_singles->setItem(row, 0, cell(tr("%1 tokens").arg(tokens), false));
                    m_singles->setItem(row, 1, cell(rowLabel(run, t, withRun), false));
                    m_singles->setItem(row, 2, cell(any ? ms(s.latency.mean) : Dash));
                    m_singles->setItem(row, 3, cell(any ? rate(s.tokensPerSecond) : Dash));
                    m_singles->setItem(row, 4, cell(any ? ms(s.latency.p95) : Dash));
                    m_singles->setItem(row, 5, cell(any ? ms(s.ttft.mean) : Dash));
                    m_singles->setItem(row, 6, cell(any ? rate(s.decodeTokensPerSecond) : Dash));
                    m_singles->setItem(row, 7, successCell(s.succeeded, s.requests, s.samples));
                    if (any) {
                        for (int c : {2, 4})
                            m_singles->item(row, c)->setToolTip(percentiles(s.latency));
                        m_singles->item(row, 5)->setToolTip(percentiles(s.ttft));
                    }
                }
            }
        }
    }
}

void BenchmarkResultTables::fillRounds(const QList<bench::BenchmarkResults> &runs)
{
    const bool withRun = runs.size() > 1;
    m_concurrency->setRowCount(0);
    m_sweep->setRowCount(0);
    int level = 0;
    int tokens = 0;
    for (const bench::BenchmarkResults &run : runs) {
        for (const bench::TargetResult &t : run.targets) {
            const QString label = rowLabel(run, t, withRun);
            if (t.concurrency) {
                level = t.concurrency->concurrency;
                tokens = t.concurrency->maxTokens;
                addRound(m_concurrency, label, *t.concurrency);
            }
            for (const bench::ConcurrencyResult &c : t.sweep)
                addRound(m_sweep, label, c);
        }
    }
    m_concurrencyTitle->setText(level > 0 ? tr("<b>Concurrency</b> (%1 parallel requests × %2 tokens)").arg(level).arg(tokens)
                                          : tr("<b>Concurrency</b>"));
}

// A row of the parallel round's table, or of the sweep's, which adds the level and the per-request rate
// and moves the success count to the end.
void BenchmarkResultTables::addRound(QTableWidget *table, const QString &label, const bench::ConcurrencyResult &c)
{
    const bool sweep = table == m_sweep;
    const int row = table->rowCount();
    table->insertRow(row);
    const bool any = c.succeeded > 0;
    int col = 0;
    table->setItem(row, col++, cell(label, false));
    if (sweep)
        table->setItem(row, col++, cell(QString::number(c.concurrency)));
    if (!sweep)
        table->setItem(row, col++, cell(ms(c.wallMs)));
    table->setItem(row, col, cell(rate(c.effectiveTokensPerSecond)));
    table->item(row, col++)->setToolTip(tr("%1 parallel requests took %2 ms in all").arg(c.concurrency).arg(ms(c.wallMs)));
    if (sweep)
        table->setItem(row, col++, cell(any ? rate(c.perRequestTokensPerSecond) : Dash));
    else
        table->setItem(row, col++, successCell(c.succeeded, c.requests, c.samples));
    if (any) {
        table->setItem(row, col++, cell(ms(c.latency.mean)));
        table->item(row, col - 1)->setToolTip(percentiles(c.latency));
        table->setItem(row, col++, cell(ms(c.latency.p95)));
        table->item(row, col - 1)->setToolTip(percentiles(c.latency));
    } else {
        table->setItem(row, col++, cell(Dash));
        table->setItem(row, col++, cell(Dash));
    }
    table->setItem(row, col++, cell(any ? ms(c.ttft.mean) : Dash));
    if (sweep)
        table->setItem(row, col++, successCell(c.succeeded, c.requests, c.samples));
}

} // namespace switchyard::ui
