#include "simresponsesapi.h"

#include "simprotocolfields.h"
#include "textgenerator.h"

namespace switchyard::sim {

using OJson = nlohmann::ordered_json;
using Json = nlohmann::json;
using namespace fields;

QByteArray namedEvent(const std::string &name, const QByteArray &json)
{
    return "event: " + QByteArray::fromStdString(name) + "\ndata: " + json + "\n\n";
}

namespace {

// The prompt of `input`: a string, or messages (role + content) and other items whose text counts.
Expected<std::string, ApiError> inputText(const Json &input)
{
    if (input.is_string())
        return input.get<std::string>();
    if (!input.is_array())
        return unexpected(validationError("string_type", "input", "Input should be a valid string"));
    std::string text;
    for (const Json &item : input) {
        if (!item.is_object())
            return unexpected(validationError("model_type", "input", "Input should be an object"));
        auto part = contentText(item.contains("content") ? item["content"] : Json());
        if (!part)
            return unexpected(part.error());
        text += *part + ' ';
    }
    return text;
}

} // namespace

Expected<ResponsesRequest, ApiError> parseResponsesRequest(QByteArrayView body, const QStringList &models,
                                                           int maxModelLen)
{
    auto parsed = parseObject(body);
    if (!parsed)
        return unexpected(parsed.error());
    const Json &j = *parsed;
    ResponsesRequest r;
    GenerationRequest &g = r.generation;
    g.endpoint = Endpoint::Responses;
    if (!j.contains("input"))
        return unexpected(validationError("missing", "input", "Field required"));
    auto text = inputText(j["input"]);
    if (!text)
        return unexpected(text.error());
    if (!isAbsent(j, "instructions")) {
        if (!j["instructions"].is_string())
            return unexpected(
                validationError("string_type", "instructions", "Input should be a valid string"));
        r.instructions = j["instructions"].get<std::string>();
    }
    g.promptTokens = 3 + estimateTokens(*text) + estimateTokens(r.instructions);
    g.promptHash = fnv1a64(QByteArray::fromStdString(*text));
    if (auto problem = readStreamFlags(j, g))
        return unexpected(*problem);
    auto limit = optionalInt(j, "max_output_tokens");
    if (!limit)
        return unexpected(limit.error());
    if (*limit && **limit < 1)
        return unexpected(
            badRequest("max_output_tokens must be at least 1, got " + std::to_string(**limit) + "."));
    if (!isAbsent(j, "previous_response_id")) {
        if (!j["previous_response_id"].is_string())
            return unexpected(
                validationError("string_type", "previous_response_id", "Input should be a valid string"));
        r.previousResponseId = j["previous_response_id"].get<std::string>();
    }
    auto model = resolveModel(j, models);
    if (!model)
        return unexpected(model.error());
    g.model = *model;
    if (g.promptTokens >= maxModelLen)
        return unexpected(badRequest("This model's maximum context length is " + std::to_string(maxModelLen) +
                                     " tokens. However, your request has " + std::to_string(g.promptTokens) +
                                     " input tokens. Please reduce the length of the input."));
    if (*limit)
        g.maxTokens = int(std::min<qint64>(**limit, maxModelLen - g.promptTokens));
    return r;
}

ResponsesWriter::ResponsesWriter(std::string id, qint64 createdAt, ResponsesRequest request)
    : m_id(std::move(id)), m_itemId("msg_" + m_id.substr(m_id.find('_') + 1)), m_createdAt(createdAt),
      m_request(std::move(request))
{}

OJson ResponsesWriter::response(const std::string &status, const OJson &output, const OJson &usage) const
{
    // vLLM's ResponsesResponse, id first (the gateway learns the id from the first bytes).
    OJson r;
    r["id"] = m_id;
    r["created_at"] = m_createdAt;
    r["incomplete_details"] = status == "incomplete" ? OJson{{"reason", "max_output_tokens"}} : OJson();
    r["instructions"] = m_request.instructions.empty() ? OJson() : OJson(m_request.instructions);
    r["metadata"] = nullptr;
    r["model"] = m_request.generation.model;
    r["object"] = "response";
    r["output"] = output;
    r["parallel_tool_calls"] = true;
    r["temperature"] = 1.0;
    r["tool_choice"] = "auto";
    r["tools"] = OJson::array();
    r["top_p"] = 1.0;
    r["background"] = false;
    r["max_output_tokens"] =
        m_request.generation.maxTokens ? OJson(*m_request.generation.maxTokens) : OJson();
    r["previous_response_id"] =
        m_request.previousResponseId.empty() ? OJson() : OJson(m_request.previousResponseId);
    r["reasoning"] = nullptr;
    r["service_tier"] = "auto";
    r["status"] = status;
    r["text"] = nullptr;
    r["truncation"] = "disabled";
    r["usage"] = usage;
    r["user"] = nullptr;
    return r;
}

OJson ResponsesWriter::message(const std::string &text, const std::string &status) const
{
    OJson content = OJson::array();
    if (status != "in_progress")
        content.push_back(OJson{{"annotations", OJson::array()},
                                {"text", text},
                                {"type", "output_text"},
                                {"logprobs", OJson::array()}});
    return OJson{{"id", m_itemId},
                 {"content", content},
                 {"role", "assistant"},
                 {"status", status},
                 {"type", "message"}};
}

QByteArray ResponsesWriter::event(const std::string &type, OJson body)
{
    body["sequence_number"] = m_sequence++;
    body["type"] = type;
    return namedEvent(type, toBytes(body));
}

QByteArray ResponsesWriter::openEvents(const Usage &)
{
    const OJson part{
        {"annotations", OJson::array()}, {"text", ""}, {"type", "output_text"}, {"logprobs", OJson::array()}};
    QByteArray out =
        event("response.created", OJson{{"response", response("in_progress", OJson::array(), nullptr)}});
    out +=
        event("response.in_progress", OJson{{"response", response("in_progress", OJson::array(), nullptr)}});
    out +=
        event("response.output_item.added", OJson{{"item", message({}, "in_progress")}, {"output_index", 0}});
    out += event("response.content_part.added",
                 OJson{{"content_index", 0}, {"item_id", m_itemId}, {"output_index", 0}, {"part", part}});
    return out;
}

QByteArray ResponsesWriter::tokenEvent(QByteArrayView token)
{
    return event("response.output_text.delta",
                 OJson{{"content_index", 0},
                       {"delta", std::string(token.data(), size_t(token.size()))},
                       {"item_id", m_itemId},
                       {"logprobs", OJson::array()},
                       {"output_index", 0}});
}

namespace {
OJson usageJson(const Usage &u)
{
    return OJson{{"input_tokens", u.promptTokens},
                 {"input_tokens_details", {{"cached_tokens", 0}}},
                 {"output_tokens", u.completionTokens},
                 {"output_tokens_details", {{"reasoning_tokens", 0}}},
                 {"total_tokens", u.promptTokens + u.completionTokens}};
}
std::string statusFor(FinishReason finish)
{
    return finish == FinishReason::Length ? "incomplete" : "completed";
}
} // namespace

QByteArray ResponsesWriter::closeEvents(const std::string &text, FinishReason finish, const Usage &usage)
{
    const OJson part{{"annotations", OJson::array()},
                     {"text", text},
                     {"type", "output_text"},
                     {"logprobs", OJson::array()}};
    const OJson item = message(text, "completed");
    QByteArray out = event("response.output_text.done", OJson{{"content_index", 0},
                                                              {"item_id", m_itemId},
                                                              {"logprobs", OJson::array()},
                                                              {"output_index", 0},
                                                              {"text", text}});
    out += event("response.content_part.done",
                 OJson{{"content_index", 0}, {"item_id", m_itemId}, {"output_index", 0}, {"part", part}});
    out += event("response.output_item.done", OJson{{"item", item}, {"output_index", 0}});
    const std::string status = statusFor(finish);
    // vLLM ends every stream with response.completed, the response's status saying "incomplete" when it
    // ran into max_output_tokens (OpenAI sends response.incomplete then).
    out += event("response.completed",
                 OJson{{"response", response(status, OJson::array({item}), usageJson(usage))}});
    return out;
}

QByteArray ResponsesWriter::completeBody(const std::string &text, FinishReason finish,
                                         const Usage &usage) const
{
    return toBytes(response(statusFor(finish), OJson::array({message(text, "completed")}), usageJson(usage)));
}

QByteArray ResponsesWriter::errorEvent(const ApiError &error) const
{
    // The Responses API's error event:
    // {"type":"error","code":…,"message":…,"param":null,"sequence_number":…}.
    const OJson e{{"code", error.type},
                  {"message", error.message},
                  {"param", nullptr},
                  {"sequence_number", m_sequence},
                  {"type", "error"}};
    return namedEvent("error", toBytes(e));
}

void ResponseStore::put(const std::string &id, QByteArray body)
{
    if (!m_bodies.count(id))
        m_order.push_back(id);
    m_bodies[id] = std::move(body);
    while (m_bodies.size() > Capacity && !m_order.empty()) {
        m_bodies.erase(m_order.front());
        m_order.pop_front();
    }
    // Ids deleted since they were put linger in m_order: drop them once they outnumber the live ones.
    if (m_order.size() > 2 * Capacity) {
        std::deque<std::string> live;
        for (const std::string &i : m_order) {
            if (m_bodies.count(i))
                live.push_back(i);
        }
        m_order.swap(live);
    }
}

std::optional<QByteArray> ResponseStore::get(const std::string &id) const
{
    const auto it = m_bodies.find(id);
    if (it == m_bodies.end())
        return std::nullopt;
    return it->second;
}

bool ResponseStore::remove(const std::string &id)
{
    return m_bodies.erase(id) > 0;
}

ApiError responseNotFound(const std::string &id)
{
    return {404, "invalid_request_error", "Response with id '" + id + "' not found."};
}

QByteArray deletedBody(const std::string &id)
{
    return toBytes(OJson{{"id", id}, {"object", "response"}, {"deleted", true}});
}

} // namespace switchyard::sim
