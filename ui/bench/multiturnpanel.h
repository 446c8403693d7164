#pragma once

// The Benchmark tab's "Multi-turn conversations" page: N conversations × M turns with a shared system
// prompt and a growing history (bench::MultiTurnRunner) against each checked target, one after the
// other, with its routing as configured. Runs accumulate as rows, so changing the gateway's strategy in
// the config and running again puts the strategies side by side (TTFT, latency, tok/s, prefix-cache hit
// rate and the request split per node, all from the answers). `switchyard --bench --suite multiturn`
// compares strategies on its own in-process gateway.
//
// The runner works on its own thread, as the article suite's does.

#include "bench/multiturntypes.h"

#include <QGroupBox>
#include <functional>

class QLabel;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QThread;

namespace switchyard::bench {
class MultiTurnRunner;
}

namespace switchyard::ui {

class MultiTurnPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MultiTurnPanel)

public:
    using Targets = std::function<QList<bench::Target>()>;
    using StrategyLabel = std::function<QString(const bench::Target &)>;

    MultiTurnPanel(Targets targets, StrategyLabel strategyLabel, QWidget *parent = nullptr);
    ~MultiTurnPanel() override; // cancels a run and joins the runner's thread

    // The settings of the form (target and strategy left empty).
    bench::MultiTurnPlan currentPlan() const;
    void setPlanSettings(const bench::MultiTurnPlan &plan);
    // Runs the checked targets one after the other; false when running or none is checked.
    bool startRun();
    void cancelRun();
    bool isRunning() const { return m_running; }

    const bench::MultiTurnResults &results() const { return m_results; }
    QTableWidget *table() const { return m_table; }
    QString markdown() const;

signals:
    void runningChanged(bool running);
    void runFinished(const switchyard::bench::MultiTurnRun &run);

private:
    QGroupBox *buildForm();
    void startNext();
    void onEnded(const bench::MultiTurnRun &run);
    void render();
    void setRunning(bool running);

    Targets m_targetsOf;
    StrategyLabel m_strategyOf;
    QThread *m_thread;
    bench::MultiTurnRunner *m_runner;
    bool m_running = false;
    QList<bench::MultiTurnPlan> m_queue; // the checked targets still to run
    bench::MultiTurnResults m_results;

    QSpinBox *m_conversations = nullptr;
    QSpinBox *m_turns = nullptr;
    QSpinBox *m_parallel = nullptr;
    QSpinBox *m_answerTokens = nullptr;
    QSpinBox *m_systemTokens = nullptr;
    QSpinBox *m_questionTokens = nullptr;
    QPushButton *m_run = nullptr;
    QPushButton *m_cancel = nullptr;
    QPushButton *m_clear = nullptr;
    QLabel *m_status = nullptr;
    QTableWidget *m_table = nullptr;
};

} // namespace switchyard::ui
