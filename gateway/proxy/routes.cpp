#include "proxy/routes.h"

#include "proxy/audioupload.h"
#include "proxy/historyapi.h"
#include "proxy/keysapi.h"
#include "proxy/routehandlers.h"

using namespace Qt::Literals::StringLiterals;

namespace switchyard::proxy {

namespace {

using K = config::RequestKind;
using Kinds = RequestKinds;

// Order matters only among prefixes: the first matching row wins, so the "/api/" catch-all comes last.
// One row per line reads as the table it is.
// clang-format off
constexpr Route RouteTable[] = {
    {Get | Head, "/health", false, Access::Public, false, &handlers::health},
    {Post, "/v1/chat/completions", false, Access::Client, true, &handlers::proxied, Kinds{K::ChatCompletion, K::ChatCompletionStream}},
    {Post, "/v1/completions", false, Access::Client, true, &handlers::proxied, Kinds{K::TextCompletion, K::TextCompletionStream}},
    {Post, "/v1/embeddings", false, Access::Client, true, &handlers::proxied, Kinds{K::Embedding, K::Embedding}},
    // vLLM's own endpoints and audio uploads (docs/GATEWAY.md, "vLLM's endpoints and audio uploads"): the
    // JSON ones are proxied as embeddings are. Bifrost's allowed_requests keys where it has one
    // (transcription, rerank); Switchyard's own where not (translation, tokenize for /detokenize too,
    // score, pooling, classify), so a provider can be kept to the work its model does.
    {Post, "/v1/audio/transcriptions", false, Access::Client, true, &handlers::audioUpload, Kinds{K::Transcription, K::TranscriptionStream}, true},
    {Post, "/v1/audio/translations", false, Access::Client, true, &handlers::audioUpload, Kinds{K::Translation, K::TranslationStream}, true},
    {Post, "/tokenize", false, Access::Client, true, &handlers::proxied, Kinds{K::Tokenize, K::Tokenize}},
    {Post, "/detokenize", false, Access::Client, true, &handlers::proxied, Kinds{K::Tokenize, K::Tokenize}},
    {Post, "/v1/rerank", false, Access::Client, true, &handlers::proxied, Kinds{K::Rerank, K::Rerank}},
    {Post, "/rerank", false, Access::Client, true, &handlers::proxied, Kinds{K::Rerank, K::Rerank}},
    {Post, "/v2/rerank", false, Access::Client, true, &handlers::proxied, Kinds{K::Rerank, K::Rerank}},
    {Post, "/v1/score", false, Access::Client, true, &handlers::proxied, Kinds{K::Score, K::Score}},
    {Post, "/score", false, Access::Client, true, &handlers::proxied, Kinds{K::Score, K::Score}},
    {Post, "/pooling", false, Access::Client, true, &handlers::proxied, Kinds{K::Pooling, K::Pooling}},
    {Post, "/classify", false, Access::Client, true, &handlers::proxied, Kinds{K::Classify, K::Classify}},
    // The model list is the gateway's own answer, no node works for it: requests/s and the request log
    // are about inference (and the panel's chat asking for the list never shows as traffic).
    {Get, "/v1/models", false, Access::Client, false, &handlers::listModels},
    {Get, "/v1/models/", true, Access::Client, false, &handlers::describeModel},
    // The Responses and Messages APIs (docs/ENDPOINTS.md): proxied like chat completions; a stored
    // response's GET, DELETE and cancel go to the node that created it. Bifrost serves a Messages request
    // as a Responses one, so /v1/messages answers to the responses flags too.
    {Post, "/v1/responses", false, Access::Client, true, &handlers::proxied, Kinds{K::Responses, K::ResponsesStream}},
    {Get | Post | Delete, "/v1/responses/", true, Access::Client, true, &handlers::storedResponse},
    {Post, "/v1/messages", false, Access::Client, true, &handlers::proxied, Kinds{K::Responses, K::ResponsesStream}},
    {Post, "/v1/messages/count_tokens", false, Access::Client, true, &handlers::proxied, Kinds{K::CountTokens, K::CountTokens}},
    {Get, "/metrics", false, Access::Management, false, &handlers::metrics},
    {Get, "/api/status", false, Access::Management, false, &handlers::status},
    {Get, "/api/history", false, Access::Management, false, &handlers::history},
    {Get, "/api/history/requests", false, Access::Management, false, &handlers::historyRequests},
    {Get, "/api/history/rollups", false, Access::Management, false, &handlers::historyRollups},
    {Get, "/api/requests", false, Access::Management, false, &handlers::requestLog},
    {Get | Head | Put, "/api/config", false, Access::Management, false, &handlers::config},
    {Post, "/api/nodes/", true, Access::Management, false, &handlers::nodeAction},
    {Post, "/api/gateway/pause", false, Access::Management, false, &handlers::pauseGateway},
    {Post, "/api/gateway/resume", false, Access::Management, false, &handlers::resumeGateway},
    {Get | Post, "/api/keys", false, Access::Management, false, &handlers::keyList},
    {Get | Patch | Delete, "/api/keys/", true, Access::Management, false, &handlers::keyItem},
};
// clang-format on

// Unknown management paths still pass the access check before their 404, so the management API does
// not describe itself to callers who may not use it.
constexpr Route UnknownManagementPath = {NoMethod, "/api/", true, Access::Management, false, nullptr};

bool matches(const Route &route, QByteArrayView path)
{
    return route.prefix ? path.startsWith(route.path) : path == route.path;
}

} // namespace

Method methodFromName(QByteArrayView name)
{
    if (name == "GET")
        return Get;
    if (name == "HEAD")
        return Head;
    if (name == "POST")
        return Post;
    if (name == "PUT")
        return Put;
    if (name == "DELETE")
        return Delete;
    if (name == "PATCH")
        return Patch;
    return NoMethod;
}

std::span<const Route> routes()
{
    return RouteTable;
}

const Route *findRoute(QByteArrayView path)
{
    for (const Route &r : RouteTable) {
        if (matches(r, path))
            return &r;
    }
    return matches(UnknownManagementPath, path) ? &UnknownManagementPath : nullptr;
}

QByteArray allowedMethods(const Route &route)
{
    static constexpr std::pair<Method, const char *> Names[] = {
        {Get, "GET"}, {Head, "HEAD"}, {Post, "POST"}, {Put, "PUT"}, {Delete, "DELETE"}, {Patch, "PATCH"}};
    QByteArray out;
    for (const auto &[bit, name] : Names) {
        if (route.methods & bit)
            out += (out.isEmpty() ? "" : ", ") + QByteArray(name);
    }
    return out;
}

QString servedEndpoints()
{
    QStringList paths;
    for (const Route &r : RouteTable) {
        if (r.access == Access::Client && !r.prefix)
            paths << QString::fromLatin1(r.path);
    }
    const QString last = paths.takeLast();
    return paths.join(u", "_s) % u" and "_s % last;
}

config::RequestKind requestKind(const Route &route, bool stream)
{
    Q_ASSERT(route.kinds);
    return stream ? route.kinds->streamed : route.kinds->plain;
}

bool takesBodyAsItArrives(QByteArrayView method, QByteArrayView path)
{
    const Route *r = findRoute(path);
    return r && r->bodyAsItArrives && (r->methods & methodFromName(method)) != 0;
}

bool countsAsClientTraffic(QByteArrayView path)
{
    const Route *r = findRoute(path);
    return !r || r->clientTraffic;
}

} // namespace switchyard::proxy
