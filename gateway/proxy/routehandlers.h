#pragma once

// What each row of the route table does once the dispatcher has matched the path and method and let
// the caller in (proxy/routes.h). Each answers locally or hands back an exchange to run.

#include "proxy/routes.h"

namespace switchyard::proxy::handlers {

Dispatch health(const http::Request &request, const ExchangeContext &context, ResponseSink *sink);
Dispatch listModels(const http::Request &request, const ExchangeContext &context, ResponseSink *sink);
Dispatch describeModel(const http::Request &request, const ExchangeContext &context, ResponseSink *sink);
// POST /v1/chat/completions, /v1/completions, /v1/embeddings: forwarded to a node.
Dispatch proxied(const http::Request &request, const ExchangeContext &context, ResponseSink *sink);

Dispatch metrics(const http::Request &request, const ExchangeContext &context, ResponseSink *sink);
Dispatch status(const http::Request &request, const ExchangeContext &context, ResponseSink *sink);
Dispatch history(const http::Request &request, const ExchangeContext &context, ResponseSink *sink);
Dispatch requestLog(const http::Request &request, const ExchangeContext &context, ResponseSink *sink);
// GET /api/config (masked, with ETag) and PUT /api/config (If-Match).
Dispatch config(const http::Request &request, const ExchangeContext &context, ResponseSink *sink);
// POST /api/nodes/{name}/drain | enable | probe
Dispatch nodeAction(const http::Request &request, const ExchangeContext &context, ResponseSink *sink);
Dispatch pauseGateway(const http::Request &request, const ExchangeContext &context, ResponseSink *sink);
Dispatch resumeGateway(const http::Request &request, const ExchangeContext &context, ResponseSink *sink);

} // namespace switchyard::proxy::handlers
