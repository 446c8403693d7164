#pragma once

// The one way the panel sees and steers a gateway, whether it runs in this process or headless on a
// server. Every view (Nodes, Charts, Requests, Config, Chat, Benchmark, the gateway toggle, the tray)
// works on a GatewayLink; there are two implementations:
//  - LocalGatewayLink (gateway/link/): the Gateway object of this process, read from the same
//    gateway/stats the management API serves;
//  - RemoteGatewayLink (client/remote/): a headless gateway over its management API (/api/*).
// The contract both keep:
//  - Nothing blocks. Reads return what is already known (status(), state()); fresh data and the
//    outcome of every command arrive by signal, on the link's thread (the GUI thread in the panel).
//  - The link polls by itself a few times a second while started; a remote one backs off while the
//    gateway is unreachable and says why (state()).
//  - Every answer is bounded (the request log by a cursor and a page size, history by seconds).

#include "history/historyquery.h"
#include "keys/keyregistry.h"
#include "link/gatewaystatus.h"
#include "stats/requestrecord.h"
#include "stats/secondshistory.h"

#include <QList>
#include <QObject>
#include <QString>
#include <QUrl>
#include <optional>

namespace switchyard::link {

// How well the panel can see the gateway; a local link is always Connected.
enum class LinkState {
    Connecting,   // no answer yet
    Connected,    // the last poll answered
    Unreachable,  // refused, timed out, DNS, TLS, connection lost: reason says which
    Unauthorized, // 401: no or a wrong admin key
    Forbidden,    // 403: the key is a client key, or the gateway answers loopback only
    Incompatible, // answered, but not a Switchyard management API this panel understands
};
QString linkStateName(LinkState state); // English; the panel translates its own words

struct LinkStatus
{
    LinkState state = LinkState::Connecting;
    QString reason;          // what the operator can act on; empty when Connected
    qint64 lastAnswerMs = 0; // ms since the epoch of the last good poll, 0 = never
    int retryInMs = 0;       // while not Connected: when the next try is due
};

enum class NodeAction { Drain, Enable, Probe };

// The outcome of putConfig().
struct ConfigPutResult
{
    enum class Outcome {
        Applied, // saved (if the gateway has a file) and applied
        Stale,   // 412: the running config changed since `ifMatch`; nothing applied
        Invalid, // 422: problems lists each one with its path; nothing applied
        Failed,  // anything else (unreachable, not saved, refused): reason says why
    };
    Outcome outcome = Outcome::Failed;
    QString summary;      // Applied: what changed, in words
    QString savedTo;      // Applied: the file written, if any
    QString configHash;   // Applied: the new running config's hash; Stale: the one running now
    QStringList problems; // Invalid
    QString reason;       // Stale / Failed
};

// One page of a search of the gateway's lasting history (searchHistory()).
struct HistorySearchResult
{
    quint64 ticket = 0; // the search this answers: a view drops answers to searches it has replaced
    bool ok = false;
    QString error; // !ok: why — no history on this gateway, unreachable, a bad filter …
    history::HistoryPage page;
};

// The per-bucket sums of the lasting history (fetchRollups()), for the day and week charts.
struct RollupsResult
{
    quint64 ticket = 0;
    bool ok = false;
    QString error;
    history::RollupQuery query;               // what was asked (toMs filled in when it was "now")
    std::vector<history::RollupPoint> points; // every bucket of the range, oldest first
};

class GatewayLink : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(GatewayLink)

public:
    using QObject::QObject;
    ~GatewayLink() override = default;

    // "This process" or the gateway's URL: what the window title and status bar say.
    virtual QString displayName() const = 0;
    virtual bool isRemote() const = 0;
    // Where OpenAI clients (chat, benchmark) send requests, and the key they send (may be empty).
    virtual QUrl apiUrl() const = 0;
    virtual QString clientKey() const = 0;
    // For an https:// apiUrl: the SHA-256 of the certificate the operator trusted for this gateway beside
    // the system's (a self-signed one), so the chat console and benchmark reach it as the link does; empty
    // when there is none.
    virtual QByteArray certificatePin() const { return {}; }

