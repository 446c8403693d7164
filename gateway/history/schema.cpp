#include "history/schema.h"

#include "history/historystore.h"
#include "history/storedvalues.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <vector>

using namespace Qt::StringLiterals;

namespace switchyard::history {

namespace {

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

} // namespace

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
        for (const QString &sql : steps[size_t(v)]) {
            if (!q.exec(sql)) {
                const QString why = sqlErrorText(q.lastError());
                db.rollback();
                return u"Cannot update the history file %1 to schema version %2: %3"_s.arg(path)
                    .arg(v + 1)
                    .arg(why);
            }
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
