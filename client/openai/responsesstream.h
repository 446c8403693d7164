#pragma once

// One "data:" payload of a Responses API stream (POST /v1/responses with stream: true), decoded into
// the same event the chat stream gives (chatstream.h), so the chat console reads either: a
// response.output_text.delta is content, a response.reasoning_text.delta reasoning, the final
// response.completed (or .incomplete, .failed) carries the usage (input_tokens/output_tokens) and a
// finish reason ("stop", or "length" for an incomplete response), and an "error" event or the
// gateway's {"error":…} is an error. Every other event is a chunk without text.

#include "chatstream.h"

namespace switchyard::openai {

ChatStreamEvent parseResponsesStreamEvent(QByteArrayView data);

} // namespace switchyard::openai
