#pragma once

// The simulated node's Responses API (POST /v1/responses, GET/DELETE /v1/responses/{id}, POST
// /v1/responses/{id}/cancel) in the shapes vLLM returns: a response object with output_text content and
// input_tokens/output_tokens usage, and a stream of named events (response.created,
// response.in_progress, response.output_item.added, response.content_part.added,
// response.output_text.delta …, response.output_text.done, response.content_part.done,
// response.output_item.done, response.completed). The node keeps the responses it created, bounded, as
// vLLM keeps stored responses in its memory.

#include "simapiwriter.h"

#include <deque>
#include <optional>
#include <unordered_map>

namespace switchyard::sim {

struct ResponsesRequest
{
    GenerationRequest generation;
    std::string previousResponseId; // empty: none
    std::string instructions;
};

// Validates a /v1/responses body: input (a string or a list of messages), model, stream,
// max_output_tokens, instructions, previous_response_id.
Expected<ResponsesRequest, ApiError> parseResponsesRequest(QByteArrayView body, const QStringList &models,
                                                           int maxModelLen);

class ResponsesWriter final : public ApiWriter
{
public:
    ResponsesWriter(std::string id, qint64 createdAt, ResponsesRequest request);

    QByteArray openEvents(const Usage &usage) override;
    QByteArray tokenEvent(QByteArrayView token) override;
    QByteArray closeEvents(const std::string &text, FinishReason finish, const Usage &usage) override;
    QByteArray completeBody(const std::string &text, FinishReason finish, const Usage &usage) const override;
    QByteArray errorEvent(const ApiError &error) const override;

private:
    nlohmann::ordered_json response(const std::string &status, const nlohmann::ordered_json &output,
                                    const nlohmann::ordered_json &usage) const;
    nlohmann::ordered_json message(const std::string &text, const std::string &status) const;
    QByteArray event(const std::string &type, nlohmann::ordered_json body);

    std::string m_id;
    std::string m_itemId;
    qint64 m_createdAt;
    ResponsesRequest m_request;
    int m_sequence = 0;
};

// The responses a node created, newest kept: at most Capacity, the oldest forgotten first.
class ResponseStore final
{
public:
    static constexpr size_t Capacity = 1000;

    void put(const std::string &id, QByteArray body);
    std::optional<QByteArray> get(const std::string &id) const;
    bool remove(const std::string &id);
    bool contains(const std::string &id) const { return m_bodies.count(id) > 0; }

private:
    std::unordered_map<std::string, QByteArray> m_bodies;
    std::deque<std::string> m_order; // oldest first; may hold ids removed since
};

// vLLM's answers about stored responses.
ApiError responseNotFound(const std::string &id);
QByteArray deletedBody(const std::string &id);

} // namespace switchyard::sim
