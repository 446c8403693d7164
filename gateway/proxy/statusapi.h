#pragma once

// The gateway's own endpoints for scripts and monitoring: GET /metrics (Prometheus text,
// switchyard_ names, documented in docs/METRICS.md), GET /api/status (JSON: nodes, states, reasons,
// stats), and POST /api/nodes/{name}/drain | /enable.

#include "proxy/dispatcher.h"
#include "stats/gatewaystats.h"

namespace switchyard::proxy {

LocalResponse metricsResponse(const routing::RoutingTable &table, const stats::GatewayStats &stats);
LocalResponse statusResponse(const routing::RoutingTable &table, const stats::GatewayStats &stats);
// path is "/api/nodes/{name}/{action}".
LocalResponse nodeActionResponse(const routing::RoutingTable &table, QByteArrayView path);

} // namespace switchyard::proxy
