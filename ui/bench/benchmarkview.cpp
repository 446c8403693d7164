#include "bench/benchmarkview.h"

#include "bench/benchformat.h"
#include "bench/benchmarkrunner.h"
#include "bench/benchtargets.h"
#include "gateway.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineEdit>
#include <QLineSeries>
#include <QListWidget>
#include <QLocale>
#include <QLogValueAxis>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QTableWidget>
#include <QThread>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {

constexpr int MaxStoredRuns = 20; // enough to compare settings over a day; the file stays small

enum TargetRole { LabelRole = Qt::UserRole + 1, UrlRole, ModelRole, KeyRole, CustomRole };

// Distinct, print-friendly colours; a target keeps its colour in both charts.
const QColor Palette[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xd6, 0x27, 0x28), QColor(0x2c, 0xa0, 0x2c),
                          QColor(0xff, 0x7f, 0x0e), QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b),
                          QColor(0xe3, 0x77, 0xc2), QColor(0x17, 0xbe, 0xcf)};

QString runTitle(const bench::BenchmarkResults &r)
{
    QStringList targets;
    for (const bench::TargetResult &t : r.targets)
        targets << t.target.label;
    return QCoreApplication::translate("switchyard::ui::BenchmarkView", "%1 · %2 · %3%4")
        .arg(r.startedAt.toLocalTime().toString(u"yyyy-MM-dd HH:mm:ss"_s), bench::suiteName(r.plan.suite),
             targets.join(u", "_s),
             r.cancelled ? QCoreApplication::translate("switchyard::ui::BenchmarkView", " (cancelled)") : QString());
}

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

// "5/5 ✓" in green or "3/5 ✗" in red, the failures' reasons in the tooltip. (The exports use the seed's
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

QTableWidget *makeTable(const QStringList &headers, QWidget *parent)
{
    auto *t = new QTableWidget(0, int(headers.size()), parent);
    t->setHorizontalHeaderLabels(headers);
    t->verticalHeader()->setVisible(false);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setAlternatingRowColors(true);
    t->setWordWrap(false);
    t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    t->horizontalHeader()->setStretchLastSection(true);
    t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 6);
    return t;
}

// The smallest "nice" maximum (1, 2, 2.5 or 5 × 10^k steps) at or above value, so axes read well.
double niceMaximum(double value)
{
    value = std::max(value * 1.08, 1e-9);
    const double rawStep = value / 4.0;
    const double magnitude = std::pow(10.0, std::floor(std::log10(rawStep)));
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
        if (m * magnitude >= rawStep - 1e-12)
            return 4.0 * m * magnitude;
    }
    return 40.0 * magnitude;
}

QChart *makeChart(const QString &title)
{
    auto *chart = new QChart();
    // Animations replay on every update and would make a screenshot show half-drawn lines.
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setTitle(title);
    QFont f = chart->titleFont();
    f.setBold(true);
    chart->setTitleFont(f);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->legend()->setAlignment(Qt::AlignBottom);
    return chart;
}

} // namespace

BenchmarkView::BenchmarkView(Gateway *gateway, QWidget *parent)
    : QWidget(parent), m_gateway(gateway), m_thread(new QThread(this)), m_runner(new bench::BenchmarkRunner())
{
    qRegisterMetaType<switchyard::bench::BenchmarkResults>();
    m_thread->setObjectName(u"benchmark"_s);
    m_runner->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_runner, &QObject::deleteLater);
    connect(m_runner, &bench::BenchmarkRunner::progress, this, &BenchmarkView::onProgress);
    connect(m_runner, &bench::BenchmarkRunner::resultsUpdated, this, &BenchmarkView::onUpdated);
    connect(m_runner, &bench::BenchmarkRunner::finished, this,
            [this](const bench::BenchmarkResults &r) { onEnded(r, false); });
    connect(m_runner, &bench::BenchmarkRunner::cancelled, this,
            [this](const bench::BenchmarkResults &r) { onEnded(r, true); });
    m_thread->start();

    buildUi();
    if (m_gateway)
        connect(m_gateway, &Gateway::runningChanged, this, &BenchmarkView::refreshTargets);
    m_historyPath = defaultHistoryPath();
    loadHistory();
    refreshTargets();
    rebuildRunPickers();
    render();
}

BenchmarkView::~BenchmarkView()
{
    // The runner aborts whatever is in flight when it is deleted (on its thread, as the thread ends).
    m_runner->disconnect(this);
    QMetaObject::invokeMethod(m_runner, &bench::BenchmarkRunner::cancel, Qt::QueuedConnection);
    m_thread->quit();
    m_thread->wait();
}

QString BenchmarkView::defaultHistoryPath()
{
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    return dir.isEmpty() ? QString() : dir % u"/benchmarks.json"_s;
}

