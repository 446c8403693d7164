#pragma once

// Durations as Bifrost writes them (its retry_backoff_* settings are Go time.Duration values).

#include "common/expected.h"

#include <QString>

namespace switchyard::config {

// Go's time.ParseDuration grammar ("300ms", "1.5s", "2h45m", "0"), converted to milliseconds (rounded).
// Negative durations are rejected (a backoff cannot be negative), and so is anything over a day. The
// error says what is wrong with the text, for a problem message.
Expected<qint64, QString> parseGoDurationMs(const QString &text);

} // namespace switchyard::config
