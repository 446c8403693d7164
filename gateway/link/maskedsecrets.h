#pragma once

// The way back from a masked config. GET /api/config (and the local link's fetchConfig) show every
// literal secret as "********" (configToJson with maskSecrets), so an operator can read and edit the
// running config without seeing a key. When that document comes back (PUT /api/config, the panel's
// Apply), each "********" stands for "keep the running value here", not for a new key of eight stars.

#include "common/expected.h"
#include "config/config.h"
#include "config/configproblem.h"

#include <QByteArray>
#include <QLatin1StringView>

namespace switchyard::link {

inline constexpr QLatin1StringView MaskedSecret("********");

// Puts the running config's secret back at each masked place: a provider key's value by the
// provider's name and the key's name (else the key's position), an extra header by provider and
// header name, switchyard.api_keys and admin_keys by position. "env.NAME" references come back as
// written. Returns the text unchanged when nothing is masked, else the document with the secrets
// restored (re-serialized, members in their order). A mask where the running config has no secret is
// a problem at that path: a new key has to be typed. `text` must be a valid config document.
Expected<QByteArray, config::ConfigProblems> restoreMaskedSecrets(const QByteArray &text,
                                                                 const config::GatewayConfig &running);

} // namespace switchyard::link