    // Starts and stops polling (status a few times a second; history and requests as asked).
    virtual void start() = 0;
    virtual void stop() = 0;

    virtual LinkStatus linkStatus() const = 0;
    // The latest status, if any arrived yet.
    virtual std::optional<GatewayStatus> status() const = 0;

    // Asynchronous reads. Each answers with the matching signal (or failed()).
    virtual void fetchRequests(quint64 afterCursor, int max) = 0;      // → requestsFetched
    virtual void fetchHistory(const QString &series, int seconds) = 0; // → historyFetched
    virtual void fetchConfig() = 0;                                    // → configFetched

    // Asynchronous commands. Each answers with commandFinished (or configPut).
    virtual void putConfig(const QByteArray &text, const QString &ifMatchHash) = 0; // → configPut
    virtual void nodeAction(const QString &node, NodeAction action) = 0;
    // Paused: new proxied requests get 503 + Retry-After, in-flight ones finish. The toolbar's
    // gateway toggle on a remote gateway; locally it starts/stops listening.
    virtual void setAccepting(bool accepting) = 0;

    // Virtual keys (docs/KEYS.md), managed on one gateway: a link that has none to manage (a fleet
    // window: until replicas share keys each keeps its own) answers commandFinished(false) with why.
    virtual void fetchKeys();                                                 // → keysFetched
    virtual void createKey(const keys::KeyChange &spec);                      // → keyCreated
    virtual void updateKey(const QString &id, const keys::KeyChange &change); // → keyChanged
    virtual void revokeKey(const QString &id);                                // → keyChanged

    // The lasting history (docs/HISTORY.md): one page of requests matching the query, beyond the
    // request log's last ones. → historySearched with the same ticket. A gateway that keeps no history
    // answers ok = false with why (and how to turn it on); so does a window that is no one gateway.
    virtual void searchHistory(quint64 ticket, const history::HistoryQuery &query);
    // Per-bucket sums of the same history. → rollupsFetched with the same ticket; refused alike.
    virtual void fetchRollups(quint64 ticket, const history::RollupQuery &query);

signals:
    void statusChanged(const switchyard::link::GatewayStatus &status);
    void linkStatusChanged(const switchyard::link::LinkStatus &status);
    // Records after `afterCursor`, oldest first; nextCursor continues after the last; dropped =
    // records that fell out of the gateway's bounded log before they were read.
    void requestsFetched(const QList<switchyard::stats::RequestRecord> &records, quint64 nextCursor,
                         qint64 dropped);
    void historyFetched(const QString &series, const QList<switchyard::stats::SecondSample> &samples);
    // The running config, secrets masked, and its hash (the ETag for putConfig).
    void configFetched(const QByteArray &text, const QString &configHash);
    void configPut(const switchyard::link::ConfigPutResult &result);
    void commandFinished(const QString &what, bool ok, const QString &message);
    void keysFetched(const QList<switchyard::keys::KeyListing> &keys);
    // The secret is in this signal only: the gateway keeps its hash, the panel shows it once.
    void keyCreated(const switchyard::keys::KeyListing &key, const QString &secret);
    void keyChanged(const switchyard::keys::KeyListing &key);
    void historySearched(const switchyard::link::HistorySearchResult &result);
    void rollupsFetched(const switchyard::link::RollupsResult &result);

protected:
    // The answer of a link without keys to manage, from the event loop.
    void refuseKeys(const QString &what);
};

} // namespace switchyard::link

Q_DECLARE_METATYPE(switchyard::link::LinkStatus)
Q_DECLARE_METATYPE(switchyard::link::ConfigPutResult)
Q_DECLARE_METATYPE(switchyard::link::HistorySearchResult)
Q_DECLARE_METATYPE(switchyard::link::RollupsResult)
