#include "simmessagesapi.h"

#include "simprotocolfields.h"
#include "textgenerator.h"

namespace switchyard::sim {

using OJson = nlohmann::ordered_json;
using Json = nlohmann::json;
using namespace fields;

Expected<GenerationRequest, ApiError> parseMessagesRequest(QByteArrayView body, const QStringList &models,
                                                           int maxModelLen, bool countOnly)
{
    auto parsed = parseObject(body);
    if (!parsed)
        return unexpected(parsed.error());
    const Json &j = *parsed;
    GenerationRequest g;
    g.endpoint = Endpoint::Messages;
    if (isAbsent(j, "model"))
        return unexpected(validationError("missing", "model", "Field required"));
    if (!j.contains("messages"))
        return unexpected(validationError("missing", "messages", "Field required"));
    const Json &messages = j["messages"];
    if (!messages.is_array())
        return unexpected(validationError("list_type", "messages", "Input should be a valid list"));
    int tokens = 3;
    if (!isAbsent(j, "system")) {
        auto system = contentText(j["system"]);
        if (!system)
            return unexpected(system.error());
        tokens += 4 + estimateTokens(*system);
    }
    for (const Json &m : messages) {
        if (!m.is_object() || !m.contains("role") || !m["role"].is_string())
            return unexpected(validationError("missing", "messages.role", "Field required"));
        auto text = contentText(m.contains("content") ? m["content"] : Json());
        if (!text)
            return unexpected(text.error());
        tokens += 4 + estimateTokens(*text);
    }
    g.promptTokens = tokens;
    g.promptHash =
        fnv1a64(QByteArray::fromStdString(messages.dump(-1, ' ', false, Json::error_handler_t::replace)));
    auto model = resolveModel(j, models);
    if (!model)
        return unexpected(model.error());
    g.model = *model;
    if (countOnly)
        return g;
    auto maxTokens = optionalInt(j, "max_tokens");
    if (!maxTokens)
        return unexpected(maxTokens.error());
    if (!*maxTokens)
        return unexpected(validationError("missing", "max_tokens", "Field required"));
    if (**maxTokens < 1)
        return unexpected(
            badRequest("max_tokens must be at least 1, got " + std::to_string(**maxTokens) + "."));
    if (auto problem = readStreamFlags(j, g))
        return unexpected(*problem);
    if (g.promptTokens >= maxModelLen)
        return unexpected(badRequest("This model's maximum context length is " + std::to_string(maxModelLen) +
                                     " tokens. However, your request has " + std::to_string(g.promptTokens) +
                                     " input tokens. Please reduce the length of the input messages."));
    g.maxTokens = int(std::min<qint64>(**maxTokens, maxModelLen - g.promptTokens));
    return g;
}

MessagesWriter::MessagesWriter(std::string id, std::string model)
    : m_id(std::move(id)), m_model(std::move(model))
{}

namespace {
const char *stopReason(FinishReason finish)
{
    return finish == FinishReason::Length ? "max_tokens" : "end_turn";
}
QByteArray event(const char *type, OJson body)
{
    OJson e{{"type", type}};
    e.update(body);
    return namedEvent(type, toBytes(e));
}
} // namespace

QByteArray MessagesWriter::openEvents(const Usage &usage)
{
    const OJson message{{"id", m_id},
                        {"type", "message"},
                        {"role", "assistant"},
                        {"content", OJson::array()},
                        {"model", m_model},
                        {"stop_reason", nullptr},
                        {"stop_sequence", nullptr},
                        {"usage", {{"input_tokens", usage.promptTokens}, {"output_tokens", 0}}}};
    return event("message_start", OJson{{"message", message}}) +
           event("content_block_start",
                 OJson{{"index", 0}, {"content_block", {{"type", "text"}, {"text", ""}}}});
}

QByteArray MessagesWriter::tokenEvent(QByteArrayView token)
{
    return event("content_block_delta", OJson{{"index", 0},
                                              {"delta",
                                               {{"type", "text_delta"},
                                                {"text", std::string(token.data(), size_t(token.size()))}}}});
}

QByteArray MessagesWriter::closeEvents(const std::string &, FinishReason finish, const Usage &usage)
{
    return event("content_block_stop", OJson{{"index", 0}}) +
           event("message_delta",
                 OJson{{"delta", {{"stop_reason", stopReason(finish)}, {"stop_sequence", nullptr}}},
                       {"usage",
                        {{"input_tokens", usage.promptTokens}, {"output_tokens", usage.completionTokens}}}}) +
           event("message_stop", OJson::object());
}

QByteArray MessagesWriter::completeBody(const std::string &text, FinishReason finish,
                                        const Usage &usage) const
{
    return toBytes(
        OJson{{"id", m_id},
              {"type", "message"},
              {"role", "assistant"},
              {"content", OJson::array({OJson{{"type", "text"}, {"text", text}}})},
              {"model", m_model},
              {"stop_reason", stopReason(finish)},
              {"usage", {{"input_tokens", usage.promptTokens}, {"output_tokens", usage.completionTokens}}}});
}

QByteArray MessagesWriter::errorEvent(const ApiError &error) const
{
    return namedEvent("error", messagesErrorBody(error));
}

QByteArray messagesErrorBody(const ApiError &error)
{
    // vLLM keeps its own error type names inside Anthropic's envelope.
    return toBytes(OJson{{"type", "error"}, {"error", {{"type", error.type}, {"message", error.message}}}});
}

QByteArray countTokensBody(int inputTokens)
{
    return toBytes(OJson{{"input_tokens", inputTokens}});
}

} // namespace switchyard::sim
