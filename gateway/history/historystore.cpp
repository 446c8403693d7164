#include "history/historystore.h"

#include <QDateTime>
#include <QDeadlineTimer>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QSet>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QThread>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <span>
#include <tuple>

using namespace Qt::StringLiterals;

namespace switchyard::history {

namespace {
Q_LOGGING_CATEGORY(lcHistory, "switchyard.history")

constexpr qint64 MsPerMinute = 60'000;
constexpr qint64 MsPerDay = 86'400'000;
const QString Driver = u"QSQLITE"_s;

std::atomic<quint64> s_nextSerial{1};
std::atomic<quint64> s_nextReader{1};

qint64 floorToMinute(qint64 ms)
{
    return ms - ((ms % MsPerMinute) + MsPerMinute) % MsPerMinute;
}

// Qt binds a null QString as SQL NULL; the text columns are NOT NULL (and part of the rollups' key, where
// NULLs would never match each other), so an absent value is stored as ''.
QString text(const QString &s)
{
    return s.isNull() ? u""_s : s;
}

QString describe(const QSqlError &e)
{
    QString t = e.databaseText();
    if (t.isEmpty())
        t = e.driverText();
    return t.isEmpty() ? u"unknown error"_s : t;
}

QString triedToJson(const QList<stats::Attempt> &tried)
{
    QJsonArray out;
    for (const stats::Attempt &a : tried) {
        QJsonObject o{
            {u"node"_s, a.node},
            {u"status"_s, a.status},
            {u"outcome"_s, QString::fromLatin1(stats::attemptOutcomeName(a.outcome))},
            {u"via"_s, QString::fromLatin1(stats::attemptViaName(a.via))},
            {u"start_ms"_s, a.startMs},
            {u"duration_ms"_s, a.durationMs},
        };
        if (!a.reason.isEmpty())
            o.insert(u"reason"_s, a.reason);
        if (!a.fallbackModel.isEmpty())
            o.insert(u"fallback_model"_s, a.fallbackModel);
        out.append(o);
    }
    return QString::fromUtf8(QJsonDocument(out).toJson(QJsonDocument::Compact));
}

QList<stats::Attempt> triedFromJson(const QString &json)
{
    QList<stats::Attempt> out;
    const QJsonArray arr = QJsonDocument::fromJson(json.toUtf8()).array();
    for (const QJsonValue &v : arr) {
        const QJsonObject o = v.toObject();
        stats::Attempt a;
        a.node = o.value(u"node"_s).toString();
        a.status = o.value(u"status"_s).toInt();
        a.outcome = stats::attemptOutcomeFromName(o.value(u"outcome"_s).toString().toLatin1())
                        .value_or(stats::Attempt::Outcome::Open);
        a.via = stats::attemptViaFromName(o.value(u"via"_s).toString().toLatin1())
                    .value_or(stats::Attempt::Via::Candidate);
        a.startMs = o.value(u"start_ms"_s).toInteger();
        a.durationMs = o.value(u"duration_ms"_s).toInteger();
        a.reason = o.value(u"reason"_s).toString();
        a.fallbackModel = o.value(u"fallback_model"_s).toString();
        out.append(a);
    }
    return out;
}

QString listToJson(const QStringList &list)
{
    return QString::fromUtf8(QJsonDocument(QJsonArray::fromStringList(list)).toJson(QJsonDocument::Compact));
}

QStringList listFromJson(const QString &json)
{
    QStringList out;
    const QJsonArray arr = QJsonDocument::fromJson(json.toUtf8()).array();
    for (const QJsonValue &v : arr)
        out.append(v.toString());
    return out;
}

bool isServerError(const stats::RequestRecord &r)
{
    return r.status >= 500 || r.cutMidAnswer();
}

// The schema, one entry per version: entry i takes a file from version i to i + 1. A new version adds an
// entry (ALTER TABLE …) and never edits an old one, so every older file is brought up step by step.
const std::vector<std::vector<QString>> &migrations()
{
    static const std::vector<std::vector<QString>> steps = {
        {
            // Version 1.
            u"CREATE TABLE requests ("
            "id INTEGER PRIMARY KEY,"
            "started_ms INTEGER NOT NULL,"
            "key_id TEXT NOT NULL DEFAULT '',"
            "model TEXT NOT NULL DEFAULT '',"
            "node TEXT NOT NULL DEFAULT '',"
            "route TEXT NOT NULL DEFAULT '',"
            "method TEXT NOT NULL DEFAULT '',"
            "path TEXT NOT NULL DEFAULT '',"
            "status INTEGER NOT NULL,"
            "attempts INTEGER NOT NULL,"
            "stream INTEGER NOT NULL,"
            "ttft_ms INTEGER NOT NULL,"
            "duration_ms INTEGER NOT NULL,"
            "prompt_tokens INTEGER NOT NULL,"
            "completion_tokens INTEGER NOT NULL,"
            "error TEXT NOT NULL DEFAULT '',"
            "tried TEXT NOT NULL DEFAULT '[]')"_s,
            u"CREATE INDEX requests_started ON requests (started_ms)"_s,
            u"CREATE INDEX requests_key_started ON requests (key_id, started_ms)"_s,
            u"CREATE TABLE rollups ("
            "minute_ms INTEGER NOT NULL,"
            "node TEXT NOT NULL,"
            "model TEXT NOT NULL,"
            "key_id TEXT NOT NULL,"
            "requests INTEGER NOT NULL,"
            "errors INTEGER NOT NULL,"
            "client_errors INTEGER NOT NULL,"
            "prompt_tokens INTEGER NOT NULL,"
            "completion_tokens INTEGER NOT NULL,"
            "duration_ms_sum INTEGER NOT NULL,"
            "ttft_ms_sum INTEGER NOT NULL,"
            "ttft_count INTEGER NOT NULL,"
            "PRIMARY KEY (minute_ms, node, model, key_id)) WITHOUT ROWID"_s,
            u"CREATE TABLE keys ("
            "id TEXT PRIMARY KEY,"
            "name TEXT NOT NULL DEFAULT '',"
            "secret_sha256 BLOB,"
            "secret_hint TEXT NOT NULL DEFAULT '',"
            "models TEXT NOT NULL DEFAULT '[]',"
            "providers TEXT NOT NULL DEFAULT '[]',"
            "requests_per_minute INTEGER NOT NULL DEFAULT 0,"
            "tokens_per_minute INTEGER NOT NULL DEFAULT 0,"
            "tokens_per_day INTEGER NOT NULL DEFAULT 0,"
            "max_concurrent INTEGER NOT NULL DEFAULT 0,"
            "created_ms INTEGER NOT NULL DEFAULT 0,"
            "expires_ms INTEGER NOT NULL DEFAULT 0,"
            "revoked_ms INTEGER NOT NULL DEFAULT 0)"_s,
        },
    };
    return steps;
}

// Brings the file to SchemaVersion on a connection of the caller's, before the writer starts. Returns an
// empty string when done, else what is wrong, naming the file.
QString prepareSchema(QSqlDatabase &db, const QString &path)
{
    QSqlQuery q(db);
    // The first read tells a SQLite file from anything else: SQLite opens any file lazily.
    if (!q.exec(u"SELECT count(*) FROM sqlite_master"_s) || !q.next()) {
        return u"The history file %1 is not a SQLite database or is damaged (%2). Move it away to start a "
               "new history."_s.arg(path, describe(q.lastError()));
    }
    const qint64 objects = q.value(0).toLongLong();
    if (!q.exec(u"PRAGMA user_version"_s) || !q.next())
        return u"Cannot read the schema version of the history file %1: %2"_s.arg(path,
                                                                                  describe(q.lastError()));
    const int version = q.value(0).toInt();
    if (version > HistoryStore::SchemaVersion) {
        return u"The history file %1 was written by a newer Switchyard (schema version %2; this one knows up "
               "to %3). Upgrade Switchyard or move the file away."_s.arg(path)
                   .arg(version)
                   .arg(HistoryStore::SchemaVersion);
    }
    // Incremental auto-vacuum lets retention give deleted pages back to the file system without a full
    // VACUUM (which would copy the whole file). It can only be chosen before the first table exists.
    if (objects == 0 && !q.exec(u"PRAGMA auto_vacuum = INCREMENTAL"_s))
        return u"Cannot set up the history file %1: %2"_s.arg(path, describe(q.lastError()));
    // WAL: the writer appends while readers read, neither waiting for the other. It is a property of the
    // file, kept from here on.
    if (!q.exec(u"PRAGMA journal_mode = WAL"_s) || !q.next())
        return u"Cannot switch the history file %1 to WAL: %2"_s.arg(path, describe(q.lastError()));
    if (q.value(0).toString().compare(u"wal"_s, Qt::CaseInsensitive) != 0) {
        return u"The history file %1 cannot use a write-ahead log (journal mode stays \"%2\"); is it on a "
               "network file system?"_s.arg(path, q.value(0).toString());
    }
    const auto &steps = migrations();
    for (int v = version; v < HistoryStore::SchemaVersion; ++v) {
        if (!db.transaction())
            return u"Cannot update the history file %1: %2"_s.arg(path, describe(db.lastError()));
        for (const QString &sql : steps[size_t(v)]) {
            if (!q.exec(sql)) {
                const QString why = describe(q.lastError());
                db.rollback();
                return u"Cannot update the history file %1 to schema version %2: %3"_s.arg(path)
                    .arg(v + 1)
                    .arg(why);
            }
        }
        if (!q.exec(u"PRAGMA user_version = %1"_s.arg(v + 1)) || !db.commit()) {
            const QString why = describe(q.lastError().isValid() ? q.lastError() : db.lastError());
            db.rollback();
            return u"Cannot update the history file %1: %2"_s.arg(path, why);
        }
    }
    return {};
}

} // namespace

namespace detail {

// What append() and saveKey() hand to the writer, and the counters flush() waits on. One mutex: it is
// held only to move records in or out, never while the disk is touched. (std::mutex and
// std::condition_variable rather than Qt's: ThreadSanitizer sees through them, so a TSan build checks
// this hand-over.)
struct Queue
{
    std::mutex mutex;
    std::condition_variable wake;     // the writer waits here: work, flush, retention or stop
    std::condition_variable progress; // flush() and enforceRetention() wait here
    std::deque<stats::RequestRecord> records;
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

// The read connections opened for one store, one per thread that read. Each is closed on its own thread
// when that thread ends, or by the store when the store goes first.
struct ReaderRegistry
{
    std::mutex mutex;
    QString path;
    QString prefix;
    QStringList names;
};

} // namespace detail

namespace {

// The connections this thread opened, for whichever stores; closed when the thread ends (on the thread,
// as Qt wants) unless their store has already closed them.
struct ThreadReaders
{
    struct Entry
    {
        std::weak_ptr<detail::ReaderRegistry> registry;
        QString name;
    };
    std::vector<Entry> entries;

