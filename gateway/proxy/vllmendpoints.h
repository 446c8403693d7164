#pragma once

// vLLM's own endpoints beyond the OpenAI four — /tokenize, /detokenize, the rerank, score, pooling and
// classify APIs — and the audio uploads: which `allowed_requests` flag each is, so a provider can be kept
// to the work its model does (a reranker, an ASR model). The JSON ones are proxied as embeddings are
// (proxy/routehandlers, `proxied`); audio uploads are multipart (proxy/audioupload).

#include "config/config.h"

#include <QByteArrayView>
#include <optional>

namespace switchyard::proxy {

// The request kind of a vLLM endpoint or audio upload path, or nullopt for any other path.
std::optional<config::RequestKind> vllmRequestKind(QByteArrayView path, bool stream);

} // namespace switchyard::proxy
