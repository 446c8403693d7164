// The request history in SQLite (history/historystore): what an operator relies on after a restart.
// Records and keys come back as they were written; searches and per-minute sums agree with the records;
// old and excess rows go while new ones stay; a full queue drops and counts instead of slowing the
// gateway; a file that is not a history is refused with a message naming it. Each case works on a real
// file in a temporary directory.

#include "history/historystore.h"
#include "recordcompare.h"

#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

using namespace Qt::StringLiterals;
using namespace switchyard;
using history::HistoryOptions;
using history::HistoryQuery;
using history::HistoryStore;
using stats::Attempt;
using stats::RequestRecord;
using testing::compareRecords;

namespace {

constexpr qint64 MsPerMinute = 60'000;
constexpr qint64 MsPerDay = 86'400'000;
// 2026-01-05 10:00:00 UTC, a minute boundary: the tests' "now".
constexpr qint64 T0 = 1'767'607'200'000;

// A clock a test moves by hand; the store reads it from its writer thread.
struct TestClock
{
    std::shared_ptr<std::atomic<qint64>> now = std::make_shared<std::atomic<qint64>>(T0);
    std::function<qint64()> fn() const
    {
        return [n = now] { return n->load(); };
    }
};

RequestRecord makeRecord(qint64 startedMs, const QString &model, const QString &node, int status,
                         const QString &keyId = {})
{
    RequestRecord r;
    r.startedMsSinceEpoch = startedMs;
    r.method = "POST";
    r.path = "/v1/chat/completions";
    r.model = model;
    r.node = node;
    r.route = u"weighted"_s;
    r.status = status;
    r.attempts = 1;
    r.stream = true;
    r.ttftMs = 40;
    r.durationMs = 200;
    r.promptTokens = 10;
    r.completionTokens = 5;
    r.keyId = keyId;
    Attempt a;
    a.node = node;
    a.status = status;
    a.outcome = status >= 500 ? Attempt::Outcome::ErrorStatus : Attempt::Outcome::Answered;
    a.durationMs = 200;
    r.tried = {a};
    if (status >= 500)
        r.error = u"HTTP %1 from %2"_s.arg(status).arg(node);
    return r;
}

std::unique_ptr<HistoryStore> openOrFail(const QString &path, HistoryOptions options = {})
{
    auto store = HistoryStore::open(path, std::move(options));
    if (!store) {
        qWarning().noquote() << store.error();
        return nullptr;
    }
    return std::move(store.value());
}

// Every row a query matches, page by page, newest first.
std::vector<history::HistoryEntry> searchAll(const HistoryStore &store, HistoryQuery query)
{
    std::vector<history::HistoryEntry> out;
    for (int guard = 0; guard < 10'000; ++guard) {
        auto page = store.search(query);
        if (!page) {
            qWarning().noquote() << page.error();
            return {};
        }
        out.insert(out.end(), page->entries.begin(), page->entries.end());
        if (page->nextBeforeId == 0)
            break;
        query.beforeId = page->nextBeforeId;
    }
    return out;
}

keys::VirtualKey makeKey(const QString &id, const QString &name)
{
    keys::VirtualKey k;
    k.id = id;
    k.name = name;
    k.secretSha256 = QByteArray(32, '\x5a');
    k.secretHint = u"sy-a1b2…9f0e"_s;
    k.models = {u"llama-3-8b"_s, u"qwen2.5-7b"_s};
    k.providers = {u"gpu-a"_s};
    k.limits.requestsPerMinute = 60;
    k.limits.tokensPerMinute = 10'000;
    k.limits.tokensPerDay = 1'000'000;
    k.limits.maxConcurrent = 4;
    k.createdMs = T0 - MsPerDay;
    k.expiresMs = T0 + 30 * MsPerDay;
    return k;
}

} // namespace

