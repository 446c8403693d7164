#pragma once

// How late the GUI thread's event loop runs a timer: a 50 ms precise timer whose lateness (time since
// the previous tick minus the interval) is kept in a bounded window. A late tick means every click,
// repaint and snapshot waited that long too, so the window's p99 is what "the panel stays fluid under
// load" is measured by. A developer's number, not the operator's: the probe runs only with
// SWITCHYARD_LAG_REPORT=1 in the environment, and prints the whole run's statistics to stderr when it
// ends (bench/perf/bench-guilag.sh, run by scripts/bench.sh, reads them).

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <vector>

namespace switchyard::ui {

// Percentiles over the most recent samples (a ring of fixed capacity), plus the maximum and count over
// everything ever added. Pure arithmetic, so it is tested without timers.
class LagStats final
{
public:
    explicit LagStats(int capacity = 1200) : m_capacity(qMax(1, capacity))
    {
        m_window.reserve(size_t(m_capacity));
    }

    void add(double lateMs);
    int windowSize() const { return int(m_window.size()); }
    qint64 totalCount() const { return m_total; }
    double totalMax() const { return m_totalMax; }
    // Nearest-rank percentile over the window, q in [0, 1]; 0 when empty.
    double percentile(double q) const;
    double windowMax() const;

private:
    int m_capacity;
    std::vector<double> m_window;
    int m_next = 0;
    qint64 m_total = 0;
    double m_totalMax = 0;
};

class EventLoopLagProbe final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EventLoopLagProbe)

public:
    static constexpr int IntervalMs = 50;

    explicit EventLoopLagProbe(QObject *parent = nullptr);
    ~EventLoopLagProbe() override;

    const LagStats &recent() const { return m_recent; } // the last minute
    const LagStats &whole() const { return m_whole; }   // the whole run (a larger window)
    // "p50 1 ms, p99 4 ms, max 12 ms over 1200 ticks"
    QString summary() const;

signals:
    void sampled();

private:
    void tick();

    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_lastNs = -1;
    LagStats m_recent{1200};
    LagStats m_whole{72000}; // an hour of ticks
    bool m_report = false;
};

// With SWITCHYARD_LAG_REPORT=1: a probe owned by owner (reporting when owner goes); else none.
EventLoopLagProbe *installLagProbeIfAsked(QObject *owner);

} // namespace switchyard::ui
