// cache_aware's index of the prompts each node has seen (routing/prefixindex): the longest prefix a
// node has, per model and per node, its bound under a stream of distinct prompts (measured with the
// allocator's own numbers), and eviction by age on an injected clock.

#include "routing/prefixindex.h"
#include "routing/stablehash.h"

#include <QTest>

#include <malloc.h>

using namespace switchyard::routing;

namespace {
const quint64 NodeA = stableHash64("a");
const quint64 NodeB = stableHash64("b");

// A chat body's `messages` value as a client sends it turn after turn: the history grows at the end.
QByteArray conversation(int id, int turns, int bytesPerTurn = 300)
{
    QByteArray m = R"([{"role":"system","content":"You are a helpful assistant of conversation )" +
                   QByteArray::number(id) + R"(."})";
    for (int t = 0; t < turns; ++t) {
        m += R"(,{"role":"user","content":")" + QByteArray(bytesPerTurn, char('a' + (t + id) % 26)) + R"("})";
    }
    return m + "]";
}

qint64 heapInUse()
{
    return qint64(mallinfo2().uordblks);
}
} // namespace

class TestPrefixIndex final : public QObject
{
    Q_OBJECT

private slots:
    void keysChainEveryBlockAfterThePrefixBeforeIt()
    {
        const PromptKey k = PrefixIndex::keyFor("m1", QByteArray(200, 'x'));
        QCOMPARE(k.chain.size(), size_t(4)); // 64 + 64 + 64 + 8
        QCOMPARE(k.ends.back(), 200);
        QCOMPARE(k.indexedBytes, 200);
        // Equal blocks at different depths hash differently: a block stands for its whole prefix.
        QVERIFY(k.chain[0] != k.chain[1]);
        // Another model is another chain.
        QVERIFY(PrefixIndex::keyFor("m2", QByteArray(200, 'x')).chain[0] != k.chain[0]);
        // A long prompt is indexed up to MaxBlocks.
        const PromptKey big = PrefixIndex::keyFor("m1", QByteArray(PrefixIndex::MaxBlocks * 64 + 1000, 'y'));
        QCOMPARE(qsizetype(big.chain.size()), qsizetype(PrefixIndex::MaxBlocks));
    }

    void findsTheLongestPrefixEachNodeHasSeen()
    {
        PrefixIndex index;
        const QByteArray turn3 = conversation(1, 3);
        const QByteArray turn5 = conversation(1, 5);
        const PromptKey k3 = PrefixIndex::keyFor("m1", turn3);
        const PromptKey k5 = PrefixIndex::keyFor("m1", turn5);
        QCOMPARE(index.matchedBytes(k5, NodeA), 0);
        index.record(k3, NodeA);
        // a saw turn 3: its whole blocks match turn 5 (turn 3's last partial block ended with "]").
        const qint64 matched = index.matchedBytes(k5, NodeA);
        QVERIFY2(matched >= turn3.size() - 64 && matched < turn3.size(),
                 qPrintable(QString::number(matched)));
        QCOMPARE(matched % 64, 0);
        QCOMPARE(index.matchedBytes(k3, NodeA), turn3.size()); // the very same prompt: all of it
        QCOMPARE(index.matchedBytes(k5, NodeB), 0);            // b saw nothing
        QCOMPARE(index.matchedBytes(PrefixIndex::keyFor("m2", turn5), NodeA), 0); // per model
        // Another conversation shares only what is the same from the first byte on.
        const qint64 other = index.matchedBytes(PrefixIndex::keyFor("m1", conversation(2, 5)), NodeA);
        QVERIFY(other < 128);
        index.record(k5, NodeB);
        QCOMPARE(index.matchedBytes(k5, NodeB), turn5.size());
        QCOMPARE(index.matchedBytes(k5, NodeA), matched); // a's entries are its own
    }

    void staysWithinItsBoundUnderDistinctPrompts()
    {
        // 16 shards × 1000 entries. Fill it once, measure; then push ten times as many distinct prompts
        // through it: the entries stay at the bound and so does the memory they take.
        PrefixIndex index({16000, 3600000});
        qint64 base = heapInUse();
        int n = 0;
        auto push = [&](int count) {
            for (int i = 0; i < count; ++i, ++n)
                index.record(PrefixIndex::keyFor("m1", conversation(n, 4, 200)), n % 2 ? NodeA : NodeB);
        };
        push(1000); // ~14 blocks each: more than the bound already
        QVERIFY(index.entries() <= 16000);
        QVERIFY(index.entries() > 15000);
        const qint64 full = heapInUse() - base;
        push(10000);
        QVERIFY(index.entries() <= 16000);
        const qint64 after = heapInUse() - base;
        qInfo("index of %lld entries: %lld bytes allocated when first full, %lld after 10x as many prompts "
              "(%.1f bytes/entry; its own estimate %lld)",
              index.entries(), full, after, double(after) / double(index.entries()),
              index.approximateBytes());
        QVERIFY2(after <= full + full / 10, "the index grew past its bound");
        QVERIFY(after < 16000 * 128); // well under 128 bytes per entry
#if !defined(__SANITIZE_ADDRESS__)
        // Its own estimate is near what the allocator counts (under ASan the count includes redzones).
        QVERIFY(index.approximateBytes() >= after / 2 && index.approximateBytes() <= after * 2);
#endif
        // A lower bound from a config change evicts at once.
        index.setLimits({1600, 3600000});
        QVERIFY(index.entries() <= 1600);
    }

    void theLeastRecentPromptGoesFirst()
    {
        PrefixIndex index({16 * 20, 3600000});
        const PromptKey old = PrefixIndex::keyFor("m1", conversation(1, 3));
        const PromptKey hot = PrefixIndex::keyFor("m1", conversation(2, 3));
        index.record(old, NodeA);
        index.record(hot, NodeA);
        for (int i = 0; i < 200; ++i) {
            index.record(hot, NodeA); // kept warm
            index.record(PrefixIndex::keyFor("m1", conversation(100 + i, 1, 40)), NodeB);
        }
        QCOMPARE(index.matchedBytes(hot, NodeA), hot.indexedBytes);
        QVERIFY(index.matchedBytes(old, NodeA) < old.indexedBytes);
    }

    void forgetsWhatItHasNotSeenForMaxAge()
    {
        qint64 now = 1000000;
        PrefixIndex index({200000, 60000}, [&now] { return now; });
        const PromptKey k = PrefixIndex::keyFor("m1", conversation(1, 3));
        index.record(k, NodeA);
        now += 59000;
        QCOMPARE(index.matchedBytes(k, NodeA), k.indexedBytes);
        index.record(k, NodeA); // seen again: its age starts over
        now += 59000;
        QCOMPARE(index.matchedBytes(k, NodeA), k.indexedBytes);
        now += 2000;
        QCOMPARE(index.matchedBytes(k, NodeA), 0); // older than a minute: as good as gone
        // …and gone for real at the next record into its shards.
        index.record(PrefixIndex::keyFor("m1", QByteArray(64 * 64, 'q')), NodeB);
        QVERIFY(index.entries() <= 64);
    }
};

QTEST_GUILESS_MAIN(TestPrefixIndex)
#include "tst_prefixindex.moc"