    ~ThreadReaders()
    {
        for (const Entry &e : entries) {
            const auto registry = e.registry.lock();
            if (!registry)
                continue; // the store went first and closed it
            std::lock_guard lock(registry->mutex);
            if (registry->names.removeOne(e.name))
                QSqlDatabase::removeDatabase(e.name);
        }
    }
};
thread_local ThreadReaders t_readers;

// This thread's read-only connection to the store's file, opened on first use.
Expected<QSqlDatabase, QString> readerFor(const std::shared_ptr<detail::ReaderRegistry> &registry)
{
    auto &entries = t_readers.entries;
    std::erase_if(entries, [](const ThreadReaders::Entry &e) { return e.registry.expired(); });
    for (const ThreadReaders::Entry &e : entries) {
        if (e.registry.lock() == registry)
            return QSqlDatabase::database(e.name, false);
    }
    const QString name = registry->prefix + QString::number(s_nextReader.fetch_add(1));
    QString error;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(Driver, name);
        db.setDatabaseName(registry->path);
        db.setConnectOptions(u"QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=5000"_s);
        if (!db.open())
            error = u"Cannot read the history file %1: %2"_s.arg(registry->path, describe(db.lastError()));
    }
    if (!error.isEmpty()) {
        QSqlDatabase::removeDatabase(name);
        return unexpected(error);
    }
    {
        std::lock_guard lock(registry->mutex);
        registry->names.append(name);
    }
    entries.push_back({registry, name});
    return QSqlDatabase::database(name, false);
}

} // namespace

namespace {

struct RollupKey
{
    qint64 minute;
    QString node, model, keyId;
    friend bool operator<(const RollupKey &a, const RollupKey &b)
    {
        return std::tie(a.minute, a.node, a.model, a.keyId) < std::tie(b.minute, b.node, b.model, b.keyId);
    }
};

struct RollupSums
{
    qint64 requests = 0, errors = 0, clientErrors = 0, promptTokens = 0, completionTokens = 0;
    qint64 durationSum = 0, ttftSum = 0, ttftCount = 0;
};

// The writer's connection and statements; made, used and destroyed on the writer thread only.
class DiskWriter final
{
    Q_DISABLE_COPY_MOVE(DiskWriter)

public:
    DiskWriter(detail::Queue &queue, const HistoryOptions &options, QString path, QString name)
        : m_queue(queue), m_options(options), m_path(std::move(path)), m_name(std::move(name))
    {}

