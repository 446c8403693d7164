#pragma once

// The gateway's errors in the shape OpenAI clients understand. The shape itself, and reading the error
// bodies nodes send back, are the OpenAI wire format (client/openai/openaierror.h), shared with the chat
// console and the benchmark; what is the gateway's own is which type it gives each status.

#include "openai/openaierror.h"

#include <QByteArray>
#include <QString>

namespace switchyard::proxy {

// type defaults from the status (invalid_request_error, authentication_error, rate_limit_error,
// server_error); code and param default to null.
QByteArray openAiErrorBody(int status, const QString &message, const QByteArray &code = {},
                           const QByteArray &param = {}, const QByteArray &type = {});

// The text of an error a node returned, for the request log and the failover reason: any shape
// openai::errorMessageFromBody reads, or the raw text shortened when it is not JSON.
inline QString upstreamErrorMessage(const QByteArray &body)
{
    return openai::errorMessageFromBody(body);
}

} // namespace switchyard::proxy
