#include "stats/secondshistory.h"

#include <algorithm>

namespace switchyard::stats {

namespace {

// A sum that went backwards (a node left the config, its totals with it) is no negative rate: 0.
float perSecond(qint64 now, qint64 before, qint64 seconds)
{
    return now >= before ? float(double(now - before) / double(seconds)) : 0.0f;
}

} // namespace

void SecondsHistory::Series::push(const SecondSample &s)
{
    if (ring.empty())
        ring.resize(Capacity);
    ring[size_t(written % Capacity)] = s;
    ++written;
}

void SecondsHistory::record(qint64 second, const QHash<QString, CumulativeSample> &series)
{
    QMutexLocker lock(&m_mutex);
    for (auto it = m_series.begin(); it != m_series.end();) {
        if (series.contains(it.key()))
            ++it;
        else
            it = m_series.erase(it);
    }
    for (auto it = series.cbegin(); it != series.cend(); ++it) {
        Series &s = m_series[it.key()];
        const CumulativeSample &now = it.value();
        if (s.previousSecond >= 0 && second > s.previousSecond) {
            const qint64 span = std::min<qint64>(second - s.previousSecond, Capacity);
            const CumulativeSample &before = s.previous;
            SecondSample out;
            out.requests = perSecond(now.requests, before.requests, span);
            out.errors = perSecond(now.errors, before.errors, span);
            out.failedAttempts = perSecond(now.failedAttempts, before.failedAttempts, span);
            out.promptTokens = perSecond(now.promptTokens, before.promptTokens, span);
            out.completionTokens = perSecond(now.completionTokens, before.completionTokens, span);
            out.inFlight = float(now.inFlight);
            out.prefixHitRate = float(now.prefixHitRate);
            const HistogramSnapshot ttft = now.ttft - before.ttft;
            const HistogramSnapshot latency = now.latency - before.latency;
            out.ttftP50Ms = float(ttft.percentile(0.5));
            out.latencyP50Ms = float(latency.percentile(0.5));
            out.latencyP95Ms = float(latency.percentile(0.95));
            for (qint64 k = span - 1; k >= 0; --k) {
                out.second = second - k;
                s.push(out);
            }
        }
        // Two samples within one second: keep the older baseline, so nothing between them is lost.
        if (s.previousSecond < 0 || second > s.previousSecond) {
            if (s.recent.empty())
                s.recent.resize(WindowCapacity);
            s.recent[size_t(s.recentWritten % WindowCapacity)] = now;
            ++s.recentWritten;
            s.previous = now;
            s.previousSecond = second;
        }
    }
}

QList<SecondSample> SecondsHistory::last(const QString &name, int seconds) const
{
    QMutexLocker lock(&m_mutex);
    QList<SecondSample> out;
    const auto it = m_series.constFind(name);
    if (it == m_series.cend() || seconds <= 0)
        return out;
    const Series &s = it.value();
    const qint64 n = std::min<qint64>({qint64(seconds), s.written, qint64(Capacity)});
    out.reserve(qsizetype(n));
    for (qint64 i = s.written - n; i < s.written; ++i)
        out.append(s.ring[size_t(i % Capacity)]);
    return out;
}

std::optional<CumulativeSample> SecondsHistory::cumulativeAgo(const QString &name, int seconds) const
{
    QMutexLocker lock(&m_mutex);
    const auto it = m_series.constFind(name);
    if (it == m_series.cend() || it->recentWritten == 0)
        return std::nullopt;
    const Series &s = it.value();
    const qint64 kept = std::min<qint64>(s.recentWritten, WindowCapacity);
    const qint64 back = std::clamp<qint64>(seconds, 0, kept - 1);
    return s.recent[size_t((s.recentWritten - 1 - back) % WindowCapacity)];
}

QStringList SecondsHistory::seriesNames() const
{
    QMutexLocker lock(&m_mutex);
    return m_series.keys();
}

} // namespace switchyard::stats
