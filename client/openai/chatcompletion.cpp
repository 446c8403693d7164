#include "chatcompletion.h"

#include "openaijson.h"

namespace switchyard::openai {

ChatCompletion parseChatCompletion(QByteArrayView body)
{
    ChatCompletion c;
    const nlohmann::json completion = parseJson(body);
    if (const std::optional<TokenUsage> usage = usageOf(completion))
        c.usage = *usage;
    const nlohmann::json *choices = member(completion, "choices");
    if (!choices || !choices->is_array() || choices->empty())
        return c;
    const nlohmann::json &choice = choices->front();
    c.valid = true;
    if (const nlohmann::json *message = member(choice, "message")) {
        c.content = stringMember(*message, "content");
        c.reasoning = reasoningText(*message);
    }
    c.finishReason = stringMember(choice, "finish_reason");
    return c;
}

} // namespace switchyard::openai
