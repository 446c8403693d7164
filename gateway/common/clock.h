#pragma once

// The gateway's clock for the waits that last seconds: the backoff between retries, when a node is due
// for its next health check, and how long an ejected node sits out. Milliseconds of a monotonic clock,
// the same numbers as QDeadlineTimer::current().deadline() — which is all it reads in production, one
// read per request or per probe.
//
// A test may stop it with a ManualClock: time then stands still until the test moves it on, so a test of
// a 5 s cooldown or a 10 s check interval advances the clock instead of sleeping. The override is
// process-wide (as Chromium's ScopedTimeClockOverrides is) because the workers and the health prober run
// on threads of their own and must all agree on one time.
//
// Client-socket deadlines, the drain on stop and measured durations (latency, time to first token) keep
// the real clock: they guard the gateway against slow clients and report what really happened, and no
// test needs to skip them.

#include <QDeadlineTimer>
#include <QtGlobal>
#include <algorithm>
#include <atomic>
#include <limits>

namespace switchyard {

class Clock final
{
public:
    Clock() = delete;

    static qint64 nowMs()
    {
        if (const std::atomic<qint64> *manual = s_manual.load(std::memory_order_acquire)) [[unlikely]]
            return manual->load(std::memory_order_acquire);
        return QDeadlineTimer::current().deadline();
    }

    // How long a real timer should run to wait `ms` of this clock. The caller compares nowMs() with its
    // deadline when the timer fires and waits again for the rest. A stopped clock moves only when a test
    // advances it, so whoever waits on it looks again every few milliseconds.
    static int timerIntervalMs(qint64 ms)
    {
        ms = std::clamp<qint64>(ms, 0, std::numeric_limits<int>::max());
        if (s_manual.load(std::memory_order_relaxed)) [[unlikely]]
            return int(std::min<qint64>(ms, ManualPollMs));
        return int(ms);
    }

private:
    friend class ManualClock;
    static constexpr int ManualPollMs = 5;
    static inline std::atomic<const std::atomic<qint64> *> s_manual{nullptr};
};

// For tests: while one exists, Clock::nowMs() stands at the time it was made and moves only by advance().
// Make it before the gateway starts and let it outlive the gateway (declare it first); one at a time.
class ManualClock final
{
    Q_DISABLE_COPY_MOVE(ManualClock)

public:
    ManualClock() : m_now(QDeadlineTimer::current().deadline())
    {
        Q_ASSERT(!Clock::s_manual.load());
        Clock::s_manual.store(&m_now, std::memory_order_release);
    }
    ~ManualClock() { Clock::s_manual.store(nullptr, std::memory_order_release); }

    void advance(qint64 ms) { m_now.fetch_add(ms, std::memory_order_acq_rel); }
    qint64 nowMs() const { return m_now.load(std::memory_order_acquire); }

private:
    std::atomic<qint64> m_now;
};

} // namespace switchyard
