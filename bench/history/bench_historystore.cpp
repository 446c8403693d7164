// Measures the request history's writer (history/historystore): records per second it stores, what an
// append() costs the thread that finished the request, and the bytes a record takes on disk. The numbers
// in docs/HISTORY.md come from here.
//
//   switchyard_historybench [records]   (default 100000; the file goes to a temporary directory)

#include "history/historystore.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTemporaryDir>
#include <cstdio>

using namespace Qt::StringLiterals;
using namespace switchyard;

namespace {

stats::RequestRecord sampleRecord(int i, qint64 nowMs)
{
    // A typical streamed chat request: one node tried, usage known, a virtual key.
    stats::RequestRecord r;
    r.startedMsSinceEpoch = nowMs - 3'600'000 + i;
    r.method = "POST";
    r.path = "/v1/chat/completions";
    r.model = (i % 3) ? u"llama-3.1-8b-instruct"_s : u"qwen2.5-coder-7b"_s;
    r.node = u"gpu-%1"_s.arg(i % 4);
    r.route = u"prefix 87%"_s;
    r.status = (i % 50) ? 200 : 503;
    r.attempts = 1;
    r.stream = true;
    r.ttftMs = 120 + i % 50;
    r.durationMs = 2400 + i % 700;
    r.promptTokens = 900 + i % 300;
    r.completionTokens = 250 + i % 100;
    r.keyId = u"vk_%1"_s.arg(i % 8, 16, 16, QChar(u'0'));
    stats::Attempt a;
    a.node = r.node;
    a.status = r.status;
    a.outcome = stats::Attempt::Outcome::Answered;
    a.durationMs = r.durationMs;
    r.tried = {a};
    if (r.status >= 500)
        r.error = u"HTTP 503 from gpu-1: overloaded"_s;
    return r;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int n = argc > 1 ? QString::fromLocal8Bit(argv[1]).toInt() : 100'000;
    QTemporaryDir dir;
    const QString path = dir.filePath(u"history.db"_s);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();

    history::HistoryOptions options;
    options.maxQueued = n;      // room for every record: the writer alone is measured
    options.startPaused = true; // fill the queue first, then time only the writer
    auto opened = history::HistoryStore::open(path, options);
    if (!opened) {
        std::fprintf(stderr, "%s\n", qPrintable(opened.error()));
        return 1;
    }
    auto &store = *opened.value();

    std::vector<stats::RequestRecord> records;
    records.reserve(size_t(n));
    for (int i = 0; i < n; ++i)
        records.push_back(sampleRecord(i, now));

    QElapsedTimer t;
    t.start();
    for (const auto &r : records)
        store.append(r);
    const qint64 appendNs = t.nsecsElapsed();

    t.restart();
    store.resumeWriter();
    store.flush();
    const qint64 writeNs = t.nsecsElapsed();
    const auto stats = store.stats();
    const qint64 bytes = QFileInfo(path).size() + QFileInfo(path + u"-wal"_s).size();

    std::printf("records            %d (written %llu, dropped %llu, failed %llu)\n", n,
                static_cast<unsigned long long>(stats.written),
                static_cast<unsigned long long>(stats.dropped),
                static_cast<unsigned long long>(stats.failed));
    std::printf("append()           %.0f ns per record on the calling thread\n", double(appendNs) / n);
    std::printf("writer             %.0f records/s (%.2f s for all, batches of %d)\n",
                double(n) * 1e9 / double(writeNs), double(writeNs) / 1e9, options.batchSize);
    std::printf("on disk            %.0f bytes per record (file + WAL %.1f MB)\n", double(bytes) / n,
                double(bytes) / 1e6);
    return stats.written == quint64(n) ? 0 : 1;
}
