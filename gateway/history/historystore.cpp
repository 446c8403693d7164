#include "history/historystore.h"

#include "history/diskwriter.h"
#include "history/readerconnections.h"
#include "history/schema.h"
#include "history/storedvalues.h"
#include "history/writerqueue.h"

#include <QDateTime>
#include <QDeadlineTimer>
#include <QDir>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>
#include <QThread>
#include <algorithm>
#include <atomic>
#include <chrono>

using namespace Qt::StringLiterals;

namespace switchyard::history {

namespace {

std::atomic<quint64> s_nextSerial{1};

} // namespace

Expected<std::unique_ptr<HistoryStore>, QString> HistoryStore::open(const QString &path,
                                                                    HistoryOptions options)
{
    const QFileInfo info(path);
    const QString file = info.absoluteFilePath();
    if (!QSqlDatabase::isDriverAvailable(SqliteDriver)) {
        return unexpected(u"Cannot open the history file %1: Qt's SQLite driver (QSQLITE) is missing "
                          "(Debian: apt install libqt6sql6-sqlite)"_s.arg(file));
    }
    if (info.isDir())
        return unexpected(u"The history file %1 is a directory"_s.arg(file));
    if (!QDir().mkpath(info.absolutePath())) {
        return unexpected(
            u"Cannot create the directory %1 for the history file %2"_s.arg(info.absolutePath(), file));
    }

    const quint64 serial = s_nextSerial.fetch_add(1);
    const QString setupName = u"switchyard-history-%1-setup"_s.arg(serial);
    QString error;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(SqliteDriver, setupName);
        db.setDatabaseName(file);
        db.setConnectOptions(u"QSQLITE_BUSY_TIMEOUT=5000"_s);
        if (!db.open())
            error = u"Cannot open the history file %1: %2"_s.arg(file, sqlErrorText(db.lastError()));
        else
            error = prepareSchema(db, file);
        db.close();
    }
    QSqlDatabase::removeDatabase(setupName);
    if (!error.isEmpty())
        return unexpected(error);

    options.maxQueued = std::max(1, options.maxQueued);
    options.batchSize = std::max(1, options.batchSize);
    options.flushIntervalMs = std::max(1, options.flushIntervalMs);
    if (!options.nowMs)
        options.nowMs = [] { return QDateTime::currentMSecsSinceEpoch(); };
    std::unique_ptr<HistoryStore> store(new HistoryStore(file, std::move(options), serial));
    return Expected<std::unique_ptr<HistoryStore>, QString>(std::move(store));
}

HistoryStore::HistoryStore(const QString &path, HistoryOptions options, quint64 serial)
    : m_path(path), m_options(std::move(options)), m_serial(serial),
      m_queue(std::make_unique<detail::Queue>()), m_readers(std::make_shared<detail::ReaderRegistry>())
{
    m_queue->paused = m_options.startPaused;
    m_readers->path = m_path;
    m_readers->prefix = u"switchyard-history-%1-read-"_s.arg(m_serial);
    m_writerThread.reset(QThread::create([this] { writerLoop(); }));
    m_writerThread->setObjectName(u"history-writer"_s);
    m_writerThread->start(QThread::LowPriority);
}

HistoryStore::~HistoryStore()
{
    {
        std::lock_guard lock(m_queue->mutex);
        m_queue->paused = false;
        m_queue->stopping = true;
        m_queue->wake.notify_all();
    }
    m_writerThread->wait();
    // Read connections of threads still running: nobody reads through a store being destroyed, so they
    // can be closed from here; the thread's own cleanup then finds them gone.
    std::lock_guard lock(m_readers->mutex);
    for (const QString &name : std::as_const(m_readers->names))
        QSqlDatabase::removeDatabase(name);
    m_readers->names.clear();
}

