// The history store's read side: the stored keys, the request search and the rollups, each on this
// thread's read-only connection (history/readerconnections), so a search never waits for the writer.

#include "history/historystore.h"

#include "history/readerconnections.h"
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

Expected<HistoryPage, QString> HistoryStore::search(const HistoryQuery &query) const
{
    auto db = readerFor(m_readers);
    if (!db)
        return unexpected(db.error());
    QString sql =
        u"SELECT id, started_ms, key_id, model, node, route, method, path, status, attempts, stream, "
        "ttft_ms, duration_ms, prompt_tokens, completion_tokens, error, tried FROM requests "
        "WHERE started_ms >= :from AND started_ms <= :to"_s;
    if (!query.keyId.isEmpty())
        sql += u" AND key_id = :key"_s;
    if (!query.model.isEmpty())
        sql += u" AND model = :model"_s;
    if (!query.node.isEmpty())
        sql += u" AND node = :node"_s;
    // The classes split every request into Ok, ClientError and Failed (the rollups' errors), as an
    // operator counts them; ServerError is the part of Failed that got a 5xx status.
    switch (query.status) {
    case HistoryQuery::Status::Any:
        break;
    case HistoryQuery::Status::Ok:
        sql += u" AND status < 400 AND NOT (status > 0 AND error <> '')"_s;
        break;
    case HistoryQuery::Status::ClientError:
        sql += u" AND status >= 400 AND status < 500"_s;
        break;
    case HistoryQuery::Status::ServerError:
        sql += u" AND status >= 500"_s;
        break;
    case HistoryQuery::Status::Failed:
        sql += u" AND (status >= 500 OR (status > 0 AND status < 400 AND error <> ''))"_s;
        break;
    }
    // Newest first by start time, ties by id: the order of the indexes on started_ms and (key_id,
    // started_ms) (both end in the row id), so a page is read straight off an index, never sorted. A page
    // goes on after the previous page's last row; should retention have deleted that row, everything
    // older went with it, and the page is empty.
    if (query.beforeId > 0)
        sql += u" AND (started_ms, id) < (SELECT started_ms, id FROM requests WHERE id = :before)"_s;
    sql += u" ORDER BY started_ms DESC, id DESC LIMIT :limit"_s;

    const int limit = std::clamp(query.limit, 1, HistoryQuery::MaxLimit);
    QSqlQuery q(*db);
    q.setForwardOnly(true);
    if (!q.prepare(sql))
        return unexpected(
            u"Cannot search the history file %1: %2"_s.arg(m_path, sqlErrorText(q.lastError())));
    q.bindValue(u":from"_s, query.fromMs);
    q.bindValue(u":to"_s, query.toMs > 0 ? query.toMs : m_options.nowMs());
    if (!query.keyId.isEmpty())
        q.bindValue(u":key"_s, query.keyId);
    if (!query.model.isEmpty())
        q.bindValue(u":model"_s, query.model);
    if (!query.node.isEmpty())
        q.bindValue(u":node"_s, query.node);
    if (query.beforeId > 0)
        q.bindValue(u":before"_s, query.beforeId);
    q.bindValue(u":limit"_s, limit + 1); // one more tells whether an older page exists
    if (!q.exec())
        return unexpected(
            u"Cannot search the history file %1: %2"_s.arg(m_path, sqlErrorText(q.lastError())));

    HistoryPage page;
    page.entries.reserve(size_t(std::min(limit, 128)));
    bool more = false;
    while (q.next()) {
        if (int(page.entries.size()) == limit) {
            more = true;
            break;
        }
        HistoryEntry e;
        e.id = q.value(0).toLongLong();
        stats::RequestRecord &r = e.record;
        r.startedMsSinceEpoch = q.value(1).toLongLong();
        r.keyId = q.value(2).toString();
        r.model = q.value(3).toString();
        r.node = q.value(4).toString();
        r.route = q.value(5).toString();
        r.method = q.value(6).toString().toLatin1();
        r.path = q.value(7).toString().toLatin1();
        r.status = q.value(8).toInt();
        r.attempts = q.value(9).toInt();
        r.stream = q.value(10).toLongLong() != 0;
        r.ttftMs = q.value(11).toLongLong();
        r.durationMs = q.value(12).toLongLong();
        r.promptTokens = q.value(13).toLongLong();
        r.completionTokens = q.value(14).toLongLong();
        r.error = q.value(15).toString();
        r.tried = triedFromJson(q.value(16).toString());
        page.entries.push_back(std::move(e));
    }
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
