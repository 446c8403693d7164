#pragma once

// POST /v1/audio/transcriptions and /v1/audio/translations: a multipart/form-data upload whose `model`
// form field routes it like the `model` of a JSON body. For a pin (`provider/model`) the field's value is
// replaced by the bare model; every other byte of the form — the audio included — goes to the node as the
// client sent it, and the Content-Length follows the new size. A `stream` field of "true" makes it a
// streamed transcription (vLLM answers it as server-sent events), which passes through like any stream.
//
// An upload with a Content-Length is dispatched at its head and forwarded while it arrives
// (proxy/uploadexchange); a chunked one is read whole first, bounded by
// switchyard.max_request_body_bytes (413 before anything reaches a node). Either way the bytes are kept
// until the answer begins: failover before the first response byte resends them to the next node.

#include "http/multipartform.h"
#include "proxy/routes.h"

namespace switchyard::proxy {

// The gateway's 400 for a form that does not parse, saying what is wrong.
LocalResponse malformedForm(const QByteArray &problem);

// Routes an upload from its form as read so far (all of it when bodyToCome is 0): by its `model` field
// (spliced for a pin) and its `stream` field. The proxied exchange, or the gateway's refusal: a form
// without a usable model, paused, no such model, a key's limit. `body` is what has arrived;
// `bodyToCome` bytes more follow through the exchange's requestBodyArrived().
Dispatch routeUpload(const Route &route, const http::Request &request, const QByteArray &body,
                     const http::MultipartForm &form, qsizetype bodyToCome, qint64 startedMsSinceEpoch,
                     const ExchangeContext &context, ResponseSink *sink);

namespace handlers {

Dispatch audioUpload(const Route &route, const http::Request &request, const ExchangeContext &context,
                     ResponseSink *sink);

} // namespace handlers

} // namespace switchyard::proxy
