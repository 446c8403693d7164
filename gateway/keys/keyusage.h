#pragma once

// What one virtual key is using now, shared by every worker thread without a lock: requests in the
// current minute, tokens in the current minute and the current UTC day, requests in flight, and totals
// since the gateway started. admit() decides at the start of a request, release() charges its tokens
// when the answer ends (streams included: the usage the gateway reads from the answer).
//
// The windows are fixed: a minute runs from :00 to :59 and a day from 00:00 UTC, as a dashboard shows
// them, so "120 requests per minute" allows at most 120 with the same minute on the clock (up to twice
// that across a minute's boundary, as with any fixed window). Each window is one 64-bit atomic: the
// window's number in the high half, the count in the low half, moved on by compare-and-swap, so a new
// minute starts at 0 without anyone resetting it. Tokens are charged when known, so the request that
// crosses a token limit is answered in full and the next one is refused. With Redis (switchyard.redis_url)
// the other replicas' counts are added to the windows' own (setOthers), so the limits hold for the
// fleet; requests in flight stay per gateway.

#include "keys/virtualkey.h"

#include <QByteArray>
#include <atomic>

namespace switchyard::keys {

class KeyUsage final
{
    Q_DISABLE_COPY_MOVE(KeyUsage)

public:
    KeyUsage() = default;

    enum class Limit { None, RequestsPerMinute, TokensPerMinute, TokensPerDay, Concurrency };

    struct Verdict
    {
        Limit refusedBy = Limit::None;
        qint64 retryAfterMs = 0; // refused: when the limit that refused frees up again
        // For OpenAI's x-ratelimit-* headers (only for the limits the key has; 0 = none).
        qint64 requestsLimit = 0, requestsRemaining = 0, requestsResetMs = 0;
        qint64 tokensLimit = 0, tokensRemaining = 0, tokensResetMs = 0;

        bool admitted() const { return refusedBy == Limit::None; }
    };

    // Counts the request in (one more this minute, one more in flight) if every limit allows it.
    Verdict admit(const KeyLimits &limits, qint64 nowMs);
    // An admitted request ended: out of flight, its tokens charged to the minute and the day it ended in.
    void release(qint64 promptTokens, qint64 completionTokens, qint64 nowMs);

    struct Snapshot
    {
        qint64 requestsThisMinute = 0, tokensThisMinute = 0, tokensToday = 0, inFlight = 0;
        qint64 requests = 0, promptTokens = 0, completionTokens = 0, refused = 0; // since the gateway started
    };
    Snapshot snapshot(qint64 nowMs) const;
    // Tokens a key used earlier today, before the gateway restarted (read back from the history), so a
    // day limit holds across a restart.
    void carryOverToday(qint64 tokens, qint64 nowMs);

    // Across replicas (keys/sharedlimits.h). The windows' counts: this gateway's own (what it adds to
    // Redis), or the other gateways' (what Redis holds beyond that), each for the windows it names.
    struct WindowCounts
    {
        qint64 minute = 0, day = 0; // window numbers: ms since the epoch / 60 000, / 86 400 000
        qint64 requestsThisMinute = 0, tokensThisMinute = 0, tokensToday = 0;
    };
    WindowCounts ownCounts(qint64 nowMs) const;
    // What the other replicas counted, as Redis last said; admit() and snapshot() add it to the own
    // counts until its window has passed.
    void setOthers(const WindowCounts &others);

private:
    std::atomic<quint64> m_requestMinute{0};
    std::atomic<quint64> m_tokenMinute{0};
    std::atomic<quint64> m_tokenDay{0};
    std::atomic<qint64> m_inFlight{0};
    std::atomic<qint64> m_requests{0};
    std::atomic<qint64> m_promptTokens{0};
    std::atomic<qint64> m_completionTokens{0};
    std::atomic<qint64> m_refused{0};
    // The other replicas' counts (same packing as the own windows), written by the sharing thread only.
    std::atomic<quint64> m_otherRequestMinute{0};
    std::atomic<quint64> m_otherTokenMinute{0};
    std::atomic<quint64> m_otherTokenDay{0};
};

// The name of a limit as the 429's message and the API say it ("requests_per_minute").
QByteArray limitName(KeyUsage::Limit limit);

} // namespace switchyard::keys
