#pragma once

// The health verdict on one node, shared by the health prober (active checks, on its own thread) and
// the workers (passive ejection from real traffic, and admission on the request path). Everything the
// request path touches is an atomic; only the human-readable reason sits behind a mutex, read by
// snapshots a few times a second.
//
// Passive ejection (Envoy's outlier detection, simplified): `consecutiveFailures` failed attempts in a
// row, or an error rate of at least `errorRate` over the last `errorRateWindowMs` (once that window
// holds `errorRateMinRequests` attempts), eject the node for a cooldown that starts at 5 s and doubles
// up to 60 s. The rate catches a node that fails every other request, which never fails 3 in a row. After the cooldown one
// trial request is let through: success readmits the node, failure ejects it again for twice as long.
// A good active check does not readmit a node that real requests ejected: vLLM's /health answers 200
// while inference fails (a broken model, CUDA errors), so only a request that succeeds clears that
// evidence. Until then the node is Down (cooldown) or Recovering (a trial is due), never Healthy, and
// the reason names the failures. A check that follows a failed check readmits the node at once,
// cooldown or not: it was seen down and is seen up again (restarted, unwedged) and takes traffic, but
// it stays Recovering until a request or a second check says otherwise. Between ejections, a node
// whose last request failed is Degraded and says so, until one succeeds.
//
// Last resort: when every node a request could use has failed, the request tries the ejected and
// probe-down ones too (never a drained one). admitLastResort() keeps that cheap: a node whose last
// failure came fast (refused, reset, an error status) may be tried by every such request, one whose
// last failure was a timeout by one request per LastResortSlowIntervalMs across the gateway, so a
// hanging node does not cost every request a timeout. Times are passed in by the caller:
// the gateway's Clock::nowMs() (common/clock.h), which tests of a whole gateway can stop and move on,
// while tests of this class drive the numbers directly.

#include <QMutex>
#include <QString>
#include <QStringList>
#include <algorithm>
#include <atomic>
#include <limits>

namespace switchyard::health {

enum class NodeState { Unknown, Healthy, Degraded, Down, Recovering, Draining };
const char *nodeStateName(NodeState state);

struct HealthPolicy
{
    int consecutiveFailures = 3;
    int cooldownInitialMs = 5000;
    int cooldownMaxMs = 60000;
    double errorRate = 0.5;          // 0 disables rate ejection
    int errorRateMinRequests = 10;   // no verdict on fewer attempts than this in the window
    int errorRateWindowMs = 10000;   // 1 s … MaxRateWindowSeconds s
    int queueWaitingDegradedAt = 8;  // vllm:num_requests_waiting at or above this: Degraded
    double kvCacheDegradedAt = 0.95; // vllm:kv_cache_usage_perc at or above this: Degraded
};

enum class Admission { Yes, Trial, No };

// What the last active check read from the node, for the panel's detail pane and /api/status.
struct ProbeDetails
{
    qint64 lastCheckMsSinceEpoch = 0;
    qint64 lastCheckDurationMs = -1;
    QString version;          // from /version
    QStringList servedModels; // from /v1/models
    bool hasMetrics = false;  // /metrics answered with vLLM gauges
    double running = -1, waiting = -1, kvCacheUsage = -1; // gauges (usage 0–1)
    double promptTokensTotal = -1, generationTokensTotal = -1, preemptionsTotal = -1, requestsSucceededTotal = -1;
    // vllm:prefix_cache_queries_total / vllm:prefix_cache_hits_total (tokens), and the hit rate over the
    // last PrefixHitWindowMs from their deltas between checks (0–1); −1 when the node has no such
    // counters or no two checks have seen queries yet. A window without queries keeps the last rate
    // measured (an idle node's cache is unchanged).
    double prefixCacheQueriesTotal = -1, prefixCacheHitsTotal = -1, prefixCacheHitRate = -1;
    // What the gateway's cache_aware index predicted for the prompts it sent this node over the same
    // window (NodeCounters::predictedPrefixBytes / routedPromptBytes), 0–1; −1 when it sent none.
    double predictedPrefixHitRate = -1;
};

// The window of the node's prefix-cache hit rate: recent enough to follow a change of routing, long
// enough to span several health checks (every 5 s by default).
inline constexpr qint64 PrefixHitWindowMs = 60000;

struct ProbeResult
{
    bool up = false;
    bool timedOut = false;  // down because the check got no answer in time (a hanging node)
    QString downReason;     // e.g. "connection refused", "health 503: engine dead"
    QString degradedReason; // e.g. "queue 40 waiting", "serves llama-3 but the config expects m1"
};

class NodeHealth final
{
    Q_DISABLE_COPY_MOVE(NodeHealth)

public:
    NodeHealth() = default;

    // Thread-safe: the ejection numbers are atomics, read on the request path.
    void setPolicy(const HealthPolicy &policy)
    {
        m_consecutiveLimit.store(policy.consecutiveFailures);
        m_cooldownInitialMs.store(policy.cooldownInitialMs);
        m_cooldownMaxMs.store(policy.cooldownMaxMs);
        m_errorRatePermille.store(int(policy.errorRate * 1000 + 0.5));
        m_errorRateMinRequests.store(policy.errorRateMinRequests);
        m_errorRateWindowS.store(std::clamp((policy.errorRateWindowMs + 999) / 1000, 1, MaxRateWindowSeconds));
    }

