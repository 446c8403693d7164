#pragma once

// Finished requests on their way from the gateway's worker threads to the panel. Workers push (a lock
// and a copy, no signal, no allocation beyond the record); the GUI thread takes everything a few times
// a second. Bounded: under a flood the oldest unread records are dropped and counted, never queued
// without limit.

#include "stats/requestrecord.h"

#include <QList>
#include <QMutex>
#include <deque>

namespace switchyard::ui {

class RequestFeed final
{
    Q_DISABLE_COPY_MOVE(RequestFeed)

public:
    static constexpr qsizetype DefaultCapacity = 5000;

    explicit RequestFeed(qsizetype capacity = DefaultCapacity) : m_capacity(qMax<qsizetype>(1, capacity)) { }

    void push(const stats::RequestRecord &record); // any thread
    // Everything pushed since the last call, oldest first; dropped = records lost to the bound since then.
    QList<stats::RequestRecord> takeAll(qint64 *dropped = nullptr);

private:
    const qsizetype m_capacity;
    QMutex m_mutex;
    std::deque<stats::RequestRecord> m_pending;
    qint64 m_dropped = 0;
};

} // namespace switchyard::ui
