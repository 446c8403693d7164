#pragma once

// The panel's remote gateways: File ▸ Connect to gateway… and `switchyard --connect URL` both end here.
// It owns what connecting needs (the secret store for admin keys, the recent gateways) and every window
// opened on a remote gateway, and keeps each window's Gateways tab listing the whole fleet: the window's
// own gateway and every other one this panel is connected to.
// A key is remembered only once its gateway answered (a typo is not filed in the secret store) and is
// never written anywhere else.

#include "connect/credentialstore.h"
#include "connect/recentgateways.h"
#include "connect/trustedcertificates.h"

#include <QObject>
#include <QPointer>
#include <QUrl>
#include <memory>
#include <vector>

namespace switchyard::link {
class GatewayLink;
}

namespace switchyard::ui {

class MainWindow;

class RemoteSessions final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RemoteSessions)

public:
    explicit RemoteSessions(QObject *parent = nullptr);
    ~RemoteSessions() override;

    // A window whose File ▸ Connect should come here, and whose Gateways tab should list the fleet (the
    // window of this process's gateway; windows opened here are added by themselves).
    void addWindow(MainWindow *window);

    // Asks for an address and a key (the Connect dialog, over parent) and opens a window on it.
    void askAndConnect(QWidget *parent);
    // switchyard --connect URL: the key from SWITCHYARD_ADMIN_KEY, else the one remembered for this
    // gateway, else a masked prompt. False when the address is no gateway address (said on stderr).
    bool connectAtStart(const QUrl &url);

    // Opens a window on the gateway (remember: file the key in the secret store once the gateway
    // answered). Returns the window, null when the address is no gateway address (the reason in error).
    MainWindow *open(const QUrl &url, const QString &key, bool remember, QString *error = nullptr);

    // One window for every remote gateway open here (their Nodes, Charts and Requests summed and merged,
    // commands to all: client/fleet/fleetlink.h), over links of its own; raised if already open. Null
    // when fewer than two remote gateways are open. The Gateways tab's button asks for it. While it is
    // open, a gateway connected to joins it and a gateway whose window is closed leaves it.
    MainWindow *openFleetWindow();
    MainWindow *fleetWindow() const { return m_fleet.window.get(); }

    int windowCount() const;
    CredentialStore *credentials() { return &m_credentials; }
    RecentGateways *recent() { return &m_recent; }
    TrustedCertificates *trustedCertificates() { return &m_trusted; }

signals:
    // The operator cancelled the start-up prompt, or closed the last remote window with no local one.
    void lastWindowClosed();

private:
    struct Session
    {
        std::unique_ptr<link::GatewayLink> link;
        std::unique_ptr<MainWindow> window;
        QUrl url;    // what it was opened with: the fleet window opens its own link to the same gateway
        QString key;
        link::GatewayLink *fleetMember = nullptr; // the fleet window's link to this gateway, while open
    };
    // The fleet window's own link to a session's gateway (trusting what the session trusts).
    std::unique_ptr<link::GatewayLink> fleetLinkFor(const Session &s) const;
    void promptForKey(const QUrl &url);
    void closeSession(MainWindow *window);

    CredentialStore m_credentials;
    RecentGateways m_recent;
    TrustedCertificates m_trusted;
    std::vector<QPointer<MainWindow>> m_windows; // every window that lists the fleet
    std::vector<Session> m_sessions;             // the remote gateways' windows and links
    Session m_fleet;                             // the fleet window, when open (not a gateway of the fleet)
};

} // namespace switchyard::ui
