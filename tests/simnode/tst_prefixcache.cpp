// The simulated node's prefix cache, pure: chained block hashes, the stand-in tokenizer, hits on shared
// prefixes, LRU eviction within the capacity, held blocks never evicted, and the timing model prefilling
// only the uncached part (checked exactly on a manual clock).
#include "simnode/performancemodel.h"
#include "simnode/prefixcache.h"
#include "simnode/simprotocol.h"

#include <QTest>

using namespace switchyard::sim;

namespace {

constexpr qint64 Ms = 1'000'000;

std::vector<TokenId> tokens(int n, TokenId first = 1)
{
    std::vector<TokenId> t;
    for (int i = 0; i < n; ++i)
        t.push_back(first + TokenId(i));
    return t;
}

// Prompt of n tokens, distinct from every other seed's.
std::vector<BlockHash> prompt(int n, TokenId seed)
{
    return chainedBlockHashes(tokens(n, seed * 1'000'000));
}

} // namespace

class TestPrefixCache final : public QObject
{
    Q_OBJECT

private slots:
    void chainedHashesCoverEverythingBefore()
    {
        const std::vector<TokenId> a = tokens(40);
        const std::vector<BlockHash> ha = chainedBlockHashes(a);
        QCOMPARE(ha.size(), std::size_t(2)); // only full blocks: 40 tokens = 2 blocks + 8
        QCOMPARE(chainedBlockHashes(a), ha); // deterministic
        QVERIFY(ha[0] != ha[1]);

        // A change in block 1 leaves block 0 alone.
        std::vector<TokenId> b = a;
        b[20] = 999;
        const std::vector<BlockHash> hb = chainedBlockHashes(b);
        QCOMPARE(hb[0], ha[0]);
        QVERIFY(hb[1] != ha[1]);

        // A change in block 0 changes block 1 too, though block 1's own tokens are the same.
        std::vector<TokenId> c = a;
        c[0] = 999;
        const std::vector<BlockHash> hc = chainedBlockHashes(c);
        QVERIFY(hc[0] != ha[0]);
        QVERIFY(hc[1] != ha[1]);

        // The same 16 tokens at the start of a prompt hash differently from those after a first block.
        const std::vector<TokenId> second(a.begin() + 16, a.begin() + 32);
        QVERIFY(chainedBlockHashes(second)[0] != ha[1]);
    }