void BenchmarkView::buildUi()
{
    // ---- targets ----
    auto *targetsBox = new QGroupBox(tr("Targets"), this);
    auto *targetsLayout = new QVBoxLayout(targetsBox);
    m_targets = new QListWidget(targetsBox);
    m_targets->setObjectName(u"benchTargets"_s);
    m_targets->setToolTip(tr("Each node is measured directly; the gateway pool goes through Switchyard's "
                             "weighted round-robin over the nodes serving its model."));
    connect(m_targets, &QListWidget::itemChanged, this, [this] { updateButtons(); });
    m_targets->setMaximumHeight(m_targets->fontMetrics().height() * 7);
    targetsLayout->addWidget(m_targets);
    auto *customRow = new QHBoxLayout();
    m_customUrl = new QLineEdit(targetsBox);
    m_customUrl->setObjectName(u"benchCustomUrl"_s);
    m_customUrl->setPlaceholderText(tr("Other server: http://host:port"));
    connect(m_customUrl, &QLineEdit::returnPressed, this, &BenchmarkView::addCustomTarget);
    auto *addButton = new QToolButton(targetsBox);
    addButton->setText(tr("Add"));
    connect(addButton, &QToolButton::clicked, this, &BenchmarkView::addCustomTarget);
    auto *refreshButton = new QToolButton(targetsBox);
    refreshButton->setText(tr("Refresh"));
    refreshButton->setToolTip(tr("Re-read the nodes and the gateway's address"));
    connect(refreshButton, &QToolButton::clicked, this, &BenchmarkView::refreshTargets);
    customRow->addWidget(m_customUrl, 1);
    customRow->addWidget(addButton);
    customRow->addWidget(refreshButton);
    targetsLayout->addLayout(customRow);

    // ---- suite ----
    auto *suiteBox = new QGroupBox(tr("Suite"), this);
    auto *form = new QFormLayout(suiteBox);
    form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
    m_suite = new QComboBox(suiteBox);
    m_suite->setObjectName(u"benchSuite"_s);
    m_suite->addItem(tr("Seed: 20/100/300 tokens + parallel"), int(bench::Suite::Seed));
    m_suite->addItem(tr("Concurrency sweep"), int(bench::Suite::Sweep));
    m_suite->addItem(tr("Seed + sweep"), int(bench::Suite::Full));
    m_suite->setCurrentIndex(2);
    connect(m_suite, &QComboBox::currentIndexChanged, this, &BenchmarkView::updateSuiteControls);
    form->addRow(tr("Suite:"), m_suite);
    m_repetitions = new QSpinBox(suiteBox);
    m_repetitions->setRange(1, 100);
    m_repetitions->setValue(3);
    m_repetitions->setToolTip(tr("Sequential requests per max_tokens value (20, 100, 300)"));
    form->addRow(tr("Repetitions:"), m_repetitions);
    m_concurrencyBox = new QSpinBox(suiteBox);
    m_concurrencyBox->setRange(1, 512);
    m_concurrencyBox->setValue(5);
    m_concurrencyBox->setToolTip(tr("Parallel requests of the concurrency test (the seed used 5, 20 tokens each)"));
    form->addRow(tr("Parallel:"), m_concurrencyBox);
    m_sweepMax = new QComboBox(suiteBox);
    for (int level : {8, 16, 32, 64, 128, 256})
        m_sweepMax->addItem(QString::number(level), level);
    m_sweepMax->setCurrentIndex(3);
    m_sweepMax->setToolTip(tr("The sweep doubles the parallel requests from 1 up to this"));
    form->addRow(tr("Sweep up to:"), m_sweepMax);
    m_sweepTokens = new QSpinBox(suiteBox);
    m_sweepTokens->setRange(1, 4096);
    m_sweepTokens->setValue(32);
    m_sweepTokens->setToolTip(tr("max_tokens of every sweep request"));
    form->addRow(tr("Sweep tokens:"), m_sweepTokens);
    m_warmup = new QSpinBox(suiteBox);
    m_warmup->setRange(0, 20);
    m_warmup->setValue(1);
    m_warmup->setToolTip(tr("Requests per target sent first and not counted (connections, caches)"));
    form->addRow(tr("Warm-up:"), m_warmup);

    // ---- run ----
    auto *runBox = new QGroupBox(tr("Run"), this);
    auto *runLayout = new QVBoxLayout(runBox);
    auto *buttons = new QHBoxLayout();
    m_run = new QPushButton(tr("&Run benchmark"), runBox);
    m_run->setObjectName(u"benchRun"_s);
    m_run->setDefault(true);
    connect(m_run, &QPushButton::clicked, this, [this] { startRun(); });
    m_cancel = new QPushButton(tr("&Cancel"), runBox);
    m_cancel->setObjectName(u"benchCancel"_s);
    connect(m_cancel, &QPushButton::clicked, this, &BenchmarkView::cancelRun);
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    runLayout->addLayout(buttons);
    m_progress = new QProgressBar(runBox);
    m_progress->setObjectName(u"benchProgress"_s);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setFormat(tr("ready"));
    runLayout->addWidget(m_progress);
    m_status = new QLabel(tr("Pick targets and a suite, then run."), runBox);
    m_status->setObjectName(u"benchStatus"_s);
    m_status->setWordWrap(true);
    runLayout->addWidget(m_status);
    auto *definitions = new QLabel(
        tr("Latency: sent → last byte. TTFT: sent → first token. tok/s: completion tokens (from usage) / "
           "latency. Effective throughput: all tokens / wall time. P95: nearest rank. Warm-up excluded; "
           "failures counted."),
        runBox);
    definitions->setWordWrap(true);
    QFont small = definitions->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    definitions->setFont(small);
    definitions->setForegroundRole(QPalette::PlaceholderText);
    runLayout->addWidget(definitions);
    runLayout->addStretch(1);

    auto *top = new QHBoxLayout();
    top->addWidget(targetsBox, 3);
    top->addWidget(suiteBox, 2);
    top->addWidget(runBox, 2);

    // ---- results bar ----
    auto *bar = new QHBoxLayout();
    bar->addWidget(new QLabel(tr("Showing:"), this));
    m_shown = new QComboBox(this);
    m_shown->setObjectName(u"benchShown"_s);
    m_shown->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_shown->setMinimumContentsLength(28);
    connect(m_shown, &QComboBox::currentIndexChanged, this, [this] {
        if (m_updatingPickers)
            return;
        m_shownId = m_shown->currentData().toString();
        render();
    });
    bar->addWidget(m_shown, 2);
    bar->addWidget(new QLabel(tr("Compare with:"), this));
    m_compare = new QComboBox(this);
    m_compare->setObjectName(u"benchCompare"_s);
    m_compare->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_compare->setMinimumContentsLength(20);
    connect(m_compare, &QComboBox::currentIndexChanged, this, [this] {
        if (m_updatingPickers)
            return;
        m_compareId = m_compare->currentData().toString();
        render();
    });
    bar->addWidget(m_compare, 1);
    m_exportMd = new QToolButton(this);
    m_exportMd->setText(tr("Export Markdown…"));
    connect(m_exportMd, &QToolButton::clicked, this, &BenchmarkView::exportMarkdown);
    m_exportCsv = new QToolButton(this);
    m_exportCsv->setText(tr("Export CSV…"));
    connect(m_exportCsv, &QToolButton::clicked, this, &BenchmarkView::exportCsv);
    m_copy = new QToolButton(this);
    m_copy->setText(tr("Copy as Markdown"));
    connect(m_copy, &QToolButton::clicked, this, &BenchmarkView::copyMarkdown);
    m_delete = new QToolButton(this);
    m_delete->setText(tr("Delete run"));
    connect(m_delete, &QToolButton::clicked, this, &BenchmarkView::deleteShownRun);
    bar->addWidget(m_exportMd);
    bar->addWidget(m_exportCsv);
    bar->addWidget(m_copy);
    bar->addWidget(m_delete);

    // ---- tables (the seed's shapes) ----
    auto *tables = new QWidget(this);
    auto *tablesLayout = new QVBoxLayout(tables);
    tablesLayout->setContentsMargins(0, 0, 0, 0);
    m_summary = new QLabel(tables);
    m_summary->setWordWrap(true);
    tablesLayout->addWidget(m_summary);
    auto *singlesTitle = new QLabel(tr("<b>Single requests</b>"), tables);
    tablesLayout->addWidget(singlesTitle);
    // Units live in the headers so the columns stay narrow enough to sit beside the charts.
    m_singles = makeTable({tr("Test"), tr("Target"), tr("Avg latency\n(ms)"), tr("Throughput\n(tok/s)"),
                           tr("P95\n(ms)"), tr("P50\n(ms)"), tr("P99\n(ms)"), tr("Avg TTFT\n(ms)"),
                           tr("Decode\n(tok/s)"), tr("Success")},
                          tables);
    m_singles->setObjectName(u"benchSingles"_s);
    tablesLayout->addWidget(m_singles, 0);
    m_concurrencyTitle = new QLabel(tables);
    tablesLayout->addWidget(m_concurrencyTitle);
    m_concurrency = makeTable({tr("Target"), tr("Total time\n(ms)"), tr("Effective throughput\n(tok/s)"),
                               tr("Success rate"), tr("Avg latency\n(ms)"), tr("P95\n(ms)"), tr("Avg TTFT\n(ms)")},
                              tables);
    m_concurrency->setObjectName(u"benchConcurrency"_s);
    tablesLayout->addWidget(m_concurrency, 0);
    tablesLayout->addWidget(new QLabel(tr("<b>Concurrency sweep</b> (plotted on the right)"), tables));
    m_sweep = makeTable({tr("Target"), tr("Parallel"), tr("Total time\n(ms)"), tr("Effective\n(tok/s)"),
                         tr("Per request\n(tok/s)"), tr("Avg latency\n(ms)"), tr("P95\n(ms)"), tr("Avg TTFT\n(ms)"),
                         tr("Success")},
                        tables);
    m_sweep->setObjectName(u"benchSweep"_s);
    tablesLayout->addWidget(m_sweep, 2);

    // ---- sweep charts ----
    auto *charts = new QWidget(this);
    auto *chartsLayout = new QVBoxLayout(charts);
    chartsLayout->setContentsMargins(0, 0, 0, 0);
    m_throughputChart = makeChart(tr("Throughput vs. concurrency"));
    m_latencyChart = makeChart(tr("Latency vs. concurrency"));
    m_throughputView = new QChartView(m_throughputChart, charts);
    m_latencyView = new QChartView(m_latencyChart, charts);
    for (QChartView *v : {m_throughputView, m_latencyView}) {
        v->setRenderHint(QPainter::Antialiasing);
        v->setMinimumSize(300, 200);
        chartsLayout->addWidget(v, 1);
    }

    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(tables);
    split->addWidget(charts);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addLayout(bar);
    layout->addWidget(split, 1);
    updateSuiteControls();
    updateButtons();
}

