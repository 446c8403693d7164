#pragma once

// The OpenAI-compatible surface of the simulated node, in vLLM's shapes: request validation (with vLLM's
// error types and messages where they matter to clients) and the JSON of every response, chunk and
// error. Pure functions and values: no sockets, no clock, so the shapes are easy to test.

#include "common/expected.h"
#include "performancemodel.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace switchyard::sim {

struct ApiError
{
    int status = 400;
    std::string type = "BadRequestError";
    std::string message;
};

ApiError badRequest(std::string message);
ApiError notFound(std::string message);
ApiError internalError(std::string message);

// {"error":{"message":…,"type":…,"param":null,"code":<status>}} (vLLM ≥ 0.10.1).
QByteArray errorBody(const ApiError &error);
// Serialises without throwing: invalid UTF-8 is replaced, never an exception.
QByteArray toBytes(const nlohmann::ordered_json &json);
// One SSE event: "data: <payload>\n\n".
QByteArray sseEvent(QByteArrayView payload);

// Tokens in a text: the larger of its word count and a quarter of its characters, at least 1 for
// non-empty text. Close enough to a BPE tokenizer for load and usage figures.
int estimateTokens(std::string_view utf8);

enum class Endpoint { ChatCompletions, Completions };

struct GenerationRequest
{
    Endpoint endpoint = Endpoint::ChatCompletions;
    std::string model;
    bool stream = false;
    bool includeUsage = false;    // stream_options.include_usage
    bool continuousUsage = false; // stream_options.continuous_usage_stats (vLLM extension)
    int promptTokens = 0;
    std::optional<int> maxTokens; // max_tokens / max_completion_tokens
    int minTokens = 0;            // vLLM extension
    bool ignoreEos = false;       // vLLM extension: generate until max_tokens
    std::optional<qint64> seed;   // the request's own seed
    quint64 promptHash = 0;       // of the prompt content, for deterministic text
};

// Validates a /v1/chat/completions or /v1/completions body. A missing model means the first served name
// (as vLLM does); an unknown one is a 404.
Expected<GenerationRequest, ApiError> parseGenerationRequest(Endpoint endpoint, QByteArrayView body,
                                                             const QStringList &models, int maxModelLen);

struct EmbeddingRequest
{
    std::string model;
    std::vector<quint64> inputHashes; // one per input
    int promptTokens = 0;
    bool base64 = false;
};

Expected<EmbeddingRequest, ApiError> parseEmbeddingRequest(QByteArrayView body, const QStringList &models,
                                                           int maxModelLen, int dimensions);

struct Usage
{
    int promptTokens = 0;
    int completionTokens = 0;
};

// The responses of one generation request. Chunks come back as complete SSE events.
class ResponseWriter final
{
public:
    ResponseWriter(Endpoint endpoint, std::string id, qint64 created, std::string model, bool includeUsage,
                   bool continuousUsage);

    Endpoint endpoint() const { return m_endpoint; }
    const std::string &id() const { return m_id; }

    // Chat streams open with {"role":"assistant","content":""}.
    QByteArray roleEvent(const Usage &usage) const;
    // One token; finish set on the last one. reasoning: a reasoning_content delta (chat only).
    QByteArray tokenEvent(QByteArrayView token, bool reasoning, std::optional<FinishReason> finish,
                          const Usage &usage) const;
    // The choices:[] chunk carrying usage (include_usage).
    QByteArray usageEvent(const Usage &usage) const;
    static QByteArray errorEvent(const ApiError &error);
    static QByteArray doneEvent() { return QByteArrayLiteral("data: [DONE]\n\n"); }

    // The whole non-stream response.
    QByteArray completeBody(const std::string &text, const std::string &reasoning, FinishReason finish,
                            const Usage &usage) const;

private:
    nlohmann::ordered_json chunkBase() const;
    void addStreamUsage(nlohmann::ordered_json &chunk, const Usage &usage) const;

    Endpoint m_endpoint;
    std::string m_id;
    qint64 m_created;
    std::string m_model;
    bool m_includeUsage;
    bool m_continuousUsage;
};

const char *finishReasonName(FinishReason reason);

QByteArray modelsBody(const QStringList &models, const QString &root, int maxModelLen, qint64 created);
QByteArray embeddingsBody(const EmbeddingRequest &request, const std::string &id, qint64 created,
                          int dimensions);

} // namespace switchyard::sim
