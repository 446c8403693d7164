#include "stats/recentrequests.h"

#include <algorithm>
#include <thread>

namespace switchyard::stats {

// state: 0 = empty; odd = being written (2·seq − 1); even = holds the record of sequence state / 2.
// A writer that laps a slot still being read or written by a slower thread waits for it, which
// needs a whole ring's worth (capacity) of requests to finish during one copy: practically never. A
// writer that finds a newer record already in its slot drops its own (it fell out of the ring anyway).
struct RecentRequests::Slot
{
    std::atomic<quint64> state{0};
    std::atomic<int> readers{0};
    RequestRecord record;
};

RecentRequests::RecentRequests(int capacity)
    : m_capacity(std::max(1, capacity)), m_slots(std::make_unique<Slot[]>(size_t(m_capacity)))
{}

RecentRequests::~RecentRequests() = default;

quint64 RecentRequests::append(const RequestRecord &record)
{
    const quint64 seq = m_next.fetch_add(1, std::memory_order_relaxed);
    Slot &slot = m_slots[size_t(seq % quint64(m_capacity))];
    // Claim the slot: from any complete (even) state to "writing seq". A slot still being written by
    // the previous lap's writer (odd) or copied by a reader is waited for.
    for (;;) {
        quint64 s = slot.state.load(std::memory_order_acquire);
        // A writer a whole lap ahead got here first (this thread was preempted between its fetch_add and
        // now): its record is newer, ours has already left the ring. Keep theirs.
        if ((s & 1) == 0 && s / 2 > seq)
            return seq;
        // seq_cst on the claim and the readers check (and on the reader's side): a store→load pair on
        // two variables, which weaker orders would let pass each other.
        if ((s & 1) == 0 && slot.readers.load() == 0 && slot.state.compare_exchange_weak(s, 2 * seq - 1)) {
            if (slot.readers.load() == 0)
                break;
            slot.state.store(s, std::memory_order_release); // a reader slipped in: give it back
        }
        std::this_thread::yield();
    }
    slot.record = record;
    slot.state.store(2 * seq, std::memory_order_release);
    return seq;
}

RecentRequests::Page RecentRequests::since(quint64 after, int max) const
{
    Page page;
    const quint64 last = m_next.load(std::memory_order_acquire) - 1;
    page.cursor = std::max(after, last);
    if (last <= after || max <= 0)
        return page;
    quint64 first = after + 1;
    const quint64 oldestKept = last >= quint64(m_capacity) ? last - quint64(m_capacity) + 1 : 1;
    if (first < oldestKept) {
        page.missed = oldestKept - first;
        first = oldestKept;
    }
    if (last - first + 1 > quint64(max))
        first = last - quint64(max) + 1;
    page.records.reserve(qsizetype(last - first + 1));
    for (quint64 seq = first; seq <= last; ++seq) {
        Slot &slot = m_slots[size_t(seq % quint64(m_capacity))];
        // Announce the read, then check the slot holds exactly this record; a writer claiming the slot
        // checks `readers` after its claim, so it either sees us or we see its odd state.
        slot.readers.fetch_add(1);
        if (slot.state.load() == 2 * seq)
            page.records.append(slot.record);
        slot.readers.fetch_sub(1, std::memory_order_acq_rel);
    }
    return page;
}

} // namespace switchyard::stats
