// The benchmark runs kept between sessions (bench::BenchmarkHistory): what a second session finds in the
// file, the cap on kept runs, a file that is no history, and a place that cannot be written.
#include "bench/benchformat.h"
#include "bench/benchhistory.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace switchyard;
using namespace Qt::Literals::StringLiterals;

namespace {

bench::BenchmarkResults run(int n)
{
    bench::BenchmarkResults r;
    r.id = u"run-%1"_s.arg(n);
    r.startedAt = QDateTime::fromSecsSinceEpoch(1'700'000'000 + n, Qt::UTC);
    r.durationMs = 1000.0 * n;
    bench::TargetResult t;
    t.target = bench::Target{u"vllm-server1"_s, u"http://127.0.0.1:8001"_s, u"m"_s, QString()};
    r.targets << t;
    return r;
}

QStringList ids(const QList<bench::BenchmarkResults> &runs)
{
    QStringList out;
    for (const bench::BenchmarkResults &r : runs)
        out << r.id;
    return out;
}

} // namespace

class TestBenchHistory final : public QObject
{
    Q_OBJECT

private slots:
    void keptRunsAreThereNextSession()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"sub/runs.json"_s); // the folder is made on the first save
        bench::BenchmarkHistory history(path);
        QVERIFY(history.load()); // no file yet: an empty history
        QVERIFY(history.runs().isEmpty());
        QVERIFY(history.add(run(1)));
        QVERIFY(history.add(run(2)));
        QVERIFY(QFile::exists(path));

        bench::BenchmarkHistory next(path);
        QVERIFY(next.load());
        QCOMPARE(ids(next.runs()), (QStringList{u"run-2"_s, u"run-1"_s})); // newest first
        QCOMPARE(next.runs().first().targets.first().target.label, u"vllm-server1"_s);

        QVERIFY(next.remove(u"run-2"_s));
        bench::BenchmarkHistory third(path);
        QVERIFY(third.load());
        QCOMPARE(ids(third.runs()), QStringList{u"run-1"_s});
    }

    void keepsTheNewestRuns()
    {
        QTemporaryDir dir;
        bench::BenchmarkHistory history(dir.filePath(u"runs.json"_s));
        for (int i = 1; i <= bench::BenchmarkHistory::MaxRuns + 3; ++i)
            QVERIFY(history.add(run(i)));
        QCOMPARE(history.runs().size(), bench::BenchmarkHistory::MaxRuns);
        QCOMPARE(history.runs().first().id, u"run-%1"_s.arg(bench::BenchmarkHistory::MaxRuns + 3));
        QCOMPARE(history.runs().last().id, u"run-4"_s);
    }

    void aFileThatIsNoHistory()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"runs.json"_s);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"not\": \"a history\"}");
        f.close();
        bench::BenchmarkHistory history(path);
        const auto loaded = history.load();
        QVERIFY(!loaded);
        QVERIFY(history.runs().isEmpty());
        // The next run replaces the file.
        QVERIFY(history.add(run(1)));
        bench::BenchmarkHistory next(path);
        QVERIFY(next.load());
        QCOMPARE(ids(next.runs()), QStringList{u"run-1"_s});
    }

    void aPlaceThatCannotBeWritten()
    {
        QTemporaryDir dir;
        // A file where the folder should be: neither the folder nor the file can be made.
        QFile blocker(dir.filePath(u"blocked"_s));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        bench::BenchmarkHistory history(dir.filePath(u"blocked/runs.json"_s));
        const auto saved = history.add(run(1));
        QVERIFY(!saved);
        QVERIFY(!saved.error().isEmpty());
        QCOMPARE(history.runs().size(), 1); // still shown for this session
    }

    void noPathKeepsRunsInMemoryOnly()
    {
        bench::BenchmarkHistory history;
        QVERIFY(history.load());
        QVERIFY(history.add(run(1)));
        QCOMPARE(history.runs().size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestBenchHistory)
#include "tst_benchhistory.moc"
