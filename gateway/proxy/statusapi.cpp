#include "statusapi.h"

#include "common/clock.h"
#include "link/gatewaystatus.h"

#include <QUrlQuery>
#include <cstring>
#include <nlohmann/json.hpp>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::proxy {

namespace {

const health::NodeState AllStates[] = {health::NodeState::Unknown,  health::NodeState::Healthy,
                                       health::NodeState::Degraded, health::NodeState::Down,
                                       health::NodeState::Recovering, health::NodeState::Draining};

QByteArray escapeLabel(const QString &v)
{
    QByteArray out;
    for (char c : v.toUtf8()) {
        if (c == '\\' || c == '"')
            out += '\\';
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        out += c;
    }
    return out;
}

QByteArray num(double v)
{
    return QByteArray::number(v, 'g', 12);
}

void header(QByteArray &out, const char *name, const char *type, const char *help)
{
    out += QByteArray("# HELP ") + name + ' ' + help + "\n# TYPE " + name + ' ' + type + '\n';
}

void histogram(QByteArray &out, const char *name, const QByteArray &labels, const stats::HistogramSnapshot &h)
{
    qint64 cumulative = 0;
    const QByteArray sep = labels.isEmpty() ? QByteArray() : labels + ',';
    for (size_t i = 0; i < h.counts.size(); ++i) {
        cumulative += h.counts[i];
        const QByteArray le = i + 1 == h.counts.size() ? QByteArray("+Inf") : num(stats::HistogramBoundsMs[i] / 1000.0);
        out += QByteArray(name) + "_bucket{" + sep + "le=\"" + le + "\"} " + QByteArray::number(cumulative) + '\n';
    }
    const QByteArray braces = labels.isEmpty() ? QByteArray() : '{' + labels + '}';
    out += QByteArray(name) + "_sum" + braces + ' ' + num(h.sumMs / 1000.0) + '\n';
    out += QByteArray(name) + "_count" + braces + ' ' + QByteArray::number(h.count) + '\n';
}

nlohmann::json orNull(double v)
{
    return v < 0 ? nlohmann::json(nullptr) : nlohmann::json(v);
}

// The nodes a request was sent to, in order (docs/MANAGEMENT-API.md, GET /api/requests).
nlohmann::json attemptsJson(const QList<stats::Attempt> &tried)
{
    nlohmann::json out = nlohmann::json::array();
    for (const stats::Attempt &a : tried) {
        nlohmann::json j = {{"node", a.node.toStdString()},
                            {"status", a.status > 0 ? nlohmann::json(a.status) : nlohmann::json(nullptr)},
                            {"outcome", stats::attemptOutcomeName(a.outcome).toStdString()},
                            {"via", stats::attemptViaName(a.via).toStdString()},
                            {"start_ms", a.startMs},
                            {"duration_ms", a.durationMs},
                            {"reason", a.reason.toStdString()}};
        if (!a.fallbackModel.isEmpty())
            j["fallback_model"] = a.fallbackModel.toStdString();
        out.push_back(std::move(j));
    }
    return out;
}


} // namespace

LocalResponse prettyJsonResponse(int status, const nlohmann::json &j)
{
    const std::string text = j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    return {status, "Content-Type: application/json\r\n", QByteArray(text.data(), qsizetype(text.size()))};
}

