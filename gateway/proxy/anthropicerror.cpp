#include "proxy/anthropicerror.h"

#include <nlohmann/json.hpp>

namespace switchyard::proxy {

QByteArray anthropicErrorType(int status)
{
    switch (status) {
    case 401:
        return "authentication_error";
    case 403:
        return "permission_error";
    case 404:
        return "not_found_error";
    case 413:
        return "request_too_large";
    case 429:
        return "rate_limit_error";
    case 503:
    case 529:
        return "overloaded_error";
    default:
        break;
    }
    return status >= 500 ? "api_error" : "invalid_request_error";
}

QByteArray anthropicErrorBody(int status, const QString &message)
{
    // Anthropic's own order: the envelope's type first, then the error's type and message.
    const nlohmann::ordered_json j = {
        {"type", "error"},
        {"error", {{"type", anthropicErrorType(status).toStdString()}, {"message", message.toStdString()}}}};
    const std::string text = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return QByteArray(text.data(), qsizetype(text.size()));
}

QByteArray anthropicErrorEvent(int status, const QString &message)
{
    return "event: error\ndata: " + anthropicErrorBody(status, message) + "\n\n";
}

LocalResponse toAnthropicShape(LocalResponse response)
{
    if (response.status < 400)
        return response;
    const nlohmann::json j =
        nlohmann::json::parse(response.body.constBegin(), response.body.constEnd(), nullptr, false);
    if (!j.is_object() || !j.contains("error") || !j["error"].is_object())
        return response;
    const nlohmann::json &message = j["error"]["message"];
    response.body = anthropicErrorBody(
        response.status,
        message.is_string() ? QString::fromStdString(message.get<std::string>()) : QString());
    return response;
}

} // namespace switchyard::proxy
