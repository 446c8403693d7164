#include "panel.h"

#include "config/configcontroller.h"
#include "config/configloader.h"
#include "demofleet.h"
#include "gateway.h"
#include "mainwindow.h"
#include "remotesessions.h"
#include "signalwatcher.h"

#include <QApplication>
#include <QFileInfo>
#include <QIcon>
#include <QStandardPaths>
#include <cstdio>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {
// The gateway's worker threads yield to the GUI thread under full load (Gateway::setWorkerNice).
constexpr int PanelWorkerNice = 5;
} // namespace

namespace {
void setUpApplication()
{
    QApplication::setQuitOnLastWindowClosed(false); // the window says when (after draining)
    // The desktop entry (packaging/): lets Wayland compositors and docks match the window to its icon.
    QGuiApplication::setDesktopFileName(u"io.github.switchyard.Switchyard"_s);
    QApplication::setWindowIcon(QIcon(u":/icons/switchyard-256.png"_s));
}
} // namespace

int runRemotePanel(const QString &url)
{
    setUpApplication();
    RemoteSessions sessions;
    if (!sessions.connectAtStart(QUrl::fromUserInput(url)))
        return 2;
    app::SignalWatcher watcher;
    QObject::connect(&watcher, &app::SignalWatcher::terminateRequested, qApp, [] { QCoreApplication::exit(0); });
    QObject::connect(&sessions, &RemoteSessions::lastWindowClosed, qApp, [] { QCoreApplication::exit(0); },
                     Qt::QueuedConnection);
    return QApplication::exec();
}

int runPanel(const QString &configPath, const QString &listen, bool demo)
{
    // Destroyed in reverse order: the window first, then the config controller, then the gateway (its
    // workers stop), then the simulated nodes the gateway was talking to.
    app::DemoFleet fleet;
    Gateway gateway;
    gateway.setWorkerNice(PanelWorkerNice);
    // As in headless mode: the config controller applies, saves, watches and answers PUT /api/config.
    config::ConfigController controller(&gateway);
    if (const auto set = controller.setListenOverride(listen); !set) {
        std::fprintf(stderr, "switchyard: --listen %s: %s\n", qPrintable(listen), qPrintable(set.error()));
        return 2;
    }
    setUpApplication();

    MainWindow window(&gateway, &controller);
    // File ▸ Connect to gateway…: remote gateways open in windows of their own; every window's Gateways
    // tab lists them all.
    RemoteSessions sessions;
    sessions.addWindow(&window);

    auto startDemo = [&]() -> bool {
        if (!fleet.nodes().empty()) {
            window.showNote(QObject::tr("The demo is already running."));
            return true;
        }
        const auto json = fleet.start();
        if (!json) {
            window.showError(QObject::tr("The demo could not start: %1").arg(json.error()).toHtmlEscaped());
            return false;
        }
        auto cfg = config::parseConfig(*json);
        if (!cfg) {
            window.showError(QObject::tr("The demo's config is invalid: %1").arg(cfg.error().first().toString()).toHtmlEscaped());
            return false;
        }
        window.setDemoNodes(fleet.nodes());
        window.applyConfig(*cfg, QObject::tr("built-in demo"));
        // The config editor shows the demo's text; Save As makes it a file to start from.
        window.showConfigText(QString::fromUtf8(*json), QObject::tr("built-in demo"));
        for (sim::SimNode *n : fleet.nodes())
            std::fprintf(stderr, "demo node %s at %s\n", qPrintable(n->options().name), qPrintable(n->baseUrl()));
        return true;
    };
    auto announce = [&] {
        if (gateway.isRunning()) {
            std::printf("listening on %s\n", qPrintable(gateway.listenUrl()));
            std::fflush(stdout);
        }
    };
    QObject::connect(&window, &MainWindow::demoRequested, &window, [&] {
        if (startDemo() && !gateway.isRunning() && !gateway.isStopping()) {
            window.startGateway();
            announce();
        }
    });

    if (demo) {
        if (startDemo())
            window.startGateway();
    } else {
        // --config, else the last file opened, else config.json in the per-user config directory
        // (~/.config/Switchyard/switchyard/config.json on Linux), else the start page offers the demo.
        QString path = configPath;
        if (path.isEmpty() && QFileInfo::exists(MainWindow::lastConfigPath()))
            path = MainWindow::lastConfigPath();
        if (path.isEmpty())
            path = QStandardPaths::locate(QStandardPaths::AppConfigLocation, u"config.json"_s);
        if (!path.isEmpty() && window.openConfigFile(path))
            window.startGateway();
        // The first run (no config anywhere, never welcomed): the welcome offers the demo, a config
        // file or "Add my nodes". --demo and --config (scripts/start.sh, the tests) never see it.
        if (path.isEmpty() && WelcomeDialog::wanted())
            QMetaObject::invokeMethod(&window, [&window] { window.showWelcome(); }, Qt::QueuedConnection);
    }
    announce();

    app::SignalWatcher watcher;
    int terminations = 0;
    QObject::connect(&watcher, &app::SignalWatcher::terminateRequested, &window, [&](int) {
        if (++terminations == 1)
            window.quitDraining();
        else
            gateway.stopNow();
    });
    QObject::connect(&window, &MainWindow::quitFinished, qApp, [] { QCoreApplication::exit(0); }, Qt::QueuedConnection);

    window.show();
    const int code = QApplication::exec();
    gateway.stopNow();
    return code;
}

} // namespace switchyard::ui