LocalResponse metricsResponse(const routing::RoutingTable &table, const stats::GatewayStats &stats)
{
    QByteArray out;
    out.reserve(8192);
    header(out, "switchyard_requests_total", "counter", "Client requests handled by the gateway.");
    out += "switchyard_requests_total " + QByteArray::number(stats.requestsTotal.load()) + '\n';
    header(out, "switchyard_errors_total", "counter", "Client requests answered with a 5xx status or cut.");
    out += "switchyard_errors_total " + QByteArray::number(stats.errorsTotal.load()) + '\n';
    header(out, "switchyard_requests_in_flight", "gauge", "Client requests being answered.");
    out += "switchyard_requests_in_flight " + QByteArray::number(stats.inFlight.load()) + '\n';
    header(out, "switchyard_open_connections", "gauge", "Open client connections.");
    out += "switchyard_open_connections " + QByteArray::number(stats.openConnections.load()) + '\n';
    header(out, "switchyard_history_dropped_total", "counter",
           "Request records the lasting history dropped because its writer fell behind the disk.");
    out += "switchyard_history_dropped_total " + QByteArray::number(stats.historyDropped.load()) + '\n';
    header(out, "switchyard_time_to_first_byte_seconds", "histogram", "Time to the first response byte, 2xx requests.");
    histogram(out, "switchyard_time_to_first_byte_seconds", {}, stats.ttft.snapshot());
    header(out, "switchyard_request_duration_seconds", "histogram", "Whole request duration, 2xx requests.");
    histogram(out, "switchyard_request_duration_seconds", {}, stats.latency.snapshot());

    const qint64 now = Clock::nowMs(); // the time health verdicts are kept in
    struct Counter
    {
        const char *name, *help;
        qint64 (*read)(const stats::NodeCounters &);
    };
    const Counter counters[] = {
        {"switchyard_node_attempts_total", "Attempts sent to the node.", [](const stats::NodeCounters &c) { return c.requests.load(); }},
        {"switchyard_node_failures_total", "Attempts that failed (failed over or failed the request).",
         [](const stats::NodeCounters &c) { return c.failures.load(); }},
        {"switchyard_node_prompt_tokens_total", "Prompt tokens of requests the node answered.",
         [](const stats::NodeCounters &c) { return c.promptTokens.load(); }},
        {"switchyard_node_completion_tokens_total", "Completion tokens the node generated for clients.",
         [](const stats::NodeCounters &c) { return c.completionTokens.load(); }},
    };
    for (const Counter &c : counters) {
        header(out, c.name, "counter", c.help);
        for (const routing::Node &n : table.nodes()) {
            out += QByteArray(c.name) + "{node=\"" + escapeLabel(n.name) + "\"} "
                   + QByteArray::number(c.read(n.runtime->counters)) + '\n';
        }
    }
    header(out, "switchyard_node_in_flight", "gauge", "Attempts in flight at the node.");
    for (const routing::Node &n : table.nodes())
        out += "switchyard_node_in_flight{node=\"" + escapeLabel(n.name) + "\"} "
               + QByteArray::number(n.runtime->counters.inFlight.load()) + '\n';
    // Only nodes that export vLLM's prefix-cache counters: an absent series, not a 0, for the others.
    header(out, "switchyard_node_prefix_cache_hit_ratio", "gauge",
           "The node's prefix-cache hit rate (0-1) over the last minute, from its vllm:prefix_cache counters.");
    for (const routing::Node &n : table.nodes()) {
        const int permille = n.runtime->health.prefixHitPermille.load();
        if (permille >= 0)
            out += "switchyard_node_prefix_cache_hit_ratio{node=\"" + escapeLabel(n.name) + "\"} "
                   + QByteArray::number(permille / 1000.0) + '\n';
    }
    header(out, "switchyard_node_up", "gauge", "1 when the node takes traffic (healthy, degraded or recovering).");
    for (const routing::Node &n : table.nodes()) {
        const health::NodeState s = n.runtime->health.state(now);
        const bool up = s == health::NodeState::Healthy || s == health::NodeState::Degraded
                        || s == health::NodeState::Recovering || s == health::NodeState::Unknown;
        out += "switchyard_node_up{node=\"" + escapeLabel(n.name) + "\"} " + (up ? "1" : "0") + '\n';
    }
    header(out, "switchyard_node_state", "gauge", "The node's health state (1 for the current one).");
    for (const routing::Node &n : table.nodes()) {
        const health::NodeState s = n.runtime->health.state(now);
        for (health::NodeState st : AllStates)
            out += "switchyard_node_state{node=\"" + escapeLabel(n.name) + "\",state=\"" + health::nodeStateName(st)
                   + "\"} " + (st == s ? "1" : "0") + '\n';
    }
    header(out, "switchyard_node_time_to_first_byte_seconds", "histogram", "Node's time to first byte, successful attempts.");
    for (const routing::Node &n : table.nodes())
        histogram(out, "switchyard_node_time_to_first_byte_seconds", "node=\"" + escapeLabel(n.name) + '"',
                  n.runtime->ttft.snapshot());
    return {200, "Content-Type: text/plain; version=0.0.4; charset=utf-8\r\n", out};
}

LocalResponse statusResponse(const routing::RoutingTable &table, const stats::GatewayStats &stats,
                             const link::RunState &run)
{
    return prettyJsonResponse(200, link::toJson(link::gatewayStatusOf(table, stats, run)));
}

namespace {

int queryInt(const QUrlQuery &q, const QString &key, int fallback, int min, int max)
{
    bool ok = false;
    const int v = q.queryItemValue(key).toInt(&ok);
    return ok ? std::clamp(v, min, max) : fallback;
}

} // namespace

QUrlQuery queryOf(QByteArrayView target)
{
    const qsizetype q = target.indexOf('?');
    return q < 0 ? QUrlQuery() : QUrlQuery(QString::fromUtf8(target.sliced(q + 1)));
}

