#pragma once

// The simulated node's Anthropic Messages API (POST /v1/messages, POST /v1/messages/count_tokens) in
// the shapes vLLM returns: a message with text content and input_tokens/output_tokens usage, and a
// stream of named events (message_start, content_block_start, content_block_delta …,
// content_block_stop, message_delta with the final usage, message_stop). Errors on these paths are
// vLLM's translation into Anthropic's shape: {"type":"error","error":{"type":…,"message":…}}.

#include "simapiwriter.h"

namespace switchyard::sim {

// Validates a /v1/messages body (model, max_tokens, messages, system, stream) or, with countOnly, a
// count_tokens body (no max_tokens).
Expected<GenerationRequest, ApiError> parseMessagesRequest(QByteArrayView body, const QStringList &models,
                                                           int maxModelLen, bool countOnly = false);

class MessagesWriter final : public ApiWriter
{
public:
    MessagesWriter(std::string id, std::string model);

    QByteArray openEvents(const Usage &usage) override;
    QByteArray tokenEvent(QByteArrayView token) override;
    QByteArray closeEvents(const std::string &text, FinishReason finish, const Usage &usage) override;
    QByteArray completeBody(const std::string &text, FinishReason finish, const Usage &usage) const override;
    QByteArray errorEvent(const ApiError &error) const override;

private:
    std::string m_id;
    std::string m_model;
};

QByteArray messagesErrorBody(const ApiError &error);
QByteArray countTokensBody(int inputTokens);

} // namespace switchyard::sim
