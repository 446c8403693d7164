#pragma once

// One "data:" payload of a chat completion stream (chat.completion.chunk), decoded: the deltas of the
// first choice, the finish reason, the usage of the last chunk, "[DONE]", and the error event a node
// or the gateway sends when a request fails after its status line. The SSE framing around it is
// gateway/http/sseparser.h.

#include "openaiusage.h"

#include <QByteArrayView>
#include <QString>

namespace switchyard::openai {

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

} // namespace switchyard::openai
