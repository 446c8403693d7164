#include "simvllmapi.h"

#include "simprotocolfields.h"
#include "textgenerator.h"

#include <algorithm>
#include <cmath>

namespace switchyard::sim {

using namespace fields; // the request-body readers vLLM's other endpoints use too

namespace {

using Json = nlohmann::json;
using OJson = nlohmann::ordered_json;

// A tokenizer's vocabulary size, for token ids that look real.
constexpr int VocabularySize = 32000;

// Tokens of one text as the node counts a completion prompt: BOS plus the estimate.
int textTokens(const std::string &text, bool specialTokens = true)
{
    return (specialTokens ? 1 : 0) + estimateTokens(text);
}

// A deterministic relevance in (0, 1) for a pair of texts.
double pairScore(const std::string &a, const std::string &b)
{
    const quint64 h = fnv1a64(QByteArray::fromStdString(b), fnv1a64(QByteArray::fromStdString(a)));
    return double(Rng(h).next() % 1'000'000 + 1) / 1'000'001.0;
}

// A string or a list of strings (vLLM's `input` of pooling and classify, `text_1`/`text_2` of score).
Expected<std::vector<std::string>, ApiError> texts(const Json &j, const char *field)
{
    if (isAbsent(j, field))
        return unexpected(validationError("missing", field, "Field required"));
    const Json &v = j[field];
    std::vector<std::string> out;
    if (v.is_string()) {
        out.push_back(v.get<std::string>());
    } else if (v.is_array() && !v.empty()) {
        for (const Json &item : v) {
            if (!item.is_string())
                return unexpected(validationError("string_type", field, "Input should be a valid string"));
            out.push_back(item.get<std::string>());
        }
    } else {
        return unexpected(validationError("string_type", field, "Input should be a valid string"));
    }
    return out;
}

OJson usageJson(int promptTokens)
{
    return OJson{{"prompt_tokens", promptTokens},
                 {"total_tokens", promptTokens},
                 {"completion_tokens", 0},
                 {"prompt_tokens_details", nullptr}};
}

std::optional<ApiError> tooLong(int tokens, int maxModelLen)
{
    if (tokens <= maxModelLen)
        return std::nullopt;
    return badRequest("This model's maximum context length is " + std::to_string(maxModelLen) +
                      " tokens. However, you requested " + std::to_string(tokens) +
                      " tokens in the input. Please reduce the length of the input.");
}

Expected<VllmApiAnswer, ApiError> tokenize(const Json &j, const VllmApiContext &ctx)
{
    const bool special = isAbsent(j, "add_special_tokens") || !j["add_special_tokens"].is_boolean() ||
                         j["add_special_tokens"].get<bool>();
    int count = 0;
    std::string text;
    if (!isAbsent(j, "messages")) {
        // As the node counts a chat prompt: the template's turns around each message's text.
        if (!j["messages"].is_array())
            return unexpected(validationError("list_type", "messages", "Input should be a valid list"));
        count = 3;
        for (const Json &m : j["messages"]) {
            const std::string content = m.is_object() && m.contains("content") && m["content"].is_string()
                                            ? m["content"].get<std::string>()
                                            : std::string();
            count += 4 + estimateTokens(content);
            text += content;
        }
    } else if (!isAbsent(j, "prompt") && j["prompt"].is_string()) {
        text = j["prompt"].get<std::string>();
        count = textTokens(text, special);
    } else {
        return unexpected(validationError("missing", "prompt", "Field required"));
    }
    auto model = resolveModel(j, ctx.models);
    if (!model)
        return unexpected(model.error());
    Rng rng(fnv1a64(QByteArray::fromStdString(text)));
    OJson tokens = OJson::array();
    for (int i = 0; i < count; ++i)
        tokens.push_back(i == 0 && special ? 1 : int(rng.next() % VocabularySize)); // 1: BOS
    return VllmApiAnswer{toBytes(OJson{{"count", count},
                                       {"max_model_len", ctx.maxModelLen},
                                       {"tokens", tokens},
                                       {"token_strs", nullptr}}),
                         count};
}

Expected<VllmApiAnswer, ApiError> detokenize(const Json &j, const VllmApiContext &ctx)
{
    if (isAbsent(j, "tokens"))
        return unexpected(validationError("missing", "tokens", "Field required"));
    const Json &tokens = j["tokens"];
    if (!tokens.is_array() ||
        !std::all_of(tokens.begin(), tokens.end(), [](const Json &t) { return t.is_number_integer(); }))
        return unexpected(validationError("list_type", "tokens", "Input should be a valid list of integers"));
    auto model = resolveModel(j, ctx.models);
    if (!model)
        return unexpected(model.error());
    // One word per token id: the same ids always read back as the same text.
    TextGenerator words(fnv1a64(QByteArray::fromStdString(tokens.dump())), TextGenerator::Style::Answer);
    std::string prompt;
    for (size_t i = 0; i < tokens.size(); ++i)
        prompt += words.next().toStdString();
    return VllmApiAnswer{toBytes(OJson{{"prompt", prompt}}), int(tokens.size())};
}

Expected<VllmApiAnswer, ApiError> rerank(const Json &j, const VllmApiContext &ctx)
{
    if (isAbsent(j, "query") || !j["query"].is_string())
        return unexpected(
            validationError(isAbsent(j, "query") ? "missing" : "string_type", "query",
                            isAbsent(j, "query") ? "Field required" : "Input should be a valid string"));
    auto documents = texts(j, "documents");
    if (!documents)
        return unexpected(documents.error());
    auto model = resolveModel(j, ctx.models);
    if (!model)
        return unexpected(model.error());
    const std::string query = j["query"].get<std::string>();
    int prompt = 0;
    std::vector<std::pair<double, size_t>> ranked;
    for (size_t i = 0; i < documents->size(); ++i) {
        const int tokens = textTokens(query) + estimateTokens((*documents)[i]) + 1; // [SEP]
        if (auto e = tooLong(tokens, ctx.maxModelLen))
            return unexpected(*e);
        prompt += tokens;
        ranked.emplace_back(pairScore(query, (*documents)[i]), i);
    }
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto &a, const auto &b) { return a.first > b.first; });
    const qint64 topN = j.contains("top_n") && j["top_n"].is_number_integer() ? j["top_n"].get<qint64>() : 0;
    if (topN > 0 && size_t(topN) < ranked.size())
        ranked.resize(size_t(topN));
    OJson results = OJson::array();
    for (const auto &[score, index] : ranked)
        results.push_back(OJson{
            {"index", index}, {"document", {{"text", (*documents)[index]}}}, {"relevance_score", score}});
    return VllmApiAnswer{toBytes(OJson{{"id", "rerank-" + ctx.id},
                                       {"model", *model},
                                       {"usage", {{"prompt_tokens", prompt}, {"total_tokens", prompt}}},
                                       {"results", results}}),
                         prompt};
}