    ~DiskWriter()
    {
        close();
        QSqlDatabase::removeDatabase(m_name);
    }

    // Records (and keys) written and lost, in transactions of at most batchSize records each.
    std::pair<quint64, quint64> write(const std::vector<stats::RequestRecord> &records,
                                      const std::vector<keys::VirtualKey> &keys)
    {
        const quint64 total = records.size() + keys.size();
        if (!ensureOpen())
            return {0, total};
        quint64 written = 0, failed = 0;
        const size_t batch = size_t(std::max(1, m_options.batchSize));
        std::span<const stats::RequestRecord> rest(records);
        bool keysDone = keys.empty();
        while (!rest.empty() || !keysDone) {
            const auto chunk = rest.first(std::min(batch, rest.size()));
            rest = rest.subspan(chunk.size());
            const std::span<const keys::VirtualKey> chunkKeys =
                keysDone ? std::span<const keys::VirtualKey>() : std::span<const keys::VirtualKey>(keys);
            if (writeChunk(chunk, chunkKeys))
                written += chunk.size();
            else
                failed += chunk.size() + chunkKeys.size();
            keysDone = true;
        }
        return {written, failed};
    }

    void retention(qint64 nowMs)
    {
        if (!ensureOpen())
            return;
        QSqlQuery q(m_db);
        bool deleted = false;
        if (m_options.maxAgeDays > 0) {
            const qint64 cutoff = nowMs - qint64(m_options.maxAgeDays) * MsPerDay;
            // In chunks, each its own commit: after a long downtime the first pass may delete weeks of
            // requests, and one huge transaction would swell the WAL by as much.
            q.prepare(u"DELETE FROM requests WHERE id IN "
                      "(SELECT id FROM requests WHERE started_ms < ? ORDER BY started_ms LIMIT 20000)"_s);
            for (;;) {
                q.addBindValue(cutoff);
                if (!q.exec())
                    return report(u"retention"_s, q.lastError());
                if (q.numRowsAffected() <= 0)
                    break;
                deleted = true;
            }
            q.prepare(u"DELETE FROM rollups WHERE minute_ms < ?"_s);
            q.addBindValue(floorToMinute(cutoff));
            if (!q.exec())
                return report(u"retention"_s, q.lastError());
            deleted |= q.numRowsAffected() > 0;
        }
        if (m_options.maxBytes > 0) {
            // Oldest requests first, in chunks sized from how far over the limit the data is. The rollups
            // stay (a few hundred bytes per minute and node): the charts keep their whole age range.
            for (int round = 0; round < 64; ++round) {
                const qint64 used = usedBytes();
                if (used <= m_options.maxBytes)
                    break;
                if (!q.exec(u"SELECT count(*) FROM requests"_s) || !q.next())
                    return report(u"retention"_s, q.lastError());
                const qint64 rows = q.value(0).toLongLong();
                q.finish();
                if (rows == 0)
                    break;
                // The share of the data over the limit, and 1% more so a second round is rarely needed.
                const double over = double(used - m_options.maxBytes) / double(used) + 0.01;
                const qint64 chunk = std::clamp<qint64>(qint64(double(rows) * over) + 1, 64, rows);
                q.prepare(u"DELETE FROM requests WHERE id IN "
                          "(SELECT id FROM requests ORDER BY started_ms, id LIMIT ?)"_s);
                q.addBindValue(chunk);
                if (!q.exec())
                    return report(u"retention"_s, q.lastError());
                if (q.numRowsAffected() <= 0)
                    break;
                deleted = true;
            }
        }
        if (deleted || freePages() > 0)
            giveBackFreePages();
    }

private:
    // Returns the freed pages to the file system, then folds the WAL into the file and empties it, so
    // neither grows without bound. SQLite's incremental_vacuum frees one page per step of its statement,
    // and Qt steps a statement without result columns only once: so it runs once per free page, all in
    // one transaction (cheap: no commit, no sync in between).
    void giveBackFreePages()
    {
        QSqlQuery q(m_db);
        qint64 free = freePages();
        if (free > 0 && m_db.transaction()) {
            if (!q.prepare(u"PRAGMA incremental_vacuum(1)"_s)) {
                m_db.rollback();
                return report(u"vacuum"_s, q.lastError());
            }
            while (free > 0) {
                const qint64 round = std::min<qint64>(free, 4096);
                for (qint64 i = 0; i < round; ++i) {
                    if (!q.exec()) {
                        const QSqlError error = q.lastError();
                        q.finish();
                        m_db.rollback();
                        return report(u"vacuum"_s, error);
                    }
                }
                const qint64 left = freePages();
                if (left < 0 || left >= free)
                    break; // no progress: stop rather than loop
                free = left;
            }
            q.finish();
            if (!m_db.commit()) {
                report(u"vacuum"_s, m_db.lastError());
                m_db.rollback();
            }
        }
        if (q.exec(u"PRAGMA wal_checkpoint(TRUNCATE)"_s)) {
            while (q.next()) {
            }
        }
    }

