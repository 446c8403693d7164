#include "metrichistory.h"

namespace switchyard::ui {

WindowSpec windowSpec(TimeWindow window)
{
    switch (window) {
    case TimeWindow::OneMinute:
        return {60'000, 1'000};
    case TimeWindow::FifteenMinutes:
        return {15 * 60'000, 5'000};
    case TimeWindow::OneHour:
        return {60 * 60'000, 20'000};
    }
    return {60'000, 1'000};
}

namespace {
constexpr std::array<TimeWindow, 3> AllWindows{TimeWindow::OneMinute, TimeWindow::FifteenMinutes, TimeWindow::OneHour};

qsizetype ringCapacity(TimeWindow w)
{
    const WindowSpec s = windowSpec(w);
    return qsizetype(s.spanMs / s.bucketMs) + 2; // a partial bucket at each end
}
} // namespace

MetricHistory::MetricHistory()
    : m_rings{RingBuffer<Bucket>(ringCapacity(TimeWindow::OneMinute)),
              RingBuffer<Bucket>(ringCapacity(TimeWindow::FifteenMinutes)),
              RingBuffer<Bucket>(ringCapacity(TimeWindow::OneHour))}
{
}

void MetricHistory::add(qint64 timeMs, double value)
{
    m_latest = value;
    m_latestMs = timeMs;
    for (size_t i = 0; i < AllWindows.size(); ++i) {
        const qint64 bucketMs = windowSpec(AllWindows[i]).bucketMs;
        const qint64 start = timeMs - (timeMs % bucketMs);
        RingBuffer<Bucket> &ring = m_rings[i];
        if (!ring.isEmpty() && ring.back().startMs >= start) {
            ring.back().sum += value;
            ++ring.back().count;
        } else {
            ring.push({start, value, 1});
        }
    }
}

QList<QPointF> MetricHistory::points(TimeWindow window, qint64 nowMs) const
{
    const WindowSpec spec = windowSpec(window);
    const RingBuffer<Bucket> &ring = m_rings[size_t(window)];
    QList<QPointF> out;
    out.reserve(ring.size());
    const qint64 from = nowMs - spec.spanMs;
    for (qsizetype i = 0; i < ring.size(); ++i) {
        const Bucket &b = ring.at(i);
        if (b.startMs + spec.bucketMs <= from || b.count == 0)
            continue;
        const qint64 x = qMin(b.startMs + spec.bucketMs / 2, nowMs);
        out.append(QPointF(double(x), b.sum / b.count));
    }
    return out;
}

} // namespace switchyard::ui
