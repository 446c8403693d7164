#include "remotesessions.h"

#include "connect/certificatequestion.h"
#include "connect/connectdialog.h"
#include "connect/gatewayurl.h"
#include "fleet/fleetlink.h"
#include "fleet/gatewaysview.h"
#include "mainwindow.h"
#include "remote/remotegatewaylink.h"
#include "remotelink.h"
#include "upstream/pinnedcertificate.h"

#include <QInputDialog>
#include <QLineEdit>
#include <algorithm>
#include <cstdio>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

RemoteSessions::RemoteSessions(QObject *parent) : QObject(parent) {}

RemoteSessions::~RemoteSessions()
{
    // Windows before their links: a window reads its link until it goes.
    m_fleet.window.reset();
    for (Session &s : m_sessions)
        s.window.reset();
}

void RemoteSessions::addWindow(MainWindow *window)
{
    connect(window, &MainWindow::connectRequested, this, [this, window] { askAndConnect(window); });
    if (auto *gateways = window->findChild<GatewaysView *>())
        connect(gateways, &GatewaysView::fleetWindowRequested, this, [this] { openFleetWindow(); });
    for (const Session &s : m_sessions) {
        if (s.window.get() != window)
            window->addFleetGateway(s.link.get());
    }
    for (const QPointer<MainWindow> &other : m_windows) {
        if (other && other != window && !other->gatewayLink()->isRemote())
            window->addFleetGateway(other->gatewayLink()); // this process's gateway, when there is one
    }
    m_windows.emplace_back(window);
}

void RemoteSessions::askAndConnect(QWidget *parent)
{
    auto *dialog = new ConnectDialog(&m_credentials, &m_recent, parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const ConnectRequest r = dialog->request();
        QString error;
        if (!open(r.url, r.key, r.remember, &error) && dialog->parentWidget()) {
            if (auto *w = qobject_cast<MainWindow *>(dialog->parentWidget()->window()))
                w->showError(error.toHtmlEscaped());
        }
    });
    dialog->open(); // window-modal, never a nested event loop
}

bool RemoteSessions::connectAtStart(const QUrl &url)
{
    const auto valid = GatewayUrl::parse(url.toString());
    if (!valid) {
        std::fprintf(stderr, "switchyard: --connect %s: %s\n", qPrintable(url.toString()), qPrintable(valid.error()));
        return false;
    }
    // The key never comes from the command line (it would show in ps and the shell's history).
    QString key = qEnvironmentVariable("SWITCHYARD_ADMIN_KEY");
    if (!key.isEmpty()) {
        open(*valid, key, false);
        key.fill(u'\0');
        return true;
    }
    // The key remembered for this gateway, if the secret store has one; else ask.
    const QString canonical = GatewayUrl::canonical(*valid);
    auto conn = std::make_shared<QMetaObject::Connection>();
    *conn = connect(&m_credentials, &CredentialStore::keyLoaded, this,
                    [this, conn, canonical, url = *valid](const QString &gatewayUrl, const QString &stored, bool found) {
                        if (GatewayUrl::canonical(QUrl(gatewayUrl)) != canonical)
                            return;
                        disconnect(*conn);
                        if (found)
                            open(url, stored, false);
                        else
                            promptForKey(url);
                    });
    m_credentials.load(canonical);
    return true;
}

void RemoteSessions::promptForKey(const QUrl &url)
{
    auto *prompt = new QInputDialog;
    prompt->setAttribute(Qt::WA_DeleteOnClose);
    prompt->setWindowTitle(tr("Connect to a gateway"));
    prompt->setLabelText(tr("Admin key for %1 (empty: none, for a gateway on loopback without keys):")
                             .arg(url.toString()));
    prompt->setTextEchoMode(QLineEdit::Password);
    connect(prompt, &QInputDialog::textValueSelected, this, [this, url](const QString &key) { open(url, key, false); });
    connect(prompt, &QDialog::rejected, this, [this] {
        if (windowCount() == 0)
            emit lastWindowClosed();
    });
    prompt->open();
}

