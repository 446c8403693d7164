#pragma once

// The lasting history over the management API (docs/HISTORY.md): GET /api/history/requests searches
// every request's record beyond the in-memory log (time range, key, model, node, status; pages of up to
// 1000, newest first), GET /api/history/rollups gives per-bucket sums for charts of a day or a week.
// Admin keys only, as all of /api/*. A gateway without a history answers 503 saying why.
//
// A search runs on the worker that took the request: SQLite in WAL mode reads beside the writer, and
// every query is bounded (an index range, at most 1000 rows or 20,000 buckets), so it holds the worker
// for milliseconds, not for the size of the file.

#include "proxy/routes.h"

namespace switchyard::proxy::handlers {

Dispatch historyRequests(const Route &route, const http::Request &request, const ExchangeContext &context, ResponseSink *sink);
Dispatch historyRollups(const Route &route, const http::Request &request, const ExchangeContext &context, ResponseSink *sink);

} // namespace switchyard::proxy::handlers