void BenchmarkView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (!m_running)
        refreshTargets();
}

// ---- targets ----

void BenchmarkView::refreshTargets()
{
    QHash<QString, Qt::CheckState> previous;
    QList<bench::Target> custom;
    for (int i = 0; i < m_targets->count(); ++i) {
        const QListWidgetItem *it = m_targets->item(i);
        const QString key = it->data(UrlRole).toString() % u'|' % it->data(ModelRole).toString();
        previous.insert(key, it->checkState());
        if (it->data(CustomRole).toBool())
            custom << bench::Target{it->data(LabelRole).toString(), it->data(UrlRole).toString(),
                                    it->data(ModelRole).toString(), it->data(KeyRole).toString()};
    }

    QList<bench::Target> targets;
    QString poolNote;
    QString poolLabel, poolDisplay; // the pool's label is data (results, exports); the picker shows it translated
    if (m_gateway) {
        const config::GatewayConfig &cfg = m_gateway->config();
        const GatewaySnapshot snap = m_gateway->snapshot();
        for (const NodeSnapshot &n : snap.nodes) {
            const config::ProviderConfig *p = cfg.provider(n.name);
            bench::Target t = p ? bench::nodeTarget(*p) : bench::Target{n.name, n.baseUrl, QString(), QString()};
            t.baseUrl = n.baseUrl;
            if (t.model.isEmpty() && !n.models.isEmpty() && n.models.first() != u"*")
                t.model = n.models.first();
            targets << t;
        }
        if (m_gateway->isRunning()) {
            if (auto pool = bench::poolTarget(cfg, m_gateway->listenUrl())) {
                const int nodes = int(std::count_if(cfg.providers.begin(), cfg.providers.end(), [&](const config::ProviderConfig &p) {
                    for (const config::KeyConfig &k : p.keys) {
                        if (k.models.contains(pool->model))
                            return true;
                    }
                    return false;
                }));
                poolLabel = pool->label;
                poolDisplay = nodes > 1    ? tr("gateway pool (%1 nodes)").arg(nodes)
                              : nodes == 1 ? tr("gateway pool (1 node)")
                                           : tr("gateway");
                targets << *pool;
            }
        } else {
            poolNote = tr("gateway pool (start the gateway to measure it)");
        }
    }

    m_updatingPickers = true;
    m_targets->clear();
    auto add = [this, &previous, &poolLabel, &poolDisplay](const bench::Target &t, bool isCustom) {
        auto *item = new QListWidgetItem(m_targets);
        const QString model = t.model.isEmpty() ? tr("model from /v1/models") : t.model;
        const QString label = !poolLabel.isEmpty() && t.label == poolLabel ? poolDisplay : t.label;
        item->setText(u"%1 — %2 · %3"_s.arg(label, t.baseUrl, model));
        item->setData(LabelRole, t.label);
        item->setData(UrlRole, t.baseUrl);
        item->setData(ModelRole, t.model);
        item->setData(KeyRole, t.apiKey);
        item->setData(CustomRole, isCustom);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsSelectable);
        item->setCheckState(previous.value(t.baseUrl % u'|' % t.model, Qt::Checked));
    };
    for (const bench::Target &t : std::as_const(targets))
        add(t, false);
    for (const bench::Target &t : std::as_const(custom))
        add(t, true);
    if (!poolNote.isEmpty()) {
        auto *item = new QListWidgetItem(poolNote, m_targets);
        item->setFlags(Qt::NoItemFlags); // shown, so the user knows the pool exists, but not selectable
    }
    m_updatingPickers = false;
    updateButtons();
}

