#pragma once

// cache_aware's memory of which prompts each node has recently seen: an approximation of the nodes'
// prefix caches (vLLM's automatic prefix caching), so a request can go where most of its prompt is
// already computed. The prompt — the raw bytes of the body's `messages`, `prompt` or `input` value — is
// cut into blocks of BlockBytes; each block's hash covers every byte before it (a chain, as vLLM hashes
// its KV blocks), so a block matches only when the whole prefix up to it does. One entry per
// (model, block chain, node): the model seeds the chain, the node's name hash is mixed into the key.
//
// Bounded: at most maxEntries entries (LRU eviction) and none older than maxAgeMs (a node restarted or
// its cache turned over since). A prompt's blocks are touched last-to-first, so its first block is the
// most recent and eviction takes the deepest blocks first — the set of a node's blocks stays closed
// under prefixes (nearly: shards evict independently), which lets a lookup binary-search the longest
// match instead of walking every block.
//
// Shared by every worker thread of a gateway (so all of them learn from each answer) and kept across
// config changes (keys name nodes by name, so a node that stays keeps its entries; one that leaves ages
// out). Sixteen shards, each its own mutex, LRU list and hash map: a lookup takes a shard's lock once
// per probed block, a record once per shard; the cost is measured in bench/micro (docs/ROUTING.md).

#include <QByteArrayView>
#include <QtGlobal>

#include <array>
#include <atomic>
#include <functional>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace switchyard::routing {

// A prompt as the index sees it: the chained hash of each block and where each block ends.
struct PromptKey
{
    std::vector<quint64> chain; // chain[i] covers bytes [0, ends[i])
    std::vector<qint32> ends;
    qint64 indexedBytes = 0; // = ends.back(); the prompt's bytes past MaxBlocks are not indexed
    bool isEmpty() const { return chain.empty(); }
};

struct PrefixIndexLimits
{
    qint64 maxEntries = 200000;
    qint64 maxAgeMs = 600000;
};

class PrefixIndex final
{
    Q_DISABLE_COPY_MOVE(PrefixIndex)

public:
    static constexpr int BlockBytes = 64;  // ≈ 16 tokens of English text, vLLM's block size
    static constexpr int MaxBlocks = 4096; // 256 KiB of prompt indexed at most
    static constexpr int Shards = 16;

    using Limits = PrefixIndexLimits;

    using NowFn = std::function<qint64()>;
    // now: the clock entries are aged by (the gateway's Clock::nowMs() when empty; tests inject theirs).
    explicit PrefixIndex(Limits limits = {}, NowFn now = {});

    // Applied by a config change; a smaller bound evicts at once.
    void setLimits(Limits limits);
    Limits limits() const;

    static PromptKey keyFor(QByteArrayView model, QByteArrayView prompt);

    // How many bytes of the prompt's prefix the node has seen (a whole number of blocks).
    qint64 matchedBytes(const PromptKey &key, quint64 nodeHash) const;
    // The node served this prompt: remember every block of it for the node.
    void record(const PromptKey &key, quint64 nodeHash);

    qint64 entries() const;
    // The memory the entries take, as the containers allocate it (measured in tst_prefixindex).
    qint64 approximateBytes() const;

private:
    struct Slot
    {
        quint64 key = 0;
        qint64 seenMs = 0;
        qint32 prev = -1; // towards the most recent
        qint32 next = -1; // towards the least recent
    };
    struct Shard
    {
        mutable std::mutex mutex;
        std::unordered_map<quint64, qint32> where;
        std::vector<Slot> cells;
        std::vector<qint32> freeCells;
        qint32 head = -1; // most recent
        qint32 tail = -1; // least recent
        qint64 capacity = 0;
    };
    static int shardOf(quint64 key) { return int(key >> 60); }
    static quint64 entryKey(quint64 chain, quint64 nodeHash);
    bool contains(quint64 key, qint64 now, qint64 maxAge) const;
    void touch(Shard &s, quint64 key, qint64 now);
    void unlink(Shard &s, qint32 i);
    void pushFront(Shard &s, qint32 i);
    void evict(Shard &s, qint64 now, qint64 maxAge);
    qint64 now() const;

    NowFn m_now;
    std::atomic<qint64> m_maxEntries;
    std::atomic<qint64> m_maxAgeMs;
    std::array<Shard, Shards> m_shards;
};

} // namespace switchyard::routing
