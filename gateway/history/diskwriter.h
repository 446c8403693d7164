#pragma once

// The history's writer: its own SQLite connection and prepared statements, made, used and destroyed on
// the writer thread only (history/historystore runs it). Writes records, their per-minute rollups and
// keys in batched transactions, trims by age and size, and reports a failing disk once per kind of error
// while counting every record it loses. Internal to history/.

#include "history/historystore.h"
#include "history/requestblock.h"
#include "history/sqlitestatement.h"
#include "history/writerqueue.h"

#include <QLoggingCategory>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

class QSqlError;

namespace switchyard::history {

Q_DECLARE_LOGGING_CATEGORY(lcHistory)

class DiskWriter final
{
    Q_DISABLE_COPY_MOVE(DiskWriter)

public:
    // Opens nothing yet: the connection is made on the first write, on the writer thread.
    DiskWriter(detail::Queue &queue, const HistoryOptions &options, QString path, QString name);
    ~DiskWriter();

    // Records (and keys) written and lost, in transactions of at most batchSize records each.
    std::pair<quint64, quint64> write(const std::vector<stats::RequestRecord> &records,
                                      const std::vector<keys::VirtualKey> &keys);
    // Deletes requests older than maxAgeDays, then the oldest ones while the data is over maxBytes, and
    // gives the freed pages back to the file system.
    void retention(qint64 nowMs);

private:
    void giveBackFreePages();
    bool ensureOpen();
    void close();
    bool writeChunk(std::span<const stats::RequestRecord> records, std::span<const keys::VirtualKey> keys);
    // Inserts what m_block holds as one row (and clears it).
    bool insertBlock(qint64 firstMs, qint64 lastMs);
    bool abort(const QString &what, const QSqlError &error);
    qint64 pragma(const QString &name);
    qint64 freePages();
    // The bytes the data takes, pages waiting for reuse not counted (they are returned by the vacuum).
    qint64 usedBytes();
    // Counted and kept as the last error; logged once per kind so a failing disk does not flood the log.
    void report(const QString &what, const QSqlError &error);

    detail::Queue &m_queue;
    const HistoryOptions &m_options;
    const QString m_path;
    const QString m_name;
    QSqlDatabase m_db;
    bool m_open = false;
    SqliteStatement m_insertBlock;
    SqliteStatement m_upsertRollup;
    std::optional<QSqlQuery> m_saveKey;
    RequestBlockEncoder m_block;
    std::vector<const stats::RequestRecord *> m_byStart; // a chunk's records in the order they are stored
};

} // namespace switchyard::history