void BenchmarkView::addCustomTarget()
{
    const QString text = m_customUrl->text().trimmed();
    if (text.isEmpty())
        return;
    const QUrl url(text);
    if (!url.isValid() || (url.scheme() != u"http" && url.scheme() != u"https") || url.host().isEmpty()) {
        m_status->setText(tr("Not an http(s) URL: %1").arg(text));
        return;
    }
    auto *item = new QListWidgetItem(m_targets);
    const QString label = url.host() % (url.port() > 0 ? u':' % QString::number(url.port()) : QString());
    item->setText(u"%1 — %2 · %3"_s.arg(label, text, tr("model from /v1/models")));
    item->setData(LabelRole, label);
    item->setData(UrlRole, text);
    item->setData(ModelRole, QString());
    item->setData(KeyRole, QString());
    item->setData(CustomRole, true);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsSelectable);
    item->setCheckState(Qt::Checked);
    m_customUrl->clear();
    updateButtons();
}

void BenchmarkView::setCheckedTargets(const QStringList &labels)
{
    for (int i = 0; i < m_targets->count(); ++i) {
        QListWidgetItem *it = m_targets->item(i);
        if (!(it->flags() & Qt::ItemIsUserCheckable))
            continue;
        const bool on = labels.isEmpty() || labels.contains(it->data(LabelRole).toString());
        it->setCheckState(on ? Qt::Checked : Qt::Unchecked);
    }
    updateButtons();
}

