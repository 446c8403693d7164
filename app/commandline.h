#pragma once

// The command line shared by the panel and headless mode.

#include <QString>
#include <QStringList>
#include <optional>

namespace switchyard::app {

struct Options
{
    bool headless = false;
    bool demo = false;
    QString configPath;
    QString listen;          // "HOST:PORT" overriding the config
    QString checkConfigPath; // --check-config FILE
    QString exportBifrostPath;
    QString connectUrl;      // --connect URL: the panel on a remote gateway (admin key: SWITCHYARD_ADMIN_KEY or asked)
};

struct ParsedCommandLine
{
    Options options;
    int exitCode = -1;  // ≥ 0: exit at once with this code (help, version, or an error already printed)
};

ParsedCommandLine parseCommandLine(const QStringList &arguments);

// True when the arguments ask for a mode that needs no display (so no QApplication is created).
bool wantsNoDisplay(int argc, char **argv);

} // namespace switchyard::app
