#pragma once

// The simulated node's timing model: continuous batching as vLLM does it, reduced to a few formulas.
//
//   time to first token = queue wait + prefill wait + slow·(uncachedPromptTokens / prefillRate + ttftBase)
//   decode step (one token for every decoding sequence) lasts slow·n^(1-α) / R1 seconds, so
//   per-sequence speed = R1·n^(α-1) and node total = R1·n^α (sub-linear in n for 0 < α < 1).
//
// At most maxNumSeqs sequences run (prefill + decode); the rest wait in FCFS order. A sequence is
// admitted only when its tokens fit in the KV cache; when decoding outgrows the cache the most recently
// admitted sequence is preempted (back to the front of the queue, recomputed on re-admission).
//
// The prefill rate is the node's, not each sequence's: as vLLM's scheduler spends one step budget on the
// prompts it admitted in order, prefills share the GPU first come, first served (the "prefill wait": a
// prompt computes after those admitted before it). ttftBase is per-request overhead and overlaps. So a
// node busy recomputing long histories delays every first token behind them, cached or not.
//
// With prefix caching on (vLLM's default), a sequence's prompt blocks are looked up in a PrefixCache of
// kvCacheTokens / 16 blocks when it is admitted; only the uncached part is prefilled.
//
// The model is pure: no Qt event loop, no sockets. Time comes from an injectable clock, so tests drive it
// with a manual clock and check rates exactly; the node calls advance() from a timer.

#include "prefixcache.h"

#include <QtGlobal>

#include <cmath>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

namespace switchyard::sim {

// α calibrated to the article: ~15 tok/s for one request, ~28 tok/s in total for 5.
inline const double DefaultConcurrencyExponent = std::log(28.0 / 15.0) / std::log(5.0);

struct PerformanceParams
{
    double tokensPerSecond = 15.0;                           // R1: decode speed of a lone sequence
    double concurrencyExponent = DefaultConcurrencyExponent; // α in total(n) = R1·n^α
    double ttftBaseMs = 150.0;                               // fixed part of the time to first token
    double prefillTokensPerSecond = 2500.0;                  // prompt processing speed
    int maxNumSeqs = 256;                                    // --max-num-seqs
    qint64 kvCacheTokens = 131072;                           // KV cache capacity in tokens
    bool prefixCaching = true;                               // false: --no-prefix-caching
};

using SequenceId = quint64;

enum class FinishReason { Stop, Length };

// What happened to one sequence during one advance() call.
struct SequenceEvent
{
    SequenceId id = 0;
    int newTokens = 0;        // tokens produced in this advance
    int generated = 0;        // tokens produced so far in total
    bool admitted = false;    // first admitted in this advance: queueSeconds and cachedTokens are valid
    bool firstToken = false;  // first token produced in this advance: ttftSeconds is valid
    bool finished = false;    // reached its length: e2eSeconds and reason are valid
    FinishReason reason = FinishReason::Stop;
    double queueSeconds = 0;
    int cachedTokens = 0;     // prompt tokens found in the prefix cache at first admission
    double ttftSeconds = 0;
    double e2eSeconds = 0;
    double itlSumSeconds = 0; // sum of the gaps before each non-first token of this advance
    int itlCount = 0;         // how many gaps itlSumSeconds covers
};

class PerformanceModel final
{
public:
    using Clock = std::function<qint64()>; // monotonic nanoseconds

    static Clock steadyClock();

    explicit PerformanceModel(PerformanceParams params, Clock clock = steadyClock());
    Q_DISABLE_COPY_MOVE(PerformanceModel)

    // A new request that will produce completionTokens (>= 1) and then finish for reason. promptBlocks:
    // the chained hashes of the prompt's full blocks (PromptTokenizer); empty = nothing to cache.
    SequenceId submit(int promptTokens, int completionTokens, FinishReason reason,
                      std::vector<BlockHash> promptBlocks = {});
    // Aborts a sequence wherever it is; returns false if it is unknown or already finished.
    bool cancel(SequenceId id);