QStringList BenchmarkView::targetLabels() const
{
    QStringList out;
    for (int i = 0; i < m_targets->count(); ++i) {
        const QListWidgetItem *it = m_targets->item(i);
        if (it->flags() & Qt::ItemIsUserCheckable)
            out << it->data(LabelRole).toString();
    }
    return out;
}

// ---- plan and run ----

bench::BenchmarkPlan BenchmarkView::currentPlan() const
{
    bench::BenchmarkPlan plan;
    for (int i = 0; i < m_targets->count(); ++i) {
        const QListWidgetItem *it = m_targets->item(i);
        if (!(it->flags() & Qt::ItemIsUserCheckable) || it->checkState() != Qt::Checked)
            continue;
        plan.targets << bench::Target{it->data(LabelRole).toString(), it->data(UrlRole).toString(),
                                      it->data(ModelRole).toString(), it->data(KeyRole).toString()};
    }
    plan.suite = bench::Suite(m_suite->currentData().toInt());
    plan.repetitions = m_repetitions->value();
    plan.concurrency = m_concurrencyBox->value();
    plan.sweepLevels.clear();
    for (int level = 1; level <= m_sweepMax->currentData().toInt(); level *= 2)
        plan.sweepLevels << level;
    plan.sweepMaxTokens = m_sweepTokens->value();
    plan.warmupRequests = m_warmup->value();
    return plan;
}

void BenchmarkView::setPlanSettings(const bench::BenchmarkPlan &plan)
{
    const int suite = m_suite->findData(int(plan.suite));
    if (suite >= 0)
        m_suite->setCurrentIndex(suite);
    m_repetitions->setValue(plan.repetitions);
    m_concurrencyBox->setValue(plan.concurrency);
    if (!plan.sweepLevels.isEmpty()) {
        const int top = m_sweepMax->findData(plan.sweepLevels.last());
        if (top >= 0)
            m_sweepMax->setCurrentIndex(top);
    }
    m_sweepTokens->setValue(plan.sweepMaxTokens);
    m_warmup->setValue(plan.warmupRequests);
}

bool BenchmarkView::startRun()
{
    return startRun(currentPlan());
}

bool BenchmarkView::startRun(const bench::BenchmarkPlan &plan)
{
    if (m_running)
        return false;
    if (plan.targets.isEmpty()) {
        m_status->setText(tr("Check at least one target."));
        return false;
    }
    m_live.reset();
    setRunning(true);
    m_progress->setRange(0, std::max(plan.totalRequests(), 1));
    m_progress->setValue(0);
    m_progress->setFormat(tr("%v / %m requests"));
    m_status->setText(tr("Starting…"));
    QMetaObject::invokeMethod(m_runner, [runner = m_runner, plan] { runner->start(plan); }, Qt::QueuedConnection);
    return true;
}

void BenchmarkView::cancelRun()
{
    if (!m_running)
        return;
    m_status->setText(tr("Cancelling…"));
    QMetaObject::invokeMethod(m_runner, &bench::BenchmarkRunner::cancel, Qt::QueuedConnection);
}

void BenchmarkView::setRunning(bool running)
{
    if (m_running == running)
        return;
    m_running = running;
    for (QWidget *w : std::initializer_list<QWidget *>{m_targets, m_customUrl, m_suite, m_repetitions, m_concurrencyBox,
                                                       m_sweepMax, m_sweepTokens, m_warmup, m_delete})
        w->setEnabled(!running);
    updateSuiteControls();
    updateButtons();
    emit runningChanged(running);
}

void BenchmarkView::onProgress(int done, int total, const QString &label)
{
    m_progress->setRange(0, std::max(total, 1));
    m_progress->setValue(done);
    if (m_running && !label.isEmpty())
        m_status->setText(label);
}

void BenchmarkView::onUpdated(const bench::BenchmarkResults &results)
{
    // A new run comes into view once; after that the user may look at older runs while it goes on.
    const bool first = !m_live || m_live->id != results.id;
    const bool follow = first || m_shownId == results.id;
    m_live = results;
    if (follow)
        m_shownId = results.id;
    if (first)
        rebuildRunPickers();
    render();
}

void BenchmarkView::onEnded(const bench::BenchmarkResults &results, bool cancelled)
{
    m_live.reset();
    setRunning(false);
    storeRun(results);
    m_shownId = results.id;
    rebuildRunPickers();
    render();
    if (cancelled) {
        m_status->setText(tr("Cancelled after %1 s; what finished is shown and kept.")
                              .arg(results.durationMs / 1000.0, 0, 'f', 1));
        emit runCancelled(results);
    } else {
        m_status->setText(tr("Done in %1 s.").arg(results.durationMs / 1000.0, 0, 'f', 1));
        emit runFinished(results);
    }
}