Expected<VllmApiAnswer, ApiError> score(const Json &j, const VllmApiContext &ctx)
{
    auto first = texts(j, "text_1");
    if (!first)
        return unexpected(first.error());
    auto second = texts(j, "text_2");
    if (!second)
        return unexpected(second.error());
    // vLLM pairs one text_1 with every text_2, or N with N.
    if (first->size() != 1 && first->size() != second->size())
        return unexpected(badRequest("Input lengths must be either 1:1, 1:N or N:N"));
    auto model = resolveModel(j, ctx.models);
    if (!model)
        return unexpected(model.error());
    int prompt = 0;
    OJson data = OJson::array();
    for (size_t i = 0; i < second->size(); ++i) {
        const std::string &a = first->size() == 1 ? (*first)[0] : (*first)[i];
        const int tokens = textTokens(a) + estimateTokens((*second)[i]) + 1;
        if (auto e = tooLong(tokens, ctx.maxModelLen))
            return unexpected(*e);
        prompt += tokens;
        data.push_back(OJson{{"index", i}, {"object", "score"}, {"score", pairScore(a, (*second)[i])}});
    }
    return VllmApiAnswer{toBytes(OJson{{"id", "score-" + ctx.id},
                                       {"object", "list"},
                                       {"created", ctx.created},
                                       {"model", *model},
                                       {"data", data},
                                       {"usage", usageJson(prompt)}}),
                         prompt};
}

// /pooling and /classify: one result per input, as embeddings have.
Expected<VllmApiAnswer, ApiError> perInput(const Json &j, const VllmApiContext &ctx, bool classify)
{
    auto inputs = texts(j, "input");
    if (!inputs)
        return unexpected(inputs.error());
    auto model = resolveModel(j, ctx.models);
    if (!model)
        return unexpected(model.error());
    int prompt = 0;
    OJson data = OJson::array();
    for (size_t i = 0; i < inputs->size(); ++i) {
        const int tokens = textTokens((*inputs)[i]);
        if (auto e = tooLong(tokens, ctx.maxModelLen))
            return unexpected(*e);
        prompt += tokens;
        const quint64 seed = fnv1a64(QByteArray::fromStdString((*inputs)[i]));
        if (classify) {
            const double p = double(Rng(seed).next() % 1000 + 1) / 1001.0;
            data.push_back(OJson{{"index", i},
                                 {"label", p >= 0.5 ? "LABEL_1" : "LABEL_0"},
                                 {"probs", {1.0 - p, p}},
                                 {"num_classes", 2}});
        } else {
            data.push_back(OJson{{"index", i},
                                 {"object", "pooling"},
                                 {"data", embeddingVector(seed, std::max(1, ctx.dimensions))}});
        }
    }
    return VllmApiAnswer{toBytes(OJson{{"id", (classify ? "classify-" : "pool-") + ctx.id},
                                       {"object", "list"},
                                       {"created", ctx.created},
                                       {"model", *model},
                                       {"data", data},
                                       {"usage", usageJson(prompt)}}),
                         prompt};
}

} // namespace

bool isVllmApiPath(QByteArrayView path)
{
    for (QByteArrayView p : {"/tokenize", "/detokenize", "/v1/rerank", "/rerank", "/v2/rerank", "/v1/score",
                             "/score", "/pooling", "/classify"}) {
        if (path == p)
            return true;
    }
    return false;
}

Expected<VllmApiAnswer, ApiError> answerVllmApi(QByteArrayView path, QByteArrayView body,
                                                const VllmApiContext &context)
{
    auto parsed = parseObject(body);
    if (!parsed)
        return unexpected(parsed.error());
    const Json &j = *parsed;
    if (path == "/tokenize")
        return tokenize(j, context);
    if (path == "/detokenize")
        return detokenize(j, context);
    if (path.endsWith("rerank"))
        return rerank(j, context);
    if (path.endsWith("score"))
        return score(j, context);
    return perInput(j, context, path == "/classify");
}

} // namespace switchyard::sim
