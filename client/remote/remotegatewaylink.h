#pragma once

// The panel's link to a headless gateway over its management API (GatewayLink's remote half; the
// contract is in gateway/link/gatewaylink.h). The GUI thread never touches a socket: the link owns a
// thread on which a ManagementClient does every request; results come back as queued signals and the
// link keeps the state the views read. It polls GET /api/status every pollIntervalMs while started, one
// poll at a time. A failed poll says why (LinkState and reason) and the next try waits, from 0.5 s
// doubling to 10 s; the first good answer after that is Connected again. Use it from the thread that
// created it (the GUI thread in the panel); a read that fails answers commandFinished(what, false, why).

#include "link/gatewaylink.h"
#include "remote/remotelinkoptions.h"
#include "upstream/pinnedcertificate.h"

#include <QThread>

class QTimer;

namespace switchyard::client {

class ManagementClient;

class RemoteGatewayLink final : public link::GatewayLink
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RemoteGatewayLink)

public:
    explicit RemoteGatewayLink(RemoteLinkOptions options, QObject *parent = nullptr);
    ~RemoteGatewayLink() override; // stops the worker thread (requests in flight are dropped)

    QString displayName() const override;
    bool isRemote() const override { return true; }
    // The gateway serves the OpenAI endpoints itself, and an admin key may use them.
    QUrl apiUrl() const override { return m_options.url; }
    QString clientKey() const override { return m_options.adminKey; }
    QByteArray certificatePin() const override { return m_options.pinnedSha256; }

    void start() override;
    void stop() override;

    link::LinkStatus linkStatus() const override { return m_link; }
    std::optional<link::GatewayStatus> status() const override { return m_status; }

    // While the gateway's TLS certificate is neither trusted nor pinned (state Unreachable, the reason
    // names its fingerprint): that certificate, for the panel to ask whether to trust it. Up to date
    // whenever linkStatusChanged is emitted; nullopt once a poll gets through.
    std::optional<upstream::UntrustedCertificate> untrustedCertificate() const { return m_untrusted; }
    // Trusts the certificate with this SHA-256 (32 bytes; empty = the system's trust alone) from now on,
    // and tries again at once rather than after the backoff: the operator just answered the question.
    void setPinnedSha256(const QByteArray &sha256);
    QByteArray pinnedSha256() const { return m_options.pinnedSha256; }

    void fetchRequests(quint64 afterCursor, int max) override;
    void fetchHistory(const QString &series, int seconds) override;
    void fetchConfig() override;
    void searchHistory(quint64 ticket, const history::HistoryQuery &query) override;
    void fetchRollups(quint64 ticket, const history::RollupQuery &query) override;

    void putConfig(const QByteArray &text, const QString &ifMatchHash) override;
    void nodeAction(const QString &node, link::NodeAction action) override;
    void setAccepting(bool accepting) override;
    void fetchKeys() override;
    void createKey(const keys::KeyChange &spec) override;
    void updateKey(const QString &id, const keys::KeyChange &change) override;
    void revokeKey(const QString &id) override;

private:
    void poll();
    void onStatus(const link::GatewayStatus &status);
    void onFailure(const link::LinkStatus &failure, const upstream::UntrustedCertificate &untrusted);
    void setLinkStatus(const link::LinkStatus &status);
    // Runs f on the worker's thread.
    void onWorker(std::function<void(ManagementClient *)> f);

    RemoteLinkOptions m_options;
    QThread m_thread;
    ManagementClient *m_worker; // lives on m_thread, deleted there
    QTimer *m_pollTimer;
    QTimer *m_retryTimer;
    bool m_started = false;
    bool m_pollInFlight = false;
    bool m_retryAtOnce = false; // the pin changed while a poll (with the old one) was in flight
    int m_nextBackoffMs;
    link::LinkStatus m_link;
    std::optional<link::GatewayStatus> m_status;
    std::optional<upstream::UntrustedCertificate> m_untrusted;
};

} // namespace switchyard::client