LocalResponse historyResponse(const stats::GatewayStats &stats, QByteArrayView target)
{
    const QUrlQuery query = queryOf(target);
    const int seconds = queryInt(query, u"seconds"_s, 300, 1, stats::SecondsHistory::Capacity);
    const QString only = query.queryItemValue(u"node"_s, QUrl::FullyDecoded);
    nlohmann::json series = nlohmann::json::object();
    for (const QString &name : stats.history.seriesNames()) {
        if (!only.isEmpty() && name != only && name != stats::SecondsHistory::GatewaySeries)
            continue;
        // Columns, not one object per second: an hour of a node is 3,600 rows.
        nlohmann::json t = nlohmann::json::array(), req = t, err = t, failedAttempts = t, pt = t, ct = t, inflight = t, ttft = t,
                       p50 = t, p95 = t, hits = t;
        for (const stats::SecondSample &x : stats.history.last(name, seconds)) {
            t.push_back(x.second);
            req.push_back(x.requests);
            err.push_back(x.errors);
            failedAttempts.push_back(x.failedAttempts);
            pt.push_back(x.promptTokens);
            ct.push_back(x.completionTokens);
            inflight.push_back(x.inFlight);
            ttft.push_back(orNull(x.ttftP50Ms));
            p50.push_back(orNull(x.latencyP50Ms));
            p95.push_back(orNull(x.latencyP95Ms));
            hits.push_back(orNull(x.prefixHitRate));
        }
        series[name.toStdString()] = {{"second", t},           {"requests_per_s", req},
                                      {"errors_per_s", err},  {"failed_attempts_per_s", failedAttempts},
                                      {"prompt_tokens_per_s", pt},
                                      {"completion_tokens_per_s", ct}, {"in_flight", inflight},
                                      {"ttft_p50_ms", ttft},  {"latency_p50_ms", p50},
                                      {"latency_p95_ms", p95}, {"prefix_cache_hit_rate", hits}};
    }
    return prettyJsonResponse(200, {{"interval_s", 1}, {"gateway_series", stats::SecondsHistory::GatewaySeries.toStdString()},
                      {"series", series}});
}

nlohmann::json requestRecordJson(const stats::RequestRecord &r)
{
    const auto orNull = [](qint64 v) { return v < 0 ? nlohmann::json(nullptr) : nlohmann::json(v); };
    return {{"started_ms_since_epoch", r.startedMsSinceEpoch},
            {"method", r.method.toStdString()},
            {"path", r.path.toStdString()},
            {"model", r.model.toStdString()},
            {"node", r.node.toStdString()},
            {"route", r.route.toStdString()},
            {"key", r.keyId.isEmpty() ? nlohmann::json(nullptr) : nlohmann::json(r.keyId.toStdString())},
            {"status", r.status},
            {"attempts", r.attempts},
            {"stream", r.stream},
            {"ttft_ms", orNull(r.ttftMs)},
            {"duration_ms", r.durationMs},
            {"prompt_tokens", orNull(r.promptTokens)},
            {"completion_tokens", orNull(r.completionTokens)},
            {"error", r.error.toStdString()},
            {"tried", attemptsJson(r.tried)}};
}

LocalResponse requestsResponse(const stats::GatewayStats &stats, QByteArrayView target)
{
    const QUrlQuery query = queryOf(target);
    bool ok = false;
    const quint64 after = query.queryItemValue(u"after"_s).toULongLong(&ok);
    const int max = queryInt(query, u"max"_s, 100, 1, stats::GatewayStats::RecentRequestsCapacity);
    const stats::RecentRequests::Page page = stats.recent().since(ok ? after : 0, max);
    nlohmann::json records = nlohmann::json::array();
    for (const stats::RequestRecord &r : page.records)
        records.push_back(requestRecordJson(r));
    return prettyJsonResponse(200, {{"cursor", page.cursor}, {"missed", page.missed}, {"requests", records}});
}

Expected<NodeActionTarget, LocalResponse> nodeActionTarget(const routing::RoutingTable &table, QByteArrayView path)
{
    // /api/nodes/{name}/{action}
    const QByteArrayView rest = path.sliced(qsizetype(std::strlen("/api/nodes/")));
    const qsizetype slash = rest.lastIndexOf('/');
    if (slash <= 0)
        return unexpected(errorResponse(404, u"Use POST /api/nodes/{name}/drain, /enable or /probe"_s, "not_found"));
    NodeActionTarget t;
    t.node = QString::fromUtf8(QByteArray::fromPercentEncoding(rest.first(slash).toByteArray()));
    t.action = rest.sliced(slash + 1).toByteArray();
    if (t.action != "drain" && t.action != "enable" && t.action != "probe")
        return unexpected(errorResponse(404, u"Unknown node action; use drain, enable or probe"_s, "not_found"));
    if (table.nodeIndex(t.node) < 0)
        return unexpected(errorResponse(404, u"No node named '"_s % t.node % u"'"_s, "node_not_found"));
    return t;
}

LocalResponse nodeDrainResponse(const routing::RoutingTable &table, const NodeActionTarget &target)
{
    const bool draining = target.action == "drain";
    table.nodes()[size_t(table.nodeIndex(target.node))].runtime->health.setDraining(draining);
    return prettyJsonResponse(200, {{"node", target.node.toStdString()}, {"draining", draining}});
}

LocalResponse probeStartedResponse(const QString &node)
{
    return prettyJsonResponse(200, {{"node", node.toStdString()}, {"probe", "started"}});
}

LocalResponse pauseResponse(bool paused, bool accepting)
{
    return prettyJsonResponse(200, {{"paused", paused}, {"accepting", accepting}});
}

LocalResponse gatewayPausedResponse()
{
    LocalResponse r = errorResponse(503, u"The gateway is paused and takes no new requests; try again later"_s,
                                    "gateway_paused");
    r.headerLines += "Retry-After: 5\r\n";
    return r;
}

} // namespace switchyard::proxy
