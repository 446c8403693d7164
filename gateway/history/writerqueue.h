#pragma once

// The hand-over between the threads that serve requests and the history's writer thread
// (history/historystore, history/diskwriter). Internal to history/.

#include "keys/virtualkey.h"
#include "stats/requestrecord.h"

#include <QSet>
#include <QString>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <vector>

namespace switchyard::history::detail {

// What append() and saveKey() hand to the writer, and the counters flush() waits on. One mutex: it is
// held only to move records in or out, never while the disk is touched. (std::mutex and
// std::condition_variable rather than Qt's: ThreadSanitizer sees through them, so a TSan build checks
// this hand-over.)
struct Queue
{
    std::mutex mutex;
    std::condition_variable wake;     // the writer waits here: work, flush, retention or stop
    std::condition_variable progress; // flush() and enforceRetention() wait here
    std::vector<stats::RequestRecord> records; // swapped whole with the writer's (historystore.cpp)
    std::vector<keys::VirtualKey> keys;
    quint64 enqueued = 0; // records and keys accepted since open
    quint64 done = 0;     // of those, written or failed
    quint64 flushWanted = 0;
    quint64 retentionWanted = 0;
    quint64 retentionDone = 0;
    bool paused = false;
    bool stopping = false;
    bool warnedDrop = false;

    quint64 written = 0;
    quint64 failed = 0;
    std::atomic<quint64> dropped{0};
    QString lastError;
    QSet<QString> warnedKinds; // one log line per kind of error, however often it happens
};

} // namespace switchyard::history::detail
