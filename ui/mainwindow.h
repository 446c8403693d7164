#pragma once

// The panel's main window: one tab per view (Nodes, Charts, Requests, Config editor, Chat, Benchmark), a
// toolbar and menu with the gateway toggle, a status bar with the gateway's state and rates, and a
// system-tray icon whose colour tells the state (when the platform has a tray).
// It owns the GatewayMonitor that feeds every view; it never touches a socket. Configs are put into service
// by the config controller (gateway/config/, shared with PUT /api/config); the window shows what it reports.
// Opening a config and quitting go through the config editor, so unsaved edits are never dropped without
// asking.

#include "config/config.h"
#include "gateway.h"
#include "gatewaymonitor.h"
#include "simnode/simoptions.h"
#include "language.h"
#include "statusicons.h"
#include "welcomedialog.h"

#include <QMainWindow>
#include <QThreadPool>
#include <vector>

class QAction;
class QFrame;
class QLabel;
class QMenu;
class QSystemTrayIcon;
class QTabWidget;

namespace switchyard {
class Gateway;
namespace config {
class ConfigController;
}
namespace sim {
class SimNode;
}
} // namespace switchyard

namespace switchyard::ui {

class BenchmarkView;
class ChartsView;
class ChatConsole;
class ConfigEditor;
class NodesView;
class RequestsView;

class MainWindow final : public QMainWindow
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    enum class View { Nodes, Charts, Requests, Config, Chat, Benchmark };
    Q_ENUM(View)

    // The gateway must outlive the window. The window takes the gateway's request logger (see
    // GatewayMonitor), so create it before the gateway's first start(). controller: the gateway's config
    // controller, which must outlive the window too; without one the window makes its own.
    explicit MainWindow(Gateway *gateway, QWidget *parent = nullptr);
    MainWindow(Gateway *gateway, config::ConfigController *controller, QWidget *parent = nullptr);
    ~MainWindow() override;

    // "HOST:PORT" from --listen: applied to every config this window loads (the controller's override).
    void setListenOverride(const QString &listen);
    config::ConfigController *configController() const { return m_config; }

    // Loads, validates and applies a config file; problems are shown in the window (not modal) and the
    // file is shown in the config editor either way, to be fixed there. Unsaved edits in the editor are
    // asked about first (false when the operator cancels).
    bool openConfigFile(const QString &path);
    // Applies a config through the controller; source names it in the title ("demo", a file path).
    // Returns what changed.
    Gateway::ApplyResult applyConfig(config::GatewayConfig config, const QString &source);
    // The text of a config that is not a file (the demo's), for the editor; marked as the running config.
    void showConfigText(const QString &json, const QString &source);
    // The demo's simulated nodes: their state and counters feed the Nodes view, and their context
    // menu offers fault modes. They must outlive the window.
    void setDemoNodes(std::vector<sim::SimNode *> nodes);

    bool startGateway();  // false: why is shown in the window and the tray
    void stopGateway();   // graceful: in-flight requests finish
    void setNodeDraining(const QString &node, bool drained);
    void setSimulatedFault(const QString &node, sim::FaultMode mode); // off the GUI thread

    // Quitting: asks when requests are in flight (drain, cut, cancel); quitDraining() does not ask.
    void requestQuit();
    void quitDraining();

    // Puts another issue's view (config editor, chat console, benchmark) where its placeholder is;
    // the window takes ownership. label: the tab's text, empty to keep the placeholder's.
    void replaceView(View view, QWidget *widget, const QString &label = {});
    void showView(View view);
    View currentView() const;
    void showError(const QString &text);
    void showNote(const QString &text);
    QString bannerText() const;
    void hideBanner();

    GatewayMonitor *monitor() const { return m_monitor; }
    NodesView *nodesView() const { return m_nodes; }
    ChartsView *chartsView() const { return m_charts; }
    RequestsView *requestsView() const { return m_requests; }
    ConfigEditor *configEditor() const { return m_configEditor; } // null once replaced
    ChatConsole *chatConsole() const { return m_chat; }        // null once replaced
    BenchmarkView *benchmarkView() const { return m_bench; }   // null once replaced
    // The Nodes view's "Open in chat": the Chat tab, pinned to the node ("node/model").
    void openInChat(const QString &node);
    QAction *gatewayToggleAction() const { return m_toggle; }
    QMenu *trayMenu() const { return m_trayMenu; }
    QSystemTrayIcon *trayIcon() const { return m_tray; } // null without a system tray
    GatewayIndicator indicator() const { return m_indicator; }
    QString statusText() const; // the status bar's texts, joined (for tests and accessibility)

    // The last config file opened (QSettings), for start-up without --config.
    static QString lastConfigPath();

    // The first-run welcome (demo, own config, or "Add my nodes"), window-modal; also File ▸ Add nodes.
    // Returns the dialog (it deletes itself when closed) so tests can drive it.
    WelcomeDialog *showWelcome(WelcomeDialog::Page page = WelcomeDialog::Page::Welcome);
    // File ▸ Settings (language). Returns the dialog (deletes itself when closed).
    QDialog *showSettings();

signals:
    void demoRequested();
    void quitFinished(); // the gateway has stopped and settings are saved: the app may exit

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createActions();
    void createTray();
    void onSample(const MonitorSample &sample);
    void syncGatewayActions();
    void updateIndicator(const MonitorSample &sample);
    void openConfigInteractive();
    void connectConfig();
    void onConfigApplied(const Gateway::ApplyResult &result, const QString &source);
    void onWelcomeFinished(WelcomeDialog *dialog);
    bool openConfig(const QString &path, bool askAboutEdits);
    void updateTitle();
    void completeQuit();
    void saveSettings() const;

    Gateway *m_gateway;
    config::ConfigController *m_config; // declared before the editor, which is built on it
    GatewayMonitor *m_monitor;
    QTabWidget *m_tabs;
    NodesView *m_nodes;
    ChartsView *m_charts;
    RequestsView *m_requests;
    ConfigEditor *m_configEditor;
    ChatConsole *m_chat;
    BenchmarkView *m_bench;
    QFrame *m_banner;
    QLabel *m_bannerText;
    QLabel *m_stateIcon;
    QLabel *m_stateText;
    QLabel *m_urlText;
    QLabel *m_ratesText;
    QAction *m_toggle = nullptr;
    QAction *m_copyUrl = nullptr;
    QAction *m_openConfig = nullptr;
    QAction *m_startDemo = nullptr;
    QAction *m_addNodes = nullptr;
    QAction *m_settings = nullptr;
    QAction *m_quit = nullptr;
    QAction *m_showWindow = nullptr;
    QMenu *m_trayMenu = nullptr;
    QSystemTrayIcon *m_tray = nullptr;
    GatewayIndicator m_indicator = GatewayIndicator::Off;
    bool m_indicatorSet = false;
    QString m_configSource;
    std::vector<sim::SimNode *> m_demoNodes;
    QThreadPool m_faultPool; // setFault waits for the node's thread: never on the GUI thread
    i18n::Language m_language; // the language the panel started in
    bool m_lastStartFailed = false;
    bool m_quitting = false;
    bool m_closeAccepted = false;
};

} // namespace switchyard::ui
