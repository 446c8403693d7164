#include "bench/benchmarkview.h"

#include "bench/benchformat.h"
#include "bench/benchmarkresulttables.h"
#include "bench/benchmarkrunner.h"
#include "bench/benchmarksuiteform.h"
#include "bench/benchmarksweepcharts.h"
#include "bench/benchmarktargetpicker.h"
#include "bench/multiturnpanel.h"
#include "gateway.h"
#include "link/gatewaystatus.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QSplitter>
#include <QTabWidget>
#include <QThread>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <functional>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {

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

// "45 s", "4 min 29 s", "1 h 05 min": long runs are read at a glance.
QString durationText(qint64 ms)
{
    const qint64 s = (std::max<qint64>(ms, 0) + 500) / 1000;
    if (s < 60)
        return QCoreApplication::translate("switchyard::ui::BenchmarkView", "%1 s").arg(s);
    if (s < 3600)
        return QCoreApplication::translate("switchyard::ui::BenchmarkView", "%1 min %2 s")
            .arg(s / 60)
            .arg(s % 60, 2, 10, QLatin1Char('0'));
    return QCoreApplication::translate("switchyard::ui::BenchmarkView", "%1 h %2 min")
        .arg(s / 3600)
        .arg((s % 3600) / 60, 2, 10, QLatin1Char('0'));
}

} // namespace

BenchmarkView::BenchmarkView(Gateway *gateway, QWidget *parent)
    : QWidget(parent), m_gateway(gateway), m_thread(new QThread(this)), m_runner(new bench::BenchmarkRunner()),
      m_history(defaultHistoryPath())
{
    qRegisterMetaType<switchyard::bench::BenchmarkResults>();
    m_thread->setObjectName(u"benchmark"_s);
    m_runner->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_runner, &QObject::deleteLater);
    connect(m_runner, &bench::BenchmarkRunner::progress, this, &BenchmarkView::onProgress);
    connect(m_runner, &bench::BenchmarkRunner::timeLeft, this, &BenchmarkView::onTimeLeft);
    connect(m_runner, &bench::BenchmarkRunner::resultsUpdated, this, &BenchmarkView::onUpdated);
    connect(m_runner, &bench::BenchmarkRunner::finished, this,
            [this](const bench::BenchmarkResults &r) { onEnded(r, false); });
    connect(m_runner, &bench::BenchmarkRunner::cancelled, this,
            [this](const bench::BenchmarkResults &r) { onEnded(r, true); });
    m_thread->start();
    m_tick = new QTimer(this);
    m_tick->setInterval(1000);
    connect(m_tick, &QTimer::timeout, this, &BenchmarkView::updateProgressText);

    buildUi();
    if (m_gateway)
        connect(m_gateway, &Gateway::runningChanged, this, &BenchmarkView::refreshTargets);
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
    return bench::BenchmarkHistory::defaultPath();
}

QTableWidget *BenchmarkView::singlesTable() const
{
    return m_tables->singlesTable();
}

QTableWidget *BenchmarkView::concurrencyTable() const
{
    return m_tables->concurrencyTable();
}

QTableWidget *BenchmarkView::sweepTable() const
{
    return m_tables->sweepTable();
}

QChart *BenchmarkView::throughputChart() const
{
    return m_charts->throughputChart();
}

QChart *BenchmarkView::latencyChart() const
{
    return m_charts->latencyChart();
}

// ---- the widgets ----

void BenchmarkView::buildUi()
{
    m_targets = new BenchmarkTargetPicker(m_gateway, this);
    connect(m_targets, &BenchmarkTargetPicker::checksChanged, this, &BenchmarkView::updateButtons);
    m_suite = new BenchmarkSuiteForm(this);
    QGroupBox *runBox = buildRunBox();
    connect(m_targets, &BenchmarkTargetPicker::problem, m_status, &QLabel::setText);

    auto *top = new QHBoxLayout();
    top->addWidget(m_targets, 3);
    top->addWidget(m_suite, 2);
    top->addWidget(runBox, 2);
    QHBoxLayout *bar = buildResultsBar();

    m_tables = new BenchmarkResultTables(this);
    m_charts = new BenchmarkSweepCharts(this);
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_tables);
    split->addWidget(m_charts);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);

    // The local gateway's pool is labelled with its configured strategy; any other target "as configured".
    auto strategyOf = [this](const bench::Target &t) {
        if (!m_gateway || !m_gateway->isRunning() || !t.label.startsWith(u"gateway"_s))
            return tr("as configured");
        const auto routing = link::configToJson(m_gateway->config(), true)["switchyard"]["routing"];
        const auto name = routing.value("default_strategy", std::string());
        return name.empty() ? tr("as configured") : QString::fromStdString(name);
    };
    m_multiTurn = new MultiTurnPanel([this] { return m_targets->checkedTargets(); }, strategyOf, this);
    m_pages = new QTabWidget(this);
    m_pages->setObjectName(u"benchPages"_s);
    m_pages->addTab(split, tr("Article's tables and sweep"));
    m_pages->addTab(m_multiTurn, tr("Multi-turn conversations"));

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addLayout(bar);
    layout->addWidget(m_pages, 1);
    updateButtons();
}

