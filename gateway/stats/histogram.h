#pragma once

// A latency histogram with fixed buckets, updated lock-free from worker threads (one relaxed atomic
// add per sample) and read as snapshots. Percentiles interpolate linearly inside a bucket; the
// difference of two snapshots gives the distribution over the time between them.

#include <algorithm>
#include <array>
#include <atomic>
#include <QtGlobal>

namespace switchyard::stats {

// Upper bounds in milliseconds; the last bucket is +Inf.
inline constexpr std::array<double, 16> HistogramBoundsMs = {5,    10,   25,    50,    100,   250,    500,   1000,
                                                              2500, 5000, 10000, 20000, 30000, 60000, 120000, 1e300};

struct HistogramSnapshot
{
    std::array<qint64, HistogramBoundsMs.size()> counts{};
    qint64 count = 0;
    double sumMs = 0;

    // q in [0, 1]; −1 when empty.
    double percentile(double q) const;
    HistogramSnapshot operator-(const HistogramSnapshot &older) const;
};

class Histogram final
{
public:
    void record(qint64 ms);
    HistogramSnapshot snapshot() const;

private:
    std::array<std::atomic<qint64>, HistogramBoundsMs.size()> m_counts{};
    std::atomic<qint64> m_sumMs{0};
};

} // namespace switchyard::stats
