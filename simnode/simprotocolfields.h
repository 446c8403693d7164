#pragma once

// The request-body readers of simprotocol.cpp, shared with the Responses and Messages APIs: each gives
// the error vLLM (through pydantic) would give for a field of the wrong type.

#include "common/expected.h"
#include "simprotocol.h"

#include <nlohmann/json.hpp>

namespace switchyard::sim::fields {

ApiError validationError(const char *type, const std::string &field, const char *msg);
Expected<nlohmann::json, ApiError> parseObject(QByteArrayView body);
bool isAbsent(const nlohmann::json &obj, const char *key);
Expected<std::optional<qint64>, ApiError> optionalInt(const nlohmann::json &obj, const char *key);
Expected<bool, ApiError> optionalBool(const nlohmann::json &obj, const char *key);
// The served model named by obj.model (the first one when absent), or vLLM's 404.
Expected<std::string, ApiError> resolveModel(const nlohmann::json &obj, const QStringList &models);
// A message's content: a string, or the text parts of an array; null counts as empty.
Expected<std::string, ApiError> contentText(const nlohmann::json &content);
// stream and vLLM's ignore_eos into g; the error for an ill-typed one.
std::optional<ApiError> readStreamFlags(const nlohmann::json &obj, GenerationRequest &g);

} // namespace switchyard::sim::fields
