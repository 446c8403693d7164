#pragma once

// The Benchmark tab's two sweep charts: throughput and latency against the number of parallel requests,
// a line per target, so the operator sees where each node (and the gateway's pool) saturates. A compared
// run is drawn dashed in its target's colour. A run without a sweep (the article's suite) shows what it
// did measure instead: the single requests' throughput and latency per answer length, a bar per target.
// Titles stay short (a chart cuts a long one); what the lines or bars are is said in a line above them.

#include "bench/benchtypes.h"

#include <QWidget>

class QChart;
class QLabel;
class QLineSeries;

namespace switchyard::ui {

class BenchmarkSweepCharts final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BenchmarkSweepCharts)

public:
    explicit BenchmarkSweepCharts(QWidget *parent = nullptr);

    // Plots the sweeps of these runs (the first is the one shown, the second, if any, is dashed).
    void showRuns(const QList<bench::BenchmarkResults> &runs);

    QChart *throughputChart() const { return m_throughput; }
    QChart *latencyChart() const { return m_latency; }

private:
    // A target's sweep as one line in each chart, and the ranges the axes must cover.
    struct Lines
    {
        QList<QPair<QLineSeries *, QLineSeries *>> series; // (throughput, latency) per target and run
        double maxRate = 0;
        double maxLatency = 0; // seconds
        int maxLevel = 1;
        int sweepTokens = 0;
    };
    static Lines makeLines(const QList<bench::BenchmarkResults> &runs);
    void clear();
    void addAxes(const Lines &lines);
    void addSeries(const Lines &lines);
    void setTitles(const QList<bench::BenchmarkResults> &runs, const Lines &lines);
    // No sweep in the runs: their single requests as bars; false when there are none either.
    bool showSingles(const QList<bench::BenchmarkResults> &runs);

public:
    QString noteText() const;

private:
    QLabel *m_note;
    QChart *m_throughput;
    QChart *m_latency;
};

} // namespace switchyard::ui
