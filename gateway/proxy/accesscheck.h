#pragma once

// Whether the caller of a route may use it, by the route's access class and the key it sends
// (docs/SECURITY.md). Keys are compared in constant time and never appear in an answer.

#include "config/config.h"
#include "http/httptypes.h"
#include "proxy/localresponse.h"
#include "proxy/routes.h"

#include <optional>

namespace switchyard::proxy {

// nullopt: go ahead; otherwise the refusal to send (401 or 403, OpenAI-shaped).
std::optional<LocalResponse> accessRefusal(Access access, const http::Request &request,
                                           const config::GatewaySettings &settings);

// Compares without an early exit, so response timing does not reveal how much of a key matched.
bool constantTimeEquals(QByteArrayView a, QByteArrayView b);

} // namespace switchyard::proxy