    static constexpr int MaxRateWindowSeconds = 60;
    // Attempts and failures in the rate window (for /api/status and tests).
    struct WindowCounts
    {
        int attempts = 0;
        int failures = 0;
    };
    WindowCounts windowCounts(qint64 nowMs) const;

    // Request path. May this node take a new request now? Claims the one trial after a cooldown.
    Admission admit(qint64 nowMs);
    // Without claiming anything: could it take traffic (or a trial) now? For the all-down check.
    bool isAvailable(qint64 nowMs) const;
    // Request path, after every admitted node failed: may this ejected or down node be tried anyway?
    // Never a drained one; one whose last failure was a timeout at most once per
    // LastResortSlowIntervalMs across all requests (claimed here).
    bool admitLastResort(qint64 nowMs);
    static constexpr int LastResortSlowIntervalMs = 5000;
    // Was the node's last failure (request or check) a timeout? Then a last resort costs a timeout.
    bool lastFailureWasSlow() const { return m_lastFailureSlow.load(std::memory_order_relaxed); }
    void attemptSucceeded(qint64 nowMs);
    // slow: the attempt timed out (connect, response head or the whole request).
    void attemptFailed(qint64 nowMs, const QString &why, bool slow = false);
    // An admitted attempt ended without a verdict (client gone): frees the trial slot.
    void attemptAbandoned(bool wasTrial);

    // Active checks (health thread).
    void probeFinished(qint64 nowMs, const ProbeResult &result);
    // A request needed this ejected or down node as a last resort: check it soon rather than at the
    // next interval, so a node that recovered is readmitted quickly. The prober takes the wish.
    void requestProbe() { m_probeWanted.store(true, std::memory_order_relaxed); }
    bool takeProbeRequest() { return m_probeWanted.exchange(false); }

    void setDraining(bool draining) { m_draining.store(draining); }
    bool isDraining() const { return m_draining.load(); }

    NodeState state(qint64 nowMs) const;
    QString reason(qint64 nowMs) const;
    bool everProbed() const { return m_probed.load(); }

    void setDetails(const ProbeDetails &details);
    ProbeDetails details() const;

    // Load as last read from the node's /metrics (−1 = unknown), and our own recent TTFT.
    std::atomic<int> running{-1};
    std::atomic<int> waiting{-1};
    std::atomic<int> kvCachePermille{-1};
    std::atomic<int> prefixHitPermille{-1}; // ProbeDetails::prefixCacheHitRate × 1000, for the seconds history
    std::atomic<int> ttftEwmaMs{-1};
    void recordTtft(qint64 ms);

private:
    void eject(qint64 nowMs, const QString &why);
    void countAttempt(qint64 nowMs, bool failed);
    void clearWindow();

    // One slot per second of a ring of the last MaxRateWindowSeconds seconds. A slot whose second tag
    // is stale is reset by whoever claims it first; a count racing with that reset may be lost, which
    // only makes the rate approximate (as Envoy's is), never wrong by more than a request or two.
    struct SecondSlot
    {
        std::atomic<qint64> second{-1};
        std::atomic<int> attempts{0};
        std::atomic<int> failures{0};
    };
    SecondSlot m_window[MaxRateWindowSeconds];
    std::atomic<int> m_errorRatePermille{500};
    std::atomic<int> m_errorRateMinRequests{10};
    std::atomic<int> m_errorRateWindowS{10};

    std::atomic<int> m_consecutiveLimit{HealthPolicy().consecutiveFailures};
    std::atomic<int> m_cooldownInitialMs{HealthPolicy().cooldownInitialMs};
    std::atomic<int> m_cooldownMaxMs{HealthPolicy().cooldownMaxMs};
    std::atomic<bool> m_draining{false};
    std::atomic<bool> m_probeDown{false};
    std::atomic<bool> m_recovering{false};
    std::atomic<bool> m_probed{false};
    std::atomic<bool> m_sawTraffic{false};
    // Real requests ejected this node and none has succeeded since (see the top of this file).
    std::atomic<bool> m_requestsFailing{false};
    std::atomic<qint64> m_ejectedUntilMs{0}; // 0 = not ejected
    std::atomic<int> m_cooldownMs{0};
    std::atomic<int> m_consecutiveFailures{0};
    std::atomic<bool> m_trialInFlight{false};
    std::atomic<bool> m_lastFailureSlow{false};
    std::atomic<bool> m_probeWanted{false};
    std::atomic<qint64> m_lastResortSlowAtMs{std::numeric_limits<qint64>::min() / 2};

    mutable QMutex m_reasonMutex;
    QString m_downReason;
    QString m_degradedReason;
    QString m_ejectReason;
    QString m_lastFailure; // why the last failed request failed (for the Degraded reason)
    ProbeDetails m_details;
};

} // namespace switchyard::health
