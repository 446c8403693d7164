#pragma once

// Turning a parsed config document into a GatewayConfig: the `providers` section (Bifrost's schema) and
// the `switchyard` object (the gateway's own), checked member by member. Shared by the loader and the
// Bifrost export, which validates what it writes with the same rules.

#include "config/config.h"
#include "config/configloader.h"
#include "config/configproblem.h"
#include "config/strictjson.h"

namespace switchyard::config {

// Walks the document, appending every problem found to `problems` rather than stopping at the first;
// the result is whatever could be read (meaningful only when no problem was added). Conventions (Go's
// encoding/json, which Bifrost uses): an absent member and a JSON null are the same "not set"; a member
// of the wrong type is an error.
GatewayConfig readConfig(const Json &doc, const EnvLookup &env, ConfigProblems &problems);

} // namespace switchyard::config
