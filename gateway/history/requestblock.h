#pragma once

// The requests of one writer batch packed into one value: the history file keeps a row per batch
// (table request_blocks, history/schema), not a row per request. A row per request cost SQLite three
// B-tree inserts (the table and two indexes), which at a synthetic 35,000 requests/s was an eighth of
// the gateway's CPU (docs/PERFORMANCE.md, "Keys and history"); a block is one insert per batch, and
// the per-minute rollups and the block's own lists of keys, nodes and models tell a search which blocks
// to open. Internal to history/.
//
// Layout (all integers LEB128 varints, signed ones zigzagged first; texts UTF-8):
//   version (1)
//   string count, then each string: length, bytes    — every text the records use, each once
//   record count, then each record:
//     started_ms (signed, as a difference to the previous record's), method, path, model, node, route,
//     key_id, error (each a string's index), status, attempts, stream, ttft_ms, duration_ms,
//     prompt_tokens, completion_tokens (signed), attempt count, then each attempt:
//       node, fallback_model, reason (string indexes), status, outcome, via, start_ms, duration_ms
// A block is never changed once written; a decoder checks every length against what is left, so a
// damaged block is refused, not read past its end.

#include "common/expected.h"
#include "stats/requestrecord.h"

#include <QByteArrayView>
#include <QHash>
#include <QString>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace switchyard::history {

// A record's number in the history: its block's row id times this, plus its place in the block. Below
// 2^53 for any block id SQLite will hand out in practice, so JavaScript clients read it exactly.
inline constexpr qint64 RecordsPerBlockId = 4096;

// Builds one block. The records must come in the order they are to be read back (oldest start first);
// the writer sorts a batch before it adds it. Reused batch after batch: clear() keeps the capacity.
class RequestBlockEncoder final
{
    Q_DISABLE_COPY_MOVE(RequestBlockEncoder)

public:
    RequestBlockEncoder() = default;

    void clear();
    void add(const stats::RequestRecord &record);
    qsizetype size() const { return m_count; }
    // The bytes the block would have now: the writer starts a new block past a size, so retention
    // deletes in small steps and a search decodes little it does not need.
    size_t bytes() const;
    // The finished block (valid until the next clear() or add()).
    std::string_view finish();

    // What the block's row lists for a search to skip blocks without opening them: each distinct key
    // id, node and model, between separators (see RequestBlockEncoder::listed()).
    const std::string &keyIds() const { return m_keyList; }
    const std::string &nodes() const { return m_nodeList; }
    const std::string &models() const { return m_modelList; }

private:
    enum class Listed : quint8 { No, Key, Node, Model };
    // Where in a record a text comes from: each place remembers the text it saw last, by address, so
    // the model, node or key a batch repeats thousands of times is looked up by content only once.
    enum Field { Method, Path, Model, Node, Route, KeyId, Error, TriedNode, TriedFallback, TriedReason, Fields };
    struct Recent
    {
        const void *data = nullptr;
        qsizetype size = -1;
        quint32 index = 0;
    };
    quint32 text(Field field, QStringView s, Listed listed);
    quint32 rawBytes(Field field, QByteArrayView s);
    quint32 intern(Listed listed);

    std::vector<std::string_view> m_strings;          // in index order, viewing m_index's keys
    std::vector<quint8> m_listedAs;                   // per string: the lists it is in (bits of Listed)
    std::unordered_map<std::string, quint32> m_index; // text → index (node-based: the views stay valid)
    std::string m_scratch;                            // a text's UTF-8 while it is looked up
    std::string m_records;                            // the records' part, strings excluded
    std::string m_out;                                // version, strings, records
    std::string m_keyList, m_nodeList, m_modelList;
    Recent m_recent[Fields];
    qint64 m_lastStarted = 0;
    size_t m_stringBytes = 0;
    qsizetype m_count = 0;
};

// A block is started anew past this many bytes (or RecordsPerBlockId records, or a new minute).
inline constexpr size_t MaxBlockBytes = 64 * 1024;

// Packs records, sorted by start, into blocks as the history file keeps them: each block holds requests
// that started in one minute, at most RecordsPerBlockId of them and about MaxBlockBytes, so retention
// deletes by the minute as it does the rollups, and a search opens only blocks of the minutes it asks
// for. Calls store(firstMs, lastMs) with each block in encoder (then cleared); stops with false as soon
// as store does.
bool packRequestBlocks(std::span<const stats::RequestRecord *const> byStart, RequestBlockEncoder &encoder,
                       const std::function<bool(qint64 firstMs, qint64 lastMs)> &store);

// The block's records, in the order they were added; an error naming what is wrong when the bytes are
// not a block this build can read.
Expected<std::vector<stats::RequestRecord>, QString> decodeRequestBlock(QByteArrayView block);

// The separator around each entry of a block's key, node and model lists: a search asks for
// "\x1f" + id + "\x1f" within the list, which cannot match part of another entry.
inline constexpr char ListSeparator = '\x1f';
std::string listedNeedle(QStringView text);

} // namespace switchyard::history
