#include "dispatcher.h"

#include "http/jsonbodyscanner.h"
#include "proxy/configupdateexchange.h"
#include "proxy/cors.h"
#include "proxy/openaierror.h"
#include "proxy/statusapi.h"

#include <QDateTime>
#include <nlohmann/json.hpp>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::proxy {

namespace {

const QByteArray JsonType = "Content-Type: application/json\r\n";

LocalResponse jsonResponse(int status, const nlohmann::json &j)
{
    const std::string text = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return {status, JsonType, QByteArray(text.data(), qsizetype(text.size()))};
}

// Compares without an early exit, so response timing does not reveal how much of a key matched.
bool constantTimeEquals(QByteArrayView a, QByteArrayView b)
{
    unsigned char diff = a.size() == b.size() ? 0 : 1;
    const qsizetype n = std::max(a.size(), b.size());
    for (qsizetype i = 0; i < n; ++i) {
        const unsigned char x = i < a.size() ? static_cast<unsigned char>(a[i]) : 0;
        const unsigned char y = i < b.size() ? static_cast<unsigned char>(b[i]) : 0;
        diff |= static_cast<unsigned char>(x ^ y);
    }
    return diff == 0;
}

bool authorised(const http::Request &request, const config::GatewaySettings &settings)
{
    if (settings.apiKeys.isEmpty())
        return true;
    QByteArrayView auth = request.header("authorization");
    if (!auth.startsWith("Bearer ") && !auth.startsWith("bearer "))
        return false;
    auth = auth.sliced(7).trimmed();
    bool ok = false;
    for (const QString &key : settings.apiKeys)
        ok |= constantTimeEquals(auth, key.toUtf8());
    return ok;
}

LocalResponse modelList(const routing::RoutingTable &table)
{
    const qint64 created = QDateTime::currentSecsSinceEpoch();
    nlohmann::json data = nlohmann::json::array();
    for (const auto &m : table.models()) {
        data.push_back({{"id", m.id.toStdString()},
                        {"object", "model"},
                        {"created", created},
                        {"owned_by", m.providers.join(u',').toStdString()}});
    }
    return jsonResponse(200, {{"object", "list"}, {"data", std::move(data)}});
}

struct Endpoint
{
    QByteArrayView path;
    QByteArrayView method;
};
constexpr Endpoint KnownEndpoints[] = {
    {"/v1/chat/completions", "POST"}, {"/v1/completions", "POST"}, {"/v1/embeddings", "POST"},
    {"/v1/models", "GET"},           {"/health", "GET"},
};

} // namespace

LocalResponse errorResponse(int status, const QString &message, const QByteArray &code, const QByteArray &param)
{
    return {status, JsonType, openAiErrorBody(status, message, code, param)};
}