    bool ensureOpen()
    {
        if (m_open)
            return true;
        {
            QSqlDatabase db = QSqlDatabase::contains(m_name) ? QSqlDatabase::database(m_name, false)
                                                             : QSqlDatabase::addDatabase(Driver, m_name);
            db.setDatabaseName(m_path);
            db.setConnectOptions(u"QSQLITE_BUSY_TIMEOUT=5000"_s);
            if (!db.open()) {
                report(u"open"_s, db.lastError());
                return false;
            }
            m_db = db;
        }
        QSqlQuery q(m_db);
        // NORMAL: a commit is safe against a crash of the gateway; a power cut may lose the last
        // commits but never corrupts the file (that is what WAL buys). A history line is not worth an
        // fsync per batch.
        q.exec(u"PRAGMA synchronous = NORMAL"_s);
        // After a checkpoint the WAL is cut back to this size rather than kept at its largest.
        q.exec(u"PRAGMA journal_size_limit = 16777216"_s);
        if (m_options.testMaxPages > 0)
            q.exec(u"PRAGMA max_page_count = %1"_s.arg(m_options.testMaxPages));
        m_insertRequest.emplace(m_db);
        m_upsertRollup.emplace(m_db);
        m_saveKey.emplace(m_db);
        const bool prepared =
            m_insertRequest->prepare(
                u"INSERT INTO requests (started_ms, key_id, model, node, route, method, path, status, "
                "attempts, stream, ttft_ms, duration_ms, prompt_tokens, completion_tokens, error, tried) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"_s) &&
            m_upsertRollup->prepare(
                u"INSERT INTO rollups (minute_ms, node, model, key_id, requests, errors, client_errors, "
                "prompt_tokens, completion_tokens, duration_ms_sum, ttft_ms_sum, ttft_count) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (minute_ms, node, model, key_id) DO UPDATE SET "
                "requests = requests + excluded.requests, errors = errors + excluded.errors, "
                "client_errors = client_errors + excluded.client_errors, "
                "prompt_tokens = prompt_tokens + excluded.prompt_tokens, "
                "completion_tokens = completion_tokens + excluded.completion_tokens, "
                "duration_ms_sum = duration_ms_sum + excluded.duration_ms_sum, "
                "ttft_ms_sum = ttft_ms_sum + excluded.ttft_ms_sum, "
                "ttft_count = ttft_count + excluded.ttft_count"_s) &&
            m_saveKey->prepare(
                u"INSERT OR REPLACE INTO keys (id, name, secret_sha256, secret_hint, models, providers, "
                "requests_per_minute, tokens_per_minute, tokens_per_day, max_concurrent, created_ms, "
                "expires_ms, revoked_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"_s);
        if (!prepared) {
            QSqlError e = m_insertRequest->lastError();
            if (!e.isValid())
                e = m_upsertRollup->lastError();
            if (!e.isValid())
                e = m_saveKey->lastError();
            report(u"prepare"_s, e);
            close();
            return false;
        }
        m_open = true;
        return true;
    }

