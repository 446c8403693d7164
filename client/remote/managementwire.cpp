#include "remote/managementwire.h"

#include "openai/openaierror.h"

#include <QUrlQuery>

#include <nlohmann/json.hpp>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::client {

namespace {

nlohmann::json parseJson(QByteArrayView body)
{
    return nlohmann::json::parse(body.begin(), body.end(), nullptr, false);
}

QString str(const nlohmann::json &o, const char *key)
{
    const auto it = o.find(key);
    return it != o.end() && it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString();
}

qint64 integer(const nlohmann::json &o, const char *key, qint64 fallback)
{
    const auto it = o.find(key);
    return it != o.end() && it->is_number() ? it->get<qint64>() : fallback;
}

float numberAt(const nlohmann::json &columns, const char *key, size_t i, float fallback)
{
    const auto it = columns.find(key);
    if (it == columns.end() || !it->is_array() || i >= it->size() || !(*it)[i].is_number())
        return fallback;
    return (*it)[i].get<float>();
}

// A record's "tried" list; absent (a gateway from before it was recorded) or malformed entries give
// fewer attempts, never a failed page. Bounded as the gateway bounds it.
QList<stats::Attempt> attemptsOf(const nlohmann::json &record)
{
    QList<stats::Attempt> out;
    const auto list = record.find("tried");
    if (list == record.end() || !list->is_array())
        return out;
    for (const nlohmann::json &j : *list) {
        if (out.size() >= stats::RequestRecord::MaxAttemptsListed)
            break;
        if (!j.is_object())
            continue;
        stats::Attempt a;
        a.node = str(j, "node");
        a.status = int(integer(j, "status", 0));
        a.outcome = stats::attemptOutcomeFromName(str(j, "outcome").toLatin1())
                        .value_or(stats::Attempt::Outcome::Open);
        a.via = stats::attemptViaFromName(str(j, "via").toLatin1()).value_or(stats::Attempt::Via::Candidate);
        a.fallbackModel = str(j, "fallback_model");
        a.startMs = integer(j, "start_ms", 0);
        a.durationMs = integer(j, "duration_ms", 0);
        a.reason = str(j, "reason").left(stats::RequestRecord::MaxReasonChars);
        out.append(std::move(a));
    }
    return out;
}

// One record of /api/requests or /api/history/requests (statusapi's requestRecordJson).
stats::RequestRecord recordOf(const nlohmann::json &r)
{
    stats::RequestRecord rec;
    rec.startedMsSinceEpoch = integer(r, "started_ms_since_epoch", 0);
    rec.method = str(r, "method").toLatin1();
    rec.path = str(r, "path").toUtf8();
    rec.model = str(r, "model");
    rec.node = str(r, "node");
    rec.route = str(r, "route"); // absent from a gateway before routing reasons: empty
    rec.status = int(integer(r, "status", 0));
    rec.attempts = int(integer(r, "attempts", 0));
    rec.stream = r.value("stream", false);
    rec.ttftMs = integer(r, "ttft_ms", -1);
    rec.durationMs = integer(r, "duration_ms", 0);
    rec.promptTokens = integer(r, "prompt_tokens", -1);
    rec.completionTokens = integer(r, "completion_tokens", -1);
    rec.error = str(r, "error");
    rec.keyId = str(r, "key"); // null or absent: no virtual key
    rec.tried = attemptsOf(r);
    return rec;
}

// An exact-match filter of the history API, left out when empty; encoded so '&', '+' or spaces in a
// model's name reach the gateway as typed.
void addFilter(QUrlQuery &q, const QString &name, const QString &value)
{
    if (!value.isEmpty())
        q.addQueryItem(name, QString::fromLatin1(QUrl::toPercentEncoding(value)));
}

int majorOf(const QString &version)
{
    bool ok = false;
    const int major = version.section(u'.', 0, 0).toInt(&ok);
    return ok ? major : -1;
}

} // namespace

Expected<RequestsPage, QString> parseRequestsPage(QByteArrayView body)
{
    const nlohmann::json j = parseJson(body);
    if (j.is_discarded() || !j.is_object())
        return unexpected(u"the request log is not JSON"_s);
    const auto list = j.find("requests");
    if (list == j.end() || !list->is_array() || !j.contains("cursor") || !j["cursor"].is_number_unsigned())
        return unexpected(u"the request log lacks cursor or requests"_s);
    RequestsPage page;
    page.cursor = j["cursor"].get<quint64>();
    page.missed = integer(j, "missed", 0);
    page.records.reserve(qsizetype(list->size()));
    for (const nlohmann::json &r : *list) {
        if (!r.is_object())
            return unexpected(u"a request log entry is not an object"_s);
        page.records.append(recordOf(r));
    }
    return page;
}

