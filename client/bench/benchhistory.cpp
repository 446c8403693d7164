#include "benchhistory.h"

#include "benchformat.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::bench {

QString BenchmarkHistory::defaultPath()
{
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    return dir.isEmpty() ? QString() : dir % u"/benchmarks.json"_s;
}

void BenchmarkHistory::setPath(const QString &path)
{
    m_path = path;
    m_runs.clear();
}

Expected<bool, QString> BenchmarkHistory::load()
{
    m_runs.clear();
    if (m_path.isEmpty())
        return true;
    QFile f(m_path);
    if (!f.open(QIODevice::ReadOnly))
        return true; // first run: nothing kept yet
    auto runs = historyFromJson(f.readAll());
    if (!runs)
        return unexpected(u"%1 is not a benchmark history"_s.arg(QDir::toNativeSeparators(m_path)));
    m_runs = std::move(*runs);
    return true;
}

Expected<bool, QString> BenchmarkHistory::add(const BenchmarkResults &run)
{
    m_runs.prepend(run);
    while (m_runs.size() > MaxRuns)
        m_runs.removeLast();
    return save();
}

Expected<bool, QString> BenchmarkHistory::remove(const QString &id)
{
    m_runs.removeIf([&id](const BenchmarkResults &r) { return r.id == id; });
    return save();
}

Expected<bool, QString> BenchmarkHistory::save() const
{
    if (m_path.isEmpty())
        return true;
    QDir().mkpath(QFileInfo(m_path).absolutePath());
    QSaveFile f(m_path);
    if (!f.open(QIODevice::WriteOnly) || f.write(formatJsonHistory(m_runs)) < 0 || !f.commit())
        return unexpected(f.errorString());
    return true;
}

} // namespace switchyard::bench