    void close()
    {
        m_insertRequest.reset();
        m_upsertRollup.reset();
        m_saveKey.reset();
        if (m_db.isValid())
            m_db.close();
        m_db = QSqlDatabase();
        m_open = false;
    }

    bool writeChunk(std::span<const stats::RequestRecord> records, std::span<const keys::VirtualKey> keys)
    {
        if (!m_db.transaction()) {
            report(u"begin"_s, m_db.lastError());
            // A connection that cannot even begin is likely gone bad (file replaced, disk detached):
            // reopen it for the next batch.
            close();
            return false;
        }
        std::map<RollupKey, RollupSums> rollups;
        QSqlQuery &ins = *m_insertRequest;
        for (const stats::RequestRecord &r : records) {
            ins.bindValue(0, r.startedMsSinceEpoch);
            ins.bindValue(1, text(r.keyId));
            ins.bindValue(2, text(r.model));
            ins.bindValue(3, text(r.node));
            ins.bindValue(4, text(r.route));
            ins.bindValue(5, text(QString::fromLatin1(r.method)));
            ins.bindValue(6, text(QString::fromLatin1(r.path)));
            ins.bindValue(7, r.status);
            ins.bindValue(8, r.attempts);
            ins.bindValue(9, r.stream ? 1 : 0);
            ins.bindValue(10, r.ttftMs);
            ins.bindValue(11, r.durationMs);
            ins.bindValue(12, r.promptTokens);
            ins.bindValue(13, r.completionTokens);
            ins.bindValue(14, text(r.error));
            ins.bindValue(15, triedToJson(r.tried));
            if (!ins.exec())
                return abort(u"insert request"_s, ins.lastError());

            RollupSums &sum = rollups[RollupKey{floorToMinute(r.startedMsSinceEpoch), text(r.node),
                                                text(r.model), text(r.keyId)}];
            ++sum.requests;
            sum.errors += isServerError(r) ? 1 : 0;
            sum.clientErrors += (r.status >= 400 && r.status < 500) ? 1 : 0;
            sum.promptTokens += std::max<qint64>(r.promptTokens, 0);
            sum.completionTokens += std::max<qint64>(r.completionTokens, 0);
            sum.durationSum += std::max<qint64>(r.durationMs, 0);
            if (r.ttftMs >= 0) {
                sum.ttftSum += r.ttftMs;
                ++sum.ttftCount;
            }
        }
        QSqlQuery &up = *m_upsertRollup;
        for (const auto &[key, sum] : rollups) {
            up.bindValue(0, key.minute);
            up.bindValue(1, key.node);
            up.bindValue(2, key.model);
            up.bindValue(3, key.keyId);
            up.bindValue(4, sum.requests);
            up.bindValue(5, sum.errors);
            up.bindValue(6, sum.clientErrors);
            up.bindValue(7, sum.promptTokens);
            up.bindValue(8, sum.completionTokens);
            up.bindValue(9, sum.durationSum);
            up.bindValue(10, sum.ttftSum);
            up.bindValue(11, sum.ttftCount);
            if (!up.exec())
                return abort(u"update rollups"_s, up.lastError());
        }
        QSqlQuery &sk = *m_saveKey;
        for (const keys::VirtualKey &k : keys) {
            sk.bindValue(0, text(k.id));
            sk.bindValue(1, text(k.name));
            sk.bindValue(2, k.secretSha256);
            sk.bindValue(3, text(k.secretHint));
            sk.bindValue(4, listToJson(k.models));
            sk.bindValue(5, listToJson(k.providers));
            sk.bindValue(6, k.limits.requestsPerMinute);
            sk.bindValue(7, k.limits.tokensPerMinute);
            sk.bindValue(8, k.limits.tokensPerDay);
            sk.bindValue(9, k.limits.maxConcurrent);
            sk.bindValue(10, k.createdMs);
            sk.bindValue(11, k.expiresMs);
            sk.bindValue(12, k.revokedMs);
            if (!sk.exec())
                return abort(u"save key"_s, sk.lastError());
        }
        if (!m_db.commit())
            return abort(u"commit"_s, m_db.lastError());
        return true;
    }