Expected<history::HistoryPage, QString> parseHistoryPage(QByteArrayView body)
{
    const nlohmann::json j = parseJson(body);
    if (j.is_discarded() || !j.is_object())
        return unexpected(u"the history search is not JSON"_s);
    const auto list = j.find("data");
    if (list == j.end() || !list->is_array())
        return unexpected(u"the history search lacks data"_s);
    history::HistoryPage page;
    page.entries.reserve(list->size());
    for (const nlohmann::json &r : *list) {
        if (!r.is_object())
            return unexpected(u"a history entry is not an object"_s);
        page.entries.push_back({integer(r, "id", 0), recordOf(r)});
    }
    page.nextBeforeId = integer(j, "next_before", 0); // null on the last page
    return page;
}

QString historySearchPath(const history::HistoryQuery &query)
{
    using S = history::HistoryQuery::Status;
    QUrlQuery q;
    if (query.fromMs > 0)
        q.addQueryItem(u"from"_s, QString::number(query.fromMs));
    if (query.toMs > 0)
        q.addQueryItem(u"to"_s, QString::number(query.toMs));
    addFilter(q, u"key"_s, query.keyId);
    addFilter(q, u"model"_s, query.model);
    addFilter(q, u"node"_s, query.node);
    static const std::pair<S, const char16_t *> Statuses[] = {{S::Ok, u"ok"},
                                                              {S::ClientError, u"client_error"},
                                                              {S::ServerError, u"server_error"},
                                                              {S::Failed, u"failed"}};
    for (const auto &[status, name] : Statuses) {
        if (query.status == status)
            q.addQueryItem(u"status"_s, QString::fromUtf16(name));
    }
    q.addQueryItem(u"limit"_s, QString::number(std::clamp(query.limit, 1, history::HistoryQuery::MaxLimit)));
    if (query.beforeId > 0)
        q.addQueryItem(u"before"_s, QString::number(query.beforeId));
    return u"/api/history/requests?"_s % q.query(QUrl::FullyEncoded);
}

Expected<std::vector<history::RollupPoint>, QString> parseRollups(QByteArrayView body)
{
    const nlohmann::json j = parseJson(body);
    if (j.is_discarded() || !j.is_object())
        return unexpected(u"the history's sums are not JSON"_s);
    const auto list = j.find("data");
    if (list == j.end() || !list->is_array())
        return unexpected(u"the history's sums lack data"_s);
    // Split sums name their group in a member called after the split ("node", "model" or "key").
    const auto splitIt = j.find("split");
    const std::string groupMember = splitIt != j.end() && splitIt->is_string() ? splitIt->get<std::string>() : std::string();
    std::vector<history::RollupPoint> points;
    points.reserve(list->size());
    for (const nlohmann::json &b : *list) {
        if (!b.is_object())
            return unexpected(u"a bucket of the history's sums is not an object"_s);
        history::RollupPoint p;
        if (!groupMember.empty()) {
            const auto g = b.find(groupMember);
            if (g != b.end() && g->is_string())
                p.group = QString::fromStdString(g->get<std::string>());
            const auto name = b.find("key_name"); // split by key
            if (name != b.end() && name->is_string())
                p.groupName = QString::fromStdString(name->get<std::string>());
        }
        p.bucketStartMs = integer(b, "bucket_start_ms", 0);
        p.requests = integer(b, "requests", 0);
        p.errors = integer(b, "errors", 0);
        p.clientErrors = integer(b, "client_errors", 0);
        p.promptTokens = integer(b, "prompt_tokens", 0);
        p.completionTokens = integer(b, "completion_tokens", 0);
        const auto number = [&b](const char *key, double fallback) {
            const auto it = b.find(key);
            return it != b.end() && it->is_number() ? it->get<double>() : fallback;
        };
        p.meanDurationMs = number("mean_duration_ms", 0);
        p.meanTtftMs = number("mean_ttft_ms", -1); // null: no request of the bucket had a first byte
        points.push_back(p);
    }
    return points;
}

QString rollupsPath(const history::RollupQuery &query)
{
    QUrlQuery q;
    if (query.fromMs > 0)
        q.addQueryItem(u"from"_s, QString::number(query.fromMs));
    if (query.toMs > 0)
        q.addQueryItem(u"to"_s, QString::number(query.toMs));
    q.addQueryItem(u"bucket_minutes"_s, QString::number(std::clamp(query.bucketMinutes, 1, 7 * 24 * 60)));
    addFilter(q, u"node"_s, query.node);
    addFilter(q, u"model"_s, query.model);
    addFilter(q, u"key"_s, query.keyId);
    if (query.split != history::RollupSplit::None)
        q.addQueryItem(u"split"_s, QString::fromLatin1(history::rollupSplitName(query.split)));
    return u"/api/history/rollups?"_s % q.query(QUrl::FullyEncoded);
}

