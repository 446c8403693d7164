#include "performancemodel.h"

#include <algorithm>
#include <chrono>
#include <limits>

namespace switchyard::sim {

namespace {
constexpr qint64 Never = std::numeric_limits<qint64>::max();
constexpr double NanosPerSecond = 1e9;
}

PerformanceModel::Clock PerformanceModel::steadyClock()
{
    return [] {
        return qint64(std::chrono::duration_cast<std::chrono::nanoseconds>(
                          std::chrono::steady_clock::now().time_since_epoch())
                          .count());
    };
}

PerformanceModel::PerformanceModel(PerformanceParams params, Clock clock)
    : m_params(params), m_clock(std::move(clock))
{
    // Guard the formulas against nonsense rather than dividing by zero later.
    m_params.tokensPerSecond = std::max(m_params.tokensPerSecond, 1e-3);
    m_params.prefillTokensPerSecond = std::max(m_params.prefillTokensPerSecond, 1e-3);
    m_params.ttftBaseMs = std::max(m_params.ttftBaseMs, 0.0);
    m_params.maxNumSeqs = std::max(m_params.maxNumSeqs, 1);
    m_params.kvCacheTokens = std::max<qint64>(m_params.kvCacheTokens, 1);
    if (m_params.prefixCaching)
        m_cache = std::make_unique<PrefixCache>(m_params.kvCacheTokens / PrefixBlockTokens);
}

double PerformanceModel::perSequenceRate(int n) const
{
    if (n <= 0)
        return 0;
    return m_params.tokensPerSecond * std::pow(double(n), m_params.concurrencyExponent - 1.0);
}

double PerformanceModel::kvCacheUsage() const
{
    return std::min(1.0, double(m_tokensInFlight) / double(m_params.kvCacheTokens));
}

void PerformanceModel::setSlowFactor(double factor)
{
    m_slow = std::max(factor, 1e-3);
}

qint64 PerformanceModel::stepDurationNs(int n) const
{
    const double seconds = m_slow / perSequenceRate(std::max(n, 1));
    return std::max<qint64>(1, qint64(seconds * NanosPerSecond));
}

qint64 PerformanceModel::prefillComputeNs(int tokens) const
{
    return qint64(m_slow * tokens / m_params.prefillTokensPerSecond * NanosPerSecond);
}

SequenceId PerformanceModel::submit(int promptTokens, int completionTokens, FinishReason reason,
                                    std::vector<BlockHash> promptBlocks)
{
    const SequenceId id = m_nextId++;
    Sequence s;
    s.promptTokens = std::max(promptTokens, 0);
    s.blocks = std::move(promptBlocks);
    s.target = std::max(completionTokens, 1);
    s.reason = reason;
    const qint64 arrivedAt = m_clock();
    s.arrivedAt = arrivedAt;
    m_sequences.emplace(id, std::move(s));
    m_waiting.push_back(id);
    if (!isPaused())
        admitWaiting(arrivedAt);
    return id;
}

bool PerformanceModel::cancel(SequenceId id)
{
    const auto it = m_sequences.find(id);
    if (it == m_sequences.end() || it->second.state == State::Finished)
        return false;
    Sequence &s = it->second;
    switch (s.state) {
    case State::Waiting:
        m_waiting.erase(std::find(m_waiting.begin(), m_waiting.end(), id));
        break;
    case State::Prefill:
        // Its place in the prefill queue stays spent (at most one prompt's compute): the prompts behind
        // it keep their deadlines, as already announced to the node's timer.
        eraseId(m_prefilling, id);
        release(s);
        break;
    case State::Decode:
        eraseId(m_decoding, id);
        release(s);
        break;
    case State::Finished:
        break;
    }
    m_sequences.erase(it); // a stale id left in m_touched is skipped when events are collected
    if (!isPaused())
        admitWaiting(m_clock());
    return true;
}

void PerformanceModel::pause()
{
    if (!m_pausedAt)
        m_pausedAt = m_clock();
}

void PerformanceModel::resume()
{
    if (!m_pausedAt)
        return;
    const qint64 now = m_clock();
    const qint64 pausedAt = *m_pausedAt;
    const qint64 shift = now - pausedAt;
    m_pausedAt.reset();
    m_nextStepAt += shift;
    if (m_prefillFreeAt > pausedAt) // the prompts still computing when the engine hung
        m_prefillFreeAt += shift;
    for (SequenceId id : m_prefilling)
        m_sequences[id].prefillDoneAt += shift;
    admitWaiting(now);
}

void PerformanceModel::eraseId(std::vector<SequenceId> &v, SequenceId id)
{
    const auto it = std::find(v.begin(), v.end(), id);
    if (it != v.end())
        v.erase(it);
}

void PerformanceModel::touch(SequenceId id, Sequence &s)
{
    if (!s.touched) {
        s.touched = true;
        m_touched.push_back(id);
    }
}

void PerformanceModel::release(Sequence &s)
{
    m_tokensInFlight -= s.promptTokens + s.generated;
    if (m_cache)
        m_cache->release(s.blocks, s.heldBlocks);
    s.heldBlocks = 0;
}

void PerformanceModel::cacheFinishedBlocks(const std::vector<BlockHash> &blocks)
{
    if (!m_cache)
        return;
    m_cache->release(blocks, m_cache->acquire(blocks, 0, false).heldBlocks);
}

int PerformanceModel::acquireCached(Sequence &s, bool first)
{
    if (!m_cache)
        return 0;
    const PrefixCache::Acquired a = m_cache->acquire(s.blocks, s.promptTokens, first);
    s.heldBlocks = a.heldBlocks;
    return a.cachedTokens;
}

void PerformanceModel::admitWaiting(qint64 t)
{
    while (!m_waiting.empty() && running() < m_params.maxNumSeqs) {
        const SequenceId id = m_waiting.front();
        Sequence &s = m_sequences[id];
        const qint64 tokens = s.promptTokens + s.generated;
        // FCFS: the head waits for room rather than being overtaken. Nothing can wait forever, because
        // options guarantee a single sequence fits the cache (kvCacheTokens >= max model length).
        if (running() > 0 && m_tokensInFlight + tokens + 1 > m_params.kvCacheTokens)
            break;
        m_waiting.pop_front();
        const qint64 at = std::max(t, s.arrivedAt);
        const bool first = s.admittedAt < 0;
        const int cached = acquireCached(s, first);
        if (first) {
            s.admittedAt = at;
            touch(id, s);
            s.event.admitted = true;
            s.event.queueSeconds = double(at - s.arrivedAt) / NanosPerSecond;
            s.event.cachedTokens = cached;
        }
        s.state = State::Prefill;
        // Only the uncached part is computed; a preempted sequence recomputes what it had generated too.
        // The prompt computes once those admitted before it have (the node's prefill is one queue), then
        // the fixed overhead, which requests do not share.
        const qint64 computeStart = std::max(at, m_prefillFreeAt);
        m_prefillFreeAt = computeStart + prefillComputeNs(int(tokens - cached));
        s.prefillDoneAt = std::max<qint64>(
            at + 1, m_prefillFreeAt + qint64(m_slow * m_params.ttftBaseMs / 1000.0 * NanosPerSecond));
        m_tokensInFlight += tokens;
        m_prefilling.push_back(id);
    }
}

void PerformanceModel::produceToken(SequenceId id, Sequence &s, qint64 t)
{
    touch(id, s);
    ++s.generated;
    ++s.event.newTokens;
    ++m_tokensInFlight;
    if (s.firstTokenAt < 0) {
        s.firstTokenAt = t;
        s.event.firstToken = true;
        s.event.ttftSeconds = double(t - s.arrivedAt) / NanosPerSecond;
    } else {
        s.event.itlSumSeconds += double(t - s.lastTokenAt) / NanosPerSecond;
        ++s.event.itlCount;
    }
    s.lastTokenAt = t;
    if (s.generated >= s.target)
        finish(s, t);
}

void PerformanceModel::finish(Sequence &s, qint64 t)
{
    release(s);
    s.state = State::Finished;
    s.event.finished = true;
    s.event.reason = s.reason;
    s.event.e2eSeconds = double(t - s.arrivedAt) / NanosPerSecond;
}

void PerformanceModel::preemptIfNeeded()
{
    // Every decoding sequence needs room for one more token in this step.
    while (m_decoding.size() > 1
           && m_tokensInFlight + qint64(m_decoding.size()) > m_params.kvCacheTokens) {
        const SequenceId victim = m_decoding.back();
        m_decoding.pop_back();
        Sequence &s = m_sequences[victim];
        release(s);
        s.state = State::Waiting;
        m_waiting.push_front(victim);
        ++m_preemptions;
    }
}

const std::vector<SequenceEvent> &PerformanceModel::advance()
{
    m_events.clear();
    if (!isPaused()) {
        const qint64 now = m_clock();
        for (;;) {
            qint64 prefillAt = Never;
            std::size_t prefillIndex = 0;
            for (std::size_t i = 0; i < m_prefilling.size(); ++i) {
                const qint64 at = m_sequences[m_prefilling[i]].prefillDoneAt;
                if (at < prefillAt) {
                    prefillAt = at;
                    prefillIndex = i;
                }
            }
            const qint64 stepAt = m_decoding.empty() ? Never : m_nextStepAt;
            const qint64 eventAt = std::min(prefillAt, stepAt);
            if (eventAt > now)
                break;

            if (prefillAt <= stepAt) {
                // Prefill done: the first token comes out, and the sequence joins the decode batch.
                const SequenceId id = m_prefilling[prefillIndex];
                m_prefilling.erase(m_prefilling.begin() + qsizetype(prefillIndex));
                Sequence &s = m_sequences[id];
                s.state = State::Decode;
                produceToken(id, s, prefillAt);
                if (s.state == State::Decode) {
                    m_decoding.push_back(id);
                    if (m_decoding.size() == 1)
                        m_nextStepAt = prefillAt + stepDurationNs(1);
                }
            } else {
                // One decode step: every decoding sequence gets one token at the step's end.
                preemptIfNeeded();
                for (SequenceId id : m_decoding)
                    produceToken(id, m_sequences[id], stepAt);
                std::erase_if(m_decoding, [this](SequenceId id) { return m_sequences[id].state == State::Finished; });
                if (!m_decoding.empty())
                    m_nextStepAt = stepAt + stepDurationNs(int(m_decoding.size()));
            }
            admitWaiting(eventAt);
        }
    }

    for (SequenceId id : m_touched) {
        const auto it = m_sequences.find(id);
        if (it == m_sequences.end())
            continue; // cancelled
        Sequence &s = it->second;
        SequenceEvent e = s.event;
        e.id = id;
        e.generated = s.generated;
        m_events.push_back(e);
        s.event = SequenceEvent();
        s.touched = false;
        if (s.state == State::Finished)
            m_sequences.erase(it);
    }
    m_touched.clear();
    return m_events;
}

std::optional<qint64> PerformanceModel::nanosUntilNextEvent() const
{
    if (isPaused())
        return std::nullopt;
    qint64 next = m_decoding.empty() ? Never : m_nextStepAt;
    for (SequenceId id : m_prefilling)
        next = std::min(next, m_sequences.at(id).prefillDoneAt);
    if (next == Never)
        return std::nullopt;
    return std::max<qint64>(0, next - m_clock());
}

} // namespace switchyard::sim
