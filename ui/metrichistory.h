#pragma once

// The history behind one chart line: samples averaged into fixed-size buckets at three resolutions,
// one per chart window (1 min of 1 s buckets, 15 min of 5 s buckets, 1 h of 20 s buckets), each kept in
// a bounded ring. Adding a sample is O(1); reading a window yields at most ~180 points.

#include "ringbuffer.h"

#include <QList>
#include <QPointF>
#include <array>
#include <optional>

namespace switchyard::ui {

enum class TimeWindow { OneMinute, FifteenMinutes, OneHour };

struct WindowSpec
{
    qint64 spanMs;
    qint64 bucketMs;
};
WindowSpec windowSpec(TimeWindow window);

class MetricHistory final
{
public:
    MetricHistory();

    // Samples must come in non-decreasing time order (older ones are folded into the newest bucket).
    void add(qint64 timeMs, double value);
    // The bucket averages whose buckets overlap [nowMs - span, nowMs], oldest first;
    // x = the bucket's middle (not past nowMs) in ms since the epoch, y = the average.
    QList<QPointF> points(TimeWindow window, qint64 nowMs) const;
    std::optional<double> latest() const { return m_latest; }
    qint64 latestTimeMs() const { return m_latestMs; }

private:
    struct Bucket
    {
        qint64 startMs = 0;
        double sum = 0;
        int count = 0;
    };
    std::array<RingBuffer<Bucket>, 3> m_rings;
    std::optional<double> m_latest;
    qint64 m_latestMs = 0;
};

} // namespace switchyard::ui
