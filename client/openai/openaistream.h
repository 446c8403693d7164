#pragma once

// The pieces of the OpenAI wire format the chat console reads: server-sent events split incrementally,
// chat.completion.chunk deltas with usage, the model list, and error bodies in every shape a gateway or a
// vLLM node sends. No I/O here, so every corner (an event cut across two reads, CRLF lines, an error in
// the middle of a stream) is unit-testable without a socket.

#include <QByteArray>
#include <QByteArrayView>
#include "http/sseparser.h"

#include <QList>
#include <QString>

namespace switchyard::client {

// The SSE framing lives in gateway/http (the benchmark parses the same streams).
using SseEvent = http::SseEvent;
using SseParser = http::SseParser;

struct TokenUsage
{
    qint64 promptTokens = -1;     // -1 = not reported
    qint64 completionTokens = -1;
};

// One "data:" payload of a chat completion stream, decoded.
struct ChatStreamEvent
{
    enum class Kind {
        Chunk, // a chat.completion.chunk (deltas, finish reason and/or usage)
        Done,  // "[DONE]"
        Error, // {"error":…}: the request failed after the stream began
        Invalid,
    };
    Kind kind = Kind::Invalid;
    QString content;   // delta.content
    QString reasoning; // delta.reasoning_content (or "reasoning", as newer vLLM names it)
    QString finishReason;
    QString model;
    bool hasUsage = false;
    TokenUsage usage;
    QString error; // Error: the message; Invalid: what was wrong
};

ChatStreamEvent parseChatStreamEvent(QByteArrayView data);

// The human text of an error body: {"error":{"message":…}} (OpenAI, the gateway, vLLM ≥ 0.10.1),
// {"object":"error","message":…} (older vLLM), {"error":"Unauthorized"} (vLLM's API-key check), or the
// body itself, shortened, when it is not JSON. Empty when the body says nothing.
QString errorMessageFromBody(QByteArrayView body);

// One entry of GET /v1/models as the gateway lists it.
struct ModelEntry
{
    QString id;
    QStringList providers; // owned_by, comma-separated by the gateway
    // "provider/model": the gateway pins such a request to that provider's node.
    bool pinned() const;
};

// The "data" array of a model list; on failure returns nothing and sets *error.
QList<ModelEntry> parseModelList(QByteArrayView body, QString *error);

// A non-streamed chat.completion: what a server that ignored "stream":true sends back.
struct ChatCompletion
{
    bool valid = false;
    QString content;
    QString reasoning;
    QString finishReason;
    TokenUsage usage;
};
ChatCompletion parseChatCompletion(QByteArrayView body);

} // namespace switchyard::client
