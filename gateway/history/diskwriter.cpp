#include "history/diskwriter.h"

#include "history/schema.h"
#include "history/storedvalues.h"

#include <QSqlError>
#include <QHash>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace switchyard::history {

Q_LOGGING_CATEGORY(lcHistory, "switchyard.history")

namespace {

// One rollup row: a minute, a node, a model and a key. The texts are the records' own (shared, not
// copied); a null text and '' are one group, as they are one row on disk.
struct RollupKey
{
    qint64 minute;
    QString node, model, keyId;
    friend bool operator==(const RollupKey &, const RollupKey &) = default;
    friend size_t qHash(const RollupKey &k, size_t seed = 0) noexcept
    {
        return qHashMulti(seed, k.minute, k.node, k.model, k.keyId);
    }
};

} // namespace

DiskWriter::DiskWriter(detail::Queue &queue, const HistoryOptions &options, QString path, QString name)
    : m_queue(queue), m_options(options), m_path(std::move(path)), m_name(std::move(name))
{}

DiskWriter::~DiskWriter()
{
    close();
    QSqlDatabase::removeDatabase(m_name);
}

std::pair<quint64, quint64> DiskWriter::write(const std::vector<stats::RequestRecord> &records,
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

void DiskWriter::retention(qint64 nowMs)
{
    if (!ensureOpen())
        return;
    QSqlQuery q(m_db);
    bool deleted = false;
    if (m_options.maxAgeDays > 0) {
        const qint64 cutoff = nowMs - qint64(m_options.maxAgeDays) * MsPerDay;
        // In chunks, each its own commit: after a long downtime the first pass may delete weeks of
        // requests, and one huge transaction would swell the WAL by as much.
        // A block holds the requests that started in one minute: blocks whose every request is older
        // than the cutoff go, as the rollups of those minutes do.
        q.prepare(u"DELETE FROM request_blocks WHERE id IN "
                  "(SELECT id FROM request_blocks WHERE last_ms < ? ORDER BY last_ms LIMIT 200)"_s);
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
            if (!q.exec(u"SELECT count(*) FROM request_blocks"_s) || !q.next())
                return report(u"retention"_s, q.lastError());
            const qint64 rows = q.value(0).toLongLong();
            q.finish();
            if (rows == 0)
                break;
            // The share of the data over the limit, and 1% more so a second round is rarely needed.
            const double over = double(used - m_options.maxBytes) / double(used) + 0.01;
            const qint64 chunk = std::clamp<qint64>(qint64(double(rows) * over) + 1, 1, rows);
            q.prepare(u"DELETE FROM request_blocks WHERE id IN "
                      "(SELECT id FROM request_blocks ORDER BY last_ms, id LIMIT ?)"_s);
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

// Returns the freed pages to the file system, then folds the WAL into the file and empties it, so
// neither grows without bound. SQLite's incremental_vacuum frees one page per step of its statement,
// and Qt steps a statement without result columns only once: so it runs once per free page, all in
// one transaction (cheap: no commit, no sync in between).
void DiskWriter::giveBackFreePages()
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

bool DiskWriter::ensureOpen()
{
    if (m_open)
        return true;
    {
        QSqlDatabase db = QSqlDatabase::contains(m_name) ? QSqlDatabase::database(m_name, false)
                                                         : QSqlDatabase::addDatabase(SqliteDriver, m_name);
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
    // The two statements every request runs go through SQLite's own API (history/sqlitestatement);
    // keys are few and stay on Qt SQL.
    m_saveKey.emplace(m_db);
    const bool prepared =
        m_insertBlock.prepare(m_db, BlockInsertSql) &&
        m_upsertRollup.prepare(
            m_db, "INSERT INTO rollups (minute_ms, node, model, key_id, requests, errors, client_errors, "
                  "prompt_tokens, completion_tokens, duration_ms_sum, ttft_ms_sum, ttft_count) "
                  "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                  "ON CONFLICT (minute_ms, node, model, key_id) DO UPDATE SET "
                  "requests = requests + excluded.requests, errors = errors + excluded.errors, "
                  "client_errors = client_errors + excluded.client_errors, "
                  "prompt_tokens = prompt_tokens + excluded.prompt_tokens, "
                  "completion_tokens = completion_tokens + excluded.completion_tokens, "
                  "duration_ms_sum = duration_ms_sum + excluded.duration_ms_sum, "
                  "ttft_ms_sum = ttft_ms_sum + excluded.ttft_ms_sum, "
                  "ttft_count = ttft_count + excluded.ttft_count") &&
        m_saveKey->prepare(
            u"INSERT OR REPLACE INTO keys (id, name, secret_sha256, secret_hint, models, providers, "
            "requests_per_minute, tokens_per_minute, tokens_per_day, max_concurrent, created_ms, "
            "expires_ms, revoked_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"_s);
    if (!prepared) {
        QSqlError e = m_insertBlock.lastError();
        if (!e.isValid())
            e = m_upsertRollup.lastError();
        if (!e.isValid())
            e = m_saveKey->lastError();
        report(u"prepare"_s, e);
        close();
        return false;
    }
    m_open = true;
    return true;
}

void DiskWriter::close()
{
    m_insertBlock.finalize();
    m_upsertRollup.finalize();
    m_saveKey.reset();
    if (m_db.isValid())
        m_db.close();
    m_db = QSqlDatabase();
    m_open = false;
}

bool DiskWriter::writeChunk(std::span<const stats::RequestRecord> records,
                            std::span<const keys::VirtualKey> keys)
{
    if (!m_db.transaction()) {
        report(u"begin"_s, m_db.lastError());
        // A connection that cannot even begin is likely gone bad (file replaced, disk detached):
        // reopen it for the next batch.
        close();
        return false;
    }
    // The chunk's requests in blocks (history/requestblock), oldest start first.
    m_byStart.clear();
    for (const stats::RequestRecord &r : records)
        m_byStart.push_back(&r);
    std::stable_sort(m_byStart.begin(), m_byStart.end(), [](const auto *a, const auto *b) {
        return a->startedMsSinceEpoch < b->startedMsSinceEpoch;
    });
    if (!packRequestBlocks(m_byStart, m_block, [this](qint64 firstMs, qint64 lastMs) {
            return insertBlock(firstMs, lastMs);
        })) {
        return false; // aborted by insertBlock
    }
    // A batch holds a few rollup groups (a minute or two of the nodes, models and keys in use), each met
    // many times in a row: the last group found is checked before the hash.
    QHash<RollupKey, RollupSums> rollups;
    RollupSums *lastSums = nullptr;
    const stats::RequestRecord *lastOf = nullptr;
    for (const stats::RequestRecord *p : m_byStart) {
        const stats::RequestRecord &r = *p;
        const qint64 minute = floorToMinute(r.startedMsSinceEpoch);
        if (!lastSums || floorToMinute(lastOf->startedMsSinceEpoch) != minute || lastOf->node != r.node ||
            lastOf->model != r.model || lastOf->keyId != r.keyId) {
            lastSums = &rollups[RollupKey{minute, r.node, r.model, r.keyId}];
        }
        lastOf = &r;
        lastSums->add(r);
    }
    SqliteStatement &up = m_upsertRollup;
    for (auto it = rollups.cbegin(); it != rollups.cend(); ++it) {
        const RollupKey &key = it.key();
        const RollupSums &sum = it.value();
        up.bind(1, key.minute);
        up.bind(2, key.node);
        up.bind(3, key.model);
        up.bind(4, key.keyId);
        up.bind(5, sum.requests);
        up.bind(6, sum.errors);
        up.bind(7, sum.clientErrors);
        up.bind(8, sum.promptTokens);
        up.bind(9, sum.completionTokens);
        up.bind(10, sum.durationSum);
        up.bind(11, sum.ttftSum);
        up.bind(12, sum.ttftCount);
        if (!up.exec())
            return abort(u"update rollups"_s, up.lastError());
    }
    QSqlQuery &sk = *m_saveKey;
    for (const keys::VirtualKey &k : keys) {
        sk.bindValue(0, storedText(k.id));
        sk.bindValue(1, storedText(k.name));
        sk.bindValue(2, k.secretSha256);
        sk.bindValue(3, storedText(k.secretHint));
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

bool DiskWriter::insertBlock(qint64 firstMs, qint64 lastMs)
{
    const std::string_view block = m_block.finish();
    SqliteStatement &ins = m_insertBlock;
    bindBlockRow(ins, m_block, block, firstMs, lastMs);
    return ins.exec() || abort(u"insert requests"_s, ins.lastError());
}

bool DiskWriter::abort(const QString &what, const QSqlError &error)
{
    report(what, error);
    m_db.rollback();
    return false;
}

qint64 DiskWriter::pragma(const QString &name)
{
    QSqlQuery q(m_db);
    if (!q.exec(u"PRAGMA "_s + name) || !q.next())
        return -1;
    return q.value(0).toLongLong();
}

qint64 DiskWriter::freePages()
{
    return pragma(u"freelist_count"_s);
}

qint64 DiskWriter::usedBytes()
{
    const qint64 pages = pragma(u"page_count"_s), free = freePages(), size = pragma(u"page_size"_s);
    if (pages < 0 || free < 0 || size < 0)
        return -1;
    return (pages - free) * size;
}

void DiskWriter::report(const QString &what, const QSqlError &error)
{
    const QString message = u"History file %1: %2 failed: %3"_s.arg(m_path, what, sqlErrorText(error));
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
        qCWarning(lcHistory).noquote() << message << "(further errors of this kind are counted, not logged)";
}

} // namespace switchyard::history
