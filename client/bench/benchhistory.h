#pragma once

// The benchmark runs kept between sessions: one JSON file (formatJsonHistory's shape) holding the newest
// MaxRuns runs, newest first, so a new run can be compared with an older one. Written atomically, so a
// crash mid-write never loses the runs kept so far. Widget-free: the Benchmark view keeps its runs here,
// and `switchyard --bench` could keep its runs in the same file.

#include "benchtypes.h"
#include "common/expected.h"

#include <QList>
#include <QString>

namespace switchyard::bench {

class BenchmarkHistory final
{
public:
    // Enough to compare settings over a day; the file stays small.
    static constexpr int MaxRuns = 20;

    // path empty: runs are kept in memory only.
    explicit BenchmarkHistory(QString path = {}) : m_path(std::move(path)) {}

    // <AppDataLocation>/benchmarks.json; empty when the platform has no such place.
    static QString defaultPath();

    QString path() const { return m_path; }
    // Forgets the runs in memory; load() reads the new file.
    void setPath(const QString &path);

    const QList<BenchmarkResults> &runs() const { return m_runs; } // newest first

    // Reads path(). No file yet (or one that cannot be opened) is an empty history; an error means a file
    // is there but holds no runs this version can read (the next save replaces it).
    Expected<bool, QString> load();

    // Adds a run at the front (dropping the oldest beyond MaxRuns) and saves; the run stays in memory
    // even when saving fails.
    Expected<bool, QString> add(const BenchmarkResults &run);
    // Removes the run with this id, if kept, and saves.
    Expected<bool, QString> remove(const QString &id);

private:
    Expected<bool, QString> save() const;

    QString m_path;
    QList<BenchmarkResults> m_runs;
};

} // namespace switchyard::bench
