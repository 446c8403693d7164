#pragma once

// The Benchmark tab's tables: a summary line, then the single requests and the parallel round in the
// shapes of the article's tables, and the concurrency sweep (plotted beside them). Several runs are shown
// side by side, each row labelled with its run's time.
//
// They sit beside the charts in a 1280-pixel-wide window: the numbers size to their contents, the target
// column takes what is left (elided, whole in its tooltip), the percentiles beyond P95 and a round's
// total time are in the tooltips (the exports have every column), and a table the run has no rows for is
// not shown.

#include "bench/benchtypes.h"

#include <QWidget>

class QLabel;
class QTableWidget;

namespace switchyard::ui {

class BenchmarkResultTables final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BenchmarkResultTables)

public:
    explicit BenchmarkResultTables(QWidget *parent = nullptr);

    // Fills the tables from these runs (the first is the one shown, the others compared with it).
    void showRuns(const QList<bench::BenchmarkResults> &runs);
    void setSummary(const QString &text);

    QTableWidget *singlesTable() const { return m_singles; }
    QTableWidget *concurrencyTable() const { return m_concurrency; }
    QTableWidget *sweepTable() const { return m_sweep; }

private:
    void fillSingles(const QList<bench::BenchmarkResults> &runs);
    void fillRounds(const QList<bench::BenchmarkResults> &runs);
    void addRound(QTableWidget *table, const QString &label, const bench::ConcurrencyResult &round);

    QLabel *m_summary;
    QTableWidget *m_singles;
    QLabel *m_concurrencyTitle;
    QTableWidget *m_concurrency;
    QLabel *m_sweepTitle;
    QTableWidget *m_sweep;
};

} // namespace switchyard::ui
