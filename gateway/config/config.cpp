#include "config.h"

namespace switchyard::config {

const char *flagName(RequestKind kind)
{
    switch (kind) {
    case RequestKind::ChatCompletion: return "chat_completion";
    case RequestKind::ChatCompletionStream: return "chat_completion_stream";
    case RequestKind::TextCompletion: return "text_completion";
    case RequestKind::TextCompletionStream: return "text_completion_stream";
    case RequestKind::Embedding: return "embedding";
    case RequestKind::ListModels: return "list_models";
    }
    return "";
}

bool AllowedRequests::allows(RequestKind kind) const
{
    switch (kind) {
    case RequestKind::ChatCompletion: return chatCompletion;
    case RequestKind::ChatCompletionStream: return chatCompletionStream;
    case RequestKind::TextCompletion: return textCompletion;
    case RequestKind::TextCompletionStream: return textCompletionStream;
    case RequestKind::Embedding: return embedding;
    case RequestKind::ListModels: return listModels;
    }
    return false;
}

} // namespace switchyard::config
