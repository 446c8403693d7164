#pragma once

// The gateway's errors on the Messages API in the shape Anthropic's clients understand:
// {"type":"error","error":{"type":"not_found_error","message":"…"}}. The HTTP status stays the
// gateway's; the type follows Anthropic's table (docs.anthropic.com, "Errors"): 400 and other 4xx
// invalid_request_error, 401 authentication_error, 403 permission_error, 404 not_found_error, 413
// request_too_large, 429 rate_limit_error, 503 and 529 overloaded_error, other 5xx api_error.

#include "proxy/localresponse.h"

#include <QByteArray>
#include <QString>

namespace switchyard::proxy {

QByteArray anthropicErrorType(int status);
QByteArray anthropicErrorBody(int status, const QString &message);

// The same error as an SSE event, for a stream whose status line is long gone.
QByteArray anthropicErrorEvent(int status, const QString &message);

// An OpenAI-shaped local error turned into Anthropic's shape, its message kept; anything else unchanged.
LocalResponse toAnthropicShape(LocalResponse response);

} // namespace switchyard::proxy