MainWindow *RemoteSessions::open(const QUrl &url, const QString &key, bool remember, QString *error)
{
    auto made = app::makeRemoteLink(url, key);
    if (!made) {
        if (error)
            *error = made.error();
        return nullptr;
    }
    Session s;
    s.link = std::move(*made);
    s.url = url;
    s.key = key;
    s.window = std::make_unique<MainWindow>(s.link.get(), nullptr, nullptr);
    link::GatewayLink *gatewayLink = s.link.get();
    MainWindow *window = s.window.get();
    window->setAttribute(Qt::WA_DeleteOnClose, false); // owned here

    // Filed once the gateway answered: a mistyped key or address is not remembered.
    const QString canonical = GatewayUrl::canonical(url);
    auto filed = std::make_shared<bool>(false);
    connect(gatewayLink, &link::GatewayLink::linkStatusChanged, this,
            [this, filed, canonical, key, remember](const link::LinkStatus &status) {
                if (*filed || status.state != link::LinkState::Connected)
                    return;
                *filed = true;
                m_recent.add(canonical);
                if (remember)
                    m_credentials.store(canonical, key);
                else
                    m_credentials.keepForSession(canonical, key);
            });
    connect(window, &MainWindow::quitFinished, this, [this, window] { closeSession(window); }, Qt::QueuedConnection);
    // A certificate the system does not trust: the operator decides, once per certificate shown; trusted,
    // its fingerprint is pinned for this gateway and the link retries at once.
    if (auto *remote = qobject_cast<client::RemoteGatewayLink *>(gatewayLink)) {
        // Trusted on an earlier day: not asked again while the gateway shows the same certificate.
        if (const QByteArray pin = m_trusted.pinFor(canonical); !pin.isEmpty())
            remote->setPinnedSha256(pin);
        auto asked = std::make_shared<QString>();
        connect(remote, &link::GatewayLink::linkStatusChanged, window, [this, remote, window, canonical, asked] {
            const auto untrusted = remote->untrustedCertificate();
            if (!untrusted || untrusted->isNull() || *asked == untrusted->sha256)
                return;
            *asked = untrusted->sha256;
            auto *question = new CertificateQuestion(canonical, untrusted->subject, untrusted->sha256,
                                                     untrusted->reason, window);
            question->setAttribute(Qt::WA_DeleteOnClose);
            const QString fingerprint = untrusted->sha256;
            connect(question, &QDialog::accepted, remote, [this, remote, fingerprint, canonical] {
                if (const auto pin = upstream::parseFingerprint(fingerprint)) {
                    remote->setPinnedSha256(*pin);
                    m_trusted.trust(canonical, *pin);
                }
            });
            question->open();
        });
    }

    for (const QPointer<MainWindow> &other : m_windows) {
        if (other)
            other->addFleetGateway(gatewayLink);
    }
    if (auto *fleet = qobject_cast<client::FleetLink *>(m_fleet.link.get())) {
        if (auto member = fleetLinkFor(s)) {
            s.fleetMember = member.get();
            fleet->addMember(std::move(member));
        }
    }
    m_sessions.push_back(std::move(s));
    addWindow(window);
    window->show();
    return window;
}

MainWindow *RemoteSessions::openFleetWindow()
{
    if (m_fleet.window) {
        m_fleet.window->show();
        m_fleet.window->raise();
        m_fleet.window->activateWindow();
        return m_fleet.window.get();
    }
    if (m_sessions.size() < 2)
        return nullptr;
    std::vector<std::unique_ptr<link::GatewayLink>> members;
    for (Session &s : m_sessions) {
        s.fleetMember = nullptr;
        if (auto member = fleetLinkFor(s)) {
            s.fleetMember = member.get();
            members.push_back(std::move(member));
        }
    }
    if (members.size() < 2) {
        for (Session &s : m_sessions)
            s.fleetMember = nullptr;
        return nullptr;
    }
    m_fleet.link = std::make_unique<client::FleetLink>(std::move(members));
    m_fleet.window = std::make_unique<MainWindow>(m_fleet.link.get(), nullptr, nullptr);
    MainWindow *window = m_fleet.window.get();
    window->setAttribute(Qt::WA_DeleteOnClose, false); // owned here
    connect(window, &MainWindow::quitFinished, this, [this] {
        // Out of the window's own signal first; the link goes after the window that reads it.
        MainWindow *closing = m_fleet.window.release();
        QObject *linkObject = m_fleet.link.release();
        for (Session &s : m_sessions)
            s.fleetMember = nullptr;
        std::erase_if(m_windows, [closing](const QPointer<MainWindow> &w) { return !w || w == closing; });
        connect(closing, &QObject::destroyed, linkObject, &QObject::deleteLater);
        closing->deleteLater();
        if (windowCount() == 0)
            emit lastWindowClosed();
    }, Qt::QueuedConnection);
    // Its Gateways tab lists the gateways it sums, not the sum as one more gateway.
    window->gatewaysView()->removeGateway(m_fleet.link.get());
    addWindow(window);
    window->show();
    return window;
}

std::unique_ptr<link::GatewayLink> RemoteSessions::fleetLinkFor(const Session &s) const
{
    auto made = app::makeRemoteLink(s.url, s.key);
    if (!made)
        return nullptr;
    // A certificate the operator trusted for this gateway is trusted by the fleet's link too.
    auto *theirs = qobject_cast<client::RemoteGatewayLink *>(s.link.get());
    auto *ours = qobject_cast<client::RemoteGatewayLink *>(made->get());
    if (theirs && ours && !theirs->pinnedSha256().isEmpty())
        ours->setPinnedSha256(theirs->pinnedSha256());
    return std::move(*made);
}

void RemoteSessions::closeSession(MainWindow *window)
{
    for (auto it = m_sessions.begin(); it != m_sessions.end(); ++it) {
        if (it->window.get() != window)
            continue;
        link::GatewayLink *gone = it->link.get();
        for (const QPointer<MainWindow> &other : m_windows) {
            if (other && other != window)
                other->removeFleetGateway(gone);
        }
        if (auto *fleet = qobject_cast<client::FleetLink *>(m_fleet.link.get()); fleet && it->fleetMember)
            fleet->removeMember(it->fleetMember); // the fleet window no longer sums a gateway closed here
        std::erase_if(m_windows, [window](const QPointer<MainWindow> &w) { return !w || w == window; });
        // Out of the window's own signal first; the link goes after the window that reads it.
        MainWindow *closing = it->window.release();
        QObject *linkObject = it->link.release();
        connect(closing, &QObject::destroyed, linkObject, &QObject::deleteLater);
        closing->deleteLater();
        m_sessions.erase(it);
        break;
    }
    if (windowCount() == 0)
        emit lastWindowClosed();
}

int RemoteSessions::windowCount() const
{
    return int(std::count_if(m_windows.begin(), m_windows.end(), [](const QPointer<MainWindow> &w) { return !w.isNull(); }));
}

} // namespace switchyard::ui
