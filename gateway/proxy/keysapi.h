#pragma once

// The management API's virtual keys (docs/KEYS.md): POST /api/keys makes one and answers its secret,
// the only time it is shown; GET /api/keys lists them with their usage; GET, PATCH and DELETE
// /api/keys/{id} read, change and revoke one. Admin keys only, as all of /api/*. The registry is
// thread-safe, so a worker answers these itself.

#include "proxy/routes.h"

namespace switchyard::proxy::handlers {

Dispatch keyList(const Route &route, const http::Request &request, const ExchangeContext &context, ResponseSink *sink);
Dispatch keyItem(const Route &route, const http::Request &request, const ExchangeContext &context, ResponseSink *sink);

} // namespace switchyard::proxy::handlers
