#pragma once

// The panel's main window: one tab per view (Nodes, Charts, Requests, Keys, Config editor, Chat, Benchmark), a
// toolbar and menu with the gateway toggle, a status bar with the gateway's state and rates, and a
// system-tray icon whose colour tells the state (when the platform has a tray). While the gateway takes
// no traffic (off, paused, stopping, or out of sight) a banner above every view says so, since when, and
// offers the fix (ui/gatewaybanner.h).
// Every view sees the gateway through one link::GatewayLink: the gateway of this process
// (LocalGatewayLink) or a remote one over its management API. The window never touches a socket. The
// title and the status bar always say which gateway is shown, and a link that cannot see its gateway
// (unreachable, a wrong key) says so with the reason. For this process's gateway, the window also does
// what only it can: demo nodes and their faults, listening on and off, opening config files; configs
// are put into service by the config controller (gateway/config/, shared with PUT /api/config). On a
// remote gateway the toggle pauses and resumes it, node actions and Apply go over the link.
// Opening a config and quitting go through the config editor, so unsaved edits are never dropped without
// asking.

#include "config/config.h"
#include "gateway.h"
#include "link/gatewaylink.h"
#include "gatewaybanner.h"
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
class GatewaysView;
class KeysView;
class NodesView;
class RemoteConfig;
class RequestLogFollower;
class RequestsView;

class MainWindow final : public QMainWindow
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    enum class View { Nodes, Charts, Requests, Keys, Config, Chat, Benchmark, Gateways };
    Q_ENUM(View)

    // The gateway of this process, seen through a LocalGatewayLink the window makes. The gateway must
    // outlive the window. controller: the gateway's config controller, which must outlive the window
    // too; without one the window makes its own.
    explicit MainWindow(Gateway *gateway, QWidget *parent = nullptr);
    MainWindow(Gateway *gateway, config::ConfigController *controller, QWidget *parent = nullptr);
    // Any gateway through its link (which must outlive the window; the window starts it). gateway and
    // controller: this process's, when the link is to it (for what only this process can do); null for
    // a remote gateway.
    MainWindow(link::GatewayLink *link, Gateway *gateway, config::ConfigController *controller,
               QWidget *parent = nullptr);
    ~MainWindow() override;

    link::GatewayLink *gatewayLink() const { return m_link; }
    bool isRemote() const { return m_gateway == nullptr; }

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

    // This process: listens / stops listening (false: why is shown in the window and the tray). A remote
    // gateway: resumes / pauses it over the link (its answer arrives later; a refusal is shown).
    bool startGateway();
    void stopGateway();   // graceful: in-flight requests finish
    void setNodeDraining(const QString &node, bool drained); // over the link, local or remote
    void setSimulatedFault(const QString &node, sim::FaultMode mode); // off the GUI thread

    // Quitting: while this process's gateway runs, asks first, since the gateway stops with the panel
    // (with requests in flight: let them finish, cut them, or cancel; else quit or cancel). A remote
    // window never asks (its gateway keeps running). quitDraining() does not ask.
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
    // The gateway's state banner (off, paused, stopping, out of sight); its text is empty while hidden.
    GatewayBanner *gatewayBanner() const { return m_stateBanner; }
    QString gatewayBannerText() const;

    NodesView *nodesView() const { return m_nodes; }
    ChartsView *chartsView() const { return m_charts; }
    RequestsView *requestsView() const { return m_requests; }
    KeysView *keysView() const { return m_keys; }
    ConfigEditor *configEditor() const { return m_configEditor; } // null once replaced
    RemoteConfig *remoteConfig() const { return m_remoteConfig; }  // null for this process's gateway
    ChatConsole *chatConsole() const { return m_chat; }        // null once replaced
    BenchmarkView *benchmarkView() const { return m_bench; }   // null once replaced
    // The Gateways tab: this window's gateway and every other one the panel is connected to (the fleet).
    GatewaysView *gatewaysView() const { return m_gateways; }
    void addFleetGateway(link::GatewayLink *link);
    void removeFleetGateway(link::GatewayLink *link);
    // The Nodes view's "Open in chat": the Chat tab, pinned to the node ("node/model").
    void openInChat(const QString &node);
    QAction *gatewayToggleAction() const { return m_toggle; }
    QMenu *trayMenu() const { return m_trayMenu; }
    QSystemTrayIcon *trayIcon() const { return m_tray; } // null without a system tray
    GatewayIndicator indicator() const { return m_indicator; }
    QString statusText() const; // the status bar's texts, joined (for tests and accessibility)

    // The last config file opened (QSettings), for start-up without --config.
    static QString lastConfigPath();
    // Where Help ▸ Documentation goes: the README and docs/ on the project page.
    static QUrl documentationUrl();

    // The first-run welcome (demo, own config, or "Add my nodes"), window-modal; also File ▸ Add nodes.
    // Returns the dialog (it deletes itself when closed) so tests can drive it.
    WelcomeDialog *showWelcome(WelcomeDialog::Page page = WelcomeDialog::Page::Welcome);
    // File ▸ Settings (language). Returns the dialog (deletes itself when closed).
    QDialog *showSettings();

