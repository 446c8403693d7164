#pragma once

// What a search of the lasting history asks and answers (history/historystore; GET /api/history/*), as
// values: the panel's link to a gateway carries them too, so it needs no more of the store than this.

#include "stats/requestrecord.h"

#include <QMetaType>
#include <QString>
#include <QtGlobal>
#include <optional>
#include <vector>

namespace switchyard::history {

struct HistoryQuery
{
    enum class Status {
        Any,
        Ok,          // status below 400 and the answer arrived whole
        ClientError, // 400-499 (499: the client went away first)
        ServerError, // 500 and above
        Failed,      // 500 and above, or cut mid-answer: what the rollups count as errors
    };

    qint64 fromMs = 0; // started at or after (ms since the epoch)
    qint64 toMs = 0;   // started at or before; 0 = now
    QString keyId;     // empty = any; each filter below is an exact match
    QString model;
    QString node;
    Status status = Status::Any;
    int limit = 100; // clamped to 1..MaxLimit
    // Paging: only the rows after this one in the newest-first order, i.e. older ones (a previous
    // page's nextBeforeId). 0 = from the newest.
    qint64 beforeId = 0;

    static constexpr int MaxLimit = 1000;
};

struct HistoryEntry
{
    qint64 id = 0; // the row's id: grows with every record written; names the row for paging
    stats::RequestRecord record;
};

struct HistoryPage
{
    std::vector<HistoryEntry> entries; // newest first: by start time, then by id
    qint64 nextBeforeId = 0;           // pass as beforeId for the next (older) page; 0 = no more rows
};

// How rollups are split into series: one per node, model or virtual key, or one for everything.
enum class RollupSplit { None, Node, Model, Key };
// "node", "model", "key" (the API's split parameter and a CSV column's name); "" for None.
const char *rollupSplitName(RollupSplit split);
std::optional<RollupSplit> rollupSplitFromName(QStringView name);

// The sums of one time bucket (bucketMinutes wide), for charts.
struct RollupPoint
{
    // Split rollups: the node, model or key id the point sums ("" for requests without a key; "(other)"
    // for the groups beyond the busiest few). Empty when not split.
    QString group;
    // Split by key: the key's name, as this history file keeps it (also for a revoked key), so a chart
    // can say "ci-runner" rather than its id. Empty for other splits, "no key", "(other)" and a key the
    // file does not know.
    QString groupName;
    qint64 bucketStartMs = 0;
    qint64 requests = 0;
    qint64 errors = 0;       // status 500 and above, or cut mid-answer
    qint64 clientErrors = 0; // 400-499
    qint64 promptTokens = 0; // sums of the known counts (requests whose usage was unknown add nothing)
    qint64 completionTokens = 0;
    double meanDurationMs = 0;
    double meanTtftMs = -1; // -1: no request of the bucket had a first byte
};

// A rollups() question: per-bucket sums of the requests that started in [fromMs, toMs).
struct RollupQuery
{
    qint64 fromMs = 0;
    qint64 toMs = 0; // 0 = now
    int bucketMinutes = 5;
    QString node; // empty = any; exact matches
    QString model;
    QString keyId;
    RollupSplit split = RollupSplit::None;
};

} // namespace switchyard::history
