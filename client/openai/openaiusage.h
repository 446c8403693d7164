#pragma once

// The "usage" object of a chat completion, or of a stream's last chunk when the request asked for it
// (stream_options.include_usage): the server's own token counts, which the chat's statistics and the
// benchmark's throughput figures are made of.

#include <QtGlobal>

#include <nlohmann/json_fwd.hpp>
#include <optional>

namespace switchyard::openai {

struct TokenUsage
{
    qint64 promptTokens = -1; // -1 = not reported
    qint64 completionTokens = -1;
    // prompt_tokens_details.cached_tokens: prompt tokens served from the node's prefix cache
    // (vLLM with --enable-prompt-tokens-details, OpenAI); -1 where the server does not say.
    qint64 cachedPromptTokens = -1;
};

// The usage of a completion or chunk; nullopt when it has none (vLLM streams "usage":null in every
// chunk before the last one).
std::optional<TokenUsage> usageOf(const nlohmann::json &completionOrChunk);

} // namespace switchyard::openai