void BenchmarkView::updateSuiteControls()
{
    const auto suite = bench::Suite(m_suite->currentData().toInt());
    const bool seed = suite == bench::Suite::Seed || suite == bench::Suite::Full;
    const bool sweep = suite == bench::Suite::Sweep || suite == bench::Suite::Full;
    m_repetitions->setEnabled(!m_running && seed);
    m_concurrencyBox->setEnabled(!m_running && seed);
    m_sweepMax->setEnabled(!m_running && sweep);
    m_sweepTokens->setEnabled(!m_running && sweep);
}

void BenchmarkView::updateButtons()
{
    if (!m_run)
        return;
    bool anyChecked = false;
    for (int i = 0; i < m_targets->count(); ++i)
        anyChecked = anyChecked || m_targets->item(i)->checkState() == Qt::Checked;
    m_run->setEnabled(!m_running && anyChecked);
    m_cancel->setEnabled(m_running);
    const bool anyShown = !shownRuns().isEmpty();
    m_exportMd->setEnabled(anyShown);
    m_exportCsv->setEnabled(anyShown);
    m_copy->setEnabled(anyShown);
    m_delete->setEnabled(!m_running && !m_shownId.isEmpty() && !(m_live && m_live->id == m_shownId));
}

// ---- history ----

void BenchmarkView::setHistoryPath(const QString &path)
{
    m_historyPath = path;
    m_runs.clear();
    loadHistory();
    m_shownId = m_runs.isEmpty() ? QString() : m_runs.first().id;
    m_compareId.clear();
    rebuildRunPickers();
    render();
}

void BenchmarkView::loadHistory()
{
    if (m_historyPath.isEmpty())
        return;
    QFile f(m_historyPath);
    if (!f.open(QIODevice::ReadOnly))
        return; // first run: nothing kept yet
    const auto runs = bench::historyFromJson(f.readAll());
    if (!runs) {
        m_status->setText(tr("Kept benchmark runs could not be read (%1); new runs replace the file.")
                              .arg(QDir::toNativeSeparators(m_historyPath)));
        return;
    }
    m_runs = *runs;
    if (!m_runs.isEmpty() && m_shownId.isEmpty())
        m_shownId = m_runs.first().id;
}

void BenchmarkView::saveHistory()
{
    if (m_historyPath.isEmpty())
        return;
    QDir().mkpath(QFileInfo(m_historyPath).absolutePath());
    // Atomic: a crash mid-write must not lose every kept run.
    QSaveFile f(m_historyPath);
    if (!f.open(QIODevice::WriteOnly) || f.write(bench::formatJsonHistory(m_runs)) < 0 || !f.commit())
        m_status->setText(tr("Could not keep the run in %1: %2").arg(QDir::toNativeSeparators(m_historyPath), f.errorString()));
}

void BenchmarkView::storeRun(const bench::BenchmarkResults &results)
{
    m_runs.prepend(results);
    while (m_runs.size() > MaxStoredRuns)
        m_runs.removeLast();
    saveHistory();
}

void BenchmarkView::deleteShownRun()
{
    if (m_shownId.isEmpty() || m_running)
        return;
    m_runs.removeIf([this](const bench::BenchmarkResults &r) { return r.id == m_shownId; });
    if (m_compareId == m_shownId)
        m_compareId.clear();
    m_shownId = m_runs.isEmpty() ? QString() : m_runs.first().id;
    saveHistory();
    rebuildRunPickers();
    render();
}

void BenchmarkView::rebuildRunPickers()
{
    m_updatingPickers = true;
    m_shown->clear();
    m_compare->clear();
    m_compare->addItem(tr("(nothing)"), QString());
    if (m_live)
        m_shown->addItem(tr("Running: %1").arg(runTitle(*m_live)), m_live->id);
    for (const bench::BenchmarkResults &r : std::as_const(m_runs)) {
        m_shown->addItem(runTitle(r), r.id);
        m_compare->addItem(runTitle(r), r.id);
    }
    if (m_shown->count() == 0)
        m_shown->addItem(tr("(no runs yet)"), QString());
    const int shown = m_shown->findData(m_shownId);
    m_shown->setCurrentIndex(std::max(shown, 0));
    const int compare = m_compare->findData(m_compareId);
    m_compare->setCurrentIndex(std::max(compare, 0));
    m_updatingPickers = false;
}

void BenchmarkView::showRun(const QString &id, const QString &compareWithId)
{
    m_shownId = id;
    m_compareId = compareWithId;
    rebuildRunPickers();
    render();
}

QList<bench::BenchmarkResults> BenchmarkView::shownRuns() const
{
    QList<bench::BenchmarkResults> out;
    auto find = [this](const QString &id) -> std::optional<bench::BenchmarkResults> {
        if (id.isEmpty())
            return std::nullopt;
        if (m_live && m_live->id == id)
            return m_live;
        for (const bench::BenchmarkResults &r : m_runs) {
            if (r.id == id)
                return r;
        }
        return std::nullopt;
    };
    if (auto shown = find(m_shownId))
        out << *shown;
    if (m_compareId != m_shownId) {
        if (auto other = find(m_compareId))
            out << *other;
    }
    return out;
}

QString BenchmarkView::shownMarkdown() const
{
    return bench::formatMarkdown(shownRuns());
}

