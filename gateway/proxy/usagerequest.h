#pragma once

// Asking the node for token usage on a client's behalf. A streamed chat or text completion reports its
// exact prompt and completion tokens only when the request says `stream_options.include_usage`; most
// clients do not, yet the request log, the statistics and /metrics want exact figures for every
// request. So the gateway asks in the client's stead, and the stream filter (proxy/usagechunkfilter)
// takes the usage the client did not ask for back out of what the client receives.
//
// The body is edited as pins rewrite the model: the few bytes of stream_options are spliced, every
// other byte goes to the node as the client wrote it, and nothing is parsed into a DOM.

#include "http/jsonbodyscanner.h"

#include <QByteArray>
#include <QByteArrayView>
#include <optional>

namespace switchyard::proxy {

// The paths whose streams can carry usage: /v1/chat/completions and /v1/completions.
bool streamCanCarryUsage(QByteArrayView path);

// For a streamed request that did not ask for usage: the body asking for it (stream_options added,
// completed or its include_usage set to true), with scan's spans moved to match and its includeUsage
// set. nullopt when the client asked already, the request does not stream, or its stream_options is
// something other than an object or null (the node answers that as the client would have seen it).
std::optional<QByteArray> bodyAskingForUsage(QByteArrayView body, http::ScannedBody &scan);

} // namespace switchyard::proxy