void BenchmarkView::showMultiTurn()
{
    m_pages->setCurrentWidget(m_multiTurn);
}

// Run and Cancel, the progress, the last word on the run, and what the numbers mean.
QGroupBox *BenchmarkView::buildRunBox()
{
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
    m_time = new QLabel(runBox);
    m_time->setObjectName(u"benchTime"_s);
    m_time->setWordWrap(true);
    m_time->hide();
    runLayout->addWidget(m_time);
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
    return runBox;
}

// Which run is shown and which compared with it, and what can be done with them.
QHBoxLayout *BenchmarkView::buildResultsBar()
{
    auto *bar = new QHBoxLayout();
    auto picker = [this](const QString &name, int length, QString BenchmarkView::*id) {
        auto *box = new QComboBox(this);
        box->setObjectName(name);
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(length);
        connect(box, &QComboBox::currentIndexChanged, this, [this, box, id] {
            if (m_updatingPickers)
                return;
            this->*id = box->currentData().toString();
            render();
        });
        return box;
    };
    auto button = [this](const QString &text, auto action) {
        auto *b = new QToolButton(this);
        b->setText(text);
        connect(b, &QToolButton::clicked, this, action);
        return b;
    };
    bar->addWidget(new QLabel(tr("Showing:"), this));
    m_shown = picker(u"benchShown"_s, 28, &BenchmarkView::m_shownId);
    bar->addWidget(m_shown, 2);
    bar->addWidget(new QLabel(tr("Compare with:"), this));
    m_compare = picker(u"benchCompare"_s, 20, &BenchmarkView::m_compareId);
    bar->addWidget(m_compare, 1);
    m_exportMd = button(tr("Export Markdown…"), [this] {
        exportShown(tr("Export benchmark as Markdown"), u"benchmark.md"_s, tr("Markdown (*.md)"),
                    [this] { return shownMarkdown().toUtf8(); });
    });
    m_exportCsv = button(tr("Export CSV…"), [this] {
        exportShown(tr("Export benchmark as CSV"), u"benchmark.csv"_s, tr("CSV (*.csv)"), [this] { return shownCsv(); });
    });
    m_copy = button(tr("Copy as Markdown"), &BenchmarkView::copyMarkdown);
    m_delete = button(tr("Delete run"), &BenchmarkView::deleteShownRun);
    bar->addWidget(m_exportMd);
    bar->addWidget(m_exportCsv);
    bar->addWidget(m_copy);
    bar->addWidget(m_delete);
    return bar;
}

void BenchmarkView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (!m_running)
        refreshTargets();
}

// ---- targets and plan ----

void BenchmarkView::setRemoteGateway(const QString &url, const QString &key, const QByteArray &pin)
{
    m_targets->setRemoteGateway(bench::Target{u"gateway"_s, url, QString(), key, pin});
}

void BenchmarkView::refreshTargets()
{
    m_targets->refresh();
}

void BenchmarkView::setCheckedTargets(const QStringList &labels)
{
    m_targets->setCheckedTargets(labels);
}

QStringList BenchmarkView::targetLabels() const
{
    return m_targets->targetLabels();
}

bench::BenchmarkPlan BenchmarkView::currentPlan() const
{
    bench::BenchmarkPlan plan;
    plan.targets = m_targets->checkedTargets();
    m_suite->applyTo(plan);
    return plan;
}

void BenchmarkView::setPlanSettings(const bench::BenchmarkPlan &plan)
{
    m_suite->setFrom(plan);
}

// ---- running ----

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
    m_runClock.start();
    m_msLeft = -1;
    m_tick->start();
    m_time->show();
    updateProgressText();
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
    m_targets->setEditable(!running);
    m_suite->setRunning(running);
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

void BenchmarkView::onTimeLeft(qint64 ms)
{
    m_msLeft = ms;
    m_sinceEstimate.start();
    updateProgressText();
}

// "1 min 05 s so far, about 3 min 20 s left": a long run says how long it still takes.
void BenchmarkView::updateProgressText()
{
    if (!m_running)
        return;
    const QString elapsed = durationText(m_runClock.elapsed());
    if (m_msLeft < 0) {
        m_time->setText(tr("%1 so far").arg(elapsed));
        return;
    }
    const qint64 left = std::max<qint64>(m_msLeft - m_sinceEstimate.elapsed(), 0);
    m_time->setText(tr("%1 so far, about %2 left").arg(elapsed, durationText(left)));
}