void HistoryStore::writerLoop()
{
    detail::Queue &q = *m_queue;
    DiskWriter writer(q, m_options, m_path, u"switchyard-history-%1-writer"_s.arg(m_serial));
    const size_t batch = size_t(m_options.batchSize);
    // Due at once: retention runs when the store opens, then every retentionIntervalMs.
    QDeadlineTimer nextRetention(0);

    // The writer's side of the hand-over: swapped with the queue's whole, so the lock is held for an
    // exchange of two pointers, not a move per record (the serving threads wait on that lock; the
    // writer runs at low priority and may lose its core while it holds it). Both buffers keep their
    // capacity from batch to batch.
    std::vector<stats::RequestRecord> records;
    records.reserve(batch);
    std::unique_lock lock(q.mutex);
    for (;;) {
        const bool urgent = q.stopping || q.flushWanted > q.done || q.retentionWanted > q.retentionDone ||
                            (!q.paused && q.records.size() >= batch) || nextRetention.hasExpired();
        if (!urgent) {
            qint64 waitMs = m_options.flushIntervalMs;
            if (!nextRetention.isForever())
                waitMs = std::min(waitMs, std::max<qint64>(nextRetention.remainingTime(), 1));
            q.wake.wait_for(lock, std::chrono::milliseconds(waitMs));
        }
        std::vector<keys::VirtualKey> keys; // records is empty here: cleared after each write
        if (!q.paused) {
            records.swap(q.records);
            keys.swap(q.keys);
        }
        const quint64 retentionTicket = q.retentionWanted;
        const bool retentionDue = retentionTicket > q.retentionDone || nextRetention.hasExpired();
        if (records.empty() && keys.empty() && !retentionDue) {
            if (q.stopping && q.records.empty() && q.keys.empty())
                break;
            continue;
        }
        lock.unlock();
        const auto [written, failed] = writer.write(records, keys);
        const quint64 handled = records.size() + keys.size();
        records.clear(); // the records' texts are freed here, not under the lock at the next swap
        if (retentionDue)
            writer.retention(m_options.nowMs());
        lock.lock();
        q.written += written;
        q.failed += failed;
        q.done += handled;
        if (retentionDue) {
            q.retentionDone = std::max(q.retentionDone, retentionTicket);
            if (m_options.retentionIntervalMs > 0)
                nextRetention.setRemainingTime(m_options.retentionIntervalMs);
            else
                nextRetention = QDeadlineTimer(QDeadlineTimer::Forever);
        }
        q.progress.notify_all();
    }
}

bool HistoryStore::append(const stats::RequestRecord &record)
{
    bool warnDrop = false;
    bool kept = true;
    stats::RequestRecord copy = record; // copied before the lock: under it, only a move
    {
        std::unique_lock lock(m_queue->mutex);
        if (m_queue->records.size() >= size_t(m_options.maxQueued)) {
            m_queue->dropped.fetch_add(1, std::memory_order_relaxed);
            warnDrop = !std::exchange(m_queue->warnedDrop, true);
            kept = false;
        } else {
            m_queue->records.push_back(std::move(copy));
            ++m_queue->enqueued;
            if (m_queue->records.size() == size_t(m_options.batchSize))
                m_queue->wake.notify_one();
        }
    }
    if (warnDrop) {
        qCWarning(lcHistory).noquote()
            << u"History file %1: %2 records wait for the disk; further ones are dropped (and counted) until "
               "it catches up"_s.arg(m_path)
                   .arg(m_options.maxQueued);
    }
    return kept;
}

void HistoryStore::saveKey(const keys::VirtualKey &key)
{
    std::unique_lock lock(m_queue->mutex);
    m_queue->keys.push_back(key);
    ++m_queue->enqueued;
    m_queue->wake.notify_one();
}

void HistoryStore::flush()
{
    std::unique_lock lock(m_queue->mutex);
    const quint64 target = m_queue->enqueued;
    m_queue->flushWanted = std::max(m_queue->flushWanted, target);
    m_queue->wake.notify_one();
    m_queue->progress.wait(lock, [&] { return m_queue->done >= target; });
}

void HistoryStore::enforceRetention()
{
    std::unique_lock lock(m_queue->mutex);
    const quint64 ticket = ++m_queue->retentionWanted;
    m_queue->wake.notify_one();
    m_queue->progress.wait(lock, [&] { return m_queue->retentionDone >= ticket; });
}

void HistoryStore::pauseWriter()
{
    std::unique_lock lock(m_queue->mutex);
    m_queue->paused = true;
}

void HistoryStore::resumeWriter()
{
    std::unique_lock lock(m_queue->mutex);
    m_queue->paused = false;
    m_queue->wake.notify_one();
}

HistoryStore::Stats HistoryStore::stats() const
{
    std::unique_lock lock(m_queue->mutex);
    Stats s;
    s.written = m_queue->written;
    s.dropped = m_queue->dropped.load(std::memory_order_relaxed);
    s.failed = m_queue->failed;
    s.queued = qint64(m_queue->records.size());
    s.lastError = m_queue->lastError;
    return s;
}

quint64 HistoryStore::droppedCount() const
{
    return m_queue->dropped.load(std::memory_order_relaxed);
}

} // namespace switchyard::history
