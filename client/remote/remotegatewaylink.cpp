#include "remote/remotegatewaylink.h"

#include "remote/managementclient.h"

#include <QDateTime>
#include <QTimer>
#include <utility>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::client {

RemoteGatewayLink::RemoteGatewayLink(RemoteLinkOptions options, QObject *parent)
    : GatewayLink(parent), m_options(std::move(options)), m_worker(new ManagementClient(m_options)),
      m_pollTimer(new QTimer(this)), m_retryTimer(new QTimer(this)), m_nextBackoffMs(m_options.backoffInitialMs)
{
    qRegisterMetaType<link::GatewayStatus>();
    qRegisterMetaType<link::LinkStatus>();
    qRegisterMetaType<link::ConfigPutResult>();
    qRegisterMetaType<link::HistorySearchResult>();
    qRegisterMetaType<link::RollupsResult>();
    qRegisterMetaType<stats::SecondSample>();
    qRegisterMetaType<stats::RequestRecord>();
    qRegisterMetaType<keys::KeyListing>();
    qRegisterMetaType<upstream::UntrustedCertificate>();
    m_thread.setObjectName(u"remote link"_s);
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);

    // Queued: the worker emits on its thread, the link handles on its own.
    connect(m_worker, &ManagementClient::statusPolled, this, &RemoteGatewayLink::onStatus);
    connect(m_worker, &ManagementClient::statusFailed, this, &RemoteGatewayLink::onFailure);
    connect(m_worker, &ManagementClient::requestsFetched, this, &GatewayLink::requestsFetched);
    connect(m_worker, &ManagementClient::historyFetched, this, &GatewayLink::historyFetched);
    connect(m_worker, &ManagementClient::configFetched, this, &GatewayLink::configFetched);
    connect(m_worker, &ManagementClient::keysFetched, this, &GatewayLink::keysFetched);
    connect(m_worker, &ManagementClient::keyCreated, this, &GatewayLink::keyCreated);
    connect(m_worker, &ManagementClient::keyChanged, this, &GatewayLink::keyChanged);
    connect(m_worker, &ManagementClient::historySearched, this, &GatewayLink::historySearched);
    connect(m_worker, &ManagementClient::rollupsFetched, this, &GatewayLink::rollupsFetched);
    connect(m_worker, &ManagementClient::configPut, this, [this](const link::ConfigPutResult &r) {
        emit configPut(r);
        if (r.outcome == link::ConfigPutResult::Outcome::Applied)
            poll(); // the new config hash and nodes show at once
    });
    connect(m_worker, &ManagementClient::commandFinished, this,
            [this](const QString &what, bool ok, const QString &message) {
                emit commandFinished(what, ok, message);
                if (ok && !what.startsWith(u"GET "_s))
                    poll(); // a drained node or a paused gateway shows in the very next status
            });

    m_pollTimer->setInterval(m_options.pollIntervalMs);
    connect(m_pollTimer, &QTimer::timeout, this, &RemoteGatewayLink::poll);
    m_retryTimer->setSingleShot(true);
    connect(m_retryTimer, &QTimer::timeout, this, &RemoteGatewayLink::poll);
    m_thread.start();
}

RemoteGatewayLink::~RemoteGatewayLink()
{
    m_thread.quit();
    m_thread.wait();
}

QString RemoteGatewayLink::displayName() const
{
    return m_options.url.toDisplayString(QUrl::RemoveUserInfo);
}

void RemoteGatewayLink::onWorker(std::function<void(ManagementClient *)> f)
{
    QMetaObject::invokeMethod(m_worker, [w = m_worker, f = std::move(f)] { f(w); }, Qt::QueuedConnection);
}

void RemoteGatewayLink::start()
{
    if (m_started)
        return;
    m_started = true;
    m_nextBackoffMs = m_options.backoffInitialMs;
    link::LinkStatus s;
    s.state = link::LinkState::Connecting;
    s.lastAnswerMs = m_link.lastAnswerMs;
    m_link = s;
    // From the event loop, as every other signal: a caller never sees one from inside start().
    QMetaObject::invokeMethod(this, [this] { emit linkStatusChanged(m_link); }, Qt::QueuedConnection);
    m_pollTimer->start();
    poll();
}

void RemoteGatewayLink::stop()
{
    m_started = false;
    m_pollTimer->stop();
    m_retryTimer->stop();
}

