#pragma once

// OpenAI-shaped errors, both ways. Written: the body {"error":{"message","type","param","code"}} the
// gateway answers with and sends as a stream's last event. Read: the human text of an error body from
// anyone on the way to a model — the gateway, a vLLM node (current or older), a FastAPI app in front of
// one, vLLM's API-key check, a proxy's HTML page. The gateway's request log and failover reasons, the
// chat console and the benchmark all show what this returns, so they say the same about the same body.

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <nlohmann/json_fwd.hpp>

namespace switchyard::openai {

// How long a shown error gets: one line of the request log, a chat bubble or a benchmark report should
// carry the node's words, not a whole HTML page or stack trace. Longer text ends in "…".
inline constexpr qsizetype ErrorMessageMaxChars = 300;

// {"error":{"message":…,"type":…,"param":…,"code":…}}; an empty param or code is written as null.
QByteArray errorBody(const QString &message, QByteArrayView type, QByteArrayView code = {},
                     QByteArrayView param = {});

// The human text of an error body, in this order:
//   {"error":{"message":…}}              OpenAI, the gateway, vLLM ≥ 0.10.1
//   {"error":"Unauthorized"}             vLLM's API-key check
//   {"object":"error","message":…}       vLLM before 0.10.1 (any flat "message")
//   {"detail":"…"} or {"detail":[{"loc":[…],"msg":…},…]}   FastAPI (HTTPException, validation errors)
// else the body's text, white space folded. Cut at ErrorMessageMaxChars; empty when the body is.
QString errorMessageFromBody(QByteArrayView body);

// The same for a body already parsed (a stream event): the message of json, else body's text.
QString errorMessageFromJson(const nlohmann::json &json, QByteArrayView body);

// The start of a text no error shape matched: trimmed, white space folded, cut at ErrorMessageMaxChars.
QString bodyExcerpt(QByteArrayView text);

} // namespace switchyard::openai
