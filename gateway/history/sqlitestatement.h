#pragma once

// One prepared statement on the SQLite connection underneath a Qt SQL database, bound and stepped through
// SQLite's own API. The history's writer inserts a row per finished request; through QSqlQuery each
// bound value costs a QVariant, a placeholder name built with QString::arg and a UTF-16 → UTF-8
// conversion inside SQLite, which made Qt's layer most of the writer's time (docs/HISTORY.md,
// "Throughput"). The rest of the history (schema, reads, keys, retention) stays on Qt SQL.

#include <QByteArray>
#include <QByteArrayView>
#include <QSqlError>
#include <QString>
#include <QStringView>
#include <QtGlobal>
#include <deque>
#include <string>

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

    // Binds by 1-based position, as SQLite counts. Text goes to SQLite as UTF-8 without a copy of its
    // own: a position's text is converted into a buffer the statement keeps for that position (its
    // capacity kept from row to row, so a steady writer allocates nothing per value), or, for bytes
    // that already are UTF-8, bound where they lie. The bytes must therefore stay as they are until
    // exec(). An absent (null) text is stored as '': the history's text columns are NOT NULL.
    void bind(int position, qint64 value);
    void bind(int position, QStringView text);
    void bindUtf8(int position, QByteArrayView utf8);
    // Latin-1 bytes (a request's method and path, as the HTTP parser keeps them), stored as UTF-8 text.
    void bindLatin1(int position, QByteArrayView latin1);
    // Bytes stored as they are (a BLOB), bound where they lie.
    void bindBlob(int position, QByteArrayView bytes);

    // Runs the statement once (an INSERT or UPDATE: no rows back) and resets it for the next run, its
    // bindings kept (bind every position anew); false and lastError() when SQLite refused.
    bool exec();
    QSqlError lastError() const { return m_error; }

private:
    void fail(const char *what);
    std::string &scratch(int position);

    sqlite3 *m_db = nullptr;
    sqlite3_stmt *m_statement = nullptr;
    QSqlError m_error;
    // Per position, see bind(). A deque: SQLite holds pointers into these strings until the statement
    // runs, and a vector's growth would move them (a short string's bytes live inside the object).
    // Sized to the statement's parameters when it is prepared, so it does not grow as rows are bound.
    std::deque<std::string> m_scratch;
};

} // namespace switchyard::history
