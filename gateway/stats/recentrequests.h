#pragma once

// The last N finished requests, written by every worker thread and read by snapshots, /api/status and
// the panel. Writers never wait on each other or on a reader: each takes its own slot with one
// fetch_add and fills it; a slot has a sequence number that says whether it holds a complete record.
// Readers copy slots under the slot's sequence check and skip one that a writer is filling (a reader
// never blocks a writer, and may at worst miss the one record being written at that instant).
//
// Every record gets a global sequence number, so a reader can ask for "everything after what I saw"
// (a cursor): the panel's Requests view and a remote client both follow the log without a callback.

#include "stats/requestrecord.h"

#include <QList>
#include <atomic>
#include <memory>

namespace switchyard::stats {

class RecentRequests final
{
    Q_DISABLE_COPY_MOVE(RecentRequests)

public:
    explicit RecentRequests(int capacity);
    ~RecentRequests();

    int capacity() const { return m_capacity; }

    // Any thread. Returns the record's sequence number (1, 2, …).
    quint64 append(const RequestRecord &record);

    struct Page
    {
        QList<RequestRecord> records; // oldest first
        quint64 cursor = 0;           // pass back to get what comes after these
        quint64 missed = 0;           // records that fell out of the ring before this read
    };
    // Records with sequence number > after, at most max (the newest ones when more are available).
    Page since(quint64 after, int max) const;
    // The newest `max` records, oldest first.
    QList<RequestRecord> latest(int max) const { return since(0, max).records; }

    quint64 lastSequence() const { return m_next.load(std::memory_order_acquire) - 1; }

private:
    struct Slot;
    const int m_capacity;
    std::unique_ptr<Slot[]> m_slots;
    std::atomic<quint64> m_next{1};
};

} // namespace switchyard::stats
