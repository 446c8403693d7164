#include "proxy/historyapi.h"

#include "history/historystore.h"
#include "keys/keyjson.h"
#include "proxy/dispatcher.h"
#include "proxy/statusapi.h"
#include "history/rollupcsv.h"
#include "stats/requestcsv.h"

#include <QDateTime>
#include <QUrlQuery>
#include <nlohmann/json.hpp>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::proxy::handlers {

namespace {

Dispatch badParameter(const QString &name, const QString &what)
{
    return answer(errorResponse(400, name % u": "_s % what, "invalid_request_error", name.toUtf8()));
}

// The history, or the 503 that says why there is none.
std::variant<std::shared_ptr<history::HistoryStore>, Dispatch> storeOf(const ExchangeContext &context)
{
    std::shared_ptr<history::HistoryStore> store =
        context.control && context.control->history ? context.control->history() : nullptr;
    if (store)
        return store;
    const QString problem =
        context.control && context.control->historyProblem ? context.control->historyProblem() : QString();
    return answer(errorResponse(503,
                                problem.isEmpty()
                                    ? u"This gateway keeps no lasting history: set switchyard.history.path in its config "
                                      "(docs/HISTORY.md); /api/requests has the last 1000 requests"_s
                                    : u"The history could not be opened: "_s % problem,
                                "history_unavailable"));
}

// A time as ms since the epoch or as RFC 3339 ("2026-12-04T10:00:00Z"); 0 when absent.
std::optional<qint64> timeParameter(const QUrlQuery &q, const QString &name)
{
    const QString text = q.queryItemValue(name, QUrl::FullyDecoded);
    if (text.isEmpty())
        return 0;
    bool ok = false;
    const qint64 ms = text.toLongLong(&ok);
    if (ok && ms >= 0)
        return ms;
    return keys::parseTimestamp(text);
}

// from and to as given (0 where absent), or the 400 naming the one that is not a time.
std::variant<std::pair<qint64, qint64>, Dispatch> timeRange(const QUrlQuery &q)
{
    const auto from = timeParameter(q, u"from"_s);
    const auto to = timeParameter(q, u"to"_s);
    if (!from || !to) {
        return badParameter(!from ? u"from"_s : u"to"_s,
                            u"must be ms since the epoch or a time like 2026-12-04T10:00:00Z"_s);
    }
    return std::pair{*from, *to};
}

std::optional<qint64> intParameter(const QUrlQuery &q, const QString &name, qint64 fallback, qint64 min, qint64 max)
{
    const QString text = q.queryItemValue(name);
    if (text.isEmpty())
        return fallback;
    bool ok = false;
    const qint64 v = text.toLongLong(&ok);
    if (!ok || v < min || v > max)
        return std::nullopt;
    return v;
}

std::optional<history::HistoryQuery::Status> statusParameter(const QString &text)
{
    using S = history::HistoryQuery::Status;
    if (text.isEmpty() || text == u"any"_s)
        return S::Any;
    if (text == u"ok"_s)
        return S::Ok;
    if (text == u"client_error"_s)
        return S::ClientError;
    if (text == u"server_error"_s)
        return S::ServerError;
    if (text == u"failed"_s)
        return S::Failed;
    return std::nullopt;
}

// The answer's format: JSON (the default) or CSV for a spreadsheet; nullopt for anything else.
std::optional<bool> csvParameter(const QUrlQuery &q)
{
    const QString format = q.queryItemValue(u"format"_s);
    if (format.isEmpty() || format == u"json"_s)
        return false;
    if (format == u"csv"_s)
        return true;
    return std::nullopt;
}

} // namespace

