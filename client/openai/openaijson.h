#pragma once

// Reading the OpenAI wire format with nlohmann/json: the few conversions every parser in this folder
// needs, written once so that each treats a missing, null or mistyped field the same way — as absent.
// Nothing here throws: a node or a proxy may send anything.

#include <QByteArrayView>
#include <QString>

#include <nlohmann/json.hpp>

namespace switchyard::openai {

// The JSON value of text; a discarded value (is_discarded()) when the text is not JSON.
nlohmann::json parseJson(QByteArrayView text);

// text as a JSON object. Anything else gives a discarded value, and *why says what came instead:
// "not JSON: <the text's start>" or "not a JSON object".
nlohmann::json parseJsonObject(QByteArrayView text, QString *why);

// Compact JSON text of a value, for showing a shape no parser here knows.
QString compactJson(const nlohmann::json &value);

// Member key of object o, or nullptr when o is not an object, lacks the member or holds null there.
const nlohmann::json *member(const nlohmann::json &o, const char *key);

// The string member key of o; empty when it is absent or not a string.
QString stringMember(const nlohmann::json &o, const char *key);

// A count member (tokens, an index): a non-negative whole number, else -1.
qint64 countMember(const nlohmann::json &o, const char *key);

// A reasoning model's thinking in a message or a stream delta: vLLM up to 0.10 names it
// "reasoning_content", later builds "reasoning" (some send both, with the same text).
QString reasoningText(const nlohmann::json &messageOrDelta);

} // namespace switchyard::openai
