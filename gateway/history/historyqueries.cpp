// The history store's read side: the stored keys, the request search and the rollups, each on this
// thread's read-only connection (history/readerconnections), so a search never waits for the writer.

#include "history/historystore.h"

#include "history/readerconnections.h"
#include "history/requestblock.h"
#include "history/storedvalues.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QHash>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace switchyard::history {

Expected<std::vector<keys::VirtualKey>, QString> HistoryStore::loadKeys() const
{
    auto db = readerFor(m_readers);
    if (!db)
        return unexpected(db.error());
    QSqlQuery q(*db);
    q.setForwardOnly(true);
    if (!q.exec(u"SELECT id, name, secret_sha256, secret_hint, models, providers, requests_per_minute, "
                "tokens_per_minute, tokens_per_day, max_concurrent, created_ms, expires_ms, revoked_ms "
                "FROM keys ORDER BY id"_s)) {
        return unexpected(
            u"Cannot read the keys from the history file %1: %2"_s.arg(m_path, sqlErrorText(q.lastError())));
    }
    std::vector<keys::VirtualKey> out;
    while (q.next()) {
        keys::VirtualKey k;
        k.id = q.value(0).toString();
        k.name = q.value(1).toString();
        k.secretSha256 = q.value(2).toByteArray();
        k.secretHint = q.value(3).toString();
        k.models = listFromJson(q.value(4).toString());
        k.providers = listFromJson(q.value(5).toString());
        k.limits.requestsPerMinute = q.value(6).toLongLong();
        k.limits.tokensPerMinute = q.value(7).toLongLong();
        k.limits.tokensPerDay = q.value(8).toLongLong();
        k.limits.maxConcurrent = q.value(9).toLongLong();
        k.createdMs = q.value(10).toLongLong();
        k.expiresMs = q.value(11).toLongLong();
        k.revokedMs = q.value(12).toLongLong();
        out.push_back(std::move(k));
    }
    return out;
}

namespace {

bool matchesStatus(const stats::RequestRecord &r, HistoryQuery::Status status)
{
    // The classes split every request into Ok, ClientError and Failed (the rollups' errors), as an
    // operator counts them; ServerError is the part of Failed that got a 5xx status.
    switch (status) {
    case HistoryQuery::Status::Any:
        return true;
    case HistoryQuery::Status::Ok:
        return r.status < 400 && !r.cutMidAnswer();
    case HistoryQuery::Status::ClientError:
        return r.status >= 400 && r.status < 500;
    case HistoryQuery::Status::ServerError:
        return r.status >= 500;
    case HistoryQuery::Status::Failed:
        return r.status >= 500 || r.cutMidAnswer();
    }
    return true;
}

// Newest first: by start time, ties by id.
bool newerThan(const HistoryEntry &a, const HistoryEntry &b)
{
    const qint64 sa = a.record.startedMsSinceEpoch, sb = b.record.startedMsSinceEpoch;
    return sa != sb ? sa > sb : a.id > b.id;
}

QString blockError(const QString &path, qint64 blockId, const QString &why)
{
    return u"Cannot read the history file %1: block %2 is %3"_s.arg(path).arg(blockId).arg(why);
}

} // namespace

