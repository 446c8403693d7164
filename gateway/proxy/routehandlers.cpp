#include "proxy/routehandlers.h"

#include "http/jsonbodyscanner.h"
#include "proxy/configresponses.h"
#include "proxy/dispatcher.h"
#include "proxy/gatewaycommandexchange.h"
#include "proxy/keyadmission.h"
#include "proxy/storedresponses.h"
#include "proxy/statusapi.h"
#include "proxy/usagerequest.h"

#include <QDateTime>
#include <cstring>
#include <nlohmann/json.hpp>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::proxy::handlers {

namespace {

LocalResponse jsonResponse(int status, const nlohmann::json &j)
{
    const std::string text = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return {status, "Content-Type: application/json\r\n", QByteArray(text.data(), qsizetype(text.size()))};
}

nlohmann::json modelObject(const routing::RoutingTable::ModelInfo &m, qint64 created)
{
    return {{"id", m.id.toStdString()},
            {"object", "model"},
            {"created", created},
            {"owned_by", m.providers.join(u',').toStdString()}};
}

// The statistics are there in every running gateway; a dispatcher driven without them says so.
std::optional<LocalResponse> withoutStats(const ExchangeContext &context)
{
    if (context.stats)
        return std::nullopt;
    return errorResponse(503, u"The gateway keeps no statistics here"_s, "unavailable");
}

bool paused(const ExchangeContext &context)
{
    return context.control && context.control->runState && context.control->runState->isPaused();
}

link::RunState runStateOf(const ExchangeContext &context)
{
    // Without a Gateway (a dispatcher driven by a test) a worker answers, so the gateway runs.
    return context.control && context.control->runState ? context.control->runState->get() : link::RunState{};
}

Dispatch command(const ExchangeContext &context, GatewayCommand c, ResponseSink *sink)
{
    Dispatch d;
    d.exchange = std::make_unique<GatewayCommandExchange>(context.control, std::move(c), sink);
    return d;
}

// The body checks every proxied POST passes before a node is chosen.
std::optional<LocalResponse> bodyProblem(const http::ScannedBody &scan)
{
    if (!scan.valid) {
        return errorResponse(400, u"The request body is not valid JSON: "_s % QString::fromUtf8(scan.error)
                                      % u" at byte "_s % QString::number(scan.errorOffset),
                             "invalid_json");
    }
    if (!scan.isObject)
        return errorResponse(400, u"The request body must be a JSON object"_s, "invalid_json");
    if (!scan.model || scan.model->isEmpty()) {
        return errorResponse(400,
                             scan.modelPresentButNotString ? u"The field 'model' must be a string"_s
                                                           : u"Missing required field 'model'"_s,
                             "missing_model", "model");
    }
    if (scan.fallbacksInvalid) {
        return errorResponse(400, u"The field 'fallbacks' must be an array of model names"_s, "invalid_fallbacks",
                             "fallbacks");
    }
    return std::nullopt;
}

} // namespace

Expected<Target, LocalResponse> buildTarget(const routing::RoutingTable &table, const QByteArray &model,
                                            config::RequestKind kind, const routing::RouteRequest &routeRequest)
{
    routing::ResolveError err;
    std::optional<routing::Route> route = table.resolve(model, &err, routeRequest);
    if (!route)
        return unexpected(errorResponse(err.status, err.message, err.code, "model"));
    std::vector<routing::PoolEntry> allowed;
    for (const routing::PoolEntry &e : route->candidates) {
        if (table.nodes()[size_t(e.node)].provider.allowed.allows(kind))
            allowed.push_back(e);
    }
    if (allowed.empty() && !route->candidates.empty()) {
        const QString flag = QString::fromLatin1(config::flagName(kind));
        const QString who = route->pinned
                                ? u"The provider '"_s % table.nodes()[size_t(route->candidates[0].node)].name
                                      % u"' does not allow "_s
                                : u"No provider serving '"_s % QString::fromUtf8(model) % u"' allows "_s;
        return unexpected(errorResponse(
            400, who % flag % u" requests (custom_provider_config.allowed_requests."_s % flag % u" is not true)"_s,
            "request_type_not_allowed"));
    }
    route->candidates = std::move(allowed);
    return Target{QString::fromUtf8(model), std::move(*route)};
}

