#pragma once

// Errors in the shape OpenAI clients understand: {"error":{"message","type","param","code"}}.

#include <QByteArray>
#include <QString>

namespace switchyard::proxy {

// type defaults from the status (invalid_request_error, authentication_error, rate_limit_error,
// server_error); code defaults to null.
QByteArray openAiErrorBody(int status, const QString &message, const QByteArray &code = {},
                           const QByteArray &param = {}, const QByteArray &type = {});

// The text of an error a node returned, from either vLLM shape (current nested or pre-0.10.1 flat),
// or the raw text shortened when it is not JSON.
QString upstreamErrorMessage(const QByteArray &body);

} // namespace switchyard::proxy
