#pragma once

// Whether the caller of a route may use it, by the route's access class and the key it sends
// (docs/SECURITY.md). Keys are compared in constant time and never appear in an answer.

#include "config/config.h"
#include "keys/keyregistry.h"
#include "http/httptypes.h"
#include "proxy/localresponse.h"
#include "proxy/routes.h"

#include <optional>

namespace switchyard::proxy {

// nullopt: go ahead; otherwise the refusal to send (401 or 403, OpenAI-shaped). Client keys
// (switchyard.api_keys) may use the OpenAI endpoints; admin keys (switchyard.admin_keys) everything.
// No or a wrong key is a 401; a client key on the management API a 403. Management beyond loopback
// answers admin keys only; with no keys configured at all, loopback may use everything.
std::optional<LocalResponse> accessRefusal(Access access, const http::Request &request,
                                           const config::GatewaySettings &settings);
// The same for a route, with the operator's opening of /metrics (switchyard.metrics_without_key).
std::optional<LocalResponse> accessRefusal(const Route &route, const http::Request &request,
                                           const config::GatewaySettings &settings);

// The same, knowing the virtual keys (keys/keyregistry.h): a virtual key is a client key, and while any
// is active the OpenAI endpoints need a key even when the config lists none. key: the virtual key the
// request came with, for its limits.
struct AccessVerdict
{
    std::optional<LocalResponse> refusal;
    std::shared_ptr<const keys::KeyEntry> key;
};
AccessVerdict checkAccess(const Route &route, const http::Request &request, const config::GatewaySettings &settings,
                          const keys::KeySet *keys, qint64 nowMs);

// Compares without an early exit, so response timing does not reveal how much of a key matched.
bool constantTimeEquals(QByteArrayView a, QByteArrayView b);

} // namespace switchyard::proxy
