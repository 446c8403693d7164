#include "history/sqlitestatement.h"

#include "history/storedvalues.h"

#include <QSqlDatabase>
#include <QSqlDriver>
#include <QVariant>

#include <algorithm>

#include <sqlite3.h>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::history {

SqliteStatement::~SqliteStatement()
{
    finalize();
}

bool SqliteStatement::prepare(const QSqlDatabase &db, const char *sql)
{
    finalize();
    // Qt's SQLite driver hands out its connection as a QVariant holding a sqlite3 *.
    const QVariant handle = db.driver() ? db.driver()->handle() : QVariant();
    if (!handle.isValid() || qstrcmp(handle.typeName(), "sqlite3*") != 0) {
        m_error = QSqlError(u"The history needs Qt's SQLite driver"_s, {}, QSqlError::ConnectionError);
        return false;
    }
    m_db = *static_cast<sqlite3 *const *>(handle.constData());
    if (!m_db) {
        m_error = QSqlError(u"The history file is not open"_s, {}, QSqlError::ConnectionError);
        return false;
    }
    if (sqlite3_prepare_v2(m_db, sql, -1, &m_statement, nullptr) != SQLITE_OK) {
        fail("prepare");
        m_statement = nullptr;
        return false;
    }
    m_scratch.assign(size_t(sqlite3_bind_parameter_count(m_statement)) + 1, std::string());
    return true;
}

void SqliteStatement::finalize()
{
    if (m_statement)
        sqlite3_finalize(m_statement);
    m_statement = nullptr;
}

void SqliteStatement::bind(int position, qint64 value)
{
    sqlite3_bind_int64(m_statement, position, value);
}

std::string &SqliteStatement::scratch(int position)
{
    if (size_t(position) >= m_scratch.size())
        m_scratch.resize(size_t(position) + 1);
    std::string &buffer = m_scratch[size_t(position)];
    buffer.clear(); // keeps the capacity
    return buffer;
}

void SqliteStatement::bindUtf8(int position, QByteArrayView utf8)
{
    // Never NULL: the history's text columns are NOT NULL, an absent value is ''.
    sqlite3_bind_text(m_statement, position, utf8.isNull() ? "" : utf8.data(), int(utf8.size()), SQLITE_STATIC);
}

void SqliteStatement::bindBlob(int position, QByteArrayView bytes)
{
    sqlite3_bind_blob(m_statement, position, bytes.isNull() ? "" : bytes.data(), int(bytes.size()), SQLITE_STATIC);
}

void SqliteStatement::bind(int position, QStringView text)
{
    std::string &out = scratch(position);
    appendUtf8(out, text);
    sqlite3_bind_text(m_statement, position, out.data(), int(out.size()), SQLITE_STATIC);
}

void SqliteStatement::bindLatin1(int position, QByteArrayView latin1)
{
    const auto nonAscii = std::find_if(latin1.begin(), latin1.end(), [](char c) { return uchar(c) >= 0x80; });
    if (nonAscii == latin1.end())
        return bindUtf8(position, latin1); // ASCII: the same bytes in UTF-8
    std::string &out = scratch(position);
    for (const char c : latin1) {
        if (uchar(c) < 0x80) {
            out.push_back(c);
        } else {
            out.push_back(char(0xc0 | (uchar(c) >> 6)));
            out.push_back(char(0x80 | (uchar(c) & 0x3f)));
        }
    }
    sqlite3_bind_text(m_statement, position, out.data(), int(out.size()), SQLITE_STATIC);
}

bool SqliteStatement::exec()
{
    const int rc = sqlite3_step(m_statement);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
        fail("step");
        sqlite3_reset(m_statement);
        return false;
    }
    // Bindings stay as they were: the writer binds every position before each run.
    sqlite3_reset(m_statement);
    return true;
}

void SqliteStatement::fail(const char *what)
{
    // The same parts QSqlError gets from Qt's driver: the primary result code as the native code ("13":
    // full), so the writer reports one line per kind of error as before.
    const int code = m_db ? sqlite3_extended_errcode(m_db) : SQLITE_ERROR;
    m_error = QSqlError(QString::fromLatin1(what), m_db ? QString::fromUtf8(sqlite3_errmsg(m_db)) : QString(),
                        QSqlError::StatementError, QString::number(code & 0xff));
}

} // namespace switchyard::history