QByteArray BenchmarkView::shownCsv() const
{
    return bench::formatCsv(shownRuns());
}

// ---- rendering ----

void BenchmarkView::render()
{
    const QList<bench::BenchmarkResults> runs = shownRuns();
    renderTables(runs);
    renderCharts(runs);
    if (runs.isEmpty()) {
        m_summary->setText(tr("No results yet. On the demo, <i>Seed + sweep</i> over both nodes and the gateway "
                              "reproduces the seed article's tables and adds the saturation curve."));
    } else {
        const bench::BenchmarkResults &r = runs.first();
        QString text = tr("%1 — took %2 s").arg(runTitle(r)).arg(r.durationMs / 1000.0, 0, 'f', 1);
        if (m_live && m_live->id == r.id)
            text = tr("Running: %1 — results appear as each test finishes").arg(runTitle(r));
        if (runs.size() > 1)
            text += u"<br>"_s % tr("compared with %1").arg(runTitle(runs[1]));
        m_summary->setText(text);
    }
    updateButtons();
}

void BenchmarkView::renderTables(const QList<bench::BenchmarkResults> &runs)
{
    const bool withRun = runs.size() > 1;
    const QString dash = u"—"_s;

    // Singles grouped by test, targets side by side, as in the seed's table.
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
                    m_singles->setItem(row, 2, cell(any ? ms(s.latency.mean) : dash));
                    m_singles->setItem(row, 3, cell(any ? rate(s.tokensPerSecond) : dash));
                    m_singles->setItem(row, 4, cell(any ? ms(s.latency.p95) : dash));
                    m_singles->setItem(row, 5, cell(any ? ms(s.latency.p50) : dash));
                    m_singles->setItem(row, 6, cell(any ? ms(s.latency.p99) : dash));
                    m_singles->setItem(row, 7, cell(any ? ms(s.ttft.mean) : dash));
                    m_singles->setItem(row, 8, cell(any ? rate(s.decodeTokensPerSecond) : dash));
                    m_singles->setItem(row, 9, successCell(s.succeeded, s.requests, s.samples));
                }
            }
        }
    }

    m_concurrency->setRowCount(0);
    m_sweep->setRowCount(0);
    int level = 0;
    int tokens = 0;
    auto fillRound = [&](QTableWidget *table, const bench::BenchmarkResults &run, const bench::TargetResult &t,
                         const bench::ConcurrencyResult &c, bool sweep) {
        const int row = table->rowCount();
        table->insertRow(row);
        const bool any = c.succeeded > 0;
        int col = 0;
        table->setItem(row, col++, cell(rowLabel(run, t, withRun), false));
        if (sweep)
            table->setItem(row, col++, cell(QString::number(c.concurrency)));
        table->setItem(row, col++, cell(ms(c.wallMs)));
        table->setItem(row, col++, cell(rate(c.effectiveTokensPerSecond)));
        if (sweep)
            table->setItem(row, col++, cell(any ? rate(c.perRequestTokensPerSecond) : dash));
        else
            table->setItem(row, col++, successCell(c.succeeded, c.requests, c.samples));
        table->setItem(row, col++, cell(any ? ms(c.latency.mean) : dash));
        table->setItem(row, col++, cell(any ? ms(c.latency.p95) : dash));
        table->setItem(row, col++, cell(any ? ms(c.ttft.mean) : dash));
        if (sweep)
            table->setItem(row, col++, successCell(c.succeeded, c.requests, c.samples));
    };
    for (const bench::BenchmarkResults &run : runs) {
        for (const bench::TargetResult &t : run.targets) {
            if (t.concurrency) {
                level = t.concurrency->concurrency;
                tokens = t.concurrency->maxTokens;
                fillRound(m_concurrency, run, t, *t.concurrency, false);
            }
            for (const bench::ConcurrencyResult &c : t.sweep)
                fillRound(m_sweep, run, t, c, true);
        }
    }
    m_concurrencyTitle->setText(level > 0 ? tr("<b>Concurrency</b> (%1 parallel requests × %2 tokens)").arg(level).arg(tokens)
                                          : tr("<b>Concurrency</b>"));
    // The seed's two tables are sized to their rows (up to a point) so the sweep table gets the rest.
    auto fit = [](QTableWidget *table, int minRows, int maxRows) {
        const int rows = std::clamp(table->rowCount(), minRows, maxRows);
        table->setFixedHeight(table->horizontalHeader()->sizeHint().height()
                              + rows * table->verticalHeader()->defaultSectionSize() + 2 * table->frameWidth() + 2);
    };
    fit(m_singles, 3, 12);
    fit(m_concurrency, 3, 6);
}

