#pragma once

// The store's read connections: one read-only SQLite connection per thread that searches the history, as
// Qt SQL wants (a connection is used only on the thread that made it). Each is closed on its own thread
// when that thread ends, or by the store when the store goes first. Internal to history/.

#include "common/expected.h"

#include <QSqlDatabase>
#include <QString>
#include <QStringList>
#include <memory>
#include <mutex>

namespace switchyard::history {

namespace detail {

// The read connections opened for one store, one per thread that read. Each is closed on its own thread
// when that thread ends, or by the store when the store goes first.
struct ReaderRegistry
{
    std::mutex mutex;
    QString path;
    QString prefix;
    QStringList names;
};

} // namespace detail

// This thread's read-only connection to the store's file, opened on first use.
Expected<QSqlDatabase, QString> readerFor(const std::shared_ptr<detail::ReaderRegistry> &registry);

} // namespace switchyard::history