Dispatch dispatchRequest(const http::Request &request, const ExchangeContext &context, ResponseSink *sink)
{
    Dispatch d;
    const routing::RoutingTable &table = *context.table;
    const QByteArrayView path = request.path;

    if (auto preflight = corsPreflight(request, table.config().settings)) {
        d.local = std::move(*preflight);
        return d;
    }
    if (path == "/health" && (request.method == "GET" || request.method == "HEAD")) {
        d.local = jsonResponse(200, {{"status", "ok"}});
        return d;
    }
    // Gateway management: loopback clients, or any client with a gateway API key when keys are set.
    if (path == "/metrics" || path.startsWith("/api/")) {
        const config::GatewaySettings &settings = table.config().settings;
        if (!settings.apiKeys.isEmpty() ? !authorised(request, settings) : !request.fromLoopback) {
            d.local = settings.apiKeys.isEmpty()
                          ? errorResponse(403, u"The management API answers loopback clients only unless "
                                               "switchyard.api_keys is set"_s, "forbidden")
                          : errorResponse(401, u"Missing or invalid API key: send Authorization: Bearer <key>"_s,
                                          "invalid_api_key");
            return d;
        }
        const bool get = request.method == "GET";
        if (path == "/metrics" && get && context.stats)
            d.local = metricsResponse(table, *context.stats);
        else if (path == "/api/status" && get && context.stats)
            d.local = statusResponse(table, *context.stats);
        else if (path == "/api/history" && get && context.stats)
            d.local = historyResponse(*context.stats, request.target);
        else if (path == "/api/requests" && get && context.stats)
            d.local = requestsResponse(*context.stats, request.target);
        else if (path == "/api/config" && request.method == "PUT")
            d.exchange = std::make_unique<ConfigUpdateExchange>(context.updateConfig, request.body, sink);
        else if (path.startsWith("/api/nodes/") && request.method == "POST")
            d.local = nodeActionResponse(table, path);
        else if (path == "/metrics" || path == "/api/status" || path == "/api/history" || path == "/api/requests"
                 || path == "/api/config" || path.startsWith("/api/nodes/"))
            d.local = errorResponse(405, u"Method not allowed here"_s, "method_not_allowed");
        else
            d.local = errorResponse(404, u"Unknown path "_s % QString::fromLatin1(path), "not_found");
        return d;
    }
    bool knownPath = false;
    for (const Endpoint &e : KnownEndpoints) {
        if (path == e.path) {
            knownPath = true;
            if (request.method != e.method) {
                d.local = errorResponse(405, u"Method "_s % QString::fromLatin1(request.method) % u" is not allowed on "_s
                                                 % QString::fromLatin1(path) % u"; use "_s % QString::fromLatin1(e.method),
                                        "method_not_allowed");
                d.local->headerLines += "Allow: " + e.method.toByteArray() + "\r\n";
                return d;
            }
        }
    }
    const bool modelsPath = path == "/v1/models" || path.startsWith("/v1/models/");
    if (!knownPath && !modelsPath) {
        d.local = errorResponse(404, u"Unknown path "_s % QString::fromLatin1(path)
                                         % u"; the gateway serves /v1/chat/completions, /v1/completions, "
                                           "/v1/embeddings and /v1/models"_s,
                                "not_found");
        return d;
    }
    if (!authorised(request, table.config().settings)) {
        d.local = errorResponse(401, u"Missing or invalid API key: send Authorization: Bearer <key>"_s, "invalid_api_key");
        return d;
    }
    if (modelsPath) {
        if (request.method != "GET") {
            d.local = errorResponse(405, u"Use GET on /v1/models"_s, "method_not_allowed");
            d.local->headerLines += "Allow: GET\r\n";
            return d;
        }
        if (path == "/v1/models") {
            d.local = modelList(table);
            return d;
        }
        const QString id = QString::fromUtf8(QByteArray::fromPercentEncoding(path.sliced(11).toByteArray()));
        for (const auto &m : table.models()) {
            if (m.id == id) {
                d.local = jsonResponse(200, {{"id", id.toStdString()},
                                             {"object", "model"},
                                             {"created", QDateTime::currentSecsSinceEpoch()},
                                             {"owned_by", m.providers.join(u',').toStdString()}});
                return d;
            }
        }
        d.local = errorResponse(404, u"The model '"_s % id % u"' does not exist"_s, "model_not_found");
        return d;
    }

    // A proxied POST.
    const http::ScannedBody scan = http::scanRequestBody(request.body);
    if (!scan.valid) {
        d.local = errorResponse(400, u"The request body is not valid JSON: "_s % QString::fromUtf8(scan.error)
                                         % u" at byte "_s % QString::number(scan.errorOffset),
                                "invalid_json");
        return d;
    }
    if (!scan.isObject) {
        d.local = errorResponse(400, u"The request body must be a JSON object"_s, "invalid_json");
        return d;
    }
    if (!scan.model || scan.model->isEmpty()) {
        d.local = errorResponse(400,
                                scan.modelPresentButNotString ? u"The field 'model' must be a string"_s
                                                              : u"Missing required field 'model'"_s,
                                "missing_model", "model");
        return d;
    }
    if (scan.fallbacksInvalid) {
        d.local = errorResponse(400, u"The field 'fallbacks' must be an array of model names"_s, "invalid_fallbacks",
                                "fallbacks");
        return d;
    }

    config::RequestKind kind;
    if (path == "/v1/chat/completions")
        kind = scan.stream ? config::RequestKind::ChatCompletionStream : config::RequestKind::ChatCompletion;
    else if (path == "/v1/completions")
        kind = scan.stream ? config::RequestKind::TextCompletionStream : config::RequestKind::TextCompletion;
    else
        kind = config::RequestKind::Embedding;

    std::vector<Target> targets;
    auto addTarget = [&](const QByteArray &model, bool primary) -> bool {
        routing::ResolveError err;
        std::optional<routing::Route> route = table.resolve(model, &err);
        if (!route) {
            if (primary)
                d.local = errorResponse(err.status, err.message, err.code, "model");
            return false;
        }
        std::vector<routing::PoolEntry> allowed;
        for (const routing::PoolEntry &e : route->candidates) {
            if (table.nodes()[size_t(e.node)].provider.allowed.allows(kind))
                allowed.push_back(e);
        }
        if (allowed.empty() && !route->candidates.empty()) {
            if (primary) {
                const QString flag = QString::fromLatin1(config::flagName(kind));
                const QString who = route->pinned
                                        ? u"The provider '"_s % table.nodes()[size_t(route->candidates[0].node)].name
                                              % u"' does not allow "_s
                                        : u"No provider serving '"_s % QString::fromUtf8(model) % u"' allows "_s;
                d.local = errorResponse(400,
                                        who % flag % u" requests (custom_provider_config.allowed_requests."_s
                                            % flag % u" is not true)"_s,
                                        "request_type_not_allowed");
            }
            return false;
        }
        route->candidates = std::move(allowed);
        targets.push_back({QString::fromUtf8(model), std::move(*route)});
        return true;
    };
    if (!addTarget(*scan.model, true))
        return d;
    for (const QByteArray &fb : scan.fallbacks)
        addTarget(fb, false);

    stats::RequestRecord record;
    record.startedMsSinceEpoch = QDateTime::currentMSecsSinceEpoch();
    record.method = request.method;
    record.path = request.path;
    record.model = QString::fromUtf8(*scan.model);
    record.stream = scan.stream;
    d.exchange = std::make_unique<ProxyExchange>(context, sink, request.path, http::makeBodyTemplate(request.body, scan),
                                                 std::move(targets), scan.stream, std::move(record));
    return d;
}

} // namespace switchyard::proxy
