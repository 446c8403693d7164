#include "histogram.h"

namespace switchyard::stats {

void Histogram::record(qint64 ms)
{
    size_t i = 0;
    while (i + 1 < HistogramBoundsMs.size() && double(ms) > HistogramBoundsMs[i])
        ++i;
    m_counts[i].fetch_add(1, std::memory_order_relaxed);
    m_sumMs.fetch_add(ms, std::memory_order_relaxed);
}

HistogramSnapshot Histogram::snapshot() const
{
    HistogramSnapshot s;
    for (size_t i = 0; i < m_counts.size(); ++i) {
        s.counts[i] = m_counts[i].load(std::memory_order_relaxed);
        s.count += s.counts[i];
    }
    s.sumMs = double(m_sumMs.load(std::memory_order_relaxed));
    return s;
}

HistogramSnapshot HistogramSnapshot::operator-(const HistogramSnapshot &older) const
{
    HistogramSnapshot d;
    for (size_t i = 0; i < counts.size(); ++i) {
        d.counts[i] = std::max<qint64>(0, counts[i] - older.counts[i]);
        d.count += d.counts[i];
    }
    d.sumMs = std::max(0.0, sumMs - older.sumMs);
    return d;
}

double HistogramSnapshot::percentile(double q) const
{
    if (count <= 0)
        return -1;
    const double rank = q * double(count);
    qint64 seen = 0;
    for (size_t i = 0; i < counts.size(); ++i) {
        if (counts[i] == 0)
            continue;
        if (double(seen + counts[i]) >= rank) {
            const double lower = i == 0 ? 0.0 : HistogramBoundsMs[i - 1];
            // The open last bucket reports its lower bound: we know no more.
            if (i + 1 == counts.size())
                return lower;
            const double upper = HistogramBoundsMs[i];
            const double within = (rank - double(seen)) / double(counts[i]);
            return lower + (upper - lower) * std::clamp(within, 0.0, 1.0);
        }
        seen += counts[i];
    }
    return HistogramBoundsMs[HistogramBoundsMs.size() - 2];
}

} // namespace switchyard::stats
