#include "prefixindex.h"

#include "common/clock.h"
#include "routing/stablehash.h"

#include <algorithm>

namespace switchyard::routing {

PrefixIndex::PrefixIndex(Limits limits, NowFn now)
    : m_now(std::move(now)), m_maxEntries(std::max<qint64>(Shards, limits.maxEntries)),
      m_maxAgeMs(std::max<qint64>(1, limits.maxAgeMs))
{
    setLimits(limits);
}

qint64 PrefixIndex::now() const
{
    return m_now ? m_now() : Clock::nowMs();
}

void PrefixIndex::setLimits(Limits limits)
{
    m_maxEntries.store(std::max<qint64>(Shards, limits.maxEntries));
    m_maxAgeMs.store(std::max<qint64>(1, limits.maxAgeMs));
    const qint64 perShard = m_maxEntries.load() / Shards;
    const qint64 t = now();
    for (Shard &s : m_shards) {
        std::lock_guard lock(s.mutex);
        s.capacity = perShard;
        evict(s, t, m_maxAgeMs.load());
        // The map's buckets for the whole bound up front: no rehash (a pause under the lock) as it fills.
        s.where.reserve(size_t(perShard));
    }
}

PrefixIndex::Limits PrefixIndex::limits() const
{
    return {m_maxEntries.load(), m_maxAgeMs.load()};
}

PromptKey PrefixIndex::keyFor(QByteArrayView model, QByteArrayView prompt)
{
    PromptKey k;
    const qsizetype indexed = std::min<qsizetype>(prompt.size(), qsizetype(MaxBlocks) * BlockBytes);
    const qsizetype blocks = (indexed + BlockBytes - 1) / BlockBytes;
    k.chain.reserve(size_t(blocks));
    k.ends.reserve(size_t(blocks));
    quint64 h = stableHash64(model, 0x5357594152444931ULL); // "SWYARDI1": a version of the scheme
    for (qsizetype begin = 0; begin < indexed; begin += BlockBytes) {
        const qsizetype n = std::min<qsizetype>(BlockBytes, indexed - begin);
        h = combineHashes(h, stableHash64(prompt.sliced(begin, n)));
        k.chain.push_back(h);
        k.ends.push_back(qint32(begin + n));
    }
    k.indexedBytes = indexed;
    return k;
}

quint64 PrefixIndex::entryKey(quint64 chain, quint64 nodeHash)
{
    return combineHashes(chain, nodeHash);
}

bool PrefixIndex::contains(quint64 key, qint64 t, qint64 maxAge) const
{
    const Shard &s = m_shards[size_t(shardOf(key))];
    std::lock_guard lock(s.mutex);
    const auto it = s.where.find(key);
    return it != s.where.end() && t - s.cells[size_t(it->second)].seenMs <= maxAge;
}

qint64 PrefixIndex::matchedBytes(const PromptKey &key, quint64 nodeHash) const
{
    if (key.isEmpty())
        return 0;
    const qint64 t = now();
    const qint64 maxAge = m_maxAgeMs.load(std::memory_order_relaxed);
    // Binary search for the number of leading blocks the node has: the blocks are (nearly) prefix-closed.
    qsizetype lo = 0, hi = qsizetype(key.chain.size());
    if (!contains(entryKey(key.chain[0], nodeHash), t, maxAge))
        return 0;
    lo = 1;
    while (lo < hi) {
        const qsizetype mid = (lo + hi + 1) / 2;
        if (contains(entryKey(key.chain[size_t(mid - 1)], nodeHash), t, maxAge))
            lo = mid;
        else
            hi = mid - 1;
    }
    return key.ends[size_t(lo - 1)];
}

void PrefixIndex::record(const PromptKey &key, quint64 nodeHash)
{
    if (key.isEmpty())
        return;
    const qint64 t = now();
    const qint64 maxAge = m_maxAgeMs.load(std::memory_order_relaxed);
    std::vector<quint64> keys(key.chain.size());
    for (size_t i = 0; i < keys.size(); ++i)
        keys[i] = entryKey(key.chain[i], nodeHash);
    // One lock per shard; within it, last block first, so the prompt's first block ends most recent.
    for (int sh = 0; sh < Shards; ++sh) {
        Shard &s = m_shards[size_t(sh)];
        bool locked = false;
        for (size_t i = keys.size(); i-- > 0;) {
            if (shardOf(keys[i]) != sh)
                continue;
            if (!locked) {
                s.mutex.lock();
                locked = true;
            }
            touch(s, keys[i], t);
        }
        if (locked) {
            evict(s, t, maxAge);
            s.mutex.unlock();
        }
    }
}

void PrefixIndex::unlink(Shard &s, qint32 i)
{
    Slot &slot = s.cells[size_t(i)];
    if (slot.prev >= 0)
        s.cells[size_t(slot.prev)].next = slot.next;
    else
        s.head = slot.next;
    if (slot.next >= 0)
        s.cells[size_t(slot.next)].prev = slot.prev;
    else
        s.tail = slot.prev;
    slot.prev = slot.next = -1;
}

void PrefixIndex::pushFront(Shard &s, qint32 i)
{
    Slot &slot = s.cells[size_t(i)];
    slot.prev = -1;
    slot.next = s.head;
    if (s.head >= 0)
        s.cells[size_t(s.head)].prev = i;
    s.head = i;
    if (s.tail < 0)
        s.tail = i;
}

void PrefixIndex::touch(Shard &s, quint64 key, qint64 t)
{
    const auto it = s.where.find(key);
    if (it != s.where.end()) {
        s.cells[size_t(it->second)].seenMs = t;
        unlink(s, it->second);
        pushFront(s, it->second);
        return;
    }
    if (qint64(s.where.size()) >= s.capacity && s.tail >= 0) {
        // Full: the least recent entry makes room.
        const qint32 old = s.tail;
        unlink(s, old);
        s.where.erase(s.cells[size_t(old)].key);
        s.freeCells.push_back(old);
    }
    qint32 i;
    if (!s.freeCells.empty()) {
        i = s.freeCells.back();
        s.freeCells.pop_back();
    } else {
        i = qint32(s.cells.size());
        s.cells.push_back({});
    }
    s.cells[size_t(i)].key = key;
    s.cells[size_t(i)].seenMs = t;
    s.where.emplace(key, i);
    pushFront(s, i);
}

void PrefixIndex::evict(Shard &s, qint64 t, qint64 maxAge)
{
    while (s.tail >= 0 &&
           (qint64(s.where.size()) > s.capacity || t - s.cells[size_t(s.tail)].seenMs > maxAge)) {
        const qint32 old = s.tail;
        unlink(s, old);
        s.where.erase(s.cells[size_t(old)].key);
        s.freeCells.push_back(old);
    }
    // A lowered bound gives the cells' memory back, not only the entries.
    if (s.where.empty() && !s.cells.empty()) {
        s.cells = {};
        s.freeCells = {};
    } else if (qint64(s.cells.size()) > 2 * std::max<qint64>(1, s.capacity)) {
        std::vector<Slot> kept;
        kept.reserve(s.where.size());
        for (qint32 i = s.head; i >= 0; i = s.cells[size_t(i)].next)
            kept.push_back(s.cells[size_t(i)]);
        s.cells = std::move(kept);
        s.freeCells.clear();
        s.where.clear();
        for (qint32 i = 0; i < qint32(s.cells.size()); ++i) {
            s.cells[size_t(i)].prev = i - 1;
            s.cells[size_t(i)].next = i + 1 < qint32(s.cells.size()) ? i + 1 : -1;
            s.where.emplace(s.cells[size_t(i)].key, i);
        }
        s.head = s.cells.empty() ? -1 : 0;
        s.tail = qint32(s.cells.size()) - 1;
    }
}

qint64 PrefixIndex::entries() const
{
    qint64 n = 0;
    for (const Shard &s : m_shards) {
        std::lock_guard lock(s.mutex);
        n += qint64(s.where.size());
    }
    return n;
}

qint64 PrefixIndex::approximateBytes() const
{
    // A map node holds the pair and a next pointer (libstdc++ does not cache integer hashes); the
    // allocator rounds it to 32 bytes. Plus the buckets and the cells' vector.
    qint64 bytes = 0;
    for (const Shard &s : m_shards) {
        std::lock_guard lock(s.mutex);
        bytes += qint64(s.where.size()) * 32 + qint64(s.where.bucket_count()) * qint64(sizeof(void *)) +
                 qint64(s.cells.capacity() * sizeof(Slot)) + qint64(s.freeCells.capacity() * sizeof(qint32));
    }
    return bytes;
}

} // namespace switchyard::routing
