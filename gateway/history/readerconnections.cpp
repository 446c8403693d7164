#include "history/readerconnections.h"

#include "history/storedvalues.h"

#include <QSqlError>
#include <atomic>
#include <vector>

using namespace Qt::StringLiterals;

namespace switchyard::history {

namespace {

std::atomic<quint64> s_nextReader{1};

// The connections this thread opened, for whichever stores; closed when the thread ends (on the thread,
// as Qt wants) unless their store has already closed them.
struct ThreadReaders
{
    struct Entry
    {
        std::weak_ptr<detail::ReaderRegistry> registry;
        QString name;
    };
    std::vector<Entry> entries;

    ~ThreadReaders()
    {
        for (const Entry &e : entries) {
            const auto registry = e.registry.lock();
            if (!registry)
                continue; // the store went first and closed it
            std::lock_guard lock(registry->mutex);
            if (registry->names.removeOne(e.name))
                QSqlDatabase::removeDatabase(e.name);
        }
    }
};
thread_local ThreadReaders t_readers;

} // namespace

Expected<QSqlDatabase, QString> readerFor(const std::shared_ptr<detail::ReaderRegistry> &registry)
{
    auto &entries = t_readers.entries;
    std::erase_if(entries, [](const ThreadReaders::Entry &e) { return e.registry.expired(); });
    for (const ThreadReaders::Entry &e : entries) {
        if (e.registry.lock() == registry)
            return QSqlDatabase::database(e.name, false);
    }
    const QString name = registry->prefix + QString::number(s_nextReader.fetch_add(1));
    QString error;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(SqliteDriver, name);
        db.setDatabaseName(registry->path);
        db.setConnectOptions(u"QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=5000"_s);
        if (!db.open())
            error =
                u"Cannot read the history file %1: %2"_s.arg(registry->path, sqlErrorText(db.lastError()));
    }
    if (!error.isEmpty()) {
        QSqlDatabase::removeDatabase(name);
        return unexpected(error);
    }
    {
        std::lock_guard lock(registry->mutex);
        registry->names.append(name);
    }
    entries.push_back({registry, name});
    return QSqlDatabase::database(name, false);
}

} // namespace switchyard::history
