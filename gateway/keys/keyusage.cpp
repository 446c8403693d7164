#include "keys/keyusage.h"

#include <algorithm>

namespace switchyard::keys {

namespace {

constexpr qint64 MinuteMs = 60'000;
constexpr qint64 DayMs = 86'400'000;
constexpr quint64 CountMask = 0xffff'ffffULL;

quint64 windowOf(quint64 state) { return state >> 32; }
quint64 countOf(quint64 state) { return state & CountMask; }
quint64 pack(quint64 window, quint64 count) { return (window << 32) | std::min(count, CountMask); }

// The count of `window` (0 once a newer window has begun, or while an older one is stored).
qint64 countIn(const std::atomic<quint64> &slot, quint64 window)
{
    const quint64 s = slot.load(std::memory_order_relaxed);
    return windowOf(s) == window ? qint64(countOf(s)) : 0;
}

// Adds n to the window (a window that has already passed is not charged: its minute is over).
void addTo(std::atomic<quint64> &slot, quint64 window, qint64 n)
{
    quint64 s = slot.load(std::memory_order_relaxed);
    for (;;) {
        if (windowOf(s) > window)
            return;
        const quint64 count = windowOf(s) == window ? countOf(s) : 0;
        if (slot.compare_exchange_weak(s, pack(window, count + quint64(std::max<qint64>(0, n))), std::memory_order_relaxed))
            return;
    }
}

// One more in the window if it holds fewer than limit; false when it is full.
bool takeOne(std::atomic<quint64> &slot, quint64 window, qint64 limit)
{
    if (limit <= 0)
        return false;
    quint64 s = slot.load(std::memory_order_relaxed);
    for (;;) {
        const quint64 w = std::max(windowOf(s), window);
        const quint64 count = windowOf(s) == w ? countOf(s) : 0;
        if (count >= quint64(limit))
            return false;
        if (slot.compare_exchange_weak(s, pack(w, count + 1), std::memory_order_relaxed))
            return true;
    }
}

} // namespace

QByteArray limitName(KeyUsage::Limit limit)
{
    switch (limit) {
    case KeyUsage::Limit::None: return "none";
    case KeyUsage::Limit::RequestsPerMinute: return "requests_per_minute";
    case KeyUsage::Limit::TokensPerMinute: return "tokens_per_minute";
    case KeyUsage::Limit::TokensPerDay: return "tokens_per_day";
    case KeyUsage::Limit::Concurrency: return "max_concurrent";
    }
    return "none";
}

KeyUsage::Verdict KeyUsage::admit(const KeyLimits &limits, qint64 nowMs)
{
    const quint64 minute = quint64(nowMs / MinuteMs);
    const quint64 day = quint64(nowMs / DayMs);
    const qint64 toNextMinute = MinuteMs - nowMs % MinuteMs;
    const qint64 toNextDay = DayMs - nowMs % DayMs;
    Verdict v;
    const auto refuse = [this, &v](Limit limit, qint64 retryAfterMs) {
        v.refusedBy = limit;
        v.retryAfterMs = retryAfterMs;
        m_refused.fetch_add(1, std::memory_order_relaxed);
        return v;
    };

    // Token limits: what was charged so far, here and (with Redis) on the other replicas (read only; the
    // tokens of this request come later).
    const qint64 tokensMinute = countIn(m_tokenMinute, minute) + countIn(m_otherTokenMinute, minute);
    if (limits.tokensPerMinute > 0) {
        v.tokensLimit = limits.tokensPerMinute;
        v.tokensRemaining = std::max<qint64>(0, limits.tokensPerMinute - tokensMinute);
        v.tokensResetMs = toNextMinute;
    }
    const qint64 tokensDay = countIn(m_tokenDay, day) + countIn(m_otherTokenDay, day);
    if (limits.tokensPerDay > 0 && v.tokensLimit == 0) {
        v.tokensLimit = limits.tokensPerDay;
        v.tokensRemaining = std::max<qint64>(0, limits.tokensPerDay - tokensDay);
        v.tokensResetMs = toNextDay;
    }
    if (limits.requestsPerMinute > 0) {
        v.requestsLimit = limits.requestsPerMinute;
        v.requestsResetMs = toNextMinute;
    }
    if (limits.tokensPerDay > 0 && tokensDay >= limits.tokensPerDay)
        return refuse(Limit::TokensPerDay, toNextDay);
    if (limits.tokensPerMinute > 0 && tokensMinute >= limits.tokensPerMinute)
        return refuse(Limit::TokensPerMinute, toNextMinute);

    // In flight: taken first, given back if the minute's requests are full.
    const qint64 flying = m_inFlight.fetch_add(1, std::memory_order_relaxed);
    if (limits.maxConcurrent > 0 && flying >= limits.maxConcurrent) {
        m_inFlight.fetch_sub(1, std::memory_order_relaxed);
        // No clock says when one ends: a second is what a client should wait before asking again.
        return refuse(Limit::Concurrency, 1000);
    }
    if (limits.requestsPerMinute > 0) {
        // The other replicas' requests this minute leave this one only the rest of the limit.
        const qint64 others = countIn(m_otherRequestMinute, minute);
        if (!takeOne(m_requestMinute, minute, limits.requestsPerMinute - others)) {
            m_inFlight.fetch_sub(1, std::memory_order_relaxed);
            v.requestsRemaining = 0;
            return refuse(Limit::RequestsPerMinute, toNextMinute);
        }
        v.requestsRemaining =
            std::max<qint64>(0, limits.requestsPerMinute - others - countIn(m_requestMinute, minute));
    } else {
        addTo(m_requestMinute, minute, 1); // counted for the usage view all the same
    }
    m_requests.fetch_add(1, std::memory_order_relaxed);
    return v;
}

void KeyUsage::release(qint64 promptTokens, qint64 completionTokens, qint64 nowMs)
{
    const qint64 prompt = std::max<qint64>(0, promptTokens);
    const qint64 completion = std::max<qint64>(0, completionTokens);
    m_inFlight.fetch_sub(1, std::memory_order_relaxed);
    m_promptTokens.fetch_add(prompt, std::memory_order_relaxed);
    m_completionTokens.fetch_add(completion, std::memory_order_relaxed);
    if (prompt + completion > 0) {
        addTo(m_tokenMinute, quint64(nowMs / MinuteMs), prompt + completion);
        addTo(m_tokenDay, quint64(nowMs / DayMs), prompt + completion);
    }
}

KeyUsage::Snapshot KeyUsage::snapshot(qint64 nowMs) const
{
    Snapshot s;
    const quint64 minute = quint64(nowMs / MinuteMs);
    const quint64 day = quint64(nowMs / DayMs);
    s.requestsThisMinute = countIn(m_requestMinute, minute) + countIn(m_otherRequestMinute, minute);
    s.tokensThisMinute = countIn(m_tokenMinute, minute) + countIn(m_otherTokenMinute, minute);
    s.tokensToday = countIn(m_tokenDay, day) + countIn(m_otherTokenDay, day);
    s.inFlight = m_inFlight.load(std::memory_order_relaxed);
    s.requests = m_requests.load(std::memory_order_relaxed);
    s.promptTokens = m_promptTokens.load(std::memory_order_relaxed);
    s.completionTokens = m_completionTokens.load(std::memory_order_relaxed);
    s.refused = m_refused.load(std::memory_order_relaxed);
    return s;
}

void KeyUsage::carryOverToday(qint64 tokens, qint64 nowMs)
{
    addTo(m_tokenDay, quint64(nowMs / DayMs), tokens);
}

KeyUsage::WindowCounts KeyUsage::ownCounts(qint64 nowMs) const
{
    WindowCounts c;
    c.minute = nowMs / MinuteMs;
    c.day = nowMs / DayMs;
    c.requestsThisMinute = countIn(m_requestMinute, quint64(c.minute));
    c.tokensThisMinute = countIn(m_tokenMinute, quint64(c.minute));
    c.tokensToday = countIn(m_tokenDay, quint64(c.day));
    return c;
}

void KeyUsage::setOthers(const WindowCounts &others)
{
    m_otherRequestMinute.store(pack(quint64(others.minute), quint64(std::max<qint64>(0, others.requestsThisMinute))),
                               std::memory_order_relaxed);
    m_otherTokenMinute.store(pack(quint64(others.minute), quint64(std::max<qint64>(0, others.tokensThisMinute))),
                             std::memory_order_relaxed);
    m_otherTokenDay.store(pack(quint64(others.day), quint64(std::max<qint64>(0, others.tokensToday))),
                          std::memory_order_relaxed);
}

} // namespace switchyard::keys
