#pragma once

// The desktop panel: the gateway, the demo fleet when asked, and the main window, on the GUI thread.

#include <QString>

namespace switchyard::ui {

// Runs the panel until the user quits (or SIGTERM/SIGINT: in-flight requests drain first; a second
// signal cuts them). configPath: a config file (else the last one opened, else the start page offers
// the demo); listen: "HOST:PORT" overriding the config; demo: start the built-in demo. Returns the
// process exit code.
int runPanel(const QString &configPath, const QString &listen, bool demo);

// Runs the panel on a remote gateway (switchyard --connect URL) until the user quits; the gateway keeps
// running. The admin key comes from SWITCHYARD_ADMIN_KEY, else a masked prompt (cancelled: exit 1).
int runRemotePanel(const QString &url);

} // namespace switchyard::ui
