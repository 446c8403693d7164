#pragma once

// The remote link's worker: it lives on the link's own thread and does every request of the management
// API with an HttpClient (GET /api/status, /api/requests, /api/history, /api/config; PUT /api/config;
// the node and gateway commands). Answers are parsed here, off the GUI thread, and leave as values in
// queued signals. It judges what an answer means for the link (which LinkState, which reason) but keeps
// no state of its own beyond the client: polling and backoff belong to RemoteGatewayLink.

#include "http/httpclient.h"
#include "link/gatewaylink.h"
#include "remote/remotelinkoptions.h"

#include <QObject>

namespace switchyard::client {

class ManagementClient final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ManagementClient)

public:
    explicit ManagementClient(RemoteLinkOptions options, QObject *parent = nullptr);
    ~ManagementClient() override;

    // Call on the client's thread (the link queues them there).
    void pollStatus();
    void fetchRequests(quint64 afterCursor, int max);
    void fetchHistory(const QString &series, int seconds);
    void fetchConfig();
    void searchHistory(quint64 ticket, const history::HistoryQuery &query);
    void fetchRollups(quint64 ticket, const history::RollupQuery &query);
    void putConfig(const QByteArray &text, const QString &ifMatchHash);
    void nodeAction(const QString &node, link::NodeAction action);
    void setAccepting(bool accepting);
    void fetchKeys();
    void createKey(const keys::KeyChange &spec);
    void updateKey(const QString &id, const keys::KeyChange &change);
    void revokeKey(const QString &id);
    void cancelAll() { m_http.cancelAll(); }
    // The certificate pin of every request from now on (requests in flight keep theirs).
    void setPinnedSha256(const QByteArray &sha256) { m_options.pinnedSha256 = sha256; }

signals:
    void statusPolled(const switchyard::link::GatewayStatus &status);
    // state and reason of a poll that failed (retryInMs and lastAnswerMs are the link's to fill in);
    // `untrusted` is the gateway's certificate when TLS refused it (null otherwise).
    void statusFailed(const switchyard::link::LinkStatus &failure,
                      const switchyard::upstream::UntrustedCertificate &untrusted);
    void requestsFetched(const QList<switchyard::stats::RequestRecord> &records, quint64 nextCursor, qint64 dropped);
    void historyFetched(const QString &series, const QList<switchyard::stats::SecondSample> &samples);
    void configFetched(const QByteArray &text, const QString &configHash);
    void configPut(const switchyard::link::ConfigPutResult &result);
    void commandFinished(const QString &what, bool ok, const QString &message);
    void keysFetched(const QList<switchyard::keys::KeyListing> &keys);
    void keyCreated(const switchyard::keys::KeyListing &key, const QString &secret);
    void keyChanged(const switchyard::keys::KeyListing &key);
    void historySearched(const switchyard::link::HistorySearchResult &result);
    void rollupsFetched(const switchyard::link::RollupsResult &result);

private:
    HttpRequest request(QByteArray method, const QString &pathAndQuery, qsizetype maxBytes, bool slow = false) const;
    // A failed exchange or an answer other than 2xx, in words, with the LinkState it stands for.
    link::LinkStatus failureOf(const HttpResult &result, const QString &what) const;
    // PATCH or DELETE of one key; the answer is the key as it is now.
    void changeKey(QByteArray method, const QString &id, const QString &what, QByteArray body);

    RemoteLinkOptions m_options;
    QByteArray m_authorization; // "Bearer …", built once
    HttpClient m_http;
};

} // namespace switchyard::client

Q_DECLARE_METATYPE(switchyard::upstream::UntrustedCertificate)
