#pragma once

// vLLM's own endpoints on the simulated node: /tokenize, /detokenize, the rerank API (/v1/rerank, /rerank,
// /v2/rerank), the score API (/v1/score, /score), /pooling and /classify, in the shapes vLLM answers with.
// The node runs no model, so every figure derives from the request's text: token counts follow the
// node's prompt token estimate (estimateTokens, plus one BOS token as completions count it), scores and
// vectors come from a hash of the texts, so the same request always gets the same answer. Pure functions:
// no sockets, no clock.

#include "simprotocol.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QStringList>
#include <string>

namespace switchyard::sim {

// Whether the node serves this path with answerVllmApi.
bool isVllmApiPath(QByteArrayView path);

struct VllmApiAnswer
{
    QByteArray body;      // the JSON answer
    int promptTokens = 0; // the tokens the request's texts count (the node's prompt-token counter)
};

struct VllmApiContext
{
    QStringList models;
    int maxModelLen = 0;
    int dimensions = 0; // of a /pooling vector
    std::string id;     // unique part of the answer's id
    qint64 created = 0;
};

// The answer to a POST on an isVllmApiPath path, or the error vLLM gives for the body.
Expected<VllmApiAnswer, ApiError> answerVllmApi(QByteArrayView path, QByteArrayView body,
                                                const VllmApiContext &context);

} // namespace switchyard::sim
