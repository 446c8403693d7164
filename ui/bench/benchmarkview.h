#pragma once

// The Benchmark tab: pick targets (each node directly and the gateway's pool), a suite (the seed's single
// requests at 20/100/300 tokens plus 5 parallel; a concurrency sweep; or both), run it with a progress bar
// and Cancel, and read the results in the seed's table shapes side by side, with the sweep plotted as
// throughput and latency against concurrency per target. Runs are kept (JSON under AppDataLocation) so a
// new run can be compared with an older one; the shown runs export as Markdown or CSV.
//
// The runner (bench::BenchmarkRunner) works on its own thread: repainting tables and charts on the GUI
// thread never delays a timestamp.

#include "bench/benchtypes.h"

#include <QWidget>

class QCheckBox;
class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QThread;
class QToolButton;

namespace switchyard {
class Gateway;
namespace bench {
class BenchmarkRunner;
}
} // namespace switchyard

namespace switchyard::ui {

class BenchmarkView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BenchmarkView)

public:
    // The gateway must outlive the view. gateway may be null (direct URLs only).
    explicit BenchmarkView(Gateway *gateway, QWidget *parent = nullptr);
    ~BenchmarkView() override; // cancels a run and joins the runner's thread

    // Where runs are kept; default <AppDataLocation>/benchmarks.json. Empty: not kept on disk. Setting it
    // loads the runs stored there.
    void setHistoryPath(const QString &path);
    QString historyPath() const { return m_historyPath; }
    static QString defaultHistoryPath();

    // Re-reads the nodes and the gateway's pool (also done when the gateway starts or stops, and when the
    // view is shown). Check states are kept for targets still there.
    void refreshTargets();
    // Checks exactly the targets whose labels are given (all when empty).
    void setCheckedTargets(const QStringList &labels = {});
    QStringList targetLabels() const;

    // The plan the controls describe (checked targets, suite, repetitions, …).
    bench::BenchmarkPlan currentPlan() const;
    // The controls' suite settings from a plan (targets excluded).
    void setPlanSettings(const bench::BenchmarkPlan &plan);

    // Run as if Run was clicked; false when a run is going or no target is checked.
    bool startRun();
    bool startRun(const bench::BenchmarkPlan &plan);
    void cancelRun();
    bool isRunning() const { return m_running; }

    // Stored runs, newest first, and what the tables show.
    const QList<bench::BenchmarkResults> &runs() const { return m_runs; }
    void showRun(const QString &id, const QString &compareWithId = {});
    QList<bench::BenchmarkResults> shownRuns() const;
    QString shownMarkdown() const;
    QByteArray shownCsv() const;

    QTableWidget *singlesTable() const { return m_singles; }
    QTableWidget *concurrencyTable() const { return m_concurrency; }
    QTableWidget *sweepTable() const { return m_sweep; }
    QChart *throughputChart() const { return m_throughputChart; }
    QChart *latencyChart() const { return m_latencyChart; }

signals:
    void runningChanged(bool running);
    void runFinished(const switchyard::bench::BenchmarkResults &results);
    void runCancelled(const switchyard::bench::BenchmarkResults &partial);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void buildUi();
    void setRunning(bool running);
    void onProgress(int done, int total, const QString &label);
    void onUpdated(const bench::BenchmarkResults &results);
    void onEnded(const bench::BenchmarkResults &results, bool cancelled);
    void addCustomTarget();
    void storeRun(const bench::BenchmarkResults &results);
    void loadHistory();
    void saveHistory();
    void rebuildRunPickers();
    void render();
    void renderTables(const QList<bench::BenchmarkResults> &runs);
    void renderCharts(const QList<bench::BenchmarkResults> &runs);
    void exportMarkdown();
    void exportCsv();
    void copyMarkdown();
    void deleteShownRun();
    void updateSuiteControls();
    void updateButtons();

    Gateway *m_gateway;
    QThread *m_thread;
    bench::BenchmarkRunner *m_runner;
    bool m_running = false;
    QString m_historyPath;

    QList<bench::BenchmarkResults> m_runs;  // newest first
    std::optional<bench::BenchmarkResults> m_live; // the run in progress
    QString m_shownId;
    QString m_compareId;

    QListWidget *m_targets = nullptr;
    QLineEdit *m_customUrl = nullptr;
    QComboBox *m_suite = nullptr;
    QSpinBox *m_repetitions = nullptr;
    QSpinBox *m_concurrencyBox = nullptr;
    QComboBox *m_sweepMax = nullptr;
    QSpinBox *m_sweepTokens = nullptr;
    QSpinBox *m_warmup = nullptr;
    QPushButton *m_run = nullptr;
    QPushButton *m_cancel = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    QComboBox *m_shown = nullptr;
    QComboBox *m_compare = nullptr;
    QToolButton *m_exportMd = nullptr;
    QToolButton *m_exportCsv = nullptr;
    QToolButton *m_copy = nullptr;
    QToolButton *m_delete = nullptr;
    QLabel *m_summary = nullptr;
    QTableWidget *m_singles = nullptr;
    QTableWidget *m_concurrency = nullptr;
    QTableWidget *m_sweep = nullptr;
    QLabel *m_concurrencyTitle = nullptr;
    QChart *m_throughputChart = nullptr;
    QChart *m_latencyChart = nullptr;
    QChartView *m_throughputView = nullptr;
    QChartView *m_latencyView = nullptr;
    bool m_updatingPickers = false;
};

} // namespace switchyard::ui
