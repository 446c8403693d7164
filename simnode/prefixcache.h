#pragma once

// The simulated node's automatic prefix cache, reduced from vLLM's (v1 KV cache manager):
//
// - A prompt is a sequence of token ids (see PromptTokenizer) cut into blocks of 16 tokens. Only full
//   blocks are cached. A block's hash chains the hash of the block before it, so it stands for the whole
//   prefix up to its end: two prompts share a cached block only when everything before it is the same.
// - The cache holds at most capacityBlocks blocks (the node's KV capacity / 16). A block is "held" while
//   a running sequence uses it and is never evicted then; released blocks are evictable, least recently
//   used first, and of one sequence its tail goes before its head (vLLM frees blocks in reverse order),
//   so a shared system prompt outlives the turns that extended it.
// - A hit is the longest run of leading blocks already cached, at most promptTokens − 1 tokens: the last
//   prompt token is always computed, because its logits produce the first output token.
//
// Pure: no clock, no Qt event loop. PerformanceModel calls acquire() when it admits a sequence and
// release() when the sequence finishes, is cancelled or preempted.

#include <QtGlobal>

#include <list>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace switchyard::sim {

inline constexpr int PrefixBlockTokens = 16; // vLLM's default --block-size

using TokenId = quint64;
using BlockHash = quint64;

// The chained hashes of a prompt's full blocks, built token by token so that no token list is kept.
class BlockHasher final
{
public:
    void add(TokenId token);
    int tokens() const { return m_tokens; }
    const std::vector<BlockHash> &blocks() const { return m_blocks; }
    std::vector<BlockHash> takeBlocks() { return std::move(m_blocks); }

private:
    BlockHash m_parent = 0x5eed5eed5eed5eedULL; // the "no parent" hash of the first block
    BlockHash m_running = m_parent;
    int m_inBlock = 0;
    int m_tokens = 0;
    std::vector<BlockHash> m_blocks;
};

// The chained block hashes of a list of token ids (for tests and completions given as token ids).
std::vector<BlockHash> chainedBlockHashes(const std::vector<TokenId> &tokens);

// Deterministic stand-in for a tokenizer: it yields exactly estimateTokens(text) tokens for a text (the
// count the node reports as prompt_tokens), each derived only from a local piece of the text, so texts
// that share a beginning share their leading tokens. Mostly-prose text (more than ~4 characters per
// word) is cut into slices of 4 code points; text of short words yields one token per word.
//
// Chat messages are rendered as a ChatML-like template would: 3 header tokens naming the role, the
// content, 1 end token; the prompt ends with the assistant's 3 header tokens. So a prompt followed by its
// answer and an end token is exactly the beginning of the next turn's prompt, as with a real template.
class PromptTokenizer final
{
public:
    void addText(std::string_view utf8);
    // n tokens standing for a chat template's markers (role headers, the end of a message).
    void addMarkers(std::string_view tag, int n);
    void addTokenId(qint64 id);
    void addChatMessage(std::string_view role, std::string_view content);
    void addAssistantHeader() { addMarkers("assistant", 3); }
    void addMessageEnd() { addMarkers("<|end|>", 1); }
    int tokens() const { return m_hasher.tokens(); }
    const std::vector<BlockHash> &blocks() const { return m_hasher.blocks(); }
    std::vector<BlockHash> takeBlocks() { return m_hasher.takeBlocks(); }

private:
    BlockHasher m_hasher;
};

class PrefixCache final
{
public:
    explicit PrefixCache(qint64 capacityBlocks);
    Q_DISABLE_COPY_MOVE(PrefixCache)

    struct Acquired
    {
        int cachedTokens = 0; // prompt tokens served from the cache (a multiple of 16)
        int heldBlocks = 0;   // leading blocks now held for the sequence; pass to release()
    };

    // A sequence is scheduled: holds every block of the prompt, inserting the missing ones, and (when
    // record is set) counts promptTokens as queried and the hit as hits. vLLM counts a preempted
    // sequence's second admission apart, so the model records first admissions only. When the cache is
    // full of held blocks the rest of the prompt is not cached (it is still computed, and the caller's
    // KV accounting already admitted it).
    Acquired acquire(const std::vector<BlockHash> &blocks, int promptTokens, bool record = true);
    // The sequence left the engine: its first heldBlocks blocks become evictable.
    void release(const std::vector<BlockHash> &blocks, int heldBlocks);

    qint64 queriedTokens() const { return m_queries; }
    qint64 hitTokens() const { return m_hits; }
    qint64 capacityBlocks() const { return m_capacity; }
    qint64 cachedBlocks() const { return qint64(m_blocks.size()); }
    qint64 heldBlocks() const { return qint64(m_blocks.size() - m_free.size()); }
    bool contains(BlockHash hash) const { return m_blocks.contains(hash); }

private:
    struct Block
    {
        int refs = 0;
        std::list<BlockHash>::iterator freeAt; // valid while refs == 0
    };

    bool insertHeld(BlockHash hash);
    void hold(Block &block);

    qint64 m_capacity;
    std::unordered_map<BlockHash, Block> m_blocks;
    std::list<BlockHash> m_free; // evictable blocks; the front is evicted first
    qint64 m_queries = 0;
    qint64 m_hits = 0;
};

} // namespace switchyard::sim
