// switchyard: the panel, or with --headless the gateway alone.
#include "bench/benchcli.h"
#include "commandline.h"
#include "demofleet.h"
#include "headless.h"
#include "language.h"

#ifdef SWITCHYARD_HAVE_UI
#include "panel.h"
#include <QApplication>
#endif
#include <QCoreApplication>
#include <cstdio>
#include <memory>

using namespace switchyard;

int main(int argc, char **argv)
{
    // Threads other than the main one (the gateway's workers, its accept and health threads) run Qt's
    // own poll-based event dispatcher instead of GLib's: about a fifth less CPU per proxied request
    // (docs/PERFORMANCE.md). The GUI thread keeps GLib for the platform's sake. Set before any thread
    // exists, as setenv must be; an explicit QT_NO_THREADED_GLIB in the environment wins.
    if (!qEnvironmentVariableIsSet("QT_NO_THREADED_GLIB"))
        qputenv("QT_NO_THREADED_GLIB", "1");
    // Headless modes must not need a display, so the application type is chosen before parsing.
    std::unique_ptr<QCoreApplication> application;
#ifdef SWITCHYARD_HAVE_UI
    const bool noDisplay = app::wantsNoDisplay(argc, argv);
    if (noDisplay)
        application = std::make_unique<QCoreApplication>(argc, argv);
    else
        application = std::make_unique<QApplication>(argc, argv);
#else
    application = std::make_unique<QCoreApplication>(argc, argv);
#endif
    QCoreApplication::setApplicationName(QStringLiteral("switchyard"));
    QCoreApplication::setOrganizationName(QStringLiteral("Switchyard"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SWITCHYARD_VERSION));
    // Before any text exists (--help included): the system's language, or the one chosen in Settings.
    // Settings live in the per-user config dir (~/.config/Switchyard/switchyard.conf), from the names above.
    i18n::installTranslators(application.get(), i18n::languageSetting());

    // --bench has its own options (targets, suite, format): hand the whole command line over.
    if (QCoreApplication::arguments().contains(QStringLiteral("--bench"))) {
        app::DemoFleet demo;
        bench::BenchCliHooks hooks;
        hooks.startDemo = [&demo] { return demo.start(); };
        return bench::runBenchCli(QCoreApplication::arguments(), hooks);
    }
    const app::ParsedCommandLine cmd = app::parseCommandLine(QCoreApplication::arguments());
    if (cmd.exitCode >= 0)
        return cmd.exitCode;
    const app::Options &o = cmd.options;
    if (!o.checkConfigPath.isEmpty())
        return app::checkConfig(o.checkConfigPath);
    if (!o.exportBifrostPath.isEmpty())
        return app::exportBifrost(o.exportBifrostPath);
    if (o.headless)
        return app::runHeadless(o);
#ifdef SWITCHYARD_HAVE_UI
    if (!o.connectUrl.isEmpty())
        return ui::runRemotePanel(o.connectUrl);
    return ui::runPanel(o.configPath, o.listen, o.demo);
#else
    std::fprintf(stderr, "switchyard: built without the panel; use --headless\n");
    return 2;
#endif
}
