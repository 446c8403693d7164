#pragma once

// The Charts view's day and week: the gateway's lasting history summed per bucket (GET
// /api/history/rollups; docs/HISTORY.md), where the live charts reach back an hour at most. Three charts:
// requests/s with failed requests/s, output tokens/s, and mean latency with mean time to first token
// (the sums keep means, not percentiles). 24 hours in 5-minute buckets, 7 days in hourly ones: at most
// 288 points a line. "Split by" draws one line per node, model or key instead (the busiest eight and the
// rest as one, as the gateway sums them). Asked through the window's GatewayLink (rollupsRequested →
// showResult), again every minute while shown; the view only draws what the link answers.

#include "link/gatewaylink.h"

#include <QHash>
#include <QWidget>
#include <functional>
#include <vector>

class QChart;
class QComboBox;
class QDateTimeAxis;
class QLabel;
class QLineSeries;
class QXYSeries;
class QTimer;
class QValueAxis;

namespace switchyard::ui {

class HistoryCharts final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HistoryCharts)

public:
    enum class Span { Day, Week };
    static constexpr int RefreshIntervalMs = 60'000;

    explicit HistoryCharts(QWidget *parent = nullptr);

    Span span() const { return m_span; }
    // Shows another span and asks for it.
    void setSpan(Span span);
    history::RollupSplit split() const { return m_split; }
    // Draws one series per node, model or key (or None: the whole gateway) and asks again.
    void setSplit(history::RollupSplit split);
    // Asks for the current span again (at once; the timer does it every minute while shown).
    void refresh();
    // An answer from the link; answers to questions since replaced are dropped.
    void showResult(const link::RollupsResult &result);
    // "Now" (tests move it).
    void setClock(std::function<qint64()> nowMs) { m_nowMs = std::move(nowMs); }

    // One row per bucket shown (history/rollupcsv): bucket_start_utc, then when split the node, model
    // or key, requests, errors, client_errors, prompt_tokens, completion_tokens, mean_duration_ms,
    // mean_ttft_ms.
    bool exportCsv(const QString &path, QString *error = nullptr) const;

    // Series ids: "requests", "errors", "tokens" (lines), "latency", "ttft" (points: a mean exists only
    // where a bucket had requests, and a line would draw one across the empty ones). Split, one per
    // group instead: "requests:<group>", "tokens:<group>", "latency:<group>" (a key's group is its id,
    // "" for requests without a key).
    QXYSeries *series(const QString &id) const;
    QLabel *statusLabel() const { return m_status; }
    const std::vector<history::RollupPoint> &points() const { return m_points; }

signals:
    void rollupsRequested(quint64 ticket, const switchyard::history::RollupQuery &query);

protected:
    void showEvent(QShowEvent *event) override;

private:
    struct Panel
    {
        QChart *chart = nullptr;
        QDateTimeAxis *x = nullptr;
        QValueAxis *y = nullptr;
    };
    Panel makePanel(const QString &title, const QString &yTitle);
    QXYSeries *addLine(Panel &panel, const QString &id, const QString &name, const QColor &color,
                       bool points);
    void redraw();
    // Split: the per-group series for these groups, made anew when the groups changed.
    void showGroups(const QStringList &groups, const QHash<QString, QString> &names);
    QString groupLabel(const QString &group) const;

    Span m_span = Span::Day;
    history::RollupSplit m_split = history::RollupSplit::None;
    QComboBox *m_splitBox;
    QStringList m_groups; // of the per-group series shown ("requests:<group>", …)
    QHash<QString, QString> m_groupNames; // split by key: the keys' names by id, for the legend
    Panel m_panels[3];
    QHash<QString, QXYSeries *> m_series;
    QLabel *m_status;
    QTimer *m_timer;
    std::function<qint64()> m_nowMs;
    quint64 m_ticket = 0;
    bool m_waiting = false;
    history::RollupQuery m_shownQuery;
    std::vector<history::RollupPoint> m_points;
};

} // namespace switchyard::ui
