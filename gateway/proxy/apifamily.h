#pragma once

// Which API a proxied request speaks, by its path: it decides the shape of the gateway's own errors
// (OpenAI's, or Anthropic's on the Messages API) and the names the usage figures go by.

#include "stats/usagesniffer.h"

#include <QByteArrayView>

namespace switchyard::proxy {

enum class ApiFamily {
    OpenAi,    // /v1/chat/completions, /v1/completions, /v1/embeddings
    Responses, // /v1/responses and /v1/responses/{id}…
    Messages,  // /v1/messages and /v1/messages/count_tokens: Anthropic-shaped errors
};

// The path without its query decides; an unknown path is OpenAI's.
ApiFamily apiFamilyForPath(QByteArrayView path);

inline stats::UsageDialect usageDialect(ApiFamily family)
{
    switch (family) {
    case ApiFamily::Responses:
        return stats::UsageDialect::Responses;
    case ApiFamily::Messages:
        return stats::UsageDialect::Messages;
    case ApiFamily::OpenAi:
        break;
    }
    return stats::UsageDialect::Completions;
}

} // namespace switchyard::proxy
