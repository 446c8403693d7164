#pragma once

// Decides what to do with one parsed client request: answer it locally (health, model list, errors)
// or start an exchange. The endpoints are the rows of proxy/routes.h; this matches a request against
// them, checks who may call the route (proxy/accesscheck.h) and runs its handler. Pure request →
// decision logic, no sockets, so it is easy to test.

#include "http/httptypes.h"
#include "proxy/localresponse.h"
#include "proxy/proxyexchange.h"
#include "proxy/routes.h"

namespace switchyard::proxy {

Dispatch dispatchRequest(const http::Request &request, const ExchangeContext &context, ResponseSink *sink);

// An OpenAI-shaped error as a complete local response.
LocalResponse errorResponse(int status, const QString &message, const QByteArray &code = {},
                            const QByteArray &param = {});

} // namespace switchyard::proxy
