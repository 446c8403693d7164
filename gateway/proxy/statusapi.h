#pragma once

// The gateway's own endpoints for scripts and monitoring: GET /metrics (Prometheus text,
// switchyard_ names, documented in docs/METRICS.md), GET /api/status (JSON: nodes, states, reasons,
// stats), GET /api/history, GET /api/requests, POST /api/nodes/{name}/drain | enable | probe, and the
// answers of POST /api/gateway/pause | resume.

#include "common/expected.h"
#include "link/gatewaystatus.h"
#include "proxy/dispatcher.h"
#include "stats/gatewaystats.h"

#include <QUrlQuery>
#include <nlohmann/json_fwd.hpp>

namespace switchyard::proxy {

// The query of a request target ("/api/requests?after=5" → after=5); empty when it has none.
QUrlQuery queryOf(QByteArrayView target);

// A JSON answer, indented for people reading it with curl (the management API's style).
LocalResponse prettyJsonResponse(int status, const nlohmann::json &j);

LocalResponse metricsResponse(const routing::RoutingTable &table, const stats::GatewayStats &stats);
// run: the Gateway's own run state (proxy/gatewaycontrol.h).
LocalResponse statusResponse(const routing::RoutingTable &table, const stats::GatewayStats &stats,
                             const link::RunState &run);
// GET /api/history?seconds=N&node=NAME: per-second rates of the last hour, as columns.
LocalResponse historyResponse(const stats::GatewayStats &stats, QByteArrayView target);
// GET /api/requests?after=CURSOR&max=N: the request log after a cursor (follow it by passing back
// the answer's cursor).
LocalResponse requestsResponse(const stats::GatewayStats &stats, QByteArrayView target);
// One record as /api/requests and /api/history/requests write it (docs/MANAGEMENT-API.md).
nlohmann::json requestRecordJson(const stats::RequestRecord &record);

struct NodeActionTarget
{
    QString node;
    QByteArray action; // "drain", "enable" or "probe"
};
// path is "/api/nodes/{name}/{action}"; the error is the 404 for an unknown node or action.
Expected<NodeActionTarget, LocalResponse> nodeActionTarget(const routing::RoutingTable &table, QByteArrayView path);
// drain and enable: atomics of the node, set right here on the worker.
LocalResponse nodeDrainResponse(const routing::RoutingTable &table, const NodeActionTarget &target);
// probe: the checks were started (their result shows in the node's last check time and state).
LocalResponse probeStartedResponse(const QString &node);
// pause and resume: the gateway's state after the command.
LocalResponse pauseResponse(bool paused, bool accepting);
// A proxied request while the gateway is paused: 503, Retry-After, code gateway_paused.
LocalResponse gatewayPausedResponse();

} // namespace switchyard::proxy