Dispatch historyRequests(const Route &, const http::Request &request, const ExchangeContext &context, ResponseSink *)
{
    auto store = storeOf(context);
    if (auto *refused = std::get_if<Dispatch>(&store))
        return std::move(*refused);
    const QUrlQuery q = queryOf(request.target);
    history::HistoryQuery query;
    auto range = timeRange(q);
    if (auto *refused = std::get_if<Dispatch>(&range))
        return std::move(*refused);
    const auto [from, to] = std::get<0>(range);
    const auto limit = intParameter(q, u"limit"_s, 100, 1, history::HistoryQuery::MaxLimit);
    if (!limit)
        return badParameter(u"limit"_s, u"must be a whole number from 1 to 1000"_s);
    const auto before = intParameter(q, u"before"_s, 0, 0, std::numeric_limits<qint64>::max());
    if (!before)
        return badParameter(u"before"_s, u"must be the next_before of a previous page"_s);
    const auto status = statusParameter(q.queryItemValue(u"status"_s));
    if (!status)
        return badParameter(u"status"_s, u"must be one of any, ok, client_error, server_error, failed"_s);
    const std::optional<bool> csv = csvParameter(q);
    if (!csv)
        return badParameter(u"format"_s, u"must be json or csv"_s);
    query.fromMs = from;
    query.toMs = to;
    query.limit = int(*limit);
    query.beforeId = *before;
    query.status = *status;
    query.keyId = q.queryItemValue(u"key"_s, QUrl::FullyDecoded);
    query.model = q.queryItemValue(u"model"_s, QUrl::FullyDecoded);
    query.node = q.queryItemValue(u"node"_s, QUrl::FullyDecoded);

    const auto page = std::get<0>(store)->search(query);
    if (!page)
        return answer(errorResponse(503, u"The history could not be read: "_s % page.error(), "history_unavailable"));
    if (*csv) {
        // A spreadsheet's page: the same rows and columns as the panel's export. The next page's cursor
        // goes in a header, as the body has no place for it.
        std::vector<stats::RequestRecord> records;
        records.reserve(page->entries.size());
        for (const history::HistoryEntry &e : page->entries)
            records.push_back(e.record);
        LocalResponse r{200, "Content-Type: text/csv; charset=utf-8\r\n", stats::requestsCsv(records)};
        if (page->nextBeforeId != 0)
            r.headerLines += "X-Next-Before: " + QByteArray::number(page->nextBeforeId) + "\r\n";
        return answer(std::move(r));
    }
    nlohmann::json data = nlohmann::json::array();
    for (const history::HistoryEntry &e : page->entries) {
        nlohmann::json j = requestRecordJson(e.record);
        j["id"] = e.id;
        data.push_back(std::move(j));
    }
    return answer(prettyJsonResponse(
        200, {{"object", "list"},
              {"data", std::move(data)},
              {"next_before", page->nextBeforeId == 0 ? nlohmann::json(nullptr) : nlohmann::json(page->nextBeforeId)}}));
}

Dispatch historyRollups(const Route &, const http::Request &request, const ExchangeContext &context, ResponseSink *)
{
    auto store = storeOf(context);
    if (auto *refused = std::get_if<Dispatch>(&store))
        return std::move(*refused);
    const QUrlQuery q = queryOf(request.target);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    auto range = timeRange(q);
    if (auto *refused = std::get_if<Dispatch>(&range))
        return std::move(*refused);
    const auto [from, to] = std::get<0>(range);
    const qint64 toMs = to == 0 ? now : to;
    const qint64 fromMs = from == 0 ? toMs - 24LL * 3600 * 1000 : from; // the last day unless told
    const auto bucket = intParameter(q, u"bucket_minutes"_s, 5, 1, 7 * 24 * 60);
    if (!bucket)
        return badParameter(u"bucket_minutes"_s, u"must be a whole number from 1 to 10080"_s);
    if (fromMs >= toMs)
        return badParameter(u"from"_s, u"must be before to"_s);
    const auto split = history::rollupSplitFromName(q.queryItemValue(u"split"_s));
    if (!split)
        return badParameter(u"split"_s, u"must be node, model or key"_s);
    const std::optional<bool> csv = csvParameter(q);
    if (!csv)
        return badParameter(u"format"_s, u"must be json or csv"_s);
    const auto points = std::get<0>(store)->rollups(fromMs, toMs, int(*bucket), q.queryItemValue(u"node"_s, QUrl::FullyDecoded),
                                                    q.queryItemValue(u"model"_s, QUrl::FullyDecoded),
                                                    q.queryItemValue(u"key"_s, QUrl::FullyDecoded), *split);
    if (!points)
        return badParameter(u"bucket_minutes"_s, points.error()); // too many buckets for the range
    if (*csv)
        return answer({200, "Content-Type: text/csv; charset=utf-8\r\n", history::rollupsCsv(*points, *split)});
    nlohmann::json data = nlohmann::json::array();
    for (const history::RollupPoint &p : *points) {
        nlohmann::json point = {{"bucket_start_ms", p.bucketStartMs},
                        {"requests", p.requests},
                        {"errors", p.errors},
                        {"client_errors", p.clientErrors},
                        {"prompt_tokens", p.promptTokens},
                        {"completion_tokens", p.completionTokens},
                        {"mean_duration_ms", p.meanDurationMs},
                        {"mean_ttft_ms", p.meanTtftMs < 0 ? nlohmann::json(nullptr) : nlohmann::json(p.meanTtftMs)}};
        if (*split != history::RollupSplit::None)
            point[history::rollupSplitName(*split)] = p.group.toStdString();
        if (*split == history::RollupSplit::Key)
            point["key_name"] = p.groupName.toStdString();
        data.push_back(std::move(point));
    }
    nlohmann::json body = {{"bucket_minutes", *bucket}, {"from_ms", fromMs}, {"to_ms", toMs}, {"data", std::move(data)}};
    if (*split != history::RollupSplit::None)
        body["split"] = history::rollupSplitName(*split);
    return answer(prettyJsonResponse(200, std::move(body)));
}

} // namespace switchyard::proxy::handlers
