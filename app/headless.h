#pragma once

#include "commandline.h"

namespace switchyard::app {

// Runs the gateway without windows until SIGTERM/SIGINT; returns the process exit code.
int runHeadless(const Options &options);
// --check-config and --export-bifrost.
int checkConfig(const QString &path);
int exportBifrost(const QString &path);

} // namespace switchyard::app
