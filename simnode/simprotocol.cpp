#include "simprotocol.h"

#include "http/jsonbodyscanner.h"
#include "simprotocolfields.h"
#include "textgenerator.h"

#include <cstring>

namespace switchyard::sim {

using OJson = nlohmann::ordered_json;
using Json = nlohmann::json;

ApiError badRequest(std::string message)
{
    return {400, "BadRequestError", std::move(message)};
}

ApiError notFound(std::string message)
{
    return {404, "NotFoundError", std::move(message)};
}

ApiError internalError(std::string message)
{
    return {500, "InternalServerError", std::move(message)};
}

QByteArray toBytes(const OJson &json)
{
    const std::string s = json.dump(-1, ' ', false, OJson::error_handler_t::replace);
    return QByteArray(s.data(), qsizetype(s.size()));
}

QByteArray errorBody(const ApiError &e)
{
    OJson err = OJson::object();
    err["message"] = e.message;
    err["type"] = e.type;
    err["param"] = nullptr;
    err["code"] = e.status;
    return toBytes(OJson{{"error", err}});
}

QByteArray sseEvent(QByteArrayView payload)
{
    QByteArray out;
    out.reserve(payload.size() + 8);
    out.append("data: ").append(payload).append("\n\n");
    return out;
}

int estimateTokens(std::string_view utf8)
{
    int chars = 0;
    int words = 0;
    bool inWord = false;
    for (char c : utf8) {
        const auto u = static_cast<unsigned char>(c);
        if ((u & 0xc0) != 0x80)
            ++chars; // count code points, not bytes
        const bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r';
        if (!space && !inWord)
            ++words;
        inWord = !space;
    }
    if (chars == 0)
        return 0;
    return std::max({1, words, (chars + 3) / 4});
}

const char *finishReasonName(FinishReason reason)
{
    return reason == FinishReason::Length ? "length" : "stop";
}

namespace fields {

// Pydantic-style messages, as vLLM passes FastAPI's validation errors through.
ApiError validationError(const char *type, const std::string &field, const char *msg)
{
    return badRequest("[{'type': '" + std::string(type) + "', 'loc': ('body', '" + field + "'), 'msg': '" + msg
                      + "'}]");
}

// Parses the body into a JSON object, or the error vLLM would give. The scanner runs first because it
// bounds nesting depth and reports where the JSON breaks.
Expected<Json, ApiError> parseObject(QByteArrayView body)
{
    const http::ScannedBody scan = http::scanRequestBody(body);
    if (!scan.valid) {
        return unexpected(badRequest("[{'type': 'json_invalid', 'loc': ('body', " + std::to_string(scan.errorOffset)
                                     + "), 'msg': 'JSON decode error', 'ctx': {'error': '"
                                     + scan.error.toStdString() + "'}}]"));
    }
    Json j = Json::parse(body.begin(), body.end(), nullptr, false);
    if (j.is_discarded())
        return unexpected(badRequest("[{'type': 'json_invalid', 'loc': ('body', 0), 'msg': 'JSON decode error'}]"));
    if (!j.is_object()) {
        return unexpected(badRequest("[{'type': 'model_attributes_type', 'loc': ('body',), 'msg': "
                                     "'Input should be a valid dictionary or object to extract fields from'}]"));
    }
    return j;
}

bool isAbsent(const Json &obj, const char *key)
{
    const auto it = obj.find(key);
    return it == obj.end() || it->is_null();
}

// An optional integer field; an error if present with another type.
Expected<std::optional<qint64>, ApiError> optionalInt(const Json &obj, const char *key)
{
    if (isAbsent(obj, key))
        return std::optional<qint64>();
    const Json &v = obj.at(key);
    if (v.is_number_integer())
        return std::optional<qint64>(v.get<qint64>());
    if (v.is_number_float() && v.get<double>() == double(qint64(v.get<double>())))
        return std::optional<qint64>(qint64(v.get<double>()));
    return unexpected(validationError("int_type", key, "Input should be a valid integer"));
}

Expected<bool, ApiError> optionalBool(const Json &obj, const char *key)
{
    if (isAbsent(obj, key))
        return false;
    const Json &v = obj.at(key);
    if (!v.is_boolean())
        return unexpected(validationError("bool_type", key, "Input should be a valid boolean"));
    return v.get<bool>();
}

Expected<std::string, ApiError> resolveModel(const Json &obj, const QStringList &models)
{
    if (isAbsent(obj, "model"))
        return models.first().toStdString();
    const Json &m = obj.at("model");
    if (!m.is_string())
        return unexpected(validationError("string_type", "model", "Input should be a valid string"));
    const std::string name = m.get<std::string>();
    if (!models.contains(QString::fromStdString(name)))
        return unexpected(notFound("The model `" + name + "` does not exist."));
    return name;
}

// Text of a message's content: a string, or the text parts of an array; null counts as empty.
Expected<std::string, ApiError> contentText(const Json &content)
{
    if (content.is_null())
        return std::string();
    if (content.is_string())
        return content.get<std::string>();
    if (content.is_array()) {
        std::string text;
        for (const Json &part : content) {
            if (!part.is_object() || !part.contains("type") || !part["type"].is_string())
                return unexpected(validationError("model_type", "messages", "Content parts must be objects with a type"));
            if (part["type"] == "text" || part["type"] == "input_text" || part["type"] == "output_text") {
                if (!part.contains("text") || !part["text"].is_string())
                    return unexpected(validationError("string_type", "messages", "Text parts need a string text"));
                text += part["text"].get<std::string>();
                text += ' ';
            }
        }
        return text;
    }
    return unexpected(validationError("string_type", "messages", "Input should be a valid string"));
}

std::optional<ApiError> readStreamFlags(const Json &obj, GenerationRequest &g)
{
    auto stream = optionalBool(obj, "stream");
    if (!stream)
        return stream.error();
    g.stream = *stream;
    auto ignoreEos = optionalBool(obj, "ignore_eos");
    if (!ignoreEos)
        return ignoreEos.error();
    g.ignoreEos = *ignoreEos;
    return std::nullopt;
}

} // namespace fields

using namespace fields;

Expected<GenerationRequest, ApiError> parseGenerationRequest(Endpoint endpoint, QByteArrayView body,
                                                             const QStringList &models, int maxModelLen)
{
    auto parsed = parseObject(body);
    if (!parsed)
        return unexpected(parsed.error());
    const Json &j = *parsed;
    GenerationRequest r;
    r.endpoint = endpoint;

    // Field validation comes before the model check, as pydantic validates the body before vLLM looks
    // at the model name.
    if (endpoint == Endpoint::ChatCompletions) {
        if (!j.contains("messages"))
            return unexpected(validationError("missing", "messages", "Field required"));
        const Json &messages = j["messages"];
        if (!messages.is_array())
            return unexpected(validationError("list_type", "messages", "Input should be a valid list"));
        if (messages.empty())
            return unexpected(badRequest("messages must not be empty"));
        int tokens = 3; // the assistant turn the chat template opens
        PromptTokenizer &tokenizer = r.tokenizer;
        for (const Json &m : messages) {
            if (!m.is_object())
                return unexpected(validationError("model_type", "messages", "Input should be an object"));
            if (!m.contains("role") || !m["role"].is_string())
                return unexpected(validationError("missing", "messages.role", "Field required"));
            auto text = contentText(m.contains("content") ? m["content"] : Json());
            if (!text)
                return unexpected(text.error());
            tokens += 4 + estimateTokens(*text); // role markers of the template
            tokenizer.addChatMessage(m["role"].get<std::string>(), *text);
        }
        tokenizer.addAssistantHeader();
        Q_ASSERT(tokenizer.tokens() == tokens);
        r.promptTokens = tokens;
        r.promptHash = fnv1a64(QByteArray::fromStdString(messages.dump(-1, ' ', false, Json::error_handler_t::replace)));
    } else {
        if (!j.contains("prompt"))
            return unexpected(validationError("missing", "prompt", "Field required"));
        const Json &prompt = j["prompt"];
        std::string text;
        PromptTokenizer &tokenizer = r.tokenizer;
        const bool oneText = prompt.is_string() || (prompt.is_array() && prompt.size() == 1 && prompt[0].is_string());
        if (oneText) {
            text = prompt.is_string() ? prompt.get<std::string>() : prompt[0].get<std::string>();
            r.promptTokens = 1 + estimateTokens(text); // BOS
            tokenizer.addMarkers("<bos>", 1);
            tokenizer.addText(text);
        } else if (prompt.is_array() && !prompt.empty()
                   && std::all_of(prompt.begin(), prompt.end(), [](const Json &t) { return t.is_number_integer(); })) {
            text = prompt.dump();
            r.promptTokens = int(prompt.size());
            for (const Json &t : prompt)
                tokenizer.addTokenId(t.get<qint64>());
        } else if (prompt.is_array() && prompt.size() > 1) {
            return unexpected(badRequest("The simulated node serves one prompt per request (n=1); batched prompts are not supported."));
        } else {
            return unexpected(validationError("string_type", "prompt", "Input should be a valid string"));
        }
        Q_ASSERT(tokenizer.tokens() == r.promptTokens);
        r.promptHash = fnv1a64(QByteArray::fromStdString(text));
    }

    auto stream = optionalBool(j, "stream");
    if (!stream)
        return unexpected(stream.error());
    r.stream = *stream;
    if (!isAbsent(j, "stream_options")) {
        const Json &so = j["stream_options"];
        if (!so.is_object())
            return unexpected(validationError("model_type", "stream_options", "Input should be an object"));
        if (!r.stream)
            return unexpected(badRequest("Stream options can only be defined when `stream=True`."));
        auto inc = optionalBool(so, "include_usage");
        auto cont = optionalBool(so, "continuous_usage_stats");
        if (!inc || !cont)
            return unexpected(validationError("bool_type", "stream_options", "Input should be a valid boolean"));
        r.includeUsage = *inc;
        r.continuousUsage = *inc && *cont;
    }

    auto maxTokens = optionalInt(j, "max_tokens");
    if (!maxTokens)
        return unexpected(maxTokens.error());
    auto maxCompletionTokens = optionalInt(j, "max_completion_tokens");
    if (!maxCompletionTokens)
        return unexpected(maxCompletionTokens.error());
    // Chat prefers max_completion_tokens, the newer name (as vLLM does).
    const std::optional<qint64> limit = *maxCompletionTokens ? *maxCompletionTokens : *maxTokens;
    if (limit && *limit < 1)
        return unexpected(badRequest("max_tokens must be at least 1, got " + std::to_string(*limit) + "."));

    auto n = optionalInt(j, "n");
    if (!n)
        return unexpected(n.error());
    if (*n && **n < 1)
        return unexpected(badRequest("n must be at least 1, got " + std::to_string(**n) + "."));
    if (*n && **n > 1)
        return unexpected(badRequest("The simulated node supports n=1 only."));

    for (const char *key : {"temperature", "top_p", "presence_penalty", "frequency_penalty"}) {
        if (!isAbsent(j, key) && !j[key].is_number())
            return unexpected(validationError("float_type", key, "Input should be a valid number"));
    }
    auto seed = optionalInt(j, "seed");
    if (!seed)
        return unexpected(seed.error());
    r.seed = *seed;
    auto minTokens = optionalInt(j, "min_tokens");
    if (!minTokens)
        return unexpected(minTokens.error());
    r.minTokens = int(std::clamp<qint64>(minTokens->value_or(0), 0, maxModelLen));
    auto ignoreEos = optionalBool(j, "ignore_eos");
    if (!ignoreEos)
        return unexpected(ignoreEos.error());
    r.ignoreEos = *ignoreEos;

    auto model = resolveModel(j, models);
    if (!model)
        return unexpected(model.error());
    r.model = *model;

    // vLLM's context length checks.
    if (r.promptTokens >= maxModelLen) {
        return unexpected(badRequest("This model's maximum context length is " + std::to_string(maxModelLen)
                                     + " tokens. However, your request has " + std::to_string(r.promptTokens)
                                     + " input tokens. Please reduce the length of the input messages."));
    }
    if (limit && *limit > maxModelLen - r.promptTokens) {
        return unexpected(badRequest("'max_tokens' or 'max_completion_tokens' is too large: " + std::to_string(*limit)
                                     + ". This model's maximum context length is " + std::to_string(maxModelLen)
                                     + " tokens and your request has " + std::to_string(r.promptTokens)
                                     + " input tokens (" + std::to_string(*limit) + " > " + std::to_string(maxModelLen)
                                     + " - " + std::to_string(r.promptTokens) + ")."));
    }
    if (limit)
        r.maxTokens = int(*limit);
    return r;
}

Expected<EmbeddingRequest, ApiError> parseEmbeddingRequest(QByteArrayView body, const QStringList &models,
                                                           int maxModelLen, int dimensions)
{
    auto parsed = parseObject(body);
    if (!parsed)
        return unexpected(parsed.error());
    const Json &j = *parsed;
    EmbeddingRequest r;
    if (!j.contains("input"))
        return unexpected(validationError("missing", "input", "Field required"));
    const Json &input = j["input"];

    auto addInput = [&](quint64 hash, int tokens) -> std::optional<ApiError> {
        if (tokens > maxModelLen)
            return badRequest("This model's maximum context length is " + std::to_string(maxModelLen)
                              + " tokens. However, you requested " + std::to_string(tokens)
                              + " tokens in the input for embedding generation. Please reduce the length of the input.");
        r.promptTokens += tokens;
        r.inputHashes.push_back(hash);
        return std::nullopt;
    };
    // One input: a string, or an array of token ids.
    auto addItem = [&](const Json &item) -> std::optional<ApiError> {
        if (item.is_string()) {
            const std::string text = item.get<std::string>();
            return addInput(fnv1a64(QByteArray::fromStdString(text)), std::max(1, estimateTokens(text)));
        }
        const bool tokenIds = item.is_array() && !item.empty()
            && std::all_of(item.begin(), item.end(), [](const Json &t) { return t.is_number_integer(); });
        if (tokenIds)
            return addInput(fnv1a64(QByteArray::fromStdString(item.dump())), int(item.size()));
        return validationError("string_type", "input", "Input should be a valid string or a list of token ids");
    };
    const bool listOfInputs = input.is_array() && !input.empty() && !input[0].is_number_integer();
    if (listOfInputs) {
        for (const Json &item : input) {
            if (auto e = addItem(item))
                return unexpected(*e);
        }
    } else if (auto e = addItem(input)) {
        return unexpected(*e);
    }

    if (!isAbsent(j, "encoding_format")) {
        const Json &f = j["encoding_format"];
        if (f == "base64")
            r.base64 = true;
        else if (f != "float")
            return unexpected(validationError("literal_error", "encoding_format", "Input should be 'float' or 'base64'"));
    }
    auto dims = optionalInt(j, "dimensions");
    if (!dims)
        return unexpected(dims.error());

    auto model = resolveModel(j, models);
    if (!model)
        return unexpected(model.error());
    r.model = *model;
    if (*dims && **dims != dimensions) {
        return unexpected(badRequest("Model \"" + r.model
                                     + "\" does not support matryoshka representation, changing output dimensions "
                                       "will lead to poor results."));
    }
    return r;
}

ResponseWriter::ResponseWriter(Endpoint endpoint, std::string id, qint64 created, std::string model,
                               bool includeUsage, bool continuousUsage)
    : m_endpoint(endpoint),
      m_id(std::move(id)),
      m_created(created),
      m_model(std::move(model)),
      m_includeUsage(includeUsage),
      m_continuousUsage(continuousUsage)
{
}

namespace {
OJson usageJson(const Usage &u)
{
    return OJson{{"prompt_tokens", u.promptTokens},
                 {"completion_tokens", u.completionTokens},
                 {"total_tokens", u.promptTokens + u.completionTokens}};
}

// The usage of a finished request: per-chunk usage never carries the details, the final one does. A
// stream's chunks leave unset fields out (vLLM dumps them with exclude_unset); a whole response has null.
OJson finalUsageJson(const Usage &u, bool stream)
{
    OJson j = usageJson(u);
    if (u.cachedTokens)
        j["prompt_tokens_details"] = OJson{{"cached_tokens", *u.cachedTokens}};
    else if (!stream)
        j["prompt_tokens_details"] = nullptr;
    return j;
}
} // namespace

OJson ResponseWriter::chunkBase() const
{
    OJson c = OJson::object();
    c["id"] = m_id;
    c["object"] = m_endpoint == Endpoint::ChatCompletions ? "chat.completion.chunk" : "text_completion";
    c["created"] = m_created;
    c["model"] = m_model;
    return c;
}

void ResponseWriter::addStreamUsage(OJson &chunk, const Usage &usage) const
{
    if (m_continuousUsage)
        chunk["usage"] = usageJson(usage);
    else if (m_includeUsage)
        chunk["usage"] = nullptr;
}

QByteArray ResponseWriter::roleEvent(const Usage &usage) const
{
    OJson c = chunkBase();
    OJson choice = OJson::object();
    choice["index"] = 0;
    choice["delta"] = OJson{{"role", "assistant"}, {"content", ""}};
    choice["logprobs"] = nullptr;
    choice["finish_reason"] = nullptr;
    c["choices"] = OJson::array({choice});
    addStreamUsage(c, usage);
    return sseEvent(toBytes(c));
}

QByteArray ResponseWriter::tokenEvent(QByteArrayView token, bool reasoning, std::optional<FinishReason> finish,
                                      const Usage &usage) const
{
    OJson c = chunkBase();
    OJson choice = OJson::object();
    choice["index"] = 0;
    const std::string text(token.data(), std::size_t(token.size()));
    if (m_endpoint == Endpoint::ChatCompletions) {
        choice["delta"] = OJson{{reasoning ? "reasoning_content" : "content", text}};
        choice["logprobs"] = nullptr;
        choice["finish_reason"] = finish ? OJson(finishReasonName(*finish)) : OJson(nullptr);
        if (finish)
            choice["stop_reason"] = nullptr;
    } else {
        choice["text"] = text;
        choice["logprobs"] = nullptr;
        choice["finish_reason"] = finish ? OJson(finishReasonName(*finish)) : OJson(nullptr);
        choice["stop_reason"] = nullptr;
    }
    c["choices"] = OJson::array({choice});
    addStreamUsage(c, usage);
    return sseEvent(toBytes(c));
}

QByteArray ResponseWriter::usageEvent(const Usage &usage) const
{
    OJson c = chunkBase();
    c["choices"] = OJson::array();
    c["usage"] = finalUsageJson(usage, true);
    return sseEvent(toBytes(c));
}

QByteArray ResponseWriter::errorEvent(const ApiError &error)
{
    return sseEvent(errorBody(error));
}

QByteArray ResponseWriter::completeBody(const std::string &text, const std::string &reasoning, FinishReason finish,
                                        const Usage &usage) const
{
    OJson r = OJson::object();
    r["id"] = m_id;
    r["object"] = m_endpoint == Endpoint::ChatCompletions ? "chat.completion" : "text_completion";
    r["created"] = m_created;
    r["model"] = m_model;
    OJson choice = OJson::object();
    choice["index"] = 0;
    if (m_endpoint == Endpoint::ChatCompletions) {
        OJson message = OJson::object();
        message["role"] = "assistant";
        // A reasoning model that spent every token thinking has no content at all.
        message["content"] = text.empty() && !reasoning.empty() ? OJson(nullptr) : OJson(text);
        message["refusal"] = nullptr;
        message["annotations"] = nullptr;
        message["audio"] = nullptr;
        message["function_call"] = nullptr;
        message["tool_calls"] = OJson::array();
        message["reasoning_content"] = reasoning.empty() ? OJson(nullptr) : OJson(reasoning);
        choice["message"] = message;
        choice["logprobs"] = nullptr;
        choice["finish_reason"] = finishReasonName(finish);
        choice["stop_reason"] = nullptr;
    } else {
        choice["text"] = text;
        choice["logprobs"] = nullptr;
        choice["finish_reason"] = finishReasonName(finish);
        choice["stop_reason"] = nullptr;
        choice["prompt_logprobs"] = nullptr;
    }
    r["choices"] = OJson::array({choice});
    r["service_tier"] = nullptr;
    r["system_fingerprint"] = nullptr;
    r["usage"] = finalUsageJson(usage, false);
    if (m_endpoint == Endpoint::ChatCompletions)
        r["prompt_logprobs"] = nullptr;
    r["kv_transfer_params"] = nullptr;
    return toBytes(r);
}

QByteArray modelsBody(const QStringList &models, const QString &root, int maxModelLen, qint64 created)
{
    OJson data = OJson::array();
    for (const QString &name : models) {
        OJson perm = OJson::object();
        perm["id"] = "modelperm-" + QByteArray::number(fnv1a64(name.toUtf8()), 16).rightJustified(16, '0').toStdString();
        perm["object"] = "model_permission";
        perm["created"] = created;
        perm["allow_create_engine"] = false;
        perm["allow_sampling"] = true;
        perm["allow_logprobs"] = true;
        perm["allow_search_indices"] = false;
        perm["allow_view"] = true;
        perm["allow_fine_tuning"] = false;
        perm["organization"] = "*";
        perm["group"] = nullptr;
        perm["is_blocking"] = false;
        OJson m = OJson::object();
        m["id"] = name.toStdString();
        m["object"] = "model";
        m["created"] = created;
        m["owned_by"] = "vllm";
        m["root"] = root.toStdString();
        m["parent"] = nullptr;
        m["max_model_len"] = maxModelLen;
        m["permission"] = OJson::array({perm});
        data.push_back(m);
    }
    return toBytes(OJson{{"object", "list"}, {"data", data}});
}

QByteArray embeddingsBody(const EmbeddingRequest &request, const std::string &id, qint64 created, int dimensions)
{
    OJson data = OJson::array();
    for (std::size_t i = 0; i < request.inputHashes.size(); ++i) {
        const std::vector<float> v = embeddingVector(request.inputHashes[i], dimensions);
        OJson item = OJson::object();
        item["index"] = i;
        item["object"] = "embedding";
        if (request.base64) {
            // Little-endian float32, as vLLM (and the OpenAI API) encode it.
            QByteArray raw(reinterpret_cast<const char *>(v.data()), qsizetype(v.size() * sizeof(float)));
            item["embedding"] = raw.toBase64().toStdString();
        } else {
            item["embedding"] = v;
        }
        data.push_back(item);
    }
    OJson r = OJson::object();
    r["id"] = id;
    r["object"] = "list";
    r["created"] = created;
    r["model"] = request.model;
    r["data"] = data;
    r["usage"] = OJson{{"prompt_tokens", request.promptTokens},
                       {"total_tokens", request.promptTokens},
                       {"completion_tokens", 0},
                       {"prompt_tokens_details", nullptr}};
    return toBytes(r);
}

} // namespace switchyard::sim
