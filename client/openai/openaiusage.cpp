#include "openaiusage.h"

#include "openaijson.h"

namespace switchyard::openai {

std::optional<TokenUsage> usageOf(const nlohmann::json &completionOrChunk)
{
    const nlohmann::json *usage = member(completionOrChunk, "usage");
    if (!usage || !usage->is_object())
        return std::nullopt;
    TokenUsage u;
    u.promptTokens = countMember(*usage, "prompt_tokens");
    u.completionTokens = countMember(*usage, "completion_tokens");
    if (const nlohmann::json *details = member(*usage, "prompt_tokens_details"))
        u.cachedPromptTokens = countMember(*details, "cached_tokens");
    return u;
}

} // namespace switchyard::openai