namespace {

// What session_affinity and cache_aware read: the session's key (the configured header, else OpenAI's
// prompt_cache_key, else user) and the prompt's bytes, all found by the one scan of the body.
routing::RouteRequest routeRequestOf(const http::Request &request, const http::ScannedBody &scan,
                                     const config::GatewaySettings &settings)
{
    routing::RouteRequest r;
    r.sessionKey = request.header(settings.affinity.sessionHeader);
    if (r.sessionKey.isEmpty() && scan.promptCacheKey)
        r.sessionKey = *scan.promptCacheKey;
    if (r.sessionKey.isEmpty() && scan.user)
        r.sessionKey = *scan.user;
    if (scan.promptValue.isValid())
        r.prompt = QByteArrayView(request.body).sliced(scan.promptValue.begin,
                                                       scan.promptValue.end - scan.promptValue.begin);
    return r;
}

// Whether every node the request may be sent to (failovers and last resorts included) takes the
// stream_options member the gateway adds to ask for usage: one body goes to all of them.
bool everyCandidateTakesStreamUsage(const routing::RoutingTable &table, const std::vector<Target> &targets)
{
    for (const Target &t : targets) {
        for (const routing::PoolEntry &e : t.route.candidates) {
            if (!table.nodes()[size_t(e.node)].provider.streamUsage)
                return false;
        }
    }
    return true;
}

} // namespace

Dispatch health(const Route &, const http::Request &, const ExchangeContext &context, ResponseSink *)
{
    // A load balancer in front of replicas takes a paused one out of its pool.
    if (paused(context)) {
        LocalResponse r = jsonResponse(503, {{"status", "paused"}});
        r.headerLines += "Retry-After: 5\r\n";
        return answer(std::move(r));
    }
    return answer(jsonResponse(200, {{"status", "ok"}}));
}

Dispatch listModels(const Route &, const http::Request &, const ExchangeContext &context, ResponseSink *)
{
    const qint64 created = QDateTime::currentSecsSinceEpoch();
    nlohmann::json data = nlohmann::json::array();
    for (const auto &m : context.table->models())
        data.push_back(modelObject(m, created));
    return answer(jsonResponse(200, {{"object", "list"}, {"data", std::move(data)}}));
}

Dispatch describeModel(const Route &, const http::Request &request, const ExchangeContext &context, ResponseSink *)
{
    const QByteArray encoded = request.path.sliced(qsizetype(std::strlen("/v1/models/"))); // a copy: a view of the temporary would dangle
    const QString id = QString::fromUtf8(QByteArray::fromPercentEncoding(encoded));
    for (const auto &m : context.table->models()) {
        if (m.id == id)
            return answer(jsonResponse(200, modelObject(m, QDateTime::currentSecsSinceEpoch())));
    }
    return answer(errorResponse(404, u"The model '"_s % id % u"' does not exist"_s, "model_not_found"));
}

