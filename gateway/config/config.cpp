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
    case RequestKind::Responses: return "responses";
    case RequestKind::ResponsesStream: return "responses_stream";
    case RequestKind::CountTokens: return "count_tokens";
    // vLLM's own endpoints and audio uploads.
    case RequestKind::Transcription: return "transcription";
    case RequestKind::TranscriptionStream: return "transcription_stream";
    case RequestKind::Translation: return "translation";
    case RequestKind::TranslationStream: return "translation_stream";
    case RequestKind::Rerank: return "rerank";
    case RequestKind::Tokenize: return "tokenize";
    case RequestKind::Score: return "score";
    case RequestKind::Pooling: return "pooling";
    case RequestKind::Classify: return "classify";
    }
    return "";
}

const char *strategyName(RoutingStrategy strategy)
{
    switch (strategy) {
    case RoutingStrategy::LeastOutstanding: return "least_outstanding";
    case RoutingStrategy::LoadAware: return "load_aware";
    case RoutingStrategy::SessionAffinity: return "session_affinity";
    case RoutingStrategy::CacheAware: return "cache_aware";
    case RoutingStrategy::WeightedRoundRobin: break;
    }
    return "weighted_round_robin";
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
    case RequestKind::Responses: return responses;
    case RequestKind::ResponsesStream: return responsesStream;
    case RequestKind::CountTokens: return countTokens;
    // vLLM's own endpoints and audio uploads.
    case RequestKind::Transcription: return transcription;
    case RequestKind::TranscriptionStream: return transcriptionStream;
    case RequestKind::Translation: return translation;
    case RequestKind::TranslationStream: return translationStream;
    case RequestKind::Rerank: return rerank;
    case RequestKind::Tokenize: return tokenize;
    case RequestKind::Score: return score;
    case RequestKind::Pooling: return pooling;
    case RequestKind::Classify: return classify;
    }
    return false;
}

} // namespace switchyard::config
