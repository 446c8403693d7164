#include "history/schema.h"

#include "history/historystore.h"
#include "history/requestblock.h"
#include "history/sqlitestatement.h"
#include "history/storedvalues.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <limits>
#include <vector>

using namespace Qt::StringLiterals;

namespace switchyard::history {

namespace {

// Version 1 kept a row per request; version 2 keeps them in blocks. Moves every row into blocks, oldest
// first, in the update's transaction; an empty string when done, else why not.
QString moveRequestRowsIntoBlocks(QSqlDatabase &db);

// One update: its SQL, in order, then (when set) a step in C++ for what SQL cannot do, then more SQL.
struct Migration
{
    std::vector<QString> sql;
    QString (*convert)(QSqlDatabase &) = nullptr;
    std::vector<QString> after;
};

// The schema, one entry per version: entry i takes a file from version i to i + 1. A new version adds an
// entry (ALTER TABLE …) and never edits an old one, so every older file is brought up step by step.
const std::vector<Migration> &migrations()
{
    static const std::vector<Migration> steps = {
        {{
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
        }},
        {
            // Version 2: the requests in blocks, a row per minute of starts and writer batch
            // (history/requestblock): one B-tree insert per batch instead of three per request. A
            // record's id is its block's id times RecordsPerBlockId plus its place; AUTOINCREMENT, so
            // an id is never handed out again after retention emptied the table.
            {u"CREATE TABLE request_blocks ("
             "id INTEGER PRIMARY KEY AUTOINCREMENT,"
             "first_ms INTEGER NOT NULL," // the earliest and latest start of its requests
             "last_ms INTEGER NOT NULL,"
             "count INTEGER NOT NULL,"
             "key_ids TEXT NOT NULL," // each distinct key id, node and model between U+001F
             "nodes TEXT NOT NULL,"
             "models TEXT NOT NULL,"
             "records BLOB NOT NULL)"_s,
             u"CREATE INDEX request_blocks_last ON request_blocks (last_ms)"_s},
            moveRequestRowsIntoBlocks,
            {u"DROP TABLE requests"_s},
        },
    };
    return steps;
}

QString moveRequestRowsIntoBlocks(QSqlDatabase &db)
{
    SqliteStatement insert;
    if (!insert.prepare(db, BlockInsertSql))
        return sqlErrorText(insert.lastError());
    RequestBlockEncoder encoder;
    QSqlQuery q(db);
    q.setForwardOnly(true);
    // In slices of a minute's worth of rows at most, so a large file is converted in bounded memory.
    constexpr int Slice = 4096;
    qint64 afterStarted = std::numeric_limits<qint64>::min(), afterId = 0;
    for (;;) {
        q.prepare(u"SELECT id, started_ms, key_id, model, node, route, method, path, status, attempts, stream, "
                  "ttft_ms, duration_ms, prompt_tokens, completion_tokens, error, tried FROM requests "
                  "WHERE (started_ms, id) > (?, ?) ORDER BY started_ms, id LIMIT ?"_s);
        q.addBindValue(afterStarted);
        q.addBindValue(afterId);
        q.addBindValue(Slice);
        if (!q.exec())
            return sqlErrorText(q.lastError());
        std::vector<stats::RequestRecord> rows;
        while (q.next()) {
            afterId = q.value(0).toLongLong();
            stats::RequestRecord r;
            r.startedMsSinceEpoch = afterStarted = q.value(1).toLongLong();
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
            rows.push_back(std::move(r));
        }
        q.finish();
        if (rows.empty())
            return {};
        std::vector<const stats::RequestRecord *> byStart;
        for (const auto &r : rows)
            byStart.push_back(&r);
        QString error;
        packRequestBlocks(byStart, encoder, [&](qint64 firstMs, qint64 lastMs) {
            bindBlockRow(insert, encoder, encoder.finish(), firstMs, lastMs);
            if (!insert.exec())
                error = sqlErrorText(insert.lastError());
            return error.isEmpty();
        });
        if (!error.isEmpty())
            return error;
    }
}

} // namespace

void bindBlockRow(SqliteStatement &insert, const RequestBlockEncoder &encoder, std::string_view block,
                  qint64 firstMs, qint64 lastMs)
{
    insert.bind(1, firstMs);
    insert.bind(2, lastMs);
    insert.bind(3, qint64(encoder.size()));
    insert.bindUtf8(4, QByteArrayView(encoder.keyIds()));
    insert.bindUtf8(5, QByteArrayView(encoder.nodes()));
    insert.bindUtf8(6, QByteArrayView(encoder.models()));
    insert.bindBlob(7, QByteArrayView(block.data(), qsizetype(block.size())));
}

QString prepareSchema(QSqlDatabase &db, const QString &path)
{
    QSqlQuery q(db);
    // The first read tells a SQLite file from anything else: SQLite opens any file lazily.
    if (!q.exec(u"SELECT count(*) FROM sqlite_master"_s) || !q.next()) {
        return u"The history file %1 is not a SQLite database or is damaged (%2). Move it away to start a "
               "new history."_s.arg(path, sqlErrorText(q.lastError()));
    }
    const qint64 objects = q.value(0).toLongLong();
    if (!q.exec(u"PRAGMA user_version"_s) || !q.next())
        return u"Cannot read the schema version of the history file %1: %2"_s.arg(
            path, sqlErrorText(q.lastError()));
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
        return u"Cannot set up the history file %1: %2"_s.arg(path, sqlErrorText(q.lastError()));
    // WAL: the writer appends while readers read, neither waiting for the other. It is a property of the
    // file, kept from here on.
    if (!q.exec(u"PRAGMA journal_mode = WAL"_s) || !q.next())
        return u"Cannot switch the history file %1 to WAL: %2"_s.arg(path, sqlErrorText(q.lastError()));
    if (q.value(0).toString().compare(u"wal"_s, Qt::CaseInsensitive) != 0) {
        return u"The history file %1 cannot use a write-ahead log (journal mode stays \"%2\"); is it on a "
               "network file system?"_s.arg(path, q.value(0).toString());
    }
    const auto &steps = migrations();
    for (int v = version; v < HistoryStore::SchemaVersion; ++v) {
        if (!db.transaction())
            return u"Cannot update the history file %1: %2"_s.arg(path, sqlErrorText(db.lastError()));
        const Migration &step = steps[size_t(v)];
        QString why;
        for (const QString &sql : step.sql) {
            if (why.isEmpty() && !q.exec(sql))
                why = sqlErrorText(q.lastError());
        }
        if (why.isEmpty() && step.convert)
            why = step.convert(db);
        for (const QString &sql : step.after) {
            if (why.isEmpty() && !q.exec(sql))
                why = sqlErrorText(q.lastError());
        }
        if (!why.isEmpty()) {
            db.rollback();
            return u"Cannot update the history file %1 to schema version %2: %3"_s.arg(path)
                .arg(v + 1)
                .arg(why);
        }
        if (!q.exec(u"PRAGMA user_version = %1"_s.arg(v + 1)) || !db.commit()) {
            const QString why = sqlErrorText(q.lastError().isValid() ? q.lastError() : db.lastError());
            db.rollback();
            return u"Cannot update the history file %1: %2"_s.arg(path, why);
        }
    }
    return {};
}

} // namespace switchyard::history