    bool abort(const QString &what, const QSqlError &error)
    {
        report(what, error);
        m_db.rollback();
        return false;
    }

    qint64 pragma(const QString &name)
    {
        QSqlQuery q(m_db);
        if (!q.exec(u"PRAGMA "_s + name) || !q.next())
            return -1;
        return q.value(0).toLongLong();
    }
    qint64 freePages() { return pragma(u"freelist_count"_s); }
    // The bytes the data takes, pages waiting for reuse not counted (they are returned by the vacuum).
    qint64 usedBytes()
    {
        const qint64 pages = pragma(u"page_count"_s), free = freePages(), size = pragma(u"page_size"_s);
        if (pages < 0 || free < 0 || size < 0)
            return -1;
        return (pages - free) * size;
    }

    // Counted and kept as the last error; logged once per kind so a failing disk does not flood the log.
    void report(const QString &what, const QSqlError &error)
    {
        const QString message = u"History file %1: %2 failed: %3"_s.arg(m_path, what, describe(error));
        // The kind is SQLite's error code ("13": full), whichever statement met it: one line for a full
        // disk, not one per statement that then fails.
        const QString kind = error.nativeErrorCode().isEmpty() ? what : error.nativeErrorCode();
        bool first = false;
        {
            std::lock_guard lock(m_queue.mutex);
            m_queue.lastError = message;
            if (!m_queue.warnedKinds.contains(kind)) {
                m_queue.warnedKinds.insert(kind);
                first = true;
            }
        }
        if (first)
            qCWarning(lcHistory).noquote()
                << message << "(further errors of this kind are counted, not logged)";
    }