signals:
    void demoRequested();
    // File ▸ Connect to gateway…: the app asks for the address and key and opens a window on it.
    void connectRequested();
    void quitFinished(); // the gateway has stopped and settings are saved: the app may exit

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createActions(); // mainwindowmenus.cpp, as are the menus
    void createFileMenu();
    void createGatewayMenu();
    void createViewMenu();
    void createHelpMenu();
    void createTray();
    void attachLink();
    void onStatus(const link::GatewayStatus &status);
    void onLinkStatus(const link::LinkStatus &status);
    void onCommandFinished(const QString &what, bool ok, const QString &message);
    void updateStatusBar();
    void syncGatewayActions();
    void updateIndicator();
    void updateGatewayBanner();
    void onGatewayBannerAction(GatewayOutage outage);
    void openConfigInteractive();
    void connectConfig();
    void onConfigApplied(const Gateway::ApplyResult &result, const QString &source);
    void onWelcomeFinished(WelcomeDialog *dialog);
    bool openConfig(const QString &path, bool askAboutEdits);
    void updateTitle();
    void completeQuit();
    void saveSettings() const;

    link::GatewayLink *m_link;
    Gateway *m_gateway;                 // this process's, null for a remote gateway
    config::ConfigController *m_config; // declared before the editor, which is built on it
    RequestLogFollower *m_requestLog;
    RemoteConfig *m_remoteConfig = nullptr; // a remote gateway's config in the editor
    bool m_remoteConfigWanted = true;
    std::optional<link::GatewayStatus> m_status; // the latest the link reported
    QString m_historyProblemShown; // the history problem last shown in the banner
    qint64 m_historyDroppedSeen = 0;  // the count of dropped history records in the last status
    QString m_historyDroppedNote;     // the note saying it, as last shown in the banner
    QString m_redisNoteShown;      // the note on the keys' shared limits shown now, or empty
    // Where the chat console and benchmark send a remote gateway's requests: the link's URL, key and
    // certificate pin as last given to them.
    struct ToolsTarget
    {
        QString url, key;
        QByteArray pin;
        bool operator==(const ToolsTarget &) const = default;
    };
    ToolsTarget m_toolsTarget;
    void aimToolsAtTheLink();
    link::LinkStatus m_linkStatus;
    QTabWidget *m_tabs;
    NodesView *m_nodes;
    ChartsView *m_charts;
    RequestsView *m_requests;
    KeysView *m_keys;
    ConfigEditor *m_configEditor;
    ChatConsole *m_chat;
    BenchmarkView *m_bench;
    GatewaysView *m_gateways;
    QFrame *m_banner;
    QLabel *m_bannerText;
    GatewayBanner *m_stateBanner;
    GatewayOutage m_outage = GatewayOutage::None;
    qint64 m_outageSinceMs = 0;
    QLabel *m_stateIcon;
    QLabel *m_stateText;
    QLabel *m_gatewayText;
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