Dispatch proxied(const Route &route, const http::Request &request, const ExchangeContext &context, ResponseSink *sink)
{
    if (paused(context))
        return answer(gatewayPausedResponse());
    http::ScannedBody scan = http::scanRequestBody(request.body);
    if (auto problem = bodyProblem(scan))
        return answer(std::move(*problem));
    const config::RequestKind kind = requestKind(route, scan.stream);
    std::vector<Target> targets;
    const routing::RouteRequest routeRequest = routeRequestOf(request, scan, context.table->config().settings);
    auto primary = buildTarget(*context.table, *scan.model, kind, routeRequest);
    if (!primary)
        return answer(primary.error());
    targets.push_back(std::move(*primary));
    for (const QByteArray &fb : scan.fallbacks) {
        if (auto fallback = buildTarget(*context.table, fb, kind, routeRequest))
            targets.push_back(std::move(*fallback));
    }

    std::optional<KeyHold> hold;
    if (auto refused = admitKey(context, *scan.model, targets, hold))
        return answer(std::move(*refused));
    if (request.path == "/v1/responses")
        stickToPreviousResponse(request.body, context, targets.front());

    stats::RequestRecord record;
    record.startedMsSinceEpoch = QDateTime::currentMSecsSinceEpoch();
    record.method = request.method;
    record.path = request.path;
    record.model = targets.front().label; // the model asked for, converted once (buildTarget)
    record.stream = scan.stream;
    record.route = targets.front().route.reason;
    // Every stream gets exact usage: asked of the node when the client did not, and taken back out —
    // unless a node the request may reach refuses stream_options (custom_provider_config.stream_usage).
    const std::optional<QByteArray> askingForUsage =
        streamCanCarryUsage(request.path) && everyCandidateTakesStreamUsage(*context.table, targets)
            ? bodyAskingForUsage(request.body, scan)
            : std::nullopt;
    auto exchange = std::make_unique<ProxyExchange>(
        context, sink, request.path, http::makeBodyTemplate(askingForUsage ? *askingForUsage : request.body, scan),
        std::move(targets), scan.stream, std::move(record));
    if (askingForUsage)
        exchange->takeBackAskedUsage();
    if (hold)
        exchange->chargeTo(std::move(*hold));
    exchange->speak(apiFamilyForPath(request.path));
    if (request.path == "/v1/responses")
        exchange->rememberCreatedResponse(responseIds(context));
    Dispatch d;
    d.exchange = std::move(exchange);
    return d;
}

Dispatch metrics(const Route &, const http::Request &, const ExchangeContext &context, ResponseSink *)
{
    if (auto missing = withoutStats(context))
        return answer(std::move(*missing));
    return answer(metricsResponse(*context.table, *context.stats));
}

Dispatch status(const Route &, const http::Request &, const ExchangeContext &context, ResponseSink *)
{
    if (auto missing = withoutStats(context))
        return answer(std::move(*missing));
    return answer(statusResponse(*context.table, *context.stats, runStateOf(context)));
}

Dispatch history(const Route &, const http::Request &request, const ExchangeContext &context, ResponseSink *)
{
    if (auto missing = withoutStats(context))
        return answer(std::move(*missing));
    return answer(historyResponse(*context.stats, request.target));
}

Dispatch requestLog(const Route &, const http::Request &request, const ExchangeContext &context, ResponseSink *)
{
    if (auto missing = withoutStats(context))
        return answer(std::move(*missing));
    return answer(requestsResponse(*context.stats, request.target));
}

Dispatch config(const Route &, const http::Request &request, const ExchangeContext &context, ResponseSink *sink)
{
    // The worker's table holds the running config: the same one /api/status hashes.
    if (request.method != "PUT")
        return answer(configDocumentResponse(context.table->config()));
    ConfigPutCommand put;
    put.text = request.body;
    put.ifMatch = QString::fromLatin1(request.header("if-match"));
    return command(context, std::move(put), sink);
}

Dispatch nodeAction(const Route &, const http::Request &request, const ExchangeContext &context, ResponseSink *sink)
{
    auto target = nodeActionTarget(*context.table, request.path);
    if (!target)
        return answer(target.error());
    if (target->action == "probe")
        return command(context, ProbeCommand{target->node}, sink);
    return answer(nodeDrainResponse(*context.table, *target));
}

Dispatch pauseGateway(const Route &, const http::Request &, const ExchangeContext &context, ResponseSink *sink)
{
    return command(context, PauseCommand{true}, sink);
}

Dispatch resumeGateway(const Route &, const http::Request &, const ExchangeContext &context, ResponseSink *sink)
{
    return command(context, PauseCommand{false}, sink);
}

} // namespace switchyard::proxy::handlers