Expected<HistoryPage, QString> HistoryStore::search(const HistoryQuery &query) const
{
    auto db = readerFor(m_readers);
    if (!db)
        return unexpected(db.error());
    const qint64 from = query.fromMs;
    const qint64 to = query.toMs > 0 ? query.toMs : m_options.nowMs();
    const int limit = std::clamp(query.limit, 1, HistoryQuery::MaxLimit);
    const size_t wanted = size_t(limit) + 1; // one more tells whether an older page exists

    // A page goes on after the previous page's last record. Should retention have deleted it,
    // everything older went with it, and the page is empty.
    std::optional<HistoryEntry> after;
    if (query.beforeId > 0) {
        const qint64 blockId = query.beforeId / RecordsPerBlockId;
        QSqlQuery b(*db);
        b.setForwardOnly(true);
        b.prepare(u"SELECT records FROM request_blocks WHERE id = ?"_s);
        b.addBindValue(blockId);
        if (!b.exec())
            return unexpected(
                u"Cannot search the history file %1: %2"_s.arg(m_path, sqlErrorText(b.lastError())));
        if (!b.next())
            return HistoryPage{};
        auto records = decodeRequestBlock(b.value(0).toByteArray());
        if (!records)
            return unexpected(blockError(m_path, blockId, records.error()));
        const qint64 place = query.beforeId % RecordsPerBlockId;
        if (place >= qint64(records->size()))
            return HistoryPage{};
        after = HistoryEntry{query.beforeId, std::move((*records)[size_t(place)])};
    }

    // The blocks that may hold a match, latest first. A block lists its keys, nodes and models, so one
    // without the key, node or model asked for is skipped unopened.
    QString sql = u"SELECT id, last_ms, records FROM request_blocks "
                  "WHERE last_ms >= :from AND first_ms <= :to"_s;
    if (!query.keyId.isEmpty())
        sql += u" AND instr(key_ids, :key) > 0"_s;
    if (!query.model.isEmpty())
        sql += u" AND instr(models, :model) > 0"_s;
    if (!query.node.isEmpty())
        sql += u" AND instr(nodes, :node) > 0"_s;
    sql += u" ORDER BY last_ms DESC, id DESC"_s;
    QSqlQuery q(*db);
    q.setForwardOnly(true);
    if (!q.prepare(sql))
        return unexpected(
            u"Cannot search the history file %1: %2"_s.arg(m_path, sqlErrorText(q.lastError())));
    q.bindValue(u":from"_s, from);
    q.bindValue(u":to"_s, after ? std::min(to, after->record.startedMsSinceEpoch) : to);
    const auto needle = [](const QString &text) { return QString::fromStdString(listedNeedle(text)); };
    if (!query.keyId.isEmpty())
        q.bindValue(u":key"_s, needle(query.keyId));
    if (!query.model.isEmpty())
        q.bindValue(u":model"_s, needle(query.model));
    if (!query.node.isEmpty())
        q.bindValue(u":node"_s, needle(query.node));
    if (!q.exec())
        return unexpected(
            u"Cannot search the history file %1: %2"_s.arg(m_path, sqlErrorText(q.lastError())));

    // Blocks come latest first, but a block's requests may have started over a minute (a long stream
    // is written when it ends): the matches are gathered until the next block can no longer hold one
    // newer than the page's last, then sorted.
    std::vector<HistoryEntry> found;
    const auto trim = [&] {
        if (found.size() > wanted) {
            std::nth_element(found.begin(), found.begin() + qsizetype(wanted) - 1, found.end(), newerThan);
            found.resize(wanted);
        }
    };
    while (q.next()) {
        const qint64 blockId = q.value(0).toLongLong();
        const qint64 lastMs = q.value(1).toLongLong();
        trim();
        if (found.size() == wanted) {
            const HistoryEntry &oldestKept =
                *std::min_element(found.begin(), found.end(), [](const auto &a, const auto &b) {
                    return newerThan(b, a);
                });
            if (lastMs < oldestKept.record.startedMsSinceEpoch)
                break;
        }
        auto records = decodeRequestBlock(q.value(2).toByteArray());
        if (!records)
            return unexpected(blockError(m_path, blockId, records.error()));
        for (size_t i = 0; i < records->size(); ++i) {
            stats::RequestRecord &r = (*records)[i];
            if (r.startedMsSinceEpoch < from || r.startedMsSinceEpoch > to)
                continue;
            if ((!query.keyId.isEmpty() && r.keyId != query.keyId) ||
                (!query.model.isEmpty() && r.model != query.model) ||
                (!query.node.isEmpty() && r.node != query.node) || !matchesStatus(r, query.status)) {
                continue;
            }
            HistoryEntry e{blockId * RecordsPerBlockId + qint64(i), std::move(r)};
            if (after && !newerThan(*after, e))
                continue;
            found.push_back(std::move(e));
        }
    }
    trim();
    std::sort(found.begin(), found.end(), newerThan);

    HistoryPage page;
    const bool more = found.size() > size_t(limit);
    if (more)
        found.resize(size_t(limit));
    page.entries = std::move(found);
    if (more && !page.entries.empty())
        page.nextBeforeId = page.entries.back().id;
    return page;
}

