#pragma once

// The Responses API's stored responses: a response lives in the memory of the vLLM node that created
// it, so everything naming one goes there — GET /v1/responses/{id} (also ?stream=true to replay it),
// DELETE /v1/responses/{id}, POST /v1/responses/{id}/cancel, and a new response whose
// previous_response_id names one. The node is the one proxy/responseidmemory remembers for the id.

#include "proxy/proxyexchange.h"

#include <QByteArrayView>

namespace switchyard::proxy {

class ResponseIdMemory;

// The gateway's memory of created responses; null where a dispatcher runs without a Gateway.
ResponseIdMemory *responseIds(const ExchangeContext &context);

// A request continuing a remembered response goes to the node that holds it, when that node is one of
// the target's candidates; otherwise the target is left as routing made it (the node answers 404 if it
// does not know the id, as vLLM would).
void stickToPreviousResponse(QByteArrayView body, const ExchangeContext &context, Target &target);

} // namespace switchyard::proxy
