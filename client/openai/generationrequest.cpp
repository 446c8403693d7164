#include "generationrequest.h"

namespace switchyard::openai {

QByteArray generationBody(const GenerationRequest &request)
{
    const bool chat = request.api == GenerationApi::ChatCompletions;
    nlohmann::ordered_json body;
    if (!request.model.isEmpty())
        body["model"] = request.model.toStdString();
    body[chat ? "messages" : "input"] = request.messages;
    if (request.maxTokens > 0)
        body[chat ? "max_tokens" : "max_output_tokens"] = request.maxTokens;
    if (request.temperature)
        body["temperature"] = *request.temperature;
    body["stream"] = true;
    if (chat) {
        if (!request.user.isEmpty())
            body["user"] = request.user.toStdString();
        // Without it a stream carries no token count; with it the last chunk has the server's own usage.
        body["stream_options"] = {{"include_usage", true}};
        if (request.continuousUsage)
            body["stream_options"]["continuous_usage_stats"] = true;
        if (request.ignoreEos)
            body["ignore_eos"] = true;
    } else {
        body["store"] = false;
    }
    // Replace, not throw: a prompt pasted with a broken UTF-8 sequence still goes out.
    const std::string text = body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return QByteArray(text.data(), qsizetype(text.size()));
}

QByteArrayView generationPath(GenerationApi api)
{
    return api == GenerationApi::Responses ? QByteArrayView("/v1/responses")
                                           : QByteArrayView("/v1/chat/completions");
}

} // namespace switchyard::openai
