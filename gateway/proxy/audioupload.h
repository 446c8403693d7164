#pragma once

// POST /v1/audio/transcriptions and /v1/audio/translations: a multipart/form-data upload whose `model`
// form field routes it like the `model` of a JSON body. For a pin (`provider/model`) the field's value is
// replaced by the bare model; every other byte of the form — the audio included — goes to the node as the
// client sent it, and the Content-Length follows the new size. A `stream` field of "true" makes it a
// streamed transcription (vLLM answers it as server-sent events), which passes through like any stream.
//
// The upload is read whole before a node is chosen, bounded by switchyard.max_request_body_bytes (413
// before anything reaches a node): failover before the first response byte resends it to the next node,
// so it must be at hand anyway. Forwarding it while it arrives is not done (docs/GATEWAY.md).

#include "proxy/routes.h"

namespace switchyard::proxy::handlers {

Dispatch audioUpload(const Route &route, const http::Request &request, const ExchangeContext &context, ResponseSink *sink);

} // namespace switchyard::proxy::handlers