Expected<QList<stats::SecondSample>, QString> parseHistorySeries(QByteArrayView body, const QString &series)
{
    const nlohmann::json j = parseJson(body);
    if (j.is_discarded() || !j.is_object() || !j.contains("series") || !j["series"].is_object())
        return unexpected(u"the history is not the management API's JSON"_s);
    const auto it = j["series"].find(series.toStdString());
    QList<stats::SecondSample> out;
    if (it == j["series"].end() || !it->is_object())
        return out;
    const nlohmann::json &c = *it;
    const auto seconds = c.find("second");
    if (seconds == c.end() || !seconds->is_array())
        return unexpected(u"history series '%1' has no seconds"_s.arg(series));
    out.reserve(qsizetype(seconds->size()));
    for (size_t i = 0; i < seconds->size(); ++i) {
        stats::SecondSample s;
        s.second = (*seconds)[i].is_number() ? (*seconds)[i].get<qint64>() : 0;
        s.requests = numberAt(c, "requests_per_s", i, 0);
        s.errors = numberAt(c, "errors_per_s", i, 0);
        s.failedAttempts = numberAt(c, "failed_attempts_per_s", i, 0);
        s.promptTokens = numberAt(c, "prompt_tokens_per_s", i, 0);
        s.completionTokens = numberAt(c, "completion_tokens_per_s", i, 0);
        s.inFlight = numberAt(c, "in_flight", i, 0);
        s.ttftP50Ms = numberAt(c, "ttft_p50_ms", i, -1);
        s.latencyP50Ms = numberAt(c, "latency_p50_ms", i, -1);
        s.latencyP95Ms = numberAt(c, "latency_p95_ms", i, -1);
        s.prefixHitRate = numberAt(c, "prefix_cache_hit_rate", i, -1);
        out.append(s);
    }
    return out;
}

link::ConfigPutResult configPutResultOf(int status, QByteArrayView body)
{
    using Outcome = link::ConfigPutResult::Outcome;
    link::ConfigPutResult r;
    const nlohmann::json j = parseJson(body);
    const bool object = !j.is_discarded() && j.is_object();
    if (status == 200 && object) {
        r.outcome = Outcome::Applied;
        r.summary = str(j, "summary");
        if (const QString listen = str(j, "listen_error"); !listen.isEmpty())
            r.summary += u"; "_s % listen;
        r.savedTo = str(j, "saved_to");
        r.configHash = str(j, "config_hash");
        return r;
    }
    const QString message = openai::errorMessageFromBody(body);
    if (status == 412) {
        r.outcome = Outcome::Stale;
        r.reason = message.isEmpty() ? u"the running config changed since it was read"_s : message;
        if (object)
            r.configHash = str(j, "config_hash"); // the one running now: what an overwrite would need
        return r;
    }
    if (status == 422) {
        r.outcome = Outcome::Invalid;
        r.reason = message;
        if (object && j.contains("problems") && j["problems"].is_array()) {
            for (const nlohmann::json &p : j["problems"]) {
                if (p.is_object())
                    r.problems.append(str(p, "text").isEmpty() ? str(p, "message") : str(p, "text"));
            }
        }
        if (r.problems.isEmpty() && !message.isEmpty())
            r.problems.append(message);
        return r;
    }
    r.outcome = Outcome::Failed;
    r.reason =
        u"the gateway answered %1%2"_s.arg(status).arg(message.isEmpty() ? QString() : u": "_s % message);
    return r;
}

Expected<link::GatewayStatus, QString> statusFromBody(QByteArrayView body, const QString &panelVersion)
{
    const nlohmann::json j = parseJson(body);
    if (j.is_discarded())
        return unexpected(u"GET /api/status did not answer JSON (it starts with \"%1\")"_s.arg(
            openai::bodyExcerpt(body.first(std::min<qsizetype>(body.size(), 40)))));
    auto status = link::gatewayStatusFromJson(j);
    if (!status)
        return unexpected(u"GET /api/status is not a Switchyard status (%1)"_s.arg(status.error()));
    const int theirs = majorOf(status->version), ours = majorOf(panelVersion);
    if (theirs != ours)
        return unexpected(u"the gateway runs Switchyard %1, another major version than this panel's %2"_s.arg(
            status->version, panelVersion));
    return status;
}

QString unquotedEntityTag(QByteArrayView value)
{
    QByteArrayView v = value.trimmed();
    if (v.startsWith("W/"))
        v = v.sliced(2);
    if (v.size() >= 2 && v.startsWith('"') && v.endsWith('"'))
        v = v.sliced(1, v.size() - 2);
    return QString::fromLatin1(v);
}

QByteArray nodeActionName(link::NodeAction action)
{
    switch (action) {
    case link::NodeAction::Drain:
        return "drain";
    case link::NodeAction::Enable:
        return "enable";
    case link::NodeAction::Probe:
        return "probe";
    }
    return "probe";
}

} // namespace switchyard::client
