#pragma once

// How the history file's columns hold values, shared by the writer (history/diskwriter), the store's
// reads (history/historyqueries) and the schema's updates (history/schema): text columns are NOT NULL,
// a key's model lists are JSON text, time buckets are whole minutes. (Requests are kept in blocks:
// history/requestblock.) Internal to history/.

#include "keys/virtualkey.h"
#include "stats/requestrecord.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <algorithm>
#include <string>

class QSqlError;

namespace switchyard::history {

inline constexpr qint64 MsPerMinute = 60'000;
inline constexpr qint64 MsPerDay = 86'400'000;
// Qt's SQLite driver, the only one the history uses.
inline constexpr QLatin1StringView SqliteDriver("QSQLITE");

// The start of the minute ms falls in (also for times before 1970).
qint64 floorToMinute(qint64 ms);
// Qt binds a null QString as SQL NULL; the text columns are NOT NULL (and part of the rollups' key, where
// NULLs would never match each other), so an absent value is stored as ''.
QString storedText(const QString &s);
// What SQLite said about an error, for a message naming the file.
QString sqlErrorText(const QSqlError &e);

// Appends text as UTF-8 (a lone surrogate as U+FFFD, as QString::toUtf8 does) without a temporary: the
// writer converts several texts per request, into buffers it keeps.
void appendUtf8(std::string &out, QStringView text);

// The nodes a request tried, from schema 1's `tried` column (JSON text): read when such a file is
// updated (history/schema).
QList<stats::Attempt> triedFromJson(const QString &json);
// A key's models or providers, as a JSON array of strings, and back.
QString listToJson(const QStringList &list);
QStringList listFromJson(const QString &json);

// Counted as an error in the rollups: status 500 and above, or an answer cut off midway.
bool isServerError(const stats::RequestRecord &r);

// The summed columns of a rollups row: what the writer adds up per request, and what a reading adds up
// per bucket (and per "(other)" group) before it takes the means.
struct RollupSums
{
    qint64 requests = 0, errors = 0, clientErrors = 0, promptTokens = 0, completionTokens = 0;
    qint64 durationSum = 0, ttftSum = 0, ttftCount = 0;

    void add(const stats::RequestRecord &r); // one request: unknown counts add nothing
    void add(const RollupSums &o);
};

// Inline: the writer adds every request it stores.
inline void RollupSums::add(const stats::RequestRecord &r)
{
    ++requests;
    errors += isServerError(r) ? 1 : 0;
    clientErrors += (r.status >= 400 && r.status < 500) ? 1 : 0;
    promptTokens += std::max<qint64>(r.promptTokens, 0);
    completionTokens += std::max<qint64>(r.completionTokens, 0);
    durationSum += std::max<qint64>(r.durationMs, 0);
    if (r.ttftMs >= 0) {
        ttftSum += r.ttftMs;
        ++ttftCount;
    }
}

inline void RollupSums::add(const RollupSums &o)
{
    requests += o.requests;
    errors += o.errors;
    clientErrors += o.clientErrors;
    promptTokens += o.promptTokens;
    completionTokens += o.completionTokens;
    durationSum += o.durationSum;
    ttftSum += o.ttftSum;
    ttftCount += o.ttftCount;
}

} // namespace switchyard::history
