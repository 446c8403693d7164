#pragma once

// The history file's tables, and bringing an older file up to the schema this build writes.

#include <QString>

class QSqlDatabase;

namespace switchyard::history {

// Brings the file to HistoryStore::SchemaVersion on a connection of the caller's, before the writer
// starts. Returns an empty string when done, else what is wrong, naming the file: not a SQLite file,
// written by a newer Switchyard, or an update that failed.
QString prepareSchema(QSqlDatabase &db, const QString &path);

} // namespace switchyard::history
