#pragma once

// What each row of the route table does once the dispatcher has matched the path and method and let
// the caller in (proxy/routes.h). Each answers locally or hands back an exchange to run.

#include "common/expected.h"
#include "config/config.h"
#include "proxy/routes.h"

namespace switchyard::proxy::handlers {

Dispatch health(const Route &route, const http::Request &request, const ExchangeContext &context, ResponseSink *sink);
Dispatch listModels(const Route &route, const http::Request &request, const ExchangeContext &context, ResponseSink *sink);
Dispatch describeModel(const Route &route, const http::Request &request, const ExchangeContext &context, ResponseSink *sink);
// POST /v1/chat/completions, /v1/completions, /v1/embeddings and vLLM's JSON endpoints (/tokenize,
// /v1/rerank, …), the Responses and Messages APIs: forwarded to a node. Which allowed_requests flag a
// request is comes from its route's row (proxy/routes.cpp).
Dispatch proxied(const Route &route, const http::Request &request, const ExchangeContext &context, ResponseSink *sink);
// GET | DELETE /v1/responses/{id}, POST /v1/responses/{id}/cancel: to the node that created it
// (proxy/storedresponses.cpp).
Dispatch storedResponse(const Route &route, const http::Request &request, const ExchangeContext &context, ResponseSink *sink);

// One model's route, narrowed to the providers that allow this kind of request. A refusal is an
// answer only for the requested model; a fallback that cannot serve is skipped. Shared with the
// handlers of other body formats (proxy/audioupload).
// routeRequest: what session_affinity and cache_aware read (none: they use their fallback).
Expected<Target, LocalResponse> buildTarget(const routing::RoutingTable &table, const QByteArray &model,
                                            config::RequestKind kind, const routing::RouteRequest &routeRequest = {});

Dispatch metrics(const Route &route, const http::Request &request, const ExchangeContext &context, ResponseSink *sink);
Dispatch status(const Route &route, const http::Request &request, const ExchangeContext &context, ResponseSink *sink);
Dispatch history(const Route &route, const http::Request &request, const ExchangeContext &context, ResponseSink *sink);
Dispatch requestLog(const Route &route, const http::Request &request, const ExchangeContext &context, ResponseSink *sink);
// GET /api/config (masked, with ETag) and PUT /api/config (If-Match).
Dispatch config(const Route &route, const http::Request &request, const ExchangeContext &context, ResponseSink *sink);
// POST /api/nodes/{name}/drain | enable | probe
Dispatch nodeAction(const Route &route, const http::Request &request, const ExchangeContext &context, ResponseSink *sink);
Dispatch pauseGateway(const Route &route, const http::Request &request, const ExchangeContext &context, ResponseSink *sink);
Dispatch resumeGateway(const Route &route, const http::Request &request, const ExchangeContext &context, ResponseSink *sink);

} // namespace switchyard::proxy::handlers
