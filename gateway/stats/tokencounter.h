#pragma once

// A node's token total as /metrics exports it: a Prometheus counter, so it never goes down (rate() reads
// a decrease as a restart of the gateway and shows a spike). Streams are counted as their chunks pass
// (an estimate) and corrected when the node's exact usage arrives; the correction is usually upwards,
// but a node that sends more text chunks than tokens makes the estimate too high. Such a surplus is not
// taken back: it is owed, and paid from the next tokens the node counts, so the total is exact again as
// soon as that many tokens have passed (and never above the exact count by more than one stream's
// surplus). Lock-free: the workers call add() on the request path.

#include <QtGlobal>
#include <algorithm>
#include <atomic>

namespace switchyard::stats {

class TokenCounter final
{
public:
    // delta < 0: the estimate counted that many tokens too many.
    void add(qint64 delta)
    {
        if (delta < 0) {
            m_owed.fetch_add(-delta, std::memory_order_relaxed);
            return;
        }
        qint64 owed = m_owed.load(std::memory_order_relaxed);
        qint64 paid = 0;
        while (owed > 0) {
            paid = std::min(owed, delta);
            if (m_owed.compare_exchange_weak(owed, owed - paid, std::memory_order_relaxed))
                break;
            paid = 0;
        }
        if (delta > paid)
            m_total.fetch_add(delta - paid, std::memory_order_relaxed);
    }

    qint64 load() const { return m_total.load(std::memory_order_relaxed); }
    // What the total is above the exact count, until later tokens pay it.
    qint64 owed() const { return m_owed.load(std::memory_order_relaxed); }

private:
    std::atomic<qint64> m_total{0};
    std::atomic<qint64> m_owed{0};
};

} // namespace switchyard::stats
