#pragma once

// The gateway's endpoints, listed once: which methods each path takes, who may call it, and whether a
// call is client traffic (counted and logged) or an operator's probe or scrape. The dispatcher answers
// from this table (404, 405 + Allow, the handler), the connection asks it what to count, and the 404
// message names the served endpoints from it, so a new endpoint is one more row.

#include "config/config.h"
#include "http/httptypes.h"
#include "proxy/localresponse.h"
#include "proxy/proxyexchange.h"

#include <QByteArrayView>
#include <memory>
#include <optional>
#include <span>

namespace switchyard::proxy {

struct Dispatch
{
    std::optional<LocalResponse> local; // answer this, or
    std::unique_ptr<Exchange> exchange; // run this
};

// A route's answer made here and now, without a node.
inline Dispatch answer(LocalResponse response)
{
    Dispatch d;
    d.local = std::move(response);
    return d;
}

// Who may call a route (docs/SECURITY.md, "Roles").
enum class Access {
    Public,     // anyone: load balancers' health checks
    Client,     // the OpenAI endpoints: a client or admin key when keys are configured
    Management, // /metrics and /api/*: an admin key, or loopback while no keys are configured
};

enum Method : unsigned {
    NoMethod = 0,
    Get = 1,
    Head = 2,
    Post = 4,
    Put = 8,
    Delete = 16,
    Patch = 32,
};
Method methodFromName(QByteArrayView name);

struct Route;
// A route's handler gets its row too: the proxied routes read their request kinds from it.
using RouteHandler = Dispatch (*)(const Route &route, const http::Request &request,
                                  const ExchangeContext &context, ResponseSink *sink);

// The allowed_requests flags a proxied route's requests are (config::flagName): as sent, and with
// "stream": true. A route that is not proxied to a node has none.
struct RequestKinds
{
    config::RequestKind plain;
    config::RequestKind streamed;
};

struct Route
{
    unsigned methods; // Method bits; none for a catch-all that only answers 404 after the access check
    QByteArrayView path;
    bool prefix; // path is a prefix ("/api/nodes/" + name + "/drain")
    Access access;
    bool clientTraffic; // counted in requests/s and written to the request log
    RouteHandler handler;
    std::optional<RequestKinds> kinds = std::nullopt; // proxied routes only
    // The handler is called at the request's head and takes the body as it arrives (an upload sent
    // on to a node while it comes; a Content-Length body only). The others get the whole body.
    bool bodyAsItArrives = false;
};

// The allowed_requests flag of a request on a proxied route.
config::RequestKind requestKind(const Route &route, bool stream);

std::span<const Route> routes();

// The route serving this path (whatever the method); nullptr when the gateway serves no such path.
const Route *findRoute(QByteArrayView path);

// "GET, HEAD": the methods a route takes, for an Allow header or a message.
QByteArray allowedMethods(const Route &route);

// "/v1/chat/completions, /v1/completions, /v1/embeddings and /v1/models": the client endpoints, for
// the message of a 404.
QString servedEndpoints();

// Whether a request with this method and path is dispatched at its head (Route::bodyAsItArrives).
bool takesBodyAsItArrives(QByteArrayView method, QByteArrayView path);

// Whether a request on this path counts as client traffic. Unknown paths do: a client asked for them.
bool countsAsClientTraffic(QByteArrayView path);

} // namespace switchyard::proxy