    detail::Queue &m_queue;
    const HistoryOptions &m_options;
    const QString m_path;
    const QString m_name;
    QSqlDatabase m_db;
    bool m_open = false;
    std::optional<QSqlQuery> m_insertRequest;
    std::optional<QSqlQuery> m_upsertRollup;
    std::optional<QSqlQuery> m_saveKey;
};

} // namespace

Expected<std::unique_ptr<HistoryStore>, QString> HistoryStore::open(const QString &path,
                                                                    HistoryOptions options)
{
    const QFileInfo info(path);
    const QString file = info.absoluteFilePath();
    if (!QSqlDatabase::isDriverAvailable(Driver)) {
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
        QSqlDatabase db = QSqlDatabase::addDatabase(Driver, setupName);
        db.setDatabaseName(file);
        db.setConnectOptions(u"QSQLITE_BUSY_TIMEOUT=5000"_s);
        if (!db.open())
            error = u"Cannot open the history file %1: %2"_s.arg(file, describe(db.lastError()));
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
        std::vector<stats::RequestRecord> records;
        std::vector<keys::VirtualKey> keys;
        if (!q.paused) {
            records.assign(std::make_move_iterator(q.records.begin()),
                           std::make_move_iterator(q.records.end()));
            q.records.clear();
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
        if (retentionDue)
            writer.retention(m_options.nowMs());
        lock.lock();
        q.written += written;
        q.failed += failed;
        q.done += records.size() + keys.size();
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
    {
        std::unique_lock lock(m_queue->mutex);
        if (m_queue->records.size() >= size_t(m_options.maxQueued)) {
            m_queue->dropped.fetch_add(1, std::memory_order_relaxed);
            warnDrop = !std::exchange(m_queue->warnedDrop, true);
            kept = false;
        } else {
            m_queue->records.push_back(record);
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

Expected<std::vector<keys::VirtualKey>, QString> HistoryStore::loadKeys() const
{
    auto db = readerFor(m_readers);
    if (!db)
        return unexpected(db.error());
    QSqlQuery q(*db);
    q.setForwardOnly(true);
    if (!q.exec(u"SELECT id, name, secret_sha256, secret_hint, models, providers, requests_per_minute, "
                "tokens_per_minute, tokens_per_day, max_concurrent, created_ms, expires_ms, revoked_ms "
                "FROM keys ORDER BY id"_s)) {
        return unexpected(
            u"Cannot read the keys from the history file %1: %2"_s.arg(m_path, describe(q.lastError())));
    }
    std::vector<keys::VirtualKey> out;
    while (q.next()) {
        keys::VirtualKey k;
        k.id = q.value(0).toString();
        k.name = q.value(1).toString();
        k.secretSha256 = q.value(2).toByteArray();
        k.secretHint = q.value(3).toString();
        k.models = listFromJson(q.value(4).toString());
        k.providers = listFromJson(q.value(5).toString());
        k.limits.requestsPerMinute = q.value(6).toLongLong();
        k.limits.tokensPerMinute = q.value(7).toLongLong();
        k.limits.tokensPerDay = q.value(8).toLongLong();
        k.limits.maxConcurrent = q.value(9).toLongLong();
        k.createdMs = q.value(10).toLongLong();
        k.expiresMs = q.value(11).toLongLong();
        k.revokedMs = q.value(12).toLongLong();
        out.push_back(std::move(k));
    }
    return out;
}

Expected<HistoryPage, QString> HistoryStore::search(const HistoryQuery &query) const
{
    auto db = readerFor(m_readers);
    if (!db)
        return unexpected(db.error());
    QString sql =
        u"SELECT id, started_ms, key_id, model, node, route, method, path, status, attempts, stream, "
        "ttft_ms, duration_ms, prompt_tokens, completion_tokens, error, tried FROM requests "
        "WHERE started_ms >= :from AND started_ms <= :to"_s;
    if (!query.keyId.isEmpty())
        sql += u" AND key_id = :key"_s;
    if (!query.model.isEmpty())
        sql += u" AND model = :model"_s;
    if (!query.node.isEmpty())
        sql += u" AND node = :node"_s;
    // The classes split every request into Ok, ClientError and Failed (the rollups' errors), as an
    // operator counts them; ServerError is the part of Failed that got a 5xx status.
    switch (query.status) {
    case HistoryQuery::Status::Any:
        break;
    case HistoryQuery::Status::Ok:
        sql += u" AND status < 400 AND NOT (status > 0 AND error <> '')"_s;
        break;
    case HistoryQuery::Status::ClientError:
        sql += u" AND status >= 400 AND status < 500"_s;
        break;
    case HistoryQuery::Status::ServerError:
        sql += u" AND status >= 500"_s;
        break;
    case HistoryQuery::Status::Failed:
        sql += u" AND (status >= 500 OR (status > 0 AND status < 400 AND error <> ''))"_s;
        break;
    }
    // Newest first by start time, ties by id: the order of the indexes on started_ms and (key_id,
    // started_ms) (both end in the row id), so a page is read straight off an index, never sorted. A page
    // goes on after the previous page's last row; should retention have deleted that row, everything
    // older went with it, and the page is empty.
    if (query.beforeId > 0)
        sql += u" AND (started_ms, id) < (SELECT started_ms, id FROM requests WHERE id = :before)"_s;
    sql += u" ORDER BY started_ms DESC, id DESC LIMIT :limit"_s;

    const int limit = std::clamp(query.limit, 1, HistoryQuery::MaxLimit);
    QSqlQuery q(*db);
    q.setForwardOnly(true);
    if (!q.prepare(sql))
        return unexpected(u"Cannot search the history file %1: %2"_s.arg(m_path, describe(q.lastError())));
    q.bindValue(u":from"_s, query.fromMs);
    q.bindValue(u":to"_s, query.toMs > 0 ? query.toMs : m_options.nowMs());
    if (!query.keyId.isEmpty())
        q.bindValue(u":key"_s, query.keyId);
    if (!query.model.isEmpty())
        q.bindValue(u":model"_s, query.model);
    if (!query.node.isEmpty())
        q.bindValue(u":node"_s, query.node);
    if (query.beforeId > 0)
        q.bindValue(u":before"_s, query.beforeId);
    q.bindValue(u":limit"_s, limit + 1); // one more tells whether an older page exists
    if (!q.exec())
        return unexpected(u"Cannot search the history file %1: %2"_s.arg(m_path, describe(q.lastError())));

    HistoryPage page;
    page.entries.reserve(size_t(std::min(limit, 128)));
    bool more = false;
    while (q.next()) {
        if (int(page.entries.size()) == limit) {
            more = true;
            break;
        }
        HistoryEntry e;
        e.id = q.value(0).toLongLong();
        stats::RequestRecord &r = e.record;
        r.startedMsSinceEpoch = q.value(1).toLongLong();
        r.keyId = q.value(2).toString();
        r.model = q.value(3).toString();
        r.node = q.value(4).toString();
        r.route = q.value(5).toString();
        r.method = q.value(6).toString().toLatin1();
        r.path = q.value(7).toString().toLatin1();
        r.status = q.value(8).toInt();
        r.attempts = q.value(9).toInt();
        r.stream = q.value(10).toLongLong() != 0;
        r.ttftMs = q.value(11).toLongLong();
        r.durationMs = q.value(12).toLongLong();
        r.promptTokens = q.value(13).toLongLong();
        r.completionTokens = q.value(14).toLongLong();
        r.error = q.value(15).toString();
        r.tried = triedFromJson(q.value(16).toString());
        page.entries.push_back(std::move(e));
    }
    if (more && !page.entries.empty())
        page.nextBeforeId = page.entries.back().id;
    return page;
}

Expected<std::vector<RollupPoint>, QString> HistoryStore::rollups(qint64 fromMs, qint64 toMs,
                                                                  int bucketMinutes, const QString &node,
                                                                  const QString &model,
                                                                  const QString &keyId) const
{
    if (bucketMinutes < 1)
        return unexpected(u"A rollup bucket is at least one minute wide (asked: %1)"_s.arg(bucketMinutes));
    const qint64 bucketMs = qint64(bucketMinutes) * MsPerMinute;
    const qint64 from = floorToMinute(fromMs);
    const qint64 to = toMs > 0 ? toMs : m_options.nowMs();
    if (to <= from)
        return std::vector<RollupPoint>{};
    const qint64 buckets = (to - from + bucketMs - 1) / bucketMs;
    if (buckets > MaxBuckets) {
        return unexpected(
            u"%1 buckets of %2 min asked, at most %3: widen the buckets or shorten the range"_s.arg(buckets)
                .arg(bucketMinutes)
                .arg(MaxBuckets));
    }
    auto db = readerFor(m_readers);
    if (!db)
        return unexpected(db.error());
    QString sql =
        u"SELECT (minute_ms - :from) / :bucket AS b, sum(requests), sum(errors), sum(client_errors), "
        "sum(prompt_tokens), sum(completion_tokens), sum(duration_ms_sum), sum(ttft_ms_sum), "
        "sum(ttft_count) FROM rollups WHERE minute_ms >= :from AND minute_ms < :to"_s;
    if (!node.isEmpty())
        sql += u" AND node = :node"_s;
    if (!model.isEmpty())
        sql += u" AND model = :model"_s;
    if (!keyId.isEmpty())
        sql += u" AND key_id = :key"_s;
    sql += u" GROUP BY b"_s;
    QSqlQuery q(*db);
    q.setForwardOnly(true);
    if (!q.prepare(sql))
        return unexpected(
            u"Cannot read the rollups of the history file %1: %2"_s.arg(m_path, describe(q.lastError())));
    q.bindValue(u":from"_s, from);
    q.bindValue(u":bucket"_s, bucketMs);
    q.bindValue(u":to"_s, to);
    if (!node.isEmpty())
        q.bindValue(u":node"_s, node);
    if (!model.isEmpty())
        q.bindValue(u":model"_s, model);
    if (!keyId.isEmpty())
        q.bindValue(u":key"_s, keyId);
    if (!q.exec())
        return unexpected(
            u"Cannot read the rollups of the history file %1: %2"_s.arg(m_path, describe(q.lastError())));

    std::vector<RollupPoint> out(static_cast<size_t>(buckets));
    for (qint64 i = 0; i < buckets; ++i)
        out[size_t(i)].bucketStartMs = from + i * bucketMs;
    while (q.next()) {
        const qint64 b = q.value(0).toLongLong();
        if (b < 0 || b >= buckets)
            continue;
        RollupPoint &p = out[size_t(b)];
        p.requests = q.value(1).toLongLong();
        p.errors = q.value(2).toLongLong();
        p.clientErrors = q.value(3).toLongLong();
        p.promptTokens = q.value(4).toLongLong();
        p.completionTokens = q.value(5).toLongLong();
        if (p.requests > 0)
            p.meanDurationMs = double(q.value(6).toLongLong()) / double(p.requests);
        const qint64 ttftCount = q.value(8).toLongLong();
        if (ttftCount > 0)
            p.meanTtftMs = double(q.value(7).toLongLong()) / double(ttftCount);
    }
    return out;
}

} // namespace switchyard::history
