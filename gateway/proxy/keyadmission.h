#pragma once

// What a virtual key lets a request do (docs/KEYS.md), decided before anything reaches a node: the
// models and providers it may use (a provider it may not use is taken out of the request's candidates,
// as a drained node would be) and its limits now. Refused: 403 for what the key may never do, 429 with
// Retry-After and OpenAI's x-ratelimit-* headers for a limit, both OpenAI-shaped.

#include "keys/keyregistry.h"
#include "proxy/localresponse.h"
#include "proxy/proxyexchange.h"

#include <QByteArrayView>
#include <optional>
#include <vector>

namespace switchyard::proxy {

// Requests without a virtual key pass untouched. model: as the client asked ("m" or "provider/m"; empty
// where the path has none, e.g. a stored response's GET). On success with a key, `hold` holds the
// request in its key's usage until the exchange ends (ProxyExchange::chargeTo).
std::optional<LocalResponse> admitKey(const ExchangeContext &context, QByteArrayView model, std::vector<Target> &targets,
                                      std::optional<KeyHold> &hold);

// "20ms", "12s", "6m0s", "1h2m3s": how OpenAI writes a reset time.
QByteArray resetText(qint64 ms);

} // namespace switchyard::proxy
