#include "proxy/vllmendpoints.h"

namespace switchyard::proxy {

std::optional<config::RequestKind> vllmRequestKind(QByteArrayView path, bool stream)
{
    using K = config::RequestKind;
    if (path == "/v1/audio/transcriptions")
        return stream ? K::TranscriptionStream : K::Transcription;
    if (path == "/v1/audio/translations")
        return stream ? K::TranslationStream : K::Translation;
    if (path == "/v1/rerank" || path == "/rerank" || path == "/v2/rerank")
        return K::Rerank;
    if (path == "/tokenize" || path == "/detokenize")
        return K::Tokenize;
    if (path == "/v1/score" || path == "/score")
        return K::Score;
    if (path == "/pooling")
        return K::Pooling;
    if (path == "/classify")
        return K::Classify;
    return std::nullopt;
}

} // namespace switchyard::proxy
