#pragma once

// Reading and validating the gateway's configuration file (Bifrost-compatible JSON, see docs/CONFIG.md).
// Everything here is a pure function of its input (plus an injectable environment lookup), returns its
// result as a value and never throws: a broken file yields every problem at once, each with the place it
// was found, so an operator (or the config editor) can fix them in one go.
//
// The parts live in files of their own: the problems and their paths (configproblem.h), the strict JSON
// parse (strictjson.h), the schema (configreader.h, written with memberreader.h), Go durations
// (goduration.h), did-you-mean hints (didyoumean.h), listen addresses (listenaddress.h) and the Bifrost
// export (bifrostexport.h). This header is the config API the gateway, the panel and the command line
// use, so it brings in the public ones.

#include "common/expected.h"
#include "config/bifrostexport.h"
#include "config/config.h"
#include "config/configproblem.h"
#include "config/listenaddress.h"

#include <QByteArrayView>
#include <QString>
#include <functional>
#include <optional>

namespace switchyard::config {

// Resolves "env.NAME" references; nullopt = the variable is not set (set-but-empty is a value).
using EnvLookup = std::function<std::optional<QString>(const QString &name)>;

// The process environment (qEnvironmentVariableIsSet / qEnvironmentVariable).
EnvLookup processEnvironment();

// Parses and validates a whole document. On failure the list holds every problem found, not just the first.
Expected<GatewayConfig, ConfigProblems> parseConfig(QByteArrayView json,
                                                    const EnvLookup &env = processEnvironment());

// As parseConfig, reading the file first. A read error is one problem whose path is the file's name.
Expected<GatewayConfig, ConfigProblems> loadConfigFile(const QString &path,
                                                       const EnvLookup &env = processEnvironment());

// Safe default: a gateway reachable from the network must ask for an API key. Returns why the
// settings are refused (listening beyond loopback with no api_keys and no explicit opt-out), or empty.
QString exposureProblem(const GatewaySettings &settings);

} // namespace switchyard::config
