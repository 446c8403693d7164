#pragma once

// The last hour, second by second, for the gateway as a whole and for each node: what the panel's
// charts and a remote client (/api/history) draw. Sampled once a second from the cumulative counters
// (the request path only bumps atomics; this is the one place that turns them into rates), so its
// memory is fixed: Capacity samples per series, whatever the traffic.

#include "stats/histogram.h"

#include <QHash>
#include <QList>
#include <QMetaType>
#include <QMutex>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

namespace switchyard::stats {

// Cumulative values of one series at one instant.
struct CumulativeSample
{
    qint64 requests = 0;
    qint64 errors = 0;
    qint64 failedAttempts = 0; // attempts a node failed, also those failed over (a node's: its failures)
    qint64 promptTokens = 0;
    qint64 completionTokens = 0;
    qint64 inFlight = 0; // a gauge, taken as is
    double prefixHitRate = -1; // a gauge: the node's prefix-cache hit rate (0–1) as last checked; −1 none
    HistogramSnapshot ttft;
    HistogramSnapshot latency;
};

// One second of one series. Rates are per second; latencies −1 when nothing finished that second.
struct SecondSample
{
    qint64 second = 0; // since the epoch
    float requests = 0;
    float errors = 0;
    float failedAttempts = 0;
    float promptTokens = 0;
    float completionTokens = 0;
    float inFlight = 0;
    float ttftP50Ms = -1;
    float latencyP50Ms = -1;
    float latencyP95Ms = -1;
    float prefixHitRate = -1; // the node's prefix-cache hit rate (0–1, from its own counters); −1 none
};

class SecondsHistory final
{
    Q_DISABLE_COPY_MOVE(SecondsHistory)

public:
    static constexpr int Capacity = 3600;
    static inline const QString GatewaySeries = QStringLiteral("*"); // the whole gateway

    SecondsHistory() = default;

    // Records the second `second` for every series given; a series not given is dropped (a node
    // removed from the config). The first sample of a series only sets its baseline. Seconds skipped
    // (a stalled sampler) are spread evenly, so rates stay right over the gap.
    void record(qint64 second, const QHash<QString, CumulativeSample> &series);

    // The last `seconds` samples of a series, oldest first (fewer when younger).
    QList<SecondSample> last(const QString &series, int seconds) const;
    QStringList seriesNames() const;

    // Windowed percentiles and error rates (the panel's "last minute") diff the live histograms against
    // the cumulative sample of a few seconds ago; only the last WindowCapacity of those are kept, so the
    // memory stays fixed. The sample recorded `seconds` ago (the oldest kept one when the series is
    // younger, or seconds > WindowCapacity − 1); nullopt for a series never recorded.
    static constexpr int WindowCapacity = 61;
    std::optional<CumulativeSample> cumulativeAgo(const QString &series, int seconds) const;

private:
    struct Series
    {
        CumulativeSample previous;
        qint64 previousSecond = -1;
        std::vector<SecondSample> ring; // Capacity slots, written round-robin
        qint64 written = 0;
        std::vector<CumulativeSample> recent; // WindowCapacity slots, one per recorded second
        qint64 recentWritten = 0;
        void push(const SecondSample &s);
    };

    mutable QMutex m_mutex; // taken once a second by the sampler and by readers, never by requests
    QHash<QString, Series> m_series;
};

} // namespace switchyard::stats

Q_DECLARE_METATYPE(switchyard::stats::SecondSample)