void RemoteGatewayLink::setPinnedSha256(const QByteArray &sha256)
{
    m_options.pinnedSha256 = sha256;
    onWorker([sha256](ManagementClient *w) { w->setPinnedSha256(sha256); });
    if (!m_started)
        return;
    m_nextBackoffMs = m_options.backoffInitialMs;
    if (m_pollInFlight) {
        m_retryAtOnce = true; // that poll still carries the old pin
        return;
    }
    m_retryTimer->stop();
    poll();
}

void RemoteGatewayLink::poll()
{
    if (!m_started || m_pollInFlight)
        return;
    m_pollInFlight = true;
    onWorker([](ManagementClient *w) { w->pollStatus(); });
}

void RemoteGatewayLink::onStatus(const link::GatewayStatus &status)
{
    m_pollInFlight = false;
    if (!m_started)
        return;
    m_status = status;
    m_retryAtOnce = false;
    m_untrusted.reset();
    m_nextBackoffMs = m_options.backoffInitialMs;
    link::LinkStatus s;
    s.state = link::LinkState::Connected;
    s.lastAnswerMs = QDateTime::currentMSecsSinceEpoch();
    if (!m_pollTimer->isActive())
        m_pollTimer->start();
    setLinkStatus(s);
    emit statusChanged(*m_status);
}

void RemoteGatewayLink::onFailure(const link::LinkStatus &failure, const upstream::UntrustedCertificate &untrusted)
{
    m_pollInFlight = false;
    if (!m_started)
        return;
    link::LinkStatus s = failure;
    s.lastAnswerMs = m_link.lastAnswerMs;
    if (std::exchange(m_retryAtOnce, false)) {
        s.retryInMs = 0;
    } else {
        s.retryInMs = m_nextBackoffMs;
        m_nextBackoffMs = std::min(m_nextBackoffMs * 2, m_options.backoffMaxMs);
    }
    if (untrusted.isNull())
        m_untrusted.reset();
    else
        m_untrusted = untrusted;
    m_pollTimer->stop();
    m_retryTimer->start(s.retryInMs);
    setLinkStatus(s);
}

void RemoteGatewayLink::setLinkStatus(const link::LinkStatus &status)
{
    const bool changed = status.state != m_link.state || status.reason != m_link.reason
                         || status.retryInMs != m_link.retryInMs;
    m_link = status;
    if (changed)
        emit linkStatusChanged(m_link);
}

void RemoteGatewayLink::fetchRequests(quint64 afterCursor, int max)
{
    onWorker([afterCursor, max](ManagementClient *w) { w->fetchRequests(afterCursor, max); });
}

void RemoteGatewayLink::fetchHistory(const QString &series, int seconds)
{
    onWorker([series, seconds](ManagementClient *w) { w->fetchHistory(series, seconds); });
}

void RemoteGatewayLink::searchHistory(quint64 ticket, const history::HistoryQuery &query)
{
    onWorker([ticket, query](ManagementClient *w) { w->searchHistory(ticket, query); });
}

void RemoteGatewayLink::fetchRollups(quint64 ticket, const history::RollupQuery &query)
{
    onWorker([ticket, query](ManagementClient *w) { w->fetchRollups(ticket, query); });
}

void RemoteGatewayLink::fetchConfig()
{
    onWorker([](ManagementClient *w) { w->fetchConfig(); });
}

void RemoteGatewayLink::putConfig(const QByteArray &text, const QString &ifMatchHash)
{
    onWorker([text, ifMatchHash](ManagementClient *w) { w->putConfig(text, ifMatchHash); });
}

void RemoteGatewayLink::nodeAction(const QString &node, link::NodeAction action)
{
    onWorker([node, action](ManagementClient *w) { w->nodeAction(node, action); });
}

void RemoteGatewayLink::setAccepting(bool accepting)
{
    onWorker([accepting](ManagementClient *w) { w->setAccepting(accepting); });
}

void RemoteGatewayLink::fetchKeys()
{
    onWorker([](ManagementClient *w) { w->fetchKeys(); });
}

void RemoteGatewayLink::createKey(const keys::KeyChange &spec)
{
    onWorker([spec](ManagementClient *w) { w->createKey(spec); });
}

void RemoteGatewayLink::updateKey(const QString &id, const keys::KeyChange &change)
{
    onWorker([id, change](ManagementClient *w) { w->updateKey(id, change); });
}

void RemoteGatewayLink::revokeKey(const QString &id)
{
    onWorker([id](ManagementClient *w) { w->revokeKey(id); });
}

} // namespace switchyard::client
