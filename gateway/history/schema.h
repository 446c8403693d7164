#pragma once

// The history file's tables, and bringing an older file up to the schema this build writes.

#include <QString>
#include <QtGlobal>
#include <string_view>

class QSqlDatabase;

namespace switchyard::history {

class RequestBlockEncoder;
class SqliteStatement;

// One row of request_blocks: a finished block (history/requestblock) with the minute range of its
// requests' starts and the keys, nodes and models it holds. The writer and the update from schema 1
// both insert through this.
inline constexpr const char *BlockInsertSql =
    "INSERT INTO request_blocks (first_ms, last_ms, count, key_ids, nodes, models, records) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)";
void bindBlockRow(SqliteStatement &insert, const RequestBlockEncoder &encoder, std::string_view block,
                  qint64 firstMs, qint64 lastMs);

// Brings the file to HistoryStore::SchemaVersion on a connection of the caller's, before the writer
// starts. Returns an empty string when done, else what is wrong, naming the file: not a SQLite file,
// written by a newer Switchyard, or an update that failed.
QString prepareSchema(QSqlDatabase &db, const QString &path);

} // namespace switchyard::history
