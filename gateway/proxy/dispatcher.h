#pragma once

// Decides what to do with one parsed client request: answer it locally (health, model list, errors)
// or start a ProxyExchange. Pure request → decision logic, no sockets, so it is easy to test.

#include "http/httptypes.h"
#include "proxy/localresponse.h"
#include "proxy/proxyexchange.h"

#include <memory>

namespace switchyard::proxy {

struct Dispatch
{
    std::optional<LocalResponse> local;       // answer this, or
    std::unique_ptr<Exchange> exchange;       // run this
};

Dispatch dispatchRequest(const http::Request &request, const ExchangeContext &context, ResponseSink *sink);

// An OpenAI-shaped error as a complete local response.
LocalResponse errorResponse(int status, const QString &message, const QByteArray &code = {},
                            const QByteArray &param = {});

} // namespace switchyard::proxy
