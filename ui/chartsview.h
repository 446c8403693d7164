#pragma once

// Live charts over the monitor's samples: output tokens/s per node and in total, requests/s and
// errors/s, latency p50/p95 (and time to first token p95), queue depth per node. Every sample goes
// into a MetricHistory (bounded, averaged per window); the lines are redrawn with replace() from a
// coalescing timer (2 Hz for the 1 min window, slower for the long ones), never per sample, and not
// while paused. Animations are off. Clicking a legend entry hides or shows its line.

#include "gatewaymonitor.h"
#include "metrichistory.h"

#include <QHash>
#include <QWidget>

class QChart;
class QChartView;
class QComboBox;
class QDateTimeAxis;
class QLabel;
class QLineSeries;
class QTimer;
class QToolButton;
class QValueAxis;

namespace switchyard::ui {

class ChartsView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ChartsView)

public:
    enum class Chart { Tokens, Requests, Latency, Queue };

    explicit ChartsView(QWidget *parent = nullptr);
    ~ChartsView() override;

    // Records a sample into the histories; the lines follow at the next refresh.
    void addSample(const MonitorSample &sample);

    void setWindow(TimeWindow window);
    TimeWindow window() const { return m_window; }
    void setPaused(bool paused);
    bool isPaused() const { return m_paused; }

    // Redraws every line now (what the timer does when new samples arrived).
    void refreshNow();

    QChart *chart(Chart which) const;
    // Series ids: "tokens/total", "tokens/node/<name>", "requests/total", "requests/errors",
    // "latency/p50", "latency/p95", "latency/ttft-p95", "queue/inflight/<name>", "queue/waiting/<name>".
    QStringList seriesIds() const;
    QLineSeries *series(const QString &id) const;
    const MetricHistory *history(const QString &id) const;

    bool exportPng(const QString &path) const;
    // One row per point of every line in the current window: series,time (ISO 8601, UTC),value.
    bool exportCsv(const QString &path, QString *error = nullptr) const;

protected:
    void showEvent(QShowEvent *event) override;

private:
    struct Line
    {
        Chart chart;
        QString label;
        QLineSeries *series = nullptr;
        MetricHistory history;
    };
    struct Panel
    {
        QChart *chart = nullptr;
        QChartView *view = nullptr;
        QDateTimeAxis *x = nullptr;
        QValueAxis *y = nullptr;
        double scale = 1; // y = value * scale (latency is kept in ms, shown in s)
    };

    Line &line(const QString &id, Chart chart, const QString &label, const QColor &color, qreal width = 2,
               Qt::PenStyle style = Qt::SolidLine);
    void record(const QString &id, Chart chart, const QString &label, const QColor &color, double value,
                qreal width = 2, Qt::PenStyle style = Qt::SolidLine);
    QColor nodeColor(const QString &node);
    void exportPngInteractive();
    void exportCsvInteractive();
    void updateTimerInterval();

    QHash<QString, Line *> m_lines;
    QStringList m_order;
    Panel m_panels[4];
    QHash<QString, int> m_nodeIndex;
    QWidget *m_grid = nullptr;
    QComboBox *m_windowBox = nullptr;
    QToolButton *m_pauseButton = nullptr;
    QLabel *m_status = nullptr;
    QTimer *m_refresh = nullptr;
    TimeWindow m_window = TimeWindow::OneMinute;
    bool m_paused = false;
    bool m_dirty = false;
    qint64 m_lastSampleMs = 0;
};

} // namespace switchyard::ui
