#pragma once

// The gateway's lasting memory: every finished request, per-minute sums of them and the virtual keys,
// in one SQLite file (docs/HISTORY.md). The in-memory request log (stats/recentrequests.h) forgets on
// restart and keeps only the last few thousand requests; this keeps weeks of them, so an operator can
// ask "what did key X do last Tuesday" or chart a month of errors.
//
// The request path never waits on the disk: append() copies the record into a bounded queue and
// returns; one writer thread of the store's own inserts what is queued in batches, one transaction per
// batch. When the disk cannot keep up the queue fills and further records are dropped and counted
// (stats().dropped) rather than the gateway slowing down or growing without bound. A disk that fails
// is logged once per kind of error and counted; the gateway keeps serving either way.
//
// Reads (search, rollups, loadKeys) run on the calling thread with a read-only connection of that
// thread's own: SQLite's WAL journal lets them read beside the writer, and Qt allows a database
// connection to be used only on the thread that made it.

#include "common/expected.h"
#include "history/historyquery.h"
#include "keys/virtualkey.h"
#include "stats/recordsink.h"
#include "stats/requestrecord.h"

#include <QString>
#include <QtGlobal>
#include <functional>
#include <memory>
#include <vector>

class QThread;

namespace switchyard::history {

namespace detail {
struct Queue;
struct ReaderRegistry;
} // namespace detail

struct HistoryOptions
{
    // Records waiting for the writer, at most. Past it, append() drops the record and counts it. At a
    // few hundred bytes a record, the default bounds the queue to some tens of MB.
    int maxQueued = 50'000;
    // The writer writes what waits every flushIntervalMs, or sooner once batchSize records wait.
    int batchSize = 1000;
    int flushIntervalMs = 250;
    // Retention: requests and per-minute sums older than maxAgeDays are deleted (0 = keep forever), and
    // while the data is larger than maxBytes the oldest requests go first (0 = no size limit). Checked
    // when the store opens and then every retentionIntervalMs.
    int maxAgeDays = 30;
    qint64 maxBytes = qint64(1) << 30;
    int retentionIntervalMs = 10 * 60 * 1000;
    // The wall clock, ms since the epoch, for "now" in retention and in a search up to now. Empty: the
    // system clock. Tests set one they can move forward to age records.
    std::function<qint64()> nowMs;
    // Test-only: the writer starts paused and writes nothing until resumeWriter(), so a test can fill
    // the queue. Never set in production.
    bool startPaused = false;
    // Test-only: the writer's file may grow to at most this many pages (SQLite's max_page_count), so a
    // test sees what a full disk does. 0 = no cap. Never set in production.
    qint64 testMaxPages = 0;
};

class HistoryStore final : public stats::RecordSink
{
    Q_DISABLE_COPY_MOVE(HistoryStore)

public:
    // The schema this build writes; a file with a newer one is refused rather than guessed at.
    static constexpr int SchemaVersion = 2;
    // A rollups() answer has at most this many buckets (of all series together, when split): a wider
    // range needs wider buckets.
    static constexpr int MaxBuckets = 20'000;
    // Split rollups list the busiest this many groups (by requests in the range) and sum the rest as
    // one more, "(other)": a chart of a hundred keys would be unreadable, and the answer bounded.
    static constexpr int MaxSplitGroups = 8;

    // Opens (or creates, with its directory) the history file at path and starts the writer. Fails
    // with a message naming the file when it is not a SQLite database, was written by a newer
    // Switchyard, or cannot be created; the caller then serves without history.
    static Expected<std::unique_ptr<HistoryStore>, QString> open(const QString &path,
                                                                 HistoryOptions options = {});
    // Writes everything queued, then stops the writer.
    ~HistoryStore();

    QString path() const { return m_path; }

    // Any thread; never waits on the disk. Drops (and counts) the record when the queue is full.
    bool append(const stats::RequestRecord &record) override;
    // Any thread; queued like a record (a key with the same id is replaced). Keys are never dropped:
    // they are few, and losing a revocation would matter.
    void saveKey(const keys::VirtualKey &key);

    // Blocks until everything queued before the call is written (or has failed). For shutdown and
    // tests. Must not be called while the writer is paused (test hook below).
    void flush();

    // Every stored key, ordered by id. Sees what flush() has written: call it once at start, before
    // serving, or flush() first.
    Expected<std::vector<keys::VirtualKey>, QString> loadKeys() const;
    // Matching records, newest first (by start time, ties by id), at most query.limit of them.
    Expected<HistoryPage, QString> search(const HistoryQuery &query) const;
    // Per-bucket sums of the requests that started in [fromMs, toMs) (toMs 0 = now), fromMs rounded down
    // to the minute; every bucket of the range is listed, empty ones with zeros. Empty filters match
    // everything. Split, one series per group (busiest first, each with every bucket, oldest first).
    Expected<std::vector<RollupPoint>, QString> rollups(qint64 fromMs, qint64 toMs, int bucketMinutes,
                                                        const QString &node = {}, const QString &model = {},
                                                        const QString &keyId = {},
                                                        RollupSplit split = RollupSplit::None) const;

    struct Stats
    {
        quint64 written = 0; // records inserted since open
        quint64 dropped = 0; // records refused because the queue was full
        quint64 failed = 0;  // records (and keys) lost to a write error
        qint64 queued = 0;   // records waiting for the writer now
        QString lastError;   // the last write or retention error; empty when none happened
    };
    Stats stats() const;
    quint64 droppedCount() const;

    // Runs a retention pass on the writer now and waits for it (tests, or an operator's "clean up now").
    void enforceRetention();

    // Test-only: while paused the writer takes nothing from the queue (HistoryOptions::startPaused).
    void pauseWriter();
    void resumeWriter();

private:
    HistoryStore(const QString &path, HistoryOptions options, quint64 serial);
    void writerLoop();

    const QString m_path;
    const HistoryOptions m_options;
    const quint64 m_serial;                 // tells this store's connection names from those of another store
    std::unique_ptr<detail::Queue> m_queue; // between the callers and the writer
    std::shared_ptr<detail::ReaderRegistry> m_readers; // the per-thread read connections
    std::unique_ptr<QThread> m_writerThread;
};

} // namespace switchyard::history