QString BenchmarkView::timeText() const
{
    return m_time->isHidden() ? QString() : m_time->text();
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
    m_tick->stop();
    m_time->hide();
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
        m_status->setText(tr("Done in %1.").arg(durationText(qint64(results.durationMs))));
        emit runFinished(results);
    }
}

void BenchmarkView::updateButtons()
{
    if (!m_run)
        return;
    m_run->setEnabled(!m_running && m_targets->anyChecked());
    m_cancel->setEnabled(m_running);
    const bool anyShown = !shownRuns().isEmpty();
    m_exportMd->setEnabled(anyShown);
    m_exportCsv->setEnabled(anyShown);
    m_copy->setEnabled(anyShown);
    m_delete->setEnabled(!m_running && !m_shownId.isEmpty() && !(m_live && m_live->id == m_shownId));
}

// ---- kept runs ----

void BenchmarkView::setHistoryPath(const QString &path)
{
    m_history.setPath(path);
    loadHistory();
    m_shownId = runs().isEmpty() ? QString() : runs().first().id;
    m_compareId.clear();
    rebuildRunPickers();
    render();
}

void BenchmarkView::loadHistory()
{
    if (!m_history.load()) {
        m_status->setText(tr("Kept benchmark runs could not be read (%1); new runs replace the file.")
                              .arg(QDir::toNativeSeparators(m_history.path())));
        return;
    }
    if (!runs().isEmpty() && m_shownId.isEmpty())
        m_shownId = runs().first().id;
}

void BenchmarkView::storeRun(const bench::BenchmarkResults &results)
{
    reportIfNotKept(m_history.add(results));
}

void BenchmarkView::reportIfNotKept(const Expected<bool, QString> &saved)
{
    if (!saved)
        m_status->setText(tr("Could not keep the run in %1: %2").arg(QDir::toNativeSeparators(m_history.path()), saved.error()));
}

void BenchmarkView::deleteShownRun()
{
    if (m_shownId.isEmpty() || m_running)
        return;
    reportIfNotKept(m_history.remove(m_shownId));
    if (m_compareId == m_shownId)
        m_compareId.clear();
    m_shownId = runs().isEmpty() ? QString() : runs().first().id;
    rebuildRunPickers();
    render();
}

// ---- what is shown ----

void BenchmarkView::rebuildRunPickers()
{
    m_updatingPickers = true;
    m_shown->clear();
    m_compare->clear();
    m_compare->addItem(tr("(nothing)"), QString());
    if (m_live)
        m_shown->addItem(tr("Running: %1").arg(runTitle(*m_live)), m_live->id);
    for (const bench::BenchmarkResults &r : runs()) {
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
        for (const bench::BenchmarkResults &r : runs()) {
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

void BenchmarkView::render()
{
    const QList<bench::BenchmarkResults> shown = shownRuns();
    m_tables->showRuns(shown);
    m_charts->showRuns(shown);
    m_tables->setSummary(summary(shown));
    updateButtons();
}

QString BenchmarkView::summary(const QList<bench::BenchmarkResults> &shown) const
{
    if (shown.isEmpty()) {
        return tr("No results yet. On the demo, <i>Article's tables + sweep</i> over both nodes and the gateway "
                  "reproduces the article's tables and adds the saturation curve.");
    }
    const bench::BenchmarkResults &r = shown.first();
    QString text = tr("%1 — took %2 s").arg(runTitle(r)).arg(r.durationMs / 1000.0, 0, 'f', 1);
    if (m_live && m_live->id == r.id)
        text = tr("Running: %1 — results appear as each test finishes").arg(runTitle(r));
    if (shown.size() > 1)
        text += u"<br>"_s % tr("compared with %1").arg(runTitle(shown[1]));
    return text;
}

// ---- export ----

void BenchmarkView::exportShown(const QString &title, const QString &fileName, const QString &filter,
                                const std::function<QByteArray()> &data)
{
    const QString path = QFileDialog::getSaveFileName(this, title, fileName, filter);
    if (path.isEmpty())
        return;
    QSaveFile f(path); // what is shown when the dialog closes (a run may have moved on meanwhile)
    if (!f.open(QIODevice::WriteOnly) || f.write(data()) < 0 || !f.commit())
        QMessageBox::warning(this, tr("Export failed"), tr("Could not write %1: %2").arg(path, f.errorString()));
}

void BenchmarkView::copyMarkdown()
{
    QApplication::clipboard()->setText(shownMarkdown());
    m_status->setText(tr("The shown results are on the clipboard as Markdown."));
}

} // namespace switchyard::ui