class TestHistoryStore final : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        // A warning is a failure (a connection used from the wrong thread, a connection still in use when
        // removed, a write error): the cases that expect one say so with ignoreMessage.
        QTest::failOnWarning(QRegularExpression(u".*"_s));
    }

    void recordsSurviveClosingAndReopening()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // A directory that does not exist yet: the store makes it.
        const QString path = dir.filePath(u"state/history.db"_s);
        TestClock clock;

        RequestRecord failedOver =
            makeRecord(T0 - 5000, u"llama-3-8b"_s, u"gpu-b"_s, 200, u"vk_0123456789abcdef"_s);
        failedOver.attempts = 3;
        failedOver.route = u"prefix 87%"_s;
        failedOver.promptTokens = 1234;
        failedOver.completionTokens = -1; // unknown stays unknown
        failedOver.ttftMs = 321;
        failedOver.durationMs = 4567;
        Attempt first;
        first.node = u"gpu-a"_s;
        first.status = 503;
        first.outcome = Attempt::Outcome::ErrorStatus;
        first.startMs = 1;
        first.durationMs = 12;
        first.reason = u"HTTP 503: overloaded — «try later»"_s;
        Attempt retry = first;
        retry.via = Attempt::Via::Retry;
        retry.outcome = Attempt::Outcome::Timeout;
        retry.status = 0;
        retry.startMs = 250;
        retry.durationMs = 2000;
        retry.reason = u"headers timed out after 2 s"_s;
        Attempt answered;
        answered.node = u"gpu-b"_s;
        answered.status = 200;
        answered.outcome = Attempt::Outcome::Answered;
        answered.via = Attempt::Via::LastResort;
        answered.fallbackModel = u"llama-3-8b-q4"_s;
        answered.startMs = 2300;
        answered.durationMs = 2267;
        failedOver.tried = {first, retry, answered};

        RequestRecord cut = makeRecord(T0 - 1000, u"qwen2.5-7b"_s, u"gpu-a"_s, 200);
        cut.method = "GET";
        cut.path = "/v1/models?x=%C3%A9";
        cut.stream = false;
        cut.ttftMs = -1;
        cut.error = u"node closed the stream mid-answer"_s;
        cut.tried.first().outcome = Attempt::Outcome::Cut;

        RequestRecord local = makeRecord(T0 - 500, QString(), QString(), 404);
        local.tried.clear(); // answered by the gateway itself
        local.route.clear();

        {
            auto store = openOrFail(path, {.nowMs = clock.fn()});
            QVERIFY(store);
            store->append(failedOver);
            store->append(cut);
            store->append(local);
            store->flush();
            QCOMPARE(store->stats().written, 3u);
            QCOMPARE(store->stats().queued, 0);
            QVERIFY(store->stats().lastError.isEmpty());
        }
        QVERIFY(QFileInfo::exists(path));

        auto store = openOrFail(path, {.nowMs = clock.fn()});
        QVERIFY(store);
        const auto page = store->search({});
        QVERIFY2(page, page ? "" : qPrintable(page.error()));
        QCOMPARE(page->entries.size(), size_t(3));
        QCOMPARE(page->nextBeforeId, 0);
        // Newest first.
        compareRecords(page->entries[0].record, local);
        compareRecords(page->entries[1].record, cut);
        compareRecords(page->entries[2].record, failedOver);
        QVERIFY(page->entries[0].id > page->entries[1].id);
    }

    // The nodes tried are written as JSON by hand (once per request, on the writer): any text a node sent
    // comes back as it was — quotes, backslashes, line breaks, control characters, any script.
    void triedTextSurvivesAnyCharacters()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(u"escapes.db"_s);
        TestClock clock;
        RequestRecord r = makeRecord(T0 - 100, u"m"_s, u"n\"1\""_s, 502);
        Attempt a;
        a.node = u"n\"1\""_s;
        a.status = 502;
        a.outcome = Attempt::Outcome::ErrorStatus;
        a.reason = u"HTTP 502: {\"error\": \"bad\\gateway\"}\nline two\r\t\u0001 \u4e2d\u6587 \U0001F600"_s;
        a.fallbackModel = u"m/\"q\""_s;
        r.tried = {a};
        {
            auto store = openOrFail(path, {.nowMs = clock.fn()});
            QVERIFY(store);
            store->append(r);
            store->flush();
            QCOMPARE(store->stats().written, 1u);
        }
        auto store = openOrFail(path, {.nowMs = clock.fn()});
        QVERIFY(store);
        const auto page = store->search({});
        QVERIFY(page && page->entries.size() == 1);
        compareRecords(page->entries[0].record, r);
    }

    // The writer converts text to UTF-8 itself (history/sqlitestatement): every column reads back as it
    // was written, whatever the characters, and a lone surrogate (no UTF-8 form) becomes U+FFFD, as
    // QString::toUtf8 makes it.
    void textColumnsKeepEveryCharacter()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(u"text.db"_s);
        TestClock clock;
        RequestRecord r = makeRecord(T0 - 100, u"mod\u00e8le-\u4e2d\u6587-\U0001F600"_s, u"n\u00f8de \"1\""_s, 503,
                                     u"vk_\u00e9\u00e9"_s);
        r.route = u"prefix 87% \u2192 sess\u00efon"_s;
        r.error = u"HTTP 503: \u0441\u0435\u0440\u0432\u0435\u0440 \U0001F525\n\ttab"_s;
        r.path = "/v1/chat/completions?caf\xe9=1"; // a Latin-1 byte, as the parser keeps it
        RequestRecord lone = makeRecord(T0 - 50, u"m"_s + QChar(0xd800) + u"x"_s, u"n"_s, 200);
        {
            auto store = openOrFail(path, {.nowMs = clock.fn()});
            QVERIFY(store);
            store->append(r);
            store->append(lone);
            store->flush();
            QCOMPARE(store->stats().written, 2u);
        }
        auto store = openOrFail(path, {.nowMs = clock.fn()});
        QVERIFY(store);
        const auto page = store->search({});
        QVERIFY(page && page->entries.size() == 2);
        // Newest first.
        compareRecords(page->entries[1].record, r);
        QCOMPARE(page->entries[0].record.model, u"m"_s + QChar(0xfffd) + u"x"_s);
    }

    void searchFiltersAndPagesWithoutGapsOrRepeats()
    {
        QTemporaryDir dir;
        TestClock clock;
        auto store = openOrFail(dir.filePath(u"history.db"_s), {.nowMs = clock.fn()});
        QVERIFY(store);

        const QStringList models = {u"llama"_s, u"qwen"_s, u"mistral"_s};
        const QStringList nodes = {u"gpu-a"_s, u"gpu-b"_s};
        const QStringList keyIds = {QString(), u"vk_aaaaaaaaaaaaaaaa"_s, u"vk_bbbbbbbbbbbbbbbb"_s};
        const int statuses[] = {200, 200, 429, 499, 500, 503, 200};
        std::vector<RequestRecord> all;
        for (int i = 0; i < 300; ++i) {
            // Two at a time start in the same millisecond: paging must not skip or repeat either.
            RequestRecord r = makeRecord(T0 - 3 * 3600'000 + (i / 2) * 60'000, models[i % 3], nodes[i % 2],
                                         statuses[i % 7], keyIds[(i / 2) % 3]);
            if (i % 11 == 0) // a few cut mid-answer: status 200 but the answer did not arrive whole
                r.error = u"cut"_s;
            all.push_back(r);
            store->append(r);
        }
        store->flush();

        const auto count = [&](const std::function<bool(const RequestRecord &)> &pred) {
            return size_t(std::count_if(all.begin(), all.end(), pred));
        };
        const auto check = [&](const HistoryQuery &q,
                               const std::function<bool(const RequestRecord &)> &pred) {
            const auto rows = searchAll(*store, q);
            QCOMPARE(rows.size(), count(pred));
            for (const auto &e : rows)
                QVERIFY(pred(e.record));
        };

        HistoryQuery range;
        range.fromMs = T0 - 2 * 3600'000;
        range.toMs = T0 - 3600'000;
        check(range, [&](const RequestRecord &r) {
            return r.startedMsSinceEpoch >= range.fromMs && r.startedMsSinceEpoch <= range.toMs;
        });
        HistoryQuery byKey;
        byKey.keyId = keyIds[1];
        check(byKey, [&](const RequestRecord &r) { return r.keyId == keyIds[1]; });
        HistoryQuery byModelNode;
        byModelNode.model = u"qwen"_s;
        byModelNode.node = u"gpu-b"_s;
        check(byModelNode,
              [](const RequestRecord &r) { return r.model == u"qwen"_s && r.node == u"gpu-b"_s; });

        using S = HistoryQuery::Status;
        const auto isFailed = [](const RequestRecord &r) { return r.status >= 500 || r.cutMidAnswer(); };
        const auto isClient = [](const RequestRecord &r) { return r.status >= 400 && r.status < 500; };
        HistoryQuery q;
        q.status = S::Ok;
        check(q, [&](const RequestRecord &r) { return !isFailed(r) && !isClient(r); });
        q.status = S::ClientError;
        check(q, isClient);
        q.status = S::ServerError;
        check(q, [](const RequestRecord &r) { return r.status >= 500; });
        q.status = S::Failed;
        check(q, isFailed);
        // The classes Ok, ClientError and Failed split every request: none counted twice or lost.
        size_t split = 0;
        for (S s : {S::Ok, S::ClientError, S::Failed}) {
            q.status = s;
            split += searchAll(*store, q).size();
        }
        QCOMPARE(split, all.size());

        // Pages of 7, newest first: every record exactly once, in order (ties by id, the later written
        // first), the same rows as one page of all.
        HistoryQuery paged;
        paged.limit = 7;
        const auto rows = searchAll(*store, paged);
        QCOMPARE(rows.size(), all.size());
        std::set<qint64> ids;
        for (size_t i = 0; i < rows.size(); ++i) {
            QVERIFY(ids.insert(rows[i].id).second);
            if (i > 0) {
                const auto &prev = rows[i - 1];
                QVERIFY(rows[i].record.startedMsSinceEpoch < prev.record.startedMsSinceEpoch ||
                        (rows[i].record.startedMsSinceEpoch == prev.record.startedMsSinceEpoch &&
                         rows[i].id < prev.id));
            }
            QCOMPARE(rows[i].record.startedMsSinceEpoch, all[all.size() - 1 - i].startedMsSinceEpoch);
            QCOMPARE(rows[i].record.node, all[all.size() - 1 - i].node);
        }
        const auto onePage = store->search({.limit = 1000});
        QVERIFY(onePage);
        QCOMPARE(onePage->entries.size(), rows.size());
        QCOMPARE(onePage->nextBeforeId, 0);
        for (size_t i = 0; i < rows.size(); ++i)
            QCOMPARE(onePage->entries[i].id, rows[i].id);
        // Paging within a filter, through the key's index.
        HistoryQuery keyPaged;
        keyPaged.keyId = keyIds[2];
        keyPaged.limit = 4;
        const auto keyRows = searchAll(*store, keyPaged);
        QCOMPARE(keyRows.size(), count([&](const RequestRecord &r) { return r.keyId == keyIds[2]; }));
        std::set<qint64> keyIdsSeen;
        for (const auto &e : keyRows)
            QVERIFY(keyIdsSeen.insert(e.id).second);
        // A limit above the maximum is clamped, not an unbounded answer.
        HistoryQuery huge;
        huge.limit = 1'000'000;
        for (int i = 0; i < 1200; ++i)
            store->append(makeRecord(T0 - 10, u"llama"_s, u"gpu-a"_s, 200));
        store->flush();
        const auto big = store->search(huge);
        QVERIFY(big);
        QCOMPARE(int(big->entries.size()), HistoryQuery::MaxLimit);
        QVERIFY(big->nextBeforeId > 0);
    }

    void rollupsSumPerMinuteAndAgreeWithTheRecords()
    {
        QTemporaryDir dir;
        TestClock clock;
        auto store = openOrFail(dir.filePath(u"history.db"_s), {.nowMs = clock.fn()});
        QVERIFY(store);

        // Ten minutes of traffic, 7 requests a minute spread over the minute, two nodes.
        const qint64 start = T0 - 10 * MsPerMinute;
        std::vector<RequestRecord> all;
        for (int m = 0; m < 10; ++m) {
            for (int i = 0; i < 7; ++i) {
                const int status = (i == 3) ? 502 : (i == 5 ? 429 : 200);
                RequestRecord r =
                    makeRecord(start + m * MsPerMinute + i * 8000, u"llama"_s,
                               i % 2 ? u"gpu-a"_s : u"gpu-b"_s, status, u"vk_aaaaaaaaaaaaaaaa"_s);
                r.promptTokens = 100 + i;
                r.completionTokens = (i == 6) ? -1 : 10 * i; // one with unknown usage
                r.durationMs = 100 * (i + 1);
                r.ttftMs = (i == 0) ? -1 : 10 * i;
                if (m == 4 && i == 0)
                    r.error = u"cut"_s; // cut mid-answer counts as an error
                all.push_back(r);
            }
        }
        // Appended in two halves: the second batch adds to the minutes the first one wrote.
        for (size_t i = 0; i < all.size(); i += 2)
            store->append(all[i]);
        store->flush();
        for (size_t i = 1; i < all.size(); i += 2)
            store->append(all[i]);
        store->flush();

        const auto perMinute = store->rollups(start, T0, 1);
        QVERIFY2(perMinute, perMinute ? "" : qPrintable(perMinute.error()));
        QCOMPARE(perMinute->size(), size_t(10));
        for (int m = 0; m < 10; ++m) {
            const history::RollupPoint &p = (*perMinute)[size_t(m)];
            QCOMPARE(p.bucketStartMs, start + m * MsPerMinute);
            qint64 requests = 0, errors = 0, client = 0, prompt = 0, completion = 0, duration = 0, ttft = 0,
                   ttftN = 0;
            for (const RequestRecord &r : all) {
                if (r.startedMsSinceEpoch / MsPerMinute != p.bucketStartMs / MsPerMinute)
                    continue;
                ++requests;
                errors += (r.status >= 500 || r.cutMidAnswer()) ? 1 : 0;
                client += (r.status >= 400 && r.status < 500) ? 1 : 0;
                prompt += std::max<qint64>(r.promptTokens, 0);
                completion += std::max<qint64>(r.completionTokens, 0);
                duration += r.durationMs;
                if (r.ttftMs >= 0) {
                    ttft += r.ttftMs;
                    ++ttftN;
                }
            }
            QCOMPARE(p.requests, requests);
            QCOMPARE(p.errors, errors);
            QCOMPARE(p.clientErrors, client);
            QCOMPARE(p.promptTokens, prompt);
            QCOMPARE(p.completionTokens, completion);
            QCOMPARE(p.meanDurationMs, double(duration) / double(requests));
            QCOMPARE(p.meanTtftMs, double(ttft) / double(ttftN));
        }
        QCOMPARE((*perMinute)[4].errors, 2); // the 502 and the cut one

        // Five-minute buckets hold the sums of their minutes; a filter by node keeps its share.
        const auto wide = store->rollups(start, T0, 5);
        QVERIFY(wide);
        QCOMPARE(wide->size(), size_t(2));
        QCOMPARE((*wide)[0].requests, 35);
        QCOMPARE((*wide)[1].requests, 35);
        qint64 prompt = 0;
        for (const RequestRecord &r : all)
            prompt += r.promptTokens;
        QCOMPARE((*wide)[0].promptTokens + (*wide)[1].promptTokens, prompt);
        const auto nodeA = store->rollups(start, T0, 10, u"gpu-a"_s);
        QVERIFY(nodeA);
        QCOMPARE(nodeA->size(), size_t(1));
        QCOMPARE((*nodeA)[0].requests, qint64(searchAll(*store, {.node = u"gpu-a"_s}).size()));
        QCOMPARE((*nodeA)[0].requests, 30);
        const auto otherKey = store->rollups(start, T0, 10, {}, {}, u"vk_bbbbbbbbbbbbbbbb"_s);
        QVERIFY(otherKey);
        QCOMPARE((*otherKey)[0].requests, 0);
        QCOMPARE((*otherKey)[0].meanTtftMs, -1.0);

        // An empty minute is listed with zeros; too many buckets are refused, not computed.
        const auto later = store->rollups(T0, T0 + 3 * MsPerMinute, 1);
        QVERIFY(later);
        QCOMPARE(later->size(), size_t(3));
        QCOMPARE((*later)[2].requests, 0);
        const auto tooMany = store->rollups(T0 - 365 * MsPerDay, T0, 1);
        QVERIFY(!tooMany);
        QVERIFY(tooMany.error().contains(u"buckets"_s));
    }

    void rollupsSplitIntoTheBusiestGroupsAndTheRest()
    {
        QTemporaryDir dir;
        TestClock clock;
        auto store = openOrFail(dir.filePath(u"history.db"_s), {.nowMs = clock.fn()});
        QVERIFY(store);
        // Eleven nodes over three minutes: node n serves n + 1 requests a minute. Every fourth request
        // comes without a key.
        const qint64 start = T0 - 3 * MsPerMinute;
        for (int m = 0; m < 3; ++m) {
            for (int n = 0; n < 11; ++n) {
                for (int i = 0; i <= n; ++i) {
                    store->append(makeRecord(start + m * MsPerMinute + i * 1000, u"llama"_s,
                                             u"gpu-%1"_s.arg(n, 2, 10, QChar(u'0')), 200,
                                             i % 4 == 3 ? QString() : u"vk_aaaaaaaaaaaaaaaa"_s));
                }
            }
        }
        store->flush();
        const auto whole = store->rollups(start, T0, 1);
        QVERIFY(whole);
        const auto byNode = store->rollups(start, T0, 1, {}, {}, {}, history::RollupSplit::Node);
        QVERIFY2(byNode, byNode ? "" : qPrintable(byNode.error()));
        // The busiest eight, then the three quietest summed as "(other)": every bucket of each series.
        QCOMPARE(byNode->size(), size_t(9 * 3));
        const QStringList expected = {u"gpu-10"_s, u"gpu-09"_s, u"gpu-08"_s, u"gpu-07"_s, u"gpu-06"_s,
                                      u"gpu-05"_s, u"gpu-04"_s, u"gpu-03"_s, u"(other)"_s};
        for (int g = 0; g < 9; ++g) {
            for (int m = 0; m < 3; ++m) {
                const history::RollupPoint &p = (*byNode)[size_t(g * 3 + m)];
                QCOMPARE(p.group, expected[g]);
                QCOMPARE(p.bucketStartMs, start + m * MsPerMinute);
                QCOMPARE(p.requests, g < 8 ? qint64(11 - g) : qint64(1 + 2 + 3));
            }
        }
        // The series add up to the whole gateway's sums, bucket by bucket.
        for (int m = 0; m < 3; ++m) {
            qint64 requests = 0, prompt = 0;
            for (int g = 0; g < 9; ++g) {
                requests += (*byNode)[size_t(g * 3 + m)].requests;
                prompt += (*byNode)[size_t(g * 3 + m)].promptTokens;
            }
            QCOMPARE(requests, (*whole)[size_t(m)].requests);
            QCOMPARE(prompt, (*whole)[size_t(m)].promptTokens);
        }
        // By key: the key's series, named as the file keeps the key, and the one of requests without a
        // key ("", no name). Other splits name nothing.
        keys::VirtualKey key;
        key.id = u"vk_aaaaaaaaaaaaaaaa"_s;
        key.name = u"ci-runner"_s;
        store->saveKey(key);
        store->flush();
        const auto byKey = store->rollups(start, T0, 3, {}, {}, {}, history::RollupSplit::Key);
        QVERIFY(byKey);
        QCOMPARE(byKey->size(), size_t(2));
        QCOMPARE((*byKey)[0].group, u"vk_aaaaaaaaaaaaaaaa"_s);
        QCOMPARE((*byKey)[0].groupName, u"ci-runner"_s);
        QCOMPARE((*byKey)[1].group, QString());
        QCOMPARE((*byKey)[1].groupName, QString());
        QCOMPARE((*byNode)[0].groupName, QString());
        QCOMPARE((*byKey)[0].requests + (*byKey)[1].requests, qint64(3 * 66));
        // A split is bounded as its series together: the ranges a whole-gateway answer may have, divided.
        QVERIFY(store->rollups(T0 - 10 * MsPerDay, T0, 1));
        const auto tooMany = store->rollups(T0 - 10 * MsPerDay, T0, 1, {}, {}, {}, history::RollupSplit::Model);
        QVERIFY(!tooMany);
        QVERIFY(tooMany.error().contains(u"buckets"_s));
    }

    void retentionByAgeDropsOldRowsAndKeepsNewOnes()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"history.db"_s);
        TestClock clock;
        {
            auto store = openOrFail(path, {.maxAgeDays = 30, .nowMs = clock.fn()});
            QVERIFY(store);
            for (int i = 0; i < 50; ++i)
                store->append(makeRecord(T0 - i * 1000, u"old"_s, u"gpu-a"_s, 200));
            store->flush();
            clock.now->fetch_add(31 * MsPerDay);
            const qint64 now = clock.now->load();
            for (int i = 0; i < 20; ++i)
                store->append(makeRecord(now - i * 1000, u"new"_s, u"gpu-a"_s, 200));
            store->flush();
            store->enforceRetention();

            const auto rows = searchAll(*store, {});
            QCOMPARE(rows.size(), size_t(20));
            for (const auto &e : rows)
                QCOMPARE(e.record.model, u"new"_s);
            const auto oldSums = store->rollups(T0 - 10 * MsPerMinute, T0 + MsPerMinute, 1);
            QVERIFY(oldSums);
            for (const auto &p : *oldSums)
                QCOMPARE(p.requests, 0);
            const auto newSums = store->rollups(now - 10 * MsPerMinute, now + MsPerMinute, 11);
            QVERIFY(newSums);
            QCOMPARE(newSums->front().requests, 20);
        }
        // Reopened another 31 days on: retention runs when the store opens, without being asked.
        clock.now->fetch_add(31 * MsPerDay);
        auto store = openOrFail(path, {.maxAgeDays = 30, .nowMs = clock.fn()});
        QVERIFY(store);
        QTRY_COMPARE(searchAll(*store, {}).size(), size_t(0));
    }

    void retentionBySizeDeletesTheOldestFirst()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"history.db"_s);
        TestClock clock;
        constexpr qint64 MaxBytes = 256 * 1024;
        auto store = openOrFail(path, {.maxAgeDays = 0, .maxBytes = MaxBytes, .nowMs = clock.fn()});
        QVERIFY(store);
        // Past the pass the store makes when it opens, the next one is ten minutes away: the file grows
        // over the limit until the test asks for one.
        store->enforceRetention();
        // About 3 MB of requests with long error texts: ten times the limit.
        const QString longError = QString(400, u'x');
        constexpr int N = 6000;
        for (int i = 0; i < N; ++i) {
            RequestRecord r = makeRecord(T0 - (N - i) * 100, u"m"_s, u"gpu-a"_s, 500);
            r.error = longError + QString::number(i);
            store->append(r);
        }
        store->flush();
        QVERIFY(QFileInfo(path).size() + QFileInfo(path + u"-wal"_s).size() > 4 * MaxBytes);
        store->enforceRetention();

        const auto rows = searchAll(*store, {.limit = 1000});
        QVERIFY(!rows.empty());
        QVERIFY(rows.size() < size_t(N));
        // What is left is the newest part, without holes: the oldest went first.
        QCOMPARE(rows.front().record.startedMsSinceEpoch, T0 - 100);
        for (size_t i = 0; i < rows.size(); ++i)
            QCOMPARE(rows[i].record.startedMsSinceEpoch, T0 - qint64(i + 1) * 100);
        // The file is given back to the file system: it stays near the limit rather than at its largest.
        const qint64 fileBytes = QFileInfo(path).size() + QFileInfo(path + u"-wal"_s).size();
        QVERIFY2(fileBytes <= MaxBytes + 64 * 1024, qPrintable(QString::number(fileBytes)));
        // …and no more is deleted than needed to get under it.
        QVERIFY2(fileBytes >= MaxBytes / 2, qPrintable(QString::number(fileBytes)));
        // The per-minute sums are kept by age only: the charts still show every request.
        qint64 summed = 0;
        const auto sums = store->rollups(T0 - N * 100 - MsPerMinute, T0 + MsPerMinute, 60);
        QVERIFY(sums);
        for (const auto &p : *sums)
            summed += p.requests;
        QCOMPARE(summed, N);
    }

    void aFullQueueDropsAndCountsInsteadOfBlocking()
    {
        QTemporaryDir dir;
        TestClock clock;
        // The writer starts paused (test hook): nothing leaves the queue, as when the disk stalls.
        auto store = openOrFail(dir.filePath(u"history.db"_s),
                                {.maxQueued = 10, .nowMs = clock.fn(), .startPaused = true});
        QVERIFY(store);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"10 records wait for the disk"_s));
        for (int i = 0; i < 25; ++i)
            store->append(makeRecord(T0 + i, u"m"_s, u"gpu-a"_s, 200));
        QCOMPARE(store->droppedCount(), 15u);
        QCOMPARE(store->stats().queued, 10);
        QCOMPARE(store->stats().written, 0u);
        store->resumeWriter();
        store->flush();
        QCOMPARE(store->stats().written, 10u);
        QCOMPARE(store->stats().dropped, 15u);
        QCOMPARE(store->stats().queued, 0);
        // The first ten were kept: a full queue refuses new records, it does not evict queued ones.
        const auto rows = searchAll(*store, {.toMs = T0 + 100});
        QCOMPARE(rows.size(), size_t(10));
        QCOMPARE(rows.front().record.startedMsSinceEpoch, T0 + 9);
    }

    void aFullDiskIsCountedAndLoggedOnceAndNothingStops()
    {
        QTemporaryDir dir;
        TestClock clock;
        // The file may not grow past 64 pages (256 KiB), as on a full disk.
        auto store = openOrFail(
            dir.filePath(u"history.db"_s),
            {.batchSize = 100, .maxAgeDays = 0, .maxBytes = 0, .nowMs = clock.fn(), .testMaxPages = 64});
        QVERIFY(store);
        // One warning for the kind of error, however many batches fail.
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"failed: .*full"_s));
        constexpr int N = 3000;
        const QString longError = QString(300, u'e');
        for (int i = 0; i < N; ++i) {
            RequestRecord r = makeRecord(T0 - N + i, u"m"_s, u"gpu-a"_s, 500);
            r.error = longError + QString::number(i); // distinct: a block stores a repeated text once
            store->append(r);
        }
        store->flush();
        const auto s = store->stats();
        QVERIFY(s.written > 0);
        QVERIFY(s.failed > 0);
        QCOMPARE(s.written + s.failed, quint64(N));
        QVERIFY2(s.lastError.contains(store->path()), qPrintable(s.lastError));
        // What was written can still be read, and the store still takes records.
        QCOMPARE(searchAll(*store, {.limit = 1000}).size(), size_t(s.written));
        store->append(makeRecord(T0, u"m"_s, u"gpu-a"_s, 200));
        store->flush();
        QCOMPARE(store->stats().written + store->stats().failed, quint64(N + 1));
    }

    void aFileThatIsNotAHistoryIsRefusedByName()
    {
        QTemporaryDir dir;
        const QString garbage = dir.filePath(u"not-a-db.db"_s);
        {
            QFile f(garbage);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray(8192, 'z'));
        }
        const auto notDb = HistoryStore::open(garbage);
        QVERIFY(!notDb);
        QVERIFY2(notDb.error().contains(garbage), qPrintable(notDb.error()));
        QVERIFY2(notDb.error().contains(u"not a SQLite database"_s), qPrintable(notDb.error()));
        QCOMPARE(QFileInfo(garbage).size(), 8192); // left as it was

        // A history written by a newer Switchyard: its schema version (the header's user_version, a
        // big-endian 32-bit number at byte 60) is above ours.
        const QString newer = dir.filePath(u"newer.db"_s);
        QVERIFY(openOrFail(newer));
        {
            QFile f(newer);
            QVERIFY(f.open(QIODevice::ReadWrite));
            QVERIFY(f.seek(60));
            f.write(QByteArray("\x00\x00\x00\x63", 4)); // 99
        }
        const auto tooNew = HistoryStore::open(newer);
        QVERIFY(!tooNew);
        QVERIFY2(tooNew.error().contains(newer), qPrintable(tooNew.error()));
        QVERIFY2(tooNew.error().contains(u"newer"_s), qPrintable(tooNew.error()));

        // A directory that cannot be made (a file is in the way).
        const QString blocked = garbage + u"/sub/history.db"_s;
        const auto noDir = HistoryStore::open(blocked);
        QVERIFY(!noDir);
        QVERIFY2(noDir.error().contains(blocked), qPrintable(noDir.error()));
    }

    void aFileOfSchemaOneIsMovedIntoBlocks()
    {
        // A history written before requests were kept in blocks: a row per request (schema 1). Opening
        // it moves every row into blocks; searches and sums find the requests as they were.
        QTemporaryDir dir;
        const QString path = dir.filePath(u"history.db"_s);
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"schema-1"_s);
            db.setDatabaseName(path);
            QVERIFY(db.open());
            QSqlQuery q(db);
            for (const QString &sql : {
                     u"CREATE TABLE requests (id INTEGER PRIMARY KEY, started_ms INTEGER NOT NULL, key_id TEXT "
                     "NOT NULL DEFAULT '', model TEXT NOT NULL DEFAULT '', node TEXT NOT NULL DEFAULT '', route "
                     "TEXT NOT NULL DEFAULT '', method TEXT NOT NULL DEFAULT '', path TEXT NOT NULL DEFAULT '', "
                     "status INTEGER NOT NULL, attempts INTEGER NOT NULL, stream INTEGER NOT NULL, ttft_ms "
                     "INTEGER NOT NULL, duration_ms INTEGER NOT NULL, prompt_tokens INTEGER NOT NULL, "
                     "completion_tokens INTEGER NOT NULL, error TEXT NOT NULL DEFAULT '', tried TEXT NOT NULL "
                     "DEFAULT '[]')"_s,
                     u"CREATE INDEX requests_started ON requests (started_ms)"_s,
                     u"CREATE INDEX requests_key_started ON requests (key_id, started_ms)"_s,
                     u"CREATE TABLE rollups (minute_ms INTEGER NOT NULL, node TEXT NOT NULL, model TEXT NOT "
                     "NULL, key_id TEXT NOT NULL, requests INTEGER NOT NULL, errors INTEGER NOT NULL, "
                     "client_errors INTEGER NOT NULL, prompt_tokens INTEGER NOT NULL, completion_tokens INTEGER "
                     "NOT NULL, duration_ms_sum INTEGER NOT NULL, ttft_ms_sum INTEGER NOT NULL, ttft_count "
                     "INTEGER NOT NULL, PRIMARY KEY (minute_ms, node, model, key_id)) WITHOUT ROWID"_s,
                     u"CREATE TABLE keys (id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '', secret_sha256 BLOB, "
                     "secret_hint TEXT NOT NULL DEFAULT '', models TEXT NOT NULL DEFAULT '[]', providers TEXT "
                     "NOT NULL DEFAULT '[]', requests_per_minute INTEGER NOT NULL DEFAULT 0, tokens_per_minute "
                     "INTEGER NOT NULL DEFAULT 0, tokens_per_day INTEGER NOT NULL DEFAULT 0, max_concurrent "
                     "INTEGER NOT NULL DEFAULT 0, created_ms INTEGER NOT NULL DEFAULT 0, expires_ms INTEGER NOT "
                     "NULL DEFAULT 0, revoked_ms INTEGER NOT NULL DEFAULT 0)"_s,
                     u"INSERT INTO keys (id, name) VALUES ('vk_00000000000000a1', 'alice')"_s,
                     u"PRAGMA user_version = 1"_s,
                 }) {
                QVERIFY2(q.exec(sql), qPrintable(q.lastError().text()));
            }
            // 5,000 rows over two hours, written out of start order as a writer did (a long stream lands
            // after shorter ones that started later), one of them failed over with its nodes tried.
            constexpr int Rows = 5000;
            QVERIFY(db.transaction());
            QVERIFY(q.prepare(u"INSERT INTO requests (started_ms, key_id, model, node, route, method, path, "
                              "status, attempts, stream, ttft_ms, duration_ms, prompt_tokens, completion_tokens, "
                              "error, tried) VALUES (?, ?, ?, 'gpu-a', 'weighted', 'POST', "
                              "'/v1/chat/completions', 200, ?, 1, 40, 900, 12, 5, '', ?)"_s));
            for (int i = 0; i < Rows; ++i) {
                const qint64 started = T0 - 2 * 3'600'000 + qint64(i ^ 1) * 1440;
                q.addBindValue(started);
                q.addBindValue(i % 2 ? u"vk_00000000000000a1"_s : u""_s);
                q.addBindValue(u"model-%1"_s.arg(i % 3));
                q.addBindValue(i == 77 ? 2 : 1);
                q.addBindValue(i == 77 ? uR"([{"node":"gpu-b","status":502,"outcome":"error_status","via":"candidate","start_ms":0,"duration_ms":30,"reason":"HTTP 502: bad gateway"},{"node":"gpu-a","status":200,"outcome":"answered","via":"candidate","start_ms":31,"duration_ms":869}])"_s
                                       : u"[]"_s);
                QVERIFY2(q.exec(), qPrintable(q.lastError().text()));
            }
            QVERIFY(db.commit());
            q.finish();
            db.close();
        }
        QSqlDatabase::removeDatabase(u"schema-1"_s);

        TestClock clock;
        auto store = openOrFail(path, {.maxAgeDays = 0, .nowMs = clock.fn()});
        QVERIFY(store);
        const auto rows = searchAll(*store, {.limit = 1000});
        QCOMPARE(rows.size(), size_t(5000));
        for (size_t i = 1; i < rows.size(); ++i) // newest first, by start
            QVERIFY(rows[i - 1].record.startedMsSinceEpoch >= rows[i].record.startedMsSinceEpoch);
        const auto failedOver = std::find_if(rows.begin(), rows.end(), [](const auto &e) {
            return e.record.attempts == 2;
        });
        QVERIFY(failedOver != rows.end());
        QCOMPARE(failedOver->record.tried.size(), 2);
        QCOMPARE(failedOver->record.tried[0].node, u"gpu-b"_s);
        QCOMPARE(failedOver->record.tried[0].outcome, Attempt::Outcome::ErrorStatus);
        QCOMPARE(failedOver->record.tried[0].reason, u"HTTP 502: bad gateway"_s);
        QCOMPARE(failedOver->record.method, QByteArray("POST"));
        QCOMPARE(failedOver->record.path, QByteArray("/v1/chat/completions"));
        QCOMPARE(searchAll(*store, {.keyId = u"vk_00000000000000a1"_s, .limit = 1000}).size(), size_t(2500));
        QCOMPARE(searchAll(*store, {.model = u"model-1"_s, .limit = 1000}).size(), size_t(1667));
        // The key is still there, and new requests go on beside the moved ones.
        const auto keys = store->loadKeys();
        QVERIFY(keys);
        QCOMPARE(keys->size(), size_t(1));
        store->append(makeRecord(T0, u"model-0"_s, u"gpu-a"_s, 200));
        store->flush();
        const auto after = searchAll(*store, {.limit = 1000});
        QCOMPARE(after.size(), size_t(5001));
        QCOMPARE(after.front().record.startedMsSinceEpoch, T0);
        // The old table is gone, and the file is whole.
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"schema-2"_s);
        db.setDatabaseName(path);
        QVERIFY(db.open());
        {
            QSqlQuery q(db);
            QVERIFY(q.exec(u"SELECT count(*) FROM sqlite_master WHERE name = 'requests'"_s) && q.next());
            QCOMPARE(q.value(0).toInt(), 0);
            QVERIFY(q.exec(u"PRAGMA integrity_check"_s) && q.next());
            QCOMPARE(q.value(0).toString(), u"ok"_s);
        }
        db.close();
        db = QSqlDatabase();
        QSqlDatabase::removeDatabase(u"schema-2"_s);
    }

    void keysSavedAreLoadedAfterReopening()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"history.db"_s);
        keys::VirtualKey ci = makeKey(u"vk_00000000000000c1"_s, u"ci-pipeline"_s);
        keys::VirtualKey alice = makeKey(u"vk_00000000000000a1"_s, u"alice — notebook"_s);
        alice.models.clear(); // every model
        alice.providers.clear();
        alice.limits = {};
        alice.expiresMs = 0;
        {
            auto store = openOrFail(path);
            QVERIFY(store);
            store->saveKey(ci);
            store->saveKey(alice);
            ci.revokedMs = T0; // revoked later: saved again, replaces the first row
            store->saveKey(ci);
            store->flush();
            QVERIFY(store->stats().lastError.isEmpty());
        }
        auto store = openOrFail(path);
        QVERIFY(store);
        const auto loaded = store->loadKeys();
        QVERIFY2(loaded, loaded ? "" : qPrintable(loaded.error()));
        QCOMPARE(loaded->size(), size_t(2));
        QVERIFY((*loaded)[0] == alice); // ordered by id
        QVERIFY((*loaded)[1] == ci);
        QVERIFY(!(*loaded)[1].isActive(T0 + 1));
    }

    void concurrentAppendsLoseNothing()
    {
        QTemporaryDir dir;
        TestClock clock;
        auto store = openOrFail(dir.filePath(u"history.db"_s), {.nowMs = clock.fn()});
        QVERIFY(store);
        constexpr int Threads = 4, PerThread = 5000;
        std::atomic<bool> writing{true};
        std::atomic<int> searches{0}, searchErrors{0};
        // A reader on a QThread of its own meanwhile (its own connection, closed when the thread ends).
        std::unique_ptr<QThread> reader(QThread::create([&] {
            do {
                if (!store->search({.limit = 50}) || !store->rollups(T0 - MsPerMinute, T0 + MsPerMinute, 1))
                    ++searchErrors;
                ++searches;
            } while (writing.load());
        }));
        reader->start();
        std::vector<std::thread> writers;
        for (int t = 0; t < Threads; ++t) {
            writers.emplace_back([&, t] {
                for (int i = 0; i < PerThread; ++i)
                    store->append(makeRecord(T0 - 30'000 + i, u"m"_s, u"gpu-%1"_s.arg(t), 200));
            });
        }
        // And one that read and is still running when the store goes: the store closes its connection.
        std::mutex m;
        std::condition_variable cv;
        bool lingererRead = false, storeGone = false;
        std::thread lingerer([&] {
            const bool ok = bool(store->search({.limit = 1}));
            std::unique_lock lock(m);
            lingererRead = true;
            if (!ok)
                ++searchErrors;
            cv.notify_all();
            cv.wait(lock, [&] { return storeGone; });
        });
        for (auto &w : writers)
            w.join();
        store->flush();
        writing = false;
        QVERIFY(reader->wait(30'000));
        QCOMPARE(searchErrors.load(), 0);
        QVERIFY(searches.load() > 0);
        const auto s = store->stats();
        QCOMPARE(s.written, quint64(Threads * PerThread));
        QCOMPARE(s.dropped, 0u);
        QCOMPARE(s.failed, 0u);
        const auto sums = store->rollups(T0 - MsPerMinute, T0 + MsPerMinute, 2);
        QVERIFY(sums);
        QCOMPARE(sums->front().requests, Threads * PerThread);
        for (int t = 0; t < Threads; ++t) {
            const auto perNode = store->rollups(T0 - MsPerMinute, T0 + MsPerMinute, 2, u"gpu-%1"_s.arg(t));
            QVERIFY(perNode);
            QCOMPARE(perNode->front().requests, PerThread);
        }
        {
            std::unique_lock lock(m);
            cv.wait(lock, [&] { return lingererRead; });
        }
        store.reset();
        {
            std::unique_lock lock(m);
            storeGone = true;
            cv.notify_all();
        }
        lingerer.join();
        QCOMPARE(searchErrors.load(), 0);
    }
};

QTEST_GUILESS_MAIN(TestHistoryStore)
#include "tst_historystore.moc"
