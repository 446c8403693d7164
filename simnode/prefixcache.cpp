#include "prefixcache.h"

#include "textgenerator.h"

#include <algorithm>

namespace switchyard::sim {

namespace {

// One splitmix64 round over the combination: a well-mixed 64-bit hash step.
quint64 mix(quint64 a, quint64 b)
{
    return Rng(a ^ (b + 0x9e3779b97f4a7c15ULL + (a << 6) + (a >> 2))).next();
}

bool isSpace(char c)
{
    return c == ' ' || c == '\n' || c == '\t' || c == '\r';
}

bool startsCodePoint(char c)
{
    return (static_cast<unsigned char>(c) & 0xc0) != 0x80;
}

} // namespace

void BlockHasher::add(TokenId token)
{
    m_running = mix(m_running, token);
    ++m_tokens;
    if (++m_inBlock == PrefixBlockTokens) {
        // The running hash started from the parent's hash, so it covers every token before this block.
        m_blocks.push_back(m_running);
        m_parent = m_running;
        m_inBlock = 0;
    }
}

std::vector<BlockHash> chainedBlockHashes(const std::vector<TokenId> &tokens)
{
    BlockHasher h;
    for (TokenId t : tokens)
        h.add(t);
    return h.takeBlocks();
}

void PromptTokenizer::addText(std::string_view text)
{
    // The same counts as estimateTokens(): code points and whitespace-separated words.
    int chars = 0;
    int words = 0;
    bool inWord = false;
    for (char c : text) {
        if (startsCodePoint(c))
            ++chars;
        if (!isSpace(c) && !inWord)
            ++words;
        inWord = !isSpace(c);
    }
    if (chars == 0)
        return;
    const int slices = (chars + 3) / 4;
    if (words >= slices) {
        // One token per word (the word's bytes).
        std::size_t i = 0;
        while (i < text.size()) {
            while (i < text.size() && isSpace(text[i]))
                ++i;
            const std::size_t start = i;
            while (i < text.size() && !isSpace(text[i]))
                ++i;
            if (i > start)
                m_hasher.add(fnv1a64(QByteArrayView(text.data() + start, qsizetype(i - start))));
        }
        return;
    }
    // One token per 4 code points, counted from the text's start.
    std::size_t start = 0;
    int inSlice = 0;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        const bool boundary = i == text.size() || startsCodePoint(text[i]);
        if (boundary && inSlice == 4) {
            m_hasher.add(fnv1a64(QByteArrayView(text.data() + start, qsizetype(i - start))));
            start = i;
            inSlice = 0;
        }
        if (i < text.size() && startsCodePoint(text[i]))
            ++inSlice;
    }
    if (inSlice > 0)
        m_hasher.add(fnv1a64(QByteArrayView(text.data() + start, qsizetype(text.size() - start))));
}

void PromptTokenizer::addMarkers(std::string_view tag, int n)
{
    const quint64 base = fnv1a64(QByteArrayView(tag.data(), qsizetype(tag.size())), 0x7a6e11ULL);
    for (int i = 0; i < n; ++i)
        m_hasher.add(mix(base, quint64(i)));
}

void PromptTokenizer::addChatMessage(std::string_view role, std::string_view content)
{
    addMarkers(role, 3);
    addText(content);
    addMessageEnd();
}

void PromptTokenizer::addTokenId(qint64 id)
{
    m_hasher.add(mix(0x1d5ULL, quint64(id)));
}

PrefixCache::PrefixCache(qint64 capacityBlocks) : m_capacity(std::max<qint64>(capacityBlocks, 0)) {}

void PrefixCache::hold(Block &block)
{
    if (block.refs++ == 0)
        m_free.erase(block.freeAt);
}

bool PrefixCache::insertHeld(BlockHash hash)
{
    if (qint64(m_blocks.size()) >= m_capacity) {
        if (m_free.empty())
            return false; // every cached block is in use by a running sequence
        m_blocks.erase(m_free.front());
        m_free.pop_front();
    }
    m_blocks.emplace(hash, Block{1, {}});
    return true;
}

PrefixCache::Acquired PrefixCache::acquire(const std::vector<BlockHash> &blocks, int promptTokens,
                                           bool record)
{
    Acquired a;
    // The last prompt token is always recomputed, so at most (promptTokens − 1) / 16 blocks can hit.
    const std::size_t hittable =
        std::min(blocks.size(), std::size_t(std::max(promptTokens - 1, 0) / PrefixBlockTokens));
    std::size_t i = 0;
    for (; i < hittable; ++i) {
        const auto it = m_blocks.find(blocks[i]);
        if (it == m_blocks.end())
            break;
        hold(it->second);
    }
    a.cachedTokens = int(i) * PrefixBlockTokens;
    if (record) {
        m_queries += std::max(promptTokens, 0);
        m_hits += a.cachedTokens;
    }
    for (; i < blocks.size(); ++i) {
        const auto it = m_blocks.find(blocks[i]);
        if (it != m_blocks.end())
            hold(it->second); // cached, but past the hit (e.g. the prompt's last full block)
        else if (!insertHeld(blocks[i]))
            break;
    }
    a.heldBlocks = int(i);
    return a;
}

void PrefixCache::release(const std::vector<BlockHash> &blocks, int heldBlocks)
{
    const int n = std::min(heldBlocks, int(blocks.size()));
    // Tail first into the free list, so the tail is evicted before the shared head.
    for (int i = n - 1; i >= 0; --i) {
        const auto it = m_blocks.find(blocks[std::size_t(i)]);
        if (it == m_blocks.end() || it->second.refs == 0)
            continue; // defensive: never drive a count below zero
        if (--it->second.refs == 0)
            it->second.freeAt = m_free.insert(m_free.end(), it->first);
    }
}

} // namespace switchyard::sim
