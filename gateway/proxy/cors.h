#pragma once

// CORS for browser clients (a web chat UI calling the gateway directly). Off unless the config lists
// origins in switchyard.cors_origins: a browser page from anywhere else cannot read the gateway's
// answers, so a page the operator happens to open cannot use the nodes through their workstation.

#include "config/config.h"
#include "http/httptypes.h"
#include "proxy/localresponse.h"

#include <optional>

namespace switchyard::proxy {

// Header lines to add to every response of this request ("" when CORS is off or the origin not listed).
QByteArray corsHeaders(const http::Request &request, const config::GatewaySettings &settings);

// An OPTIONS preflight answered by the gateway itself; nullopt when the request is not a preflight.
std::optional<LocalResponse> corsPreflight(const http::Request &request,
                                           const config::GatewaySettings &settings);

} // namespace switchyard::proxy
