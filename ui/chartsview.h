#pragma once

// Live charts of what a GatewayLink reports: output tokens/s per node and in total, requests/s with
// failed requests/s and failed attempts/s (failovers included), latency p50/p95 (and time to first token p95), queue depth per node. Each status the link
// delivers adds a point to every line (the gateway's own rates and windowed percentiles); the past is
// filled from the gateway's per-second history (fetchHistory) when a link attaches or comes back, once
// the view is shown, so a panel attached to a gateway that ran for an hour shows that hour. Every point
// goes into a MetricHistory (bounded, averaged per window); the lines are redrawn with replace() from a
// coalescing timer (2 Hz for the 1 min window, slower for the long ones), never per status, and not
// while paused. Animations are off. Each chart's legend is a wrapping label below it (names are never cut);
// clicking an entry hides or shows its line. The fifth chart is each node's prefix-cache hit rate as the node's
// own vLLM counters give it (the gateway reads them; the view computes nothing).

#include "link/gatewaylink.h"
#include "metrichistory.h"
#include "ringbuffer.h"
#include "stats/secondshistory.h"

#include <QPointer>

#include <QHash>
#include <QWidget>

class QChart;
class QChartView;
class QComboBox;
class QDateTimeAxis;
class QLabel;
class QLineSeries;
class QStackedWidget;
class QTimer;
class QToolButton;
class QValueAxis;

namespace switchyard::ui {

class HistoryCharts;

class ChartsView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ChartsView)

public:
    enum class Chart { Tokens, Requests, Latency, Queue, CacheHits };
    static constexpr int ChartCount = 5;

    explicit ChartsView(QWidget *parent = nullptr);
    ~ChartsView() override;

    // Follows a link: its statuses become points, its history fills the past (fetched when the view is
    // shown). Null detaches. The link must outlive the view or be detached first.
    void setLink(link::GatewayLink *gatewayLink);
    // Records a status into the histories (timeMs: when it arrived); the lines follow at the next refresh.
    void addStatus(const link::GatewayStatus &status, qint64 timeMs);
    // The per-second history of one series (a node's name or SecondsHistory::GatewaySeries), oldest
    // first: it replaces the points its lines have up to its last second; newer live points stay.
    void fillHistory(const QString &series, const QList<stats::SecondSample> &samples);
    // Asks the link for the last hour of every series shown (done by itself when shown after a link
    // attached or came back).
    void requestHistory();
    bool historyPending() const { return m_needsHistory; }

    void setWindow(TimeWindow window);
    TimeWindow window() const { return m_window; }
    void setPaused(bool paused);
    bool isPaused() const { return m_paused; }

    // Redraws every line now (what the timer does when new samples arrived).
    void refreshNow();

    QChart *chart(Chart which) const;
    // Series ids: "tokens/total", "tokens/node/<name>", "requests/total", "requests/errors",
    // "requests/failed-attempts", "latency/p50", "latency/p95", "latency/ttft-p95", "queue/inflight/<name>",
    // "queue/waiting/<name>", "cache/hits/<name>" (the node's own prefix-cache hit rate, %; nodes with the counters).
    QStringList seriesIds() const;
    QLineSeries *series(const QString &id) const;
    const MetricHistory *history(const QString &id) const;

    // The day and week charts from the gateway's lasting history (the window box's last two entries).
    HistoryCharts *historyCharts() const { return m_historyCharts; }

    bool exportPng(const QString &path) const;
    // One row per point of every line in the current window: series,time (ISO 8601, UTC),value.
    bool exportCsv(const QString &path, QString *error = nullptr) const;

protected:
    void showEvent(QShowEvent *event) override;

private:
    // Which number of a per-second history sample a line draws.
    enum class Field { None, CompletionTokens, Requests, Errors, FailedAttempts, LatencyP50, LatencyP95, InFlight, PrefixHits };
    struct Source
    {
        QString series; // the history series (node name or "*"); empty: live only
        Field field;    // (no default member initialiser: GCC 12 rejects `= {}` arguments of such a type)
    };
    static constexpr qsizetype LivePointsKept = 128; // ~30 s of statuses: what a history fill keeps
    struct Line
    {
        Chart chart;
        QString label;
        QLineSeries *series = nullptr;
        MetricHistory history;
        Source source;
        RingBuffer<QPointF> live{LivePointsKept};
    };
    struct Panel
    {
        QChart *chart = nullptr;
        QChartView *view = nullptr;
        QDateTimeAxis *x = nullptr;
        QValueAxis *y = nullptr;
        QLabel *legend = nullptr; // below the chart, wrapping: the names are never cut
        double scale = 1; // y = value * scale (latency is kept in ms, shown in s)
    };

    Line &line(const QString &id, Chart chart, const QString &label, const QColor &color, qreal width = 2,
               Qt::PenStyle style = Qt::SolidLine, const Source &source = Source{QString(), Field::None});
    void record(Line &line, double value);
    void updateLegend(Chart chart);
    void toggleLine(const QString &link);
    static std::optional<double> valueOf(const stats::SecondSample &sample, Field field);
    QColor nodeColor(const QString &node);
    void exportPngInteractive();
    void exportCsvInteractive();
    void updateTimerInterval();

    QHash<QString, Line *> m_lines;
    QStringList m_order;
    Panel m_panels[ChartCount];
    QHash<QString, int> m_nodeIndex;
    QWidget *m_grid = nullptr;
    // The window box's entries beyond TimeWindow: the day and the week from the lasting history.
    static constexpr int HistoryDay = 100;
    static constexpr int HistoryWeek = 101;
    QStackedWidget *m_pages = nullptr; // the live charts, or the history's
    HistoryCharts *m_historyCharts = nullptr;
    QComboBox *m_windowBox = nullptr;
    QToolButton *m_pauseButton = nullptr;
    QLabel *m_status = nullptr;
    QTimer *m_refresh = nullptr;
    TimeWindow m_window = TimeWindow::OneMinute;
    bool m_paused = false;
    bool m_dirty = false;
    qint64 m_lastSampleMs = 0;
    QPointer<link::GatewayLink> m_link;
    QList<QMetaObject::Connection> m_linkConnections;
    std::optional<link::GatewayStatus> m_lastStatus;
    bool m_needsHistory = false;
    link::LinkState m_linkState = link::LinkState::Connecting;
};

} // namespace switchyard::ui
