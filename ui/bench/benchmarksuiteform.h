#pragma once

// The Benchmark tab's "Suite" box: which tests a run makes and how many requests each sends — the single
// requests and the parallel round of the article's tables, the concurrency sweep, or both — and the API
// the requests speak (chat completions or the Responses API).

#include "bench/benchtypes.h"

#include <QGroupBox>

class QComboBox;
class QSpinBox;

namespace switchyard::ui {

class BenchmarkSuiteForm final : public QGroupBox
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BenchmarkSuiteForm)

public:
    explicit BenchmarkSuiteForm(QWidget *parent = nullptr);

    // Writes the form's settings into plan (its targets untouched).
    void applyTo(bench::BenchmarkPlan &plan) const;
    // Shows a plan's settings (the levels' top picks the sweep's end).
    void setFrom(const bench::BenchmarkPlan &plan);
    // While a run goes on nothing can be changed; otherwise only what the chosen suite uses.
    void setRunning(bool running);

private:
    void updateEnabled();

    bool m_running = false;
    QComboBox *m_suite;
    QSpinBox *m_repetitions;
    QSpinBox *m_concurrency;
    QComboBox *m_sweepMax;
    QSpinBox *m_sweepTokens;
    QSpinBox *m_warmup;
    QComboBox *m_api;
};

} // namespace switchyard::ui