const char *rollupSplitName(RollupSplit split)
{
    switch (split) {
    case RollupSplit::None:
        return "";
    case RollupSplit::Node:
        return "node";
    case RollupSplit::Model:
        return "model";
    case RollupSplit::Key:
        return "key";
    }
    return "";
}

std::optional<RollupSplit> rollupSplitFromName(QStringView name)
{
    for (RollupSplit s : {RollupSplit::None, RollupSplit::Node, RollupSplit::Model, RollupSplit::Key}) {
        if (name == QLatin1StringView(rollupSplitName(s)))
            return s;
    }
    return std::nullopt;
}

namespace {

// One group's buckets, as stored sums (history/storedvalues): groups folded into "(other)" add up exactly
// before the means are taken.
struct Series
{
    QString group;
    std::vector<RollupSums> buckets;
    qint64 total = 0;
};

} // namespace

Expected<std::vector<RollupPoint>, QString> HistoryStore::rollups(qint64 fromMs, qint64 toMs,
                                                                  int bucketMinutes, const QString &node,
                                                                  const QString &model, const QString &keyId,
                                                                  RollupSplit split) const
{
    if (bucketMinutes < 1)
        return unexpected(u"A rollup bucket is at least one minute wide (asked: %1)"_s.arg(bucketMinutes));
    const qint64 bucketMs = qint64(bucketMinutes) * MsPerMinute;
    const qint64 from = floorToMinute(fromMs);
    const qint64 to = toMs > 0 ? toMs : m_options.nowMs();
    if (to <= from)
        return std::vector<RollupPoint>{};
    const qint64 buckets = (to - from + bucketMs - 1) / bucketMs;
    const qint64 series = split == RollupSplit::None ? 1 : MaxSplitGroups + 1;
    if (buckets * series > MaxBuckets) {
        return unexpected(
            u"%1 buckets of %2 min asked, at most %3: widen the buckets or shorten the range"_s
                .arg(buckets * series)
                .arg(bucketMinutes)
                .arg(MaxBuckets));
    }
    auto db = readerFor(m_readers);
    if (!db)
        return unexpected(db.error());
    const QString column = split == RollupSplit::Node    ? u"node"_s
                           : split == RollupSplit::Model ? u"model"_s
                           : split == RollupSplit::Key   ? u"key_id"_s
                                                         : u"''"_s;
    QString sql =
        u"SELECT (minute_ms - :from) / :bucket AS b, "_s % column %
        u" AS g, sum(requests), sum(errors), sum(client_errors), "
        "sum(prompt_tokens), sum(completion_tokens), sum(duration_ms_sum), sum(ttft_ms_sum), "
        "sum(ttft_count) FROM rollups WHERE minute_ms >= :from AND minute_ms < :to"_s;
    if (!node.isEmpty())
        sql += u" AND node = :node"_s;
    if (!model.isEmpty())
        sql += u" AND model = :model"_s;
    if (!keyId.isEmpty())
        sql += u" AND key_id = :key"_s;
    sql += u" GROUP BY b, g"_s;
    QSqlQuery q(*db);
    q.setForwardOnly(true);
    if (!q.prepare(sql))
        return unexpected(
            u"Cannot read the rollups of the history file %1: %2"_s.arg(m_path, sqlErrorText(q.lastError())));
    q.bindValue(u":from"_s, from);
    q.bindValue(u":bucket"_s, bucketMs);
    q.bindValue(u":to"_s, to);
    if (!node.isEmpty())
        q.bindValue(u":node"_s, node);
    if (!model.isEmpty())
        q.bindValue(u":model"_s, model);
    if (!keyId.isEmpty())
        q.bindValue(u":key"_s, keyId);
    if (!q.exec())
        return unexpected(
            u"Cannot read the rollups of the history file %1: %2"_s.arg(m_path, sqlErrorText(q.lastError())));

    std::vector<Series> groups;
    QHash<QString, size_t> index;
    if (split == RollupSplit::None) { // every bucket listed, even with no request at all
        index.insert(QString(), 0);
        groups.push_back({QString(), std::vector<RollupSums>(size_t(buckets)), 0});
    }
    while (q.next()) {
        const qint64 b = q.value(0).toLongLong();
        if (b < 0 || b >= buckets)
            continue;
        const QString g = q.value(1).toString();
        auto it = index.constFind(g);
        if (it == index.cend()) {
            it = index.insert(g, groups.size());
            groups.push_back({g, std::vector<RollupSums>(size_t(buckets)), 0});
        }
        Series &s = groups[*it];
        RollupSums &sums = s.buckets[size_t(b)];
        sums.requests = q.value(2).toLongLong();
        sums.errors = q.value(3).toLongLong();
        sums.clientErrors = q.value(4).toLongLong();
        sums.promptTokens = q.value(5).toLongLong();
        sums.completionTokens = q.value(6).toLongLong();
        sums.durationSum = q.value(7).toLongLong();
        sums.ttftSum = q.value(8).toLongLong();
        sums.ttftCount = q.value(9).toLongLong();
        s.total += sums.requests;
    }
    if (split != RollupSplit::None) {
        // Busiest first (ties by name, so the order holds from one refresh to the next); the rest as one.
        std::sort(groups.begin(), groups.end(), [](const Series &a, const Series &b) {
            return a.total != b.total ? a.total > b.total : a.group < b.group;
        });
        if (groups.size() > size_t(MaxSplitGroups)) {
            Series other{u"(other)"_s, std::vector<RollupSums>(size_t(buckets)), 0};
            for (size_t i = MaxSplitGroups; i < groups.size(); ++i) {
                for (qint64 b = 0; b < buckets; ++b)
                    other.buckets[size_t(b)].add(groups[i].buckets[size_t(b)]);
                other.total += groups[i].total;
            }
            groups.resize(MaxSplitGroups);
            groups.push_back(std::move(other));
        }
    }

    // The keys' names: a handful of lookups by primary key, for the groups listed.
    QHash<QString, QString> names;
    if (split == RollupSplit::Key) {
        QSqlQuery n(*db);
        n.setForwardOnly(true);
        if (n.prepare(u"SELECT name FROM keys WHERE id = ?"_s)) {
            for (const Series &s : groups) {
                if (s.group.isEmpty() || s.group == u"(other)"_s)
                    continue;
                n.bindValue(0, s.group);
                if (n.exec() && n.next())
                    names.insert(s.group, n.value(0).toString());
                n.finish();
            }
        }
    }

    std::vector<RollupPoint> out;
    out.reserve(groups.size() * size_t(buckets));
    for (const Series &s : groups) {
        const QString name = names.value(s.group);
        for (qint64 b = 0; b < buckets; ++b) {
            const RollupSums &sums = s.buckets[size_t(b)];
            RollupPoint p;
            p.group = s.group;
            p.groupName = name;
            p.bucketStartMs = from + b * bucketMs;
            p.requests = sums.requests;
            p.errors = sums.errors;
            p.clientErrors = sums.clientErrors;
            p.promptTokens = sums.promptTokens;
            p.completionTokens = sums.completionTokens;
            if (sums.requests > 0)
                p.meanDurationMs = double(sums.durationSum) / double(sums.requests);
            if (sums.ttftCount > 0)
                p.meanTtftMs = double(sums.ttftSum) / double(sums.ttftCount);
            out.push_back(std::move(p));
        }
    }
    return out;
}

} // namespace switchyard::history
