#pragma once

// Reading and validating the gateway's configuration file (Bifrost-compatible JSON, see docs/CONFIG.md).
// Everything here is a pure function of its input (plus an injectable environment lookup), returns its
// result as a value and never throws: a broken file yields every problem at once, each with the place it
// was found, so an operator (or the config editor) can fix them in one go.

#include "common/expected.h"
#include "config/config.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>
#include <functional>
#include <optional>

namespace switchyard::config {

// One thing wrong with a config document. A JSON syntax error carries line/column (1-based, column in
// characters); a schema problem carries the path of the offending value, like
// "providers.vllm-server1.keys[0].weight" (names that are not plain words are quoted: providers["a.b"]).
struct ConfigProblem
{
    QString path;
    int line = 0;
    int column = 0;
    QString message;

    // "line 3, column 14: <message>" for a syntax error, "<path>: <message>" otherwise.
    QString toString() const;
    bool operator==(const ConfigProblem &) const = default;
};
using ConfigProblems = QList<ConfigProblem>;

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

// The document without its top-level "switchyard" object, pretty-printed with 2-space indents and keys in
// their original order: a file Bifrost can load unchanged. "env.NAME" references are kept as written (the
// target has its own environment), so unset variables are not an error here; every other problem in what
// is exported is, because exporting a config Bifrost would reject (or misread) helps nobody.
Expected<QByteArray, ConfigProblems> exportBifrostConfig(QByteArrayView json);

// "HOST:PORT", "[::1]:8080", ":8080" (host 127.0.0.1: loopback unless asked otherwise) or "8080"
// (likewise). Port 0 asks for an ephemeral port. The error says what is wrong with the text.
struct ListenAddress
{
    QString host;
    quint16 port = 0;
};
Expected<ListenAddress, QString> parseListenAddress(const QString &text);

// How a problem names a member: "parent.name", or parent["odd name"] (quoted as in JSON) when the name
// would make the path ambiguous (dots, spaces, …). The config editor parses these paths back.
QString problemPath(const QString &parent, const QString &name);

// True for 127.0.0.0/8, ::1 and "localhost": addresses only this machine can reach.
bool isLoopbackHost(const QString &host);
// Safe default: a gateway reachable from the network must ask for an API key. Returns why the
// settings are refused (listening beyond loopback with no api_keys and no explicit opt-out), or empty.
QString exposureProblem(const GatewaySettings &settings);

} // namespace switchyard::config
