#pragma once

// The chat's view of the OpenAI wire format: the parsers of this folder under the names the chat code
// uses (namespace switchyard::client), and the SSE framing the streams come in. The framing lives in
// gateway/http (the gateway reads the same streams), so this header belongs to switchyard_client, not
// to switchyard_openai, which the gateway itself links.

#include "http/sseparser.h"
#include "openai/chatcompletion.h"
#include "openai/chatstream.h"
#include "openai/responsesstream.h"
#include "openai/openaierror.h"
#include "openai/openaimodels.h"
#include "openai/openaiusage.h"

namespace switchyard::client {

using SseEvent = http::SseEvent;
using SseParser = http::SseParser;

using openai::ChatCompletion;
using openai::ChatStreamEvent;
using openai::TokenUsage;
using openai::errorMessageFromBody;
using openai::parseChatCompletion;
using openai::parseChatStreamEvent;
using openai::parseResponsesStreamEvent;
using openai::parseModelList;
// ModelEntry is declared in this namespace itself (openai/openaimodels.h).

} // namespace switchyard::client
