#pragma once

// One prepared statement on the SQLite connection underneath a Qt SQL database, bound and stepped through
// SQLite's own API. The history's writer inserts a row per finished request; through QSqlQuery each
// bound value costs a QVariant, a placeholder name built with QString::arg and a UTF-16 → UTF-8
// conversion inside SQLite, which made Qt's layer most of the writer's time (docs/HISTORY.md,
// "Throughput"). The rest of the history (schema, reads, keys, retention) stays on Qt SQL.

#include <QByteArray>
#include <QSqlError>
#include <QString>
#include <QtGlobal>

class QSqlDatabase;
struct sqlite3;
struct sqlite3_stmt;

namespace switchyard::history {

class SqliteStatement final
{
    Q_DISABLE_COPY_MOVE(SqliteStatement)

public:
    SqliteStatement() = default;
    ~SqliteStatement();

    // Prepares sql on db's connection (a QSQLITE database, open); false and lastError() when it cannot.
    bool prepare(const QSqlDatabase &db, const char *sql);
    // Finalizes the statement: before the connection closes, or SQLite refuses to close it.
    void finalize();

    // Binds by 1-based position, as SQLite counts. Text is copied by SQLite.
    void bind(int position, qint64 value);
    void bind(int position, const QByteArray &utf8);
    void bind(int position, const QString &text) { bind(position, text.toUtf8()); }

    // Runs the statement once (an INSERT or UPDATE: no rows back) and resets it for the next run, its
    // bindings kept (bind every position anew); false and lastError() when SQLite refused.
    bool exec();
    QSqlError lastError() const { return m_error; }

private:
    void fail(const char *what);

    sqlite3 *m_db = nullptr;
    sqlite3_stmt *m_statement = nullptr;
    QSqlError m_error;
};

} // namespace switchyard::history
