#pragma once

// The Benchmark tab: pick targets (each node directly and the gateway's pool), a suite (the article's
// single requests at 20/100/300 tokens plus 5 parallel; a concurrency sweep; or both), run it with a
// progress bar and Cancel, and read the results in the article's table shapes side by side, with the sweep
// plotted as throughput and latency against concurrency per target. Runs are kept (bench::BenchmarkHistory,
// JSON under AppDataLocation) so a new run can be compared with an older one; the shown runs export as
// Markdown or CSV.
//
// The parts live in files of their own: the targets box (benchmarktargetpicker), the suite box
// (benchmarksuiteform), the tables (benchmarkresulttables) and the sweep charts (benchmarksweepcharts);
// this file runs the benchmark and picks which runs they show.
//
// The runner (bench::BenchmarkRunner) works on its own thread: repainting tables and charts on the GUI
// thread never delays a timestamp.

#include "bench/benchhistory.h"
#include "bench/benchtypes.h"

#include <QElapsedTimer>
#include <QWidget>
#include <functional>

class QChart;
class QComboBox;
class QGroupBox;
class QHBoxLayout;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;
class QTabWidget;
class QThread;
class QTimer;
class QToolButton;

namespace switchyard {
class Gateway;
namespace bench {
class BenchmarkRunner;
}
} // namespace switchyard

namespace switchyard::ui {

class BenchmarkResultTables;
class BenchmarkSuiteForm;
class BenchmarkSweepCharts;
class BenchmarkTargetPicker;
class MultiTurnPanel;

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
    QString historyPath() const { return m_history.path(); }
    static QString defaultHistoryPath();

    // Re-reads the nodes and the gateway's pool (also done when the gateway starts or stops, and when the
    // view is shown). Check states are kept for targets still there.
    void refreshTargets();
    // A remote gateway (not this process's): measured through its URL with key (and, for https://, the
    // certificate pin the operator trusted for it).
    void setRemoteGateway(const QString &url, const QString &key, const QByteArray &pin = {});
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
    // While running: how long it has taken and, once it can be estimated, how long it still takes.
    QString timeText() const;

    // Stored runs, newest first, and what the tables show.
    const QList<bench::BenchmarkResults> &runs() const { return m_history.runs(); }
    void showRun(const QString &id, const QString &compareWithId = {});
    QList<bench::BenchmarkResults> shownRuns() const;
    QString shownMarkdown() const;
    QByteArray shownCsv() const;

    QTableWidget *singlesTable() const;
    QTableWidget *concurrencyTable() const;
    QTableWidget *sweepTable() const;
    QChart *throughputChart() const;
    QChart *latencyChart() const;
    // The "Multi-turn conversations" page, and showing it.
    MultiTurnPanel *multiTurnPanel() const { return m_multiTurn; }
    void showMultiTurn();

signals:
    void runningChanged(bool running);
    void runFinished(const switchyard::bench::BenchmarkResults &results);
    void runCancelled(const switchyard::bench::BenchmarkResults &partial);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void buildUi();
    QGroupBox *buildRunBox();
    QHBoxLayout *buildResultsBar();
    void setRunning(bool running);
    void onProgress(int done, int total, const QString &label);
    void onTimeLeft(qint64 ms);
    void updateProgressText();
    void onUpdated(const bench::BenchmarkResults &results);
    void onEnded(const bench::BenchmarkResults &results, bool cancelled);
    void storeRun(const bench::BenchmarkResults &results);
    void loadHistory();
    void rebuildRunPickers();
    void render();
    QString summary(const QList<bench::BenchmarkResults> &runs) const;
    void reportIfNotKept(const Expected<bool, QString> &saved);
    void exportShown(const QString &title, const QString &fileName, const QString &filter,
                     const std::function<QByteArray()> &data);
    void copyMarkdown();
    void deleteShownRun();
    void updateButtons();

    Gateway *m_gateway;
    QThread *m_thread;
    bench::BenchmarkRunner *m_runner;
    bool m_running = false;
    bench::BenchmarkHistory m_history;

    std::optional<bench::BenchmarkResults> m_live; // the run in progress
    QString m_shownId;
    QString m_compareId;

    BenchmarkTargetPicker *m_targets = nullptr;
    BenchmarkSuiteForm *m_suite = nullptr;
    QPushButton *m_run = nullptr;
    QPushButton *m_cancel = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_time = nullptr;
    QComboBox *m_shown = nullptr;
    QComboBox *m_compare = nullptr;
    QToolButton *m_exportMd = nullptr;
    QToolButton *m_exportCsv = nullptr;
    QToolButton *m_copy = nullptr;
    QToolButton *m_delete = nullptr;
    BenchmarkResultTables *m_tables = nullptr;
    BenchmarkSweepCharts *m_charts = nullptr;
    MultiTurnPanel *m_multiTurn = nullptr;
    QTabWidget *m_pages = nullptr;
    bool m_updatingPickers = false;
    // The run's clock and the runner's last estimate of what is left (counted down between estimates).
    QElapsedTimer m_runClock;
    QElapsedTimer m_sinceEstimate;
    qint64 m_msLeft = -1;
    QTimer *m_tick = nullptr;
};

} // namespace switchyard::ui
