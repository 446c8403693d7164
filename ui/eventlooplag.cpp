#include "eventlooplag.h"

#include <algorithm>
#include <cstdio>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

void LagStats::add(double lateMs)
{
    lateMs = std::max(0.0, lateMs);
    if (int(m_window.size()) < m_capacity) {
        m_window.push_back(lateMs);
    } else {
        m_window[size_t(m_next)] = lateMs;
        m_next = (m_next + 1) % m_capacity;
    }
    ++m_total;
    m_totalMax = std::max(m_totalMax, lateMs);
}

double LagStats::percentile(double q) const
{
    if (m_window.empty())
        return 0;
    std::vector<double> sorted = m_window;
    // Nearest rank: the smallest sample with at least q of the samples at or below it.
    const size_t rank = size_t(std::clamp(q, 0.0, 1.0) * double(sorted.size()) + 0.999999);
    const size_t index = std::clamp<size_t>(rank, 1, sorted.size()) - 1;
    std::nth_element(sorted.begin(), sorted.begin() + qsizetype(index), sorted.end());
    return sorted[index];
}

double LagStats::windowMax() const
{
    return m_window.empty() ? 0 : *std::max_element(m_window.begin(), m_window.end());
}

EventLoopLagProbe::EventLoopLagProbe(QObject *parent) : QObject(parent)
{
    m_report = qEnvironmentVariableIntValue("SWITCHYARD_LAG_REPORT") != 0;
    m_timer.setTimerType(Qt::PreciseTimer);
    m_timer.setInterval(IntervalMs);
    connect(&m_timer, &QTimer::timeout, this, &EventLoopLagProbe::tick);
    m_clock.start();
    m_timer.start();
}

EventLoopLagProbe::~EventLoopLagProbe()
{
    if (m_report) {
        std::fprintf(stderr, "LAG ticks=%lld p50_ms=%.1f p99_ms=%.1f max_ms=%.1f\n",
                     static_cast<long long>(m_whole.totalCount()), m_whole.percentile(0.5),
                     m_whole.percentile(0.99), m_whole.totalMax());
        std::fflush(stderr);
    }
}

void EventLoopLagProbe::tick()
{
    const qint64 now = m_clock.nsecsElapsed();
    if (m_lastNs >= 0) {
        const double lateMs = double(now - m_lastNs) / 1e6 - IntervalMs;
        m_recent.add(lateMs);
        m_whole.add(lateMs);
        emit sampled();
    }
    m_lastNs = now;
}

QString EventLoopLagProbe::summary() const
{
    return tr("Event-loop lag over the last %n tick(s) of %1 ms: p50 %2 ms, p99 %3 ms, max %4 ms", nullptr,
              m_recent.windowSize())
        .arg(IntervalMs)
        .arg(m_recent.percentile(0.5), 0, 'f', 1)
        .arg(m_recent.percentile(0.99), 0, 'f', 1)
        .arg(m_recent.windowMax(), 0, 'f', 1);
}

EventLoopLagProbe *installLagProbeIfAsked(QObject *owner)
{
    if (qEnvironmentVariableIntValue("SWITCHYARD_LAG_REPORT") == 0)
        return nullptr;
    return new EventLoopLagProbe(owner);
}

} // namespace switchyard::ui