    void tokenizerYieldsTheReportedCount_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("prose") << QByteArray("The quick brown fox jumps over the lazy dog, again and again.");
        QTest::newRow("short words") << QByteArray("a b c d e f g h i j");
        QTest::newRow("one long word") << QByteArray(std::string(333, 'x').c_str());
        QTest::newRow("utf-8") << QByteArray("Grüße aus Köln, 你好世界, ça va très bien");
        QTest::newRow("whitespace") << QByteArray("   \n\t ");
        QTest::newRow("one char") << QByteArray("x");
    }

    void tokenizerYieldsTheReportedCount()
    {
        QFETCH(QByteArray, text);
        PromptTokenizer t;
        t.addText(text.toStdString());
        QCOMPARE(t.tokens(), estimateTokens(text.toStdString()));
    }

    void sharedTextSharesLeadingBlocks()
    {
        const std::string system(2000, 'S');
        PromptTokenizer a;
        a.addText(system + " first question");
        PromptTokenizer b;
        b.addText(system + " second, longer question of the user");
        const std::vector<BlockHash> ha = a.takeBlocks();
        const std::vector<BlockHash> hb = b.takeBlocks();
        QVERIFY(ha.size() >= 31);
        // 2000 characters = 500 tokens = 31 full blocks in common.
        for (int i = 0; i < 31; ++i)
            QCOMPARE(hb[std::size_t(i)], ha[std::size_t(i)]);
    }

    void chatPromptsOfOneConversationShareTheirHistory()
    {
        const std::string system(1600, 's');
        auto body = [&](int turns) {
            nlohmann::json messages = nlohmann::json::array({{{"role", "system"}, {"content", system}}});
            for (int i = 0; i < turns; ++i) {
                messages.push_back({{"role", "user"}, {"content", "question " + std::to_string(i)}});
                messages.push_back(
                    {{"role", "assistant"}, {"content", "answer number " + std::to_string(i)}});
            }
            messages.push_back({{"role", "user"}, {"content", "and now?"}});
            return QByteArray::fromStdString(nlohmann::json{{"messages", messages}}.dump());
        };
        const auto one =
            parseGenerationRequest(Endpoint::ChatCompletions, body(1), {QStringLiteral("m")}, 32768);
        const auto two =
            parseGenerationRequest(Endpoint::ChatCompletions, body(2), {QStringLiteral("m")}, 32768);
        QVERIFY(one && two);
        QCOMPARE(int(one->promptBlocks().size()), one->promptTokens / PrefixBlockTokens);
        // Everything before the first turn's last user message is shared: the system prompt and turn 1.
        const std::size_t shared = (4 + 400 + 4 + 2) / PrefixBlockTokens;
        for (std::size_t i = 0; i < shared; ++i)
            QCOMPARE(two->promptBlocks()[i], one->promptBlocks()[i]);
    }

    void promptAndAnswerBeginTheNextTurn()
    {
        // The node caches a finished chat's prompt + answer + end token: exactly how the next turn's
        // prompt begins, as a ChatML-like template renders it.
        auto body = [](bool answered) {
            nlohmann::json m = nlohmann::json::array({{{"role", "system"}, {"content", std::string(800, 's')}},
                                                      {{"role", "user"}, {"content", "first question here"}}});
            if (answered) {
                m.push_back({{"role", "assistant"}, {"content", "The answer is forty-two, as always."}});
                m.push_back({{"role", "user"}, {"content", "and the next one?"}});
            }
            return QByteArray::fromStdString(nlohmann::json{{"messages", m}}.dump());
        };
        auto first = parseGenerationRequest(Endpoint::ChatCompletions, body(false), {QStringLiteral("m")}, 32768);
        const auto next = parseGenerationRequest(Endpoint::ChatCompletions, body(true), {QStringLiteral("m")}, 32768);
        QVERIFY(first && next);
        first->tokenizer.addText("The answer is forty-two, as always.");
        first->tokenizer.addMessageEnd();
        const std::vector<BlockHash> &continued = first->tokenizer.blocks();
        QVERIFY(continued.size() > first->promptTokens / std::size_t(PrefixBlockTokens));
        for (std::size_t i = 0; i < continued.size(); ++i)
            QCOMPARE(next->promptBlocks()[i], continued[i]);
    }

    void sharedPrefixHits()
    {
        PrefixCache cache(100);
        const std::vector<BlockHash> a = prompt(64, 1);
        PrefixCache::Acquired first = cache.acquire(a, 64);
        QCOMPARE(first.cachedTokens, 0);
        QCOMPARE(first.heldBlocks, 4);
        cache.release(a, first.heldBlocks);

        // The same prompt again: every block but the one holding the last token.
        const PrefixCache::Acquired again = cache.acquire(a, 64);
        QCOMPARE(again.cachedTokens, 48);
        cache.release(a, again.heldBlocks);

        // The prompt extended: all four blocks hit.
        std::vector<TokenId> longer = tokens(64, 1'000'000);
        for (TokenId t : tokens(40, 77))
            longer.push_back(t);
        const std::vector<BlockHash> b = chainedBlockHashes(longer);
        const PrefixCache::Acquired extended = cache.acquire(b, 104);
        QCOMPARE(extended.cachedTokens, 64);
        QCOMPARE(extended.heldBlocks, 6);
        QCOMPARE(cache.queriedTokens(), 64 + 64 + 104);
        QCOMPARE(cache.hitTokens(), 48 + 64);

        // Unrecorded (a preempted sequence's second admission) holds but does not count.
        cache.release(b, extended.heldBlocks);
        QCOMPARE(cache.acquire(b, 104, false).cachedTokens, 96);
        QCOMPARE(cache.queriedTokens(), 64 + 64 + 104);
    }

    void lruEvictionWithinCapacity()
    {
        PrefixCache cache(4);
        const std::vector<BlockHash> p1 = prompt(32, 1), p2 = prompt(32, 2), p3 = prompt(32, 3);
        for (const auto *p : {&p1, &p2, &p3}) {
            const PrefixCache::Acquired a = cache.acquire(*p, 33);
            QCOMPARE(a.heldBlocks, 2);
            cache.release(*p, a.heldBlocks);
            QVERIFY(cache.cachedBlocks() <= cache.capacityBlocks());
        }
        // The least recently used prompt went.
        QVERIFY(!cache.contains(p1[0]) && !cache.contains(p1[1]));
        QVERIFY(cache.contains(p2[0]) && cache.contains(p3[1]));

        // A hit refreshes: p2 used again, so p3 is the one evicted next.
        cache.release(p2, cache.acquire(p2, 33).heldBlocks);
        const std::vector<BlockHash> p4 = prompt(32, 4);
        cache.release(p4, cache.acquire(p4, 33).heldBlocks);
        QVERIFY(cache.contains(p2[0]) && cache.contains(p4[0]));
        QVERIFY(!cache.contains(p3[0]));
    }

    void tailIsEvictedBeforeTheSharedHead()
    {
        PrefixCache cache(3);
        const std::vector<BlockHash> p = prompt(48, 1);
        cache.release(p, cache.acquire(p, 49).heldBlocks);
        const std::vector<BlockHash> q = prompt(16, 2);
        cache.release(q, cache.acquire(q, 17).heldBlocks);
        QVERIFY(cache.contains(p[0]) && cache.contains(p[1]));
        QVERIFY(!cache.contains(p[2]));
    }

    void heldBlocksAreNeverEvicted()
    {
        PrefixCache cache(4);
        const std::vector<BlockHash> running = prompt(64, 1);
        const PrefixCache::Acquired held = cache.acquire(running, 65);
        QCOMPARE(held.heldBlocks, 4);
        QCOMPARE(cache.heldBlocks(), 4);

        // No room: the newcomer is computed but not cached, and the running prompt stays whole.
        const std::vector<BlockHash> other = prompt(64, 2);
        const PrefixCache::Acquired none = cache.acquire(other, 65);
        QCOMPARE(none.heldBlocks, 0);
        QCOMPARE(none.cachedTokens, 0);
        for (BlockHash h : running)
            QVERIFY(cache.contains(h));
        cache.release(other, none.heldBlocks);
        QCOMPARE(cache.heldBlocks(), 4);

        // Released, they become evictable.
        cache.release(running, held.heldBlocks);
        QCOMPARE(cache.heldBlocks(), 0);
        QCOMPARE(cache.acquire(other, 65).heldBlocks, 4);
        QVERIFY(!cache.contains(running[0]));
        QCOMPARE(cache.cachedBlocks(), 4);
    }

    void modelPrefillsOnlyTheUncachedPart()
    {
        qint64 now = 1'000 * Ms;
        PerformanceParams p;
        p.ttftBaseMs = 10;
        p.prefillTokensPerSecond = 1000;
        p.tokensPerSecond = 1000;
        PerformanceModel m(p, [&] { return now; });
        QVERIFY(m.prefixCache());
        QCOMPARE(m.prefixCache()->capacityBlocks(), p.kvCacheTokens / PrefixBlockTokens);

        auto ttftOf = [&](int promptTokens, std::vector<BlockHash> blocks, int *cached) {
            const qint64 start = now;
            m.submit(promptTokens, 1, FinishReason::Length, std::move(blocks));
            for (int i = 0; i < 10'000; ++i) {
                now += Ms;
                for (const SequenceEvent &e : m.advance()) {
                    if (e.admitted)
                        *cached = e.cachedTokens;
                    if (e.firstToken)
                        return (now - start) / Ms;
                }
            }
            return qint64(-1);
        };
        int cached = -1;
        // 1000 tokens uncached: 10 ms + 1000 ms.
        QCOMPARE(ttftOf(1000, prompt(1000, 1), &cached), 1010);
        QCOMPARE(cached, 0);
        // Again: 992 tokens cached (62 blocks; the last token is recomputed), 8 prefilled: 10 + 8 ms.
        QCOMPARE(ttftOf(1000, prompt(1000, 1), &cached), 18);
        QCOMPARE(cached, 992);
        QCOMPARE(m.prefixCache()->hitTokens(), 992);
        QCOMPARE(m.prefixCache()->queriedTokens(), 2000);
        QCOMPARE(m.prefixCache()->heldBlocks(), 0); // finished sequences hold nothing

        // Prefix caching off: no cache, full prefill every time.
        p.prefixCaching = false;
        PerformanceModel off(p, [&] { return now; });
        QVERIFY(!off.prefixCache());
    }
};

QTEST_GUILESS_MAIN(TestPrefixCache)
#include "tst_prefixcache.moc"
