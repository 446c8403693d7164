#pragma once

// The body of one streamed generation request, as the chat console and the benchmark send it: a chat
// completion (POST /v1/chat/completions) or the same turn through the Responses API (POST /v1/responses).
// Written once, so both ask for the usage the same way and a field added for one reaches the other.

#include <QByteArray>
#include <QByteArrayView>
#include <QString>
#include <optional>

#include <nlohmann/json.hpp>

namespace switchyard::openai {

enum class GenerationApi { ChatCompletions, Responses };

struct GenerationRequest
{
    GenerationApi api = GenerationApi::ChatCompletions;
    QString model; // left out when empty: a node that serves one model takes the request anyway
    // The history as [{role, content}, …]. The Responses API takes these as its `input` items unchanged.
    nlohmann::ordered_json messages = nlohmann::ordered_json::array();
    int maxTokens = 0; // 0 = not sent (the node's default)
    std::optional<double> temperature;
    // Chat completions only: OpenAI's `user`, which the gateway's session affinity reads.
    QString user;
    // Chat completions only: vLLM's ignore_eos, so every request generates exactly maxTokens.
    bool ignoreEos = false;
    // Chat completions only: vLLM's continuous_usage_stats, the running usage in every chunk, so a reply
    // stopped early still knows its tokens. include_usage (the usage in the last chunk) is always asked
    // for; the Responses API's response.completed event carries the usage without asking.
    bool continuousUsage = false;
};

// The JSON body, with "stream": true. A Responses request says "store": false: neither the chat
// console nor the benchmark reads a response back from the node.
QByteArray generationBody(const GenerationRequest &request);

// "/v1/chat/completions" or "/v1/responses".
QByteArrayView generationPath(GenerationApi api);

} // namespace switchyard::openai