void BenchmarkView::renderCharts(const QList<bench::BenchmarkResults> &runs)
{
    const bool withRun = runs.size() > 1;
    for (QChart *chart : {m_throughputChart, m_latencyChart}) {
        chart->removeAllSeries();
        for (QAbstractAxis *axis : chart->axes()) {
            chart->removeAxis(axis);
            delete axis;
        }
    }

    double maxRate = 0;
    double maxLatency = 0;
    int maxLevel = 1;
    int sweepTokens = 0;
    QHash<QString, int> colourOf;
    QList<QPair<QLineSeries *, QLineSeries *>> lines;
    for (int r = 0; r < runs.size(); ++r) {
        const bench::BenchmarkResults &run = runs[r];
        for (const bench::TargetResult &t : run.targets) {
            if (t.sweep.isEmpty())
                continue;
            const int colour = colourOf.value(t.target.label, int(colourOf.size()));
            colourOf.insert(t.target.label, colour);
            auto *rate = new QLineSeries();
            auto *latency = new QLineSeries();
            for (QLineSeries *s : {rate, latency}) {
                s->setName(t.target.label);
                s->setPointsVisible(true);
                QPen pen(Palette[colour % std::size(Palette)]);
                // Earlier lines are drawn wider: two nodes that measure the same still show both colours.
                pen.setWidthF(2.0 + 1.2 * std::max(0, 2 - colour));
                if (r > 0)
                    pen.setStyle(Qt::DashLine); // the run compared with
                s->setPen(pen);
            }
            for (const bench::ConcurrencyResult &c : t.sweep) {
                sweepTokens = c.maxTokens;
                maxLevel = std::max(maxLevel, c.concurrency);
                rate->append(c.concurrency, c.effectiveTokensPerSecond);
                maxRate = std::max(maxRate, c.effectiveTokensPerSecond);
                if (c.succeeded > 0) {
                    latency->append(c.concurrency, c.latency.mean / 1000.0);
                    maxLatency = std::max(maxLatency, c.latency.mean / 1000.0);
                }
            }
            lines << qMakePair(rate, latency);
        }
    }

    const QString tokensNote = sweepTokens > 0 ? tr(" (%1 tokens per request)").arg(sweepTokens) : QString();
    m_throughputChart->setTitle(tr("Throughput vs. concurrency") % tokensNote);
    m_latencyChart->setTitle(tr("Latency vs. concurrency") % tokensNote);
    const bool empty = lines.isEmpty();
    for (QChart *chart : {m_throughputChart, m_latencyChart}) {
        // Concurrency doubles from level to level: a log₂ axis spaces the points evenly.
        auto *x = new QLogValueAxis(chart);
        x->setBase(2);
        x->setLabelFormat(u"%g"_s);
        x->setRange(1, std::max(2, maxLevel));
        x->setMinorTickCount(0);
        x->setTitleText(tr("parallel requests"));
        auto *y = new QValueAxis(chart);
        y->setLabelFormat(u"%g"_s);
        y->setTickCount(5);
        const bool rate = chart == m_throughputChart;
        y->setRange(0, niceMaximum(rate ? std::max(maxRate, 1.0) : std::max(maxLatency, 0.001)));
        y->setTitleText(rate ? tr("tokens/s (all requests)") : tr("seconds (average)"));
        chart->addAxis(x, Qt::AlignBottom);
        chart->addAxis(y, Qt::AlignLeft);
        chart->legend()->setVisible(!empty);
    }
    for (const auto &[rate, latency] : std::as_const(lines)) {
        m_throughputChart->addSeries(rate);
        m_latencyChart->addSeries(latency);
        for (QChart *chart : {m_throughputChart, m_latencyChart}) {
            QLineSeries *s = chart == m_throughputChart ? rate : latency;
            for (QAbstractAxis *axis : chart->axes())
                s->attachAxis(axis);
            // The compared run's lines share their target's colour: one legend entry per target is
            // enough, and the title says which run the dashed lines are.
            if (s->pen().style() == Qt::DashLine) {
                for (QLegendMarker *m : chart->legend()->markers(s))
                    m->setVisible(false);
            }
        }
    }
    if (withRun && !empty) {
        const QString dashed = tr(" — dashed: %1").arg(runs[1].startedAt.toLocalTime().toString(u"HH:mm"_s));
        m_throughputChart->setTitle(m_throughputChart->title() % dashed);
        m_latencyChart->setTitle(m_latencyChart->title() % dashed);
    }
    if (empty) {
        m_throughputChart->setTitle(tr("Throughput vs. concurrency — run a sweep to see where each target saturates"));
        m_latencyChart->setTitle(tr("Latency vs. concurrency"));
    }
}

// ---- export ----

void BenchmarkView::exportMarkdown()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export benchmark as Markdown"),
                                                      u"benchmark.md"_s, tr("Markdown (*.md)"));
    if (path.isEmpty())
        return;
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(shownMarkdown().toUtf8()) < 0 || !f.commit())
        QMessageBox::warning(this, tr("Export failed"), tr("Could not write %1: %2").arg(path, f.errorString()));
}

void BenchmarkView::exportCsv()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export benchmark as CSV"), u"benchmark.csv"_s,
                                                      tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(shownCsv()) < 0 || !f.commit())
        QMessageBox::warning(this, tr("Export failed"), tr("Could not write %1: %2").arg(path, f.errorString()));
}

void BenchmarkView::copyMarkdown()
{
    QApplication::clipboard()->setText(shownMarkdown());
    m_status->setText(tr("The shown results are on the clipboard as Markdown."));
}

} // namespace switchyard::ui
