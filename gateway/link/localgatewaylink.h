#pragma once

// The panel's link to the Gateway object of this process. It reads the same live state /api/status
// serves (link/gatewaystatus.h) instead of computing its own, so a local and a remote panel agree.
// Every answer is emitted from a queued call: a caller never sees a signal from inside its own call,
// exactly as with a remote gateway.

#include "link/gatewaylink.h"

#include <functional>
#include <memory>

class QThread;
class QTimer;

namespace switchyard {
class Gateway;
namespace history {
class HistoryStore;
}
} // namespace switchyard

namespace switchyard::link {

class LocalGatewayLink final : public GatewayLink
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LocalGatewayLink)

public:
    static constexpr int PollIntervalMs = 250;

    // The gateway must outlive the link.
    explicit LocalGatewayLink(Gateway *gateway, QObject *parent = nullptr);
    ~LocalGatewayLink() override;

    QString displayName() const override;
    bool isRemote() const override { return false; }
    QUrl apiUrl() const override;
    QString clientKey() const override;

    void start() override;
    void stop() override;

    LinkStatus linkStatus() const override;
    std::optional<GatewayStatus> status() const override { return m_status; }

    void fetchRequests(quint64 afterCursor, int max) override;
    void fetchHistory(const QString &series, int seconds) override;
    void fetchConfig() override;

    void putConfig(const QByteArray &text, const QString &ifMatchHash) override;
    void nodeAction(const QString &node, NodeAction action) override;
    void setAccepting(bool accepting) override;

    void fetchKeys() override;
    void createKey(const keys::KeyChange &spec) override;
    void updateKey(const QString &id, const keys::KeyChange &change) override;
    void revokeKey(const QString &id) override;

    // On a thread of the link's own: a search reads the SQLite file, which the window's thread never does.
    void searchHistory(quint64 ticket, const history::HistoryQuery &query) override;
    void fetchRollups(quint64 ticket, const history::RollupQuery &query) override;

private:
    void poll();
    // The history, or nullptr after `refuse` was told why there is none (no history kept, not opened).
    std::shared_ptr<history::HistoryStore> historyOr(const std::function<void(const QString &why)> &refuse);
    // Runs `read` on the history thread (started on first use).
    void onHistoryThread(std::function<void()> read);
    // Runs `emitter` from the event loop, after the caller's call has returned.
    void later(std::function<void()> emitter);
    ConfigPutResult applyConfigText(const QByteArray &text, const QString &ifMatchHash);
    // The outcome of a change to one key, as the management API would answer it.
    void keyChangeDone(const QString &what,
                       const Expected<keys::VirtualKey, keys::KeyRegistry::Error> &result);

    Gateway *m_gateway;
    QTimer *m_timer;
    std::optional<GatewayStatus> m_status;
    qint64 m_lastAnswerMs = 0;
    // Started on the first history search; the searches run one after another in its event loop.
    std::unique_ptr<QThread> m_historyThread;
    QObject *m_historyContext = nullptr; // lives in m_historyThread: searches are queued to it
};

} // namespace switchyard::link
