#pragma once

// Reading a config document's JSON as strictly as Go's decoder does (Bifrost reads the same file), into a
// tree that keeps members in file order. It also reports what a plain parse would hide: a member name
// repeated within one object, and nesting deeper than any config needs.

#include "config/configproblem.h"

#include <QByteArrayView>
#include <QString>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace switchyard::config {

// ordered_json keeps members in file order: providers come out in the order the operator wrote them,
// and an export reads like the file it came from.
using Json = nlohmann::ordered_json;

// A JSON string or member name (UTF-8) as a QString.
QString fromStd(const std::string &s);

// The document, or nullopt when it is not JSON: then problems holds the syntax error with its line and
// column (or the nesting that went too deep). A repeated member name is appended to problems but still
// gives a document, in which the last one counts.
std::optional<Json> parseStrictJson(QByteArrayView text, ConfigProblems &problems);

} // namespace switchyard::config
