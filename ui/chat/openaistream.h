#pragma once

// The pieces of the OpenAI wire format the chat console reads: server-sent events split incrementally,
// chat.completion.chunk deltas with usage, the model list, and error bodies in every shape a gateway or a
// vLLM node sends. No I/O here, so every corner (an event cut across two reads, CRLF lines, an error in
// the middle of a stream) is unit-testable without a socket.

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>

namespace switchyard::ui {

struct SseEvent
{
    QByteArray event; // the "event:" field; empty means "message"
    QByteArray data;  // "data:" lines joined with '\n'
};

// An incremental text/event-stream parser (the WHATWG rules that matter here): lines end in LF, CRLF or
// CR, an event ends at a blank line, "data:" lines accumulate, comments (":…") and unknown fields are
// ignored. Bytes may arrive cut anywhere, even between the CR and LF of one line end.
class SseParser final
{
public:
    // Takes the bytes as they arrived and returns every event they completed, in order.
    QList<SseEvent> feed(QByteArrayView bytes);
    // Bytes received but not yet part of a complete event (an unfinished line or event).
    bool hasPendingData() const { return !m_buffer.isEmpty() || !m_data.isEmpty() || m_hasData; }
    void reset();

private:
    void processLine(QByteArrayView line, QList<SseEvent> &out);

    QByteArray m_buffer; // an unfinished line
    QByteArray m_event;
    QByteArray m_data;
    bool m_hasData = false;
    bool m_skipLf = false; // the previous read ended in CR: a leading LF belongs to that line end
};

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

} // namespace switchyard::ui