    // Multiplies every duration from now on (fault "slow"); 1 = normal.
    void setSlowFactor(double factor);
    double slowFactor() const { return m_slow; }
    // A paused engine makes no progress (fault "hang"); resume shifts pending deadlines by the pause so
    // the engine does not catch up with a burst.
    void pause();
    void resume();
    bool isPaused() const { return m_pausedAt.has_value(); }

    // Runs the simulation up to the clock's now. The returned events stay valid until the next call.
    const std::vector<SequenceEvent> &advance();
    // Nanoseconds until the next prefill completes or decode step ends; nullopt when idle or paused.
    std::optional<qint64> nanosUntilNextEvent() const;

    int running() const { return int(m_prefilling.size() + m_decoding.size()); }
    int waiting() const { return int(m_waiting.size()); }
    int decoding() const { return int(m_decoding.size()); }
    qint64 tokensInFlight() const { return m_tokensInFlight; }
    double kvCacheUsage() const;
    qint64 preemptions() const { return m_preemptions; }
    const PerformanceParams &params() const { return m_params; }
    // The prefix cache, or nullptr with prefix caching off.
    const PrefixCache *prefixCache() const { return m_cache.get(); }
    // A finished sequence's blocks including what it generated (as the next turn's prompt will contain
    // them), cached as vLLM caches the full blocks of generated tokens; evictable at once.
    void cacheFinishedBlocks(const std::vector<BlockHash> &blocks);
    qint64 now() const { return m_clock(); }

    // The formulas, exposed for tests and docs: per-sequence and total decode speed with n decoding.
    double perSequenceRate(int n) const;
    double totalRate(int n) const { return perSequenceRate(n) * n; }

private:
    enum class State { Waiting, Prefill, Decode, Finished };
    struct Sequence
    {
        int promptTokens = 0;
        std::vector<BlockHash> blocks; // of the prompt, for the prefix cache
        int heldBlocks = 0;            // of blocks, held in the cache while admitted
        int target = 1;
        FinishReason reason = FinishReason::Stop;
        State state = State::Waiting;
        int generated = 0;
        qint64 arrivedAt = 0;
        qint64 admittedAt = -1;  // first admission
        qint64 firstTokenAt = -1;
        qint64 lastTokenAt = -1;
        qint64 prefillDoneAt = 0;
        // Accumulated for the event of the current advance.
        bool touched = false;
        SequenceEvent event;
    };

    qint64 stepDurationNs(int n) const;
    qint64 prefillComputeNs(int tokens) const;
    int acquireCached(Sequence &s, bool first);
    void admitWaiting(qint64 t);
    void produceToken(SequenceId id, Sequence &s, qint64 t);
    void finish(Sequence &s, qint64 t);
    void release(Sequence &s);
    void preemptIfNeeded();
    void touch(SequenceId id, Sequence &s);
    static void eraseId(std::vector<SequenceId> &v, SequenceId id);

    PerformanceParams m_params;
    Clock m_clock;
    std::unique_ptr<PrefixCache> m_cache;
    double m_slow = 1.0;
    std::optional<qint64> m_pausedAt;
    SequenceId m_nextId = 1;
    std::unordered_map<SequenceId, Sequence> m_sequences;
    std::deque<SequenceId> m_waiting;
    std::vector<SequenceId> m_prefilling;
    std::vector<SequenceId> m_decoding; // in admission order: the back is preempted first
    qint64 m_nextStepAt = 0;            // end of the current decode step (valid while decoding)
    qint64 m_prefillFreeAt = 0;         // when the prompts admitted so far are computed (FCFS)
    qint64 m_tokensInFlight = 0;        // prompt + generated tokens of running sequences
    qint64 m_preemptions = 0;
    std::vector<SequenceId> m_touched;
    std::vector<SequenceEvent> m_events;
};

} // namespace switchyard::sim
