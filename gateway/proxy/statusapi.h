#pragma once

// The gateway's own endpoints for scripts and monitoring: GET /metrics (Prometheus text,
// switchyard_ names, documented in docs/METRICS.md), GET /api/status (JSON: nodes, states, reasons,
// stats), GET /api/history, GET /api/requests, and POST /api/nodes/{name}/drain | /enable.

#include "proxy/dispatcher.h"
#include "stats/gatewaystats.h"

#include <nlohmann/json_fwd.hpp>

namespace switchyard::proxy {

// A JSON answer, indented for people reading it with curl (the management API's style).
LocalResponse prettyJsonResponse(int status, const nlohmann::json &j);

LocalResponse metricsResponse(const routing::RoutingTable &table, const stats::GatewayStats &stats);
LocalResponse statusResponse(const routing::RoutingTable &table, const stats::GatewayStats &stats);
// GET /api/history?seconds=N&node=NAME: per-second rates of the last hour, as columns.
LocalResponse historyResponse(const stats::GatewayStats &stats, QByteArrayView target);
// GET /api/requests?after=CURSOR&max=N: the request log after a cursor (follow it by passing back
// the answer's cursor).
LocalResponse requestsResponse(const stats::GatewayStats &stats, QByteArrayView target);
// path is "/api/nodes/{name}/{action}".
LocalResponse nodeActionResponse(const routing::RoutingTable &table, QByteArrayView path);

} // namespace switchyard::proxy
