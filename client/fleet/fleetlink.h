#pragma once

// The whole fleet as one gateway: the panel's fleet window (View ▸ Whole fleet) shows its Nodes, Charts
// and Requests summed and merged over every gateway the panel is connected to, and its commands reach
// them all. It is a GatewayLink over links of its own, one per gateway (so the gateways' own windows
// and the fleet window never read each other's answers), and it keeps the link contract: nothing
// blocks, every answer is bounded, a gateway that does not answer within AnswerTimeoutMs is left out
// of that answer rather than holding it up. The arithmetic is in fleet/fleetmerge.h.
//  - Reads: status() merges the members that are Connected; fetchHistory() sums their seconds;
//    fetchRequests() merges their new records by start time into a log of its own (with its own
//    cursor, bounded to LogCapacity) and pages that.
//  - Config: fetchConfig() reads the first connected gateway's. putConfig() applies to all of them, but
//    first compares every gateway's running config with the one that was edited: when some run
//    another one (drift), nothing is applied and the answer is Stale, naming them; applying with "*"
//    (the editor's overwrite) then writes the same config to every gateway.
//  - Node actions and pause/resume go to every gateway: draining a node drains it fleet-wide.
//  - Virtual keys, for replicas that share them through one Redis (every connected gateway's status
//    names the same keys_shared_via; fleet/fleetkeys.cpp): listed from every connected gateway and
//    merged (fleetmerge.h); made, changed and revoked on one of them, from where Redis takes the change
//    to the others within a second. Gateways that keep their own keys are refused, saying why.
//  - Members come and go while it runs (the panel connects to one more gateway, or closes one): a
//    member that leaves is taken out of every answer still being gathered. Its slot stays empty, so
//    the indexes the rounds hold stay valid.

#include "link/gatewaylink.h"

#include <QHash>
#include <QList>
#include <functional>
#include <memory>
#include <vector>

class QTimer;

namespace switchyard::client {

class FleetLink final : public link::GatewayLink
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FleetLink)

public:
    static constexpr int AnswerTimeoutMs = 3000;
    static constexpr int LogCapacity = 5000;

    explicit FleetLink(std::vector<std::unique_ptr<link::GatewayLink>> members, QObject *parent = nullptr);
    ~FleetLink() override;

    // The members' names joined by " + " (their URLs: no words to translate).
    QString displayName() const override;
    bool isRemote() const override { return true; }
    // Chat and benchmark through the fleet window talk to the first connected gateway.
    QUrl apiUrl() const override;
    QString clientKey() const override;
    QByteArray certificatePin() const override;

    void start() override;
    void stop() override;

    // Connected while any gateway is; the reason then names the ones that are not.
    link::LinkStatus linkStatus() const override { return m_linkStatus; }
    std::optional<link::GatewayStatus> status() const override { return m_status; }

    void fetchRequests(quint64 afterCursor, int max) override;
    void fetchHistory(const QString &series, int seconds) override;
    void fetchConfig() override;

    void putConfig(const QByteArray &text, const QString &ifMatchHash) override;
    void nodeAction(const QString &node, link::NodeAction action) override;
    void setAccepting(bool accepting) override;

    void fetchKeys() override;
    void createKey(const keys::KeyChange &spec) override;
    void updateKey(const QString &id, const keys::KeyChange &change) override;
    void revokeKey(const QString &id) override;
    // Why the connected gateways cannot be managed as one set of keys; empty when they can.
    QString keysNotShared() const;

    // A gateway joins (started at once when the fleet runs) or leaves (stopped and deleted).
    void addMember(std::unique_ptr<link::GatewayLink> member);
    void removeMember(const link::GatewayLink *member);

    // Slots, including emptied ones; member(i) is null for a gateway that left.
    int memberCount() const { return int(m_members.size()); }
    const link::GatewayLink *member(int i) const { return m_members[size_t(i)].get(); }
    int liveMemberCount() const;

private:
    // One fan-out waiting for its members' answers.
    struct Round
    {
        QList<int> waiting; // member indexes yet to answer
        QTimer *timeout = nullptr;
    };

    void wire(int member);
    void refresh();
    void onMemberStatus();
    void onMemberRequests(int member, const QList<stats::RequestRecord> &records, quint64 nextCursor, qint64 dropped);
    void onMemberHistory(int member, const QString &series, const QList<stats::SecondSample> &samples);
    void onMemberConfigPut(int member, const link::ConfigPutResult &result);
    void onMemberCommand(int member, const QString &what, bool ok, const QString &message);
    void onMemberKeys(int member, const QList<keys::KeyListing> &keys);
    void finishKeys();
    // A key change sent to one gateway (Redis shares it); its answer is the fleet's.
    void keyCommand(const QString &what, const std::function<void(link::GatewayLink *)> &command);
    bool answersKeyCommand(int member, const QString &what, bool ok, const QString &message);
    QList<int> connectedMembers() const;
    // Whom the chat console and benchmark talk to (apiUrl, clientKey, certificatePin).
    const link::GatewayLink *apiMember() const;
    void finishRequests();
    void finishHistory(const QString &series);
    void finishConfigPut();
    void finishCommand(const QString &what);
    void readFailed(int member, const QString &what, const QString &message);
    // One command to every connected gateway, answered by one commandFinished(what, …) for all.
    void sendToAll(const QString &what, const std::function<void(link::GatewayLink *)> &command);
    QTimer *startTimeout(std::function<void()> onTimeout);
    // Stops a round's timer and deletes it from the event loop (it may be the one being handled).
    static void dropTimer(QTimer *timer);
    void later(std::function<void()> f);

    std::vector<std::unique_ptr<link::GatewayLink>> m_members;
    link::LinkStatus m_linkStatus;
    std::optional<link::GatewayStatus> m_status;
    QTimer *m_coalesce;
    bool m_started = false;

    // The merged request log.
    std::vector<quint64> m_memberCursors;
    QList<stats::RequestRecord> m_log; // oldest first, at most LogCapacity
    quint64 m_logFirstCursor = 1;      // the fleet cursor of m_log.front()
    qint64 m_logDropped = 0;           // records members said they lost, not yet reported
    std::optional<Round> m_requestsRound;
    QList<stats::RequestRecord> m_requestsArrived;
    quint64 m_pageAfter = 0;
    int m_pageMax = 0;

    struct HistoryRound
    {
        Round round;
        QList<QList<stats::SecondSample>> answers;
    };
    QHash<QString, HistoryRound> m_historyRounds;

    struct ConfigRound
    {
        Round round;
        QStringList applied, stale, invalid, failed;
        QStringList problems, summaries;
        QString lastHash;
    };
    std::optional<ConfigRound> m_configRound;

    struct CommandRound
    {
        Round round;
        QStringList failed;
    };
    QHash<QString, CommandRound> m_commandRounds;
    int m_configFrom = -1; // the member a fetchConfig() is waiting on

    struct KeysRound
    {
        Round round;
        QList<QList<keys::KeyListing>> answers;
    };
    std::optional<KeysRound> m_keysRound;
    int m_keyCommandMember = -1; // the gateway a key change went to
    QString m_keyCommand;        // its "create key" / "change key …" / "revoke key …"
};

} // namespace switchyard::client
