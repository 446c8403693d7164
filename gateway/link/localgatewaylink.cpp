#include "link/localgatewaylink.h"

#include "config/configloader.h"
#include "gateway.h"
#include "history/historystore.h"

#include <QDateTime>
#include <QThread>
#include <QTimer>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::link {

LocalGatewayLink::LocalGatewayLink(Gateway *gateway, QObject *parent)
    : GatewayLink(parent), m_gateway(gateway), m_timer(new QTimer(this))
{
    qRegisterMetaType<GatewayStatus>();
    qRegisterMetaType<LinkStatus>();
    qRegisterMetaType<ConfigPutResult>();
    qRegisterMetaType<HistorySearchResult>();
    qRegisterMetaType<RollupsResult>();
    qRegisterMetaType<stats::SecondSample>();
    qRegisterMetaType<stats::RequestRecord>();
    qRegisterMetaType<keys::KeyListing>();
    m_timer->setInterval(PollIntervalMs);
    connect(m_timer, &QTimer::timeout, this, &LocalGatewayLink::poll);
    // Starting or stopping shows at once, not at the next tick.
    connect(m_gateway, &Gateway::runningChanged, this, [this] {
        if (m_timer->isActive())
            poll();
    });
    connect(m_gateway, &Gateway::pausedChanged, this, [this] {
        if (m_timer->isActive())
            poll();
    });
}

LocalGatewayLink::~LocalGatewayLink()
{
    // A search still running finishes first; searches still queued are dropped.
    if (m_historyThread) {
        m_historyThread->quit();
        m_historyThread->wait();
    }
}

QString LocalGatewayLink::displayName() const
{
    return tr("This process");
}

QUrl LocalGatewayLink::apiUrl() const
{
    return QUrl(m_gateway->listenUrl());
}

QString LocalGatewayLink::clientKey() const
{
    return m_gateway->config().settings.ownToolsKey();
}

void LocalGatewayLink::start()
{
    if (m_timer->isActive())
        return;
    m_timer->start();
    later([this] {
        emit linkStatusChanged(linkStatus());
        poll();
    });
}

void LocalGatewayLink::stop()
{
    m_timer->stop();
}

LinkStatus LocalGatewayLink::linkStatus() const
{
    LinkStatus s;
    s.state = LinkState::Connected;
    s.lastAnswerMs = m_lastAnswerMs;
    return s;
}

void LocalGatewayLink::poll()
{
    m_status = gatewayStatusOf(*m_gateway->routingTable(), m_gateway->stats(), m_gateway->runState());
    m_lastAnswerMs = QDateTime::currentMSecsSinceEpoch();
    emit statusChanged(*m_status);
}

void LocalGatewayLink::later(std::function<void()> emitter)
{
    QMetaObject::invokeMethod(this, std::move(emitter), Qt::QueuedConnection);
}

void LocalGatewayLink::fetchRequests(quint64 afterCursor, int max)
{
    const int bounded = std::clamp(max, 1, stats::GatewayStats::RecentRequestsCapacity);
    stats::RecentRequests::Page page = m_gateway->stats().recent().since(afterCursor, bounded);
    later([this, page = std::move(page)] {
        emit requestsFetched(page.records, page.cursor, qint64(page.missed));
    });
}

void LocalGatewayLink::fetchHistory(const QString &series, int seconds)
{
    QList<stats::SecondSample> samples =
        m_gateway->history(series, std::clamp(seconds, 0, stats::SecondsHistory::Capacity));
    later([this, series, samples = std::move(samples)] { emit historyFetched(series, samples); });
}

void LocalGatewayLink::fetchConfig()
{
    // The document and hash GET /api/config serves (ETag), so the editor works alike on both links.
    const config::GatewayConfig &cfg = m_gateway->config();
    const QByteArray bytes = maskedConfigText(cfg);
    const QString hash = configHash(cfg);
    later([this, bytes, hash] { emit configFetched(bytes, hash); });
}

ConfigPutResult LocalGatewayLink::applyConfigText(const QByteArray &text, const QString &ifMatchHash)
{
    // The way PUT /api/config takes (precondition, masked secrets, save, apply), minus the HTTP.
    using Kind = Gateway::ConfigPutOutcome::Kind;
    const Gateway::ConfigPutOutcome out = m_gateway->putConfig(text, ifMatchHash);
    ConfigPutResult r;
    r.configHash = out.configHash;
    switch (out.kind) {
    case Kind::Stale:
        r.outcome = ConfigPutResult::Outcome::Stale;
        r.reason = tr("The running config changed since it was read; reload it and apply again.");
        return r;
    case Kind::Invalid:
        r.outcome = ConfigPutResult::Outcome::Invalid;
        for (const config::ConfigProblem &p : out.problems)
            r.problems.append(p.toString());
        return r;
    case Kind::Failed:
        r.outcome = ConfigPutResult::Outcome::Failed;
        r.reason = out.update.error;
        return r;
    case Kind::Applied:
        break;
    }
    const Gateway::ApplyResult &applied = out.update.result;
    r.outcome = ConfigPutResult::Outcome::Applied;
    r.savedTo = out.update.savedTo;
    r.summary = applied.changes.isEmpty() ? tr("no changes") : applied.changes.summary();
    if (!applied.listenError.isEmpty())
        r.summary += u"; "_s % applied.listenError;
    return r;
}

void LocalGatewayLink::putConfig(const QByteArray &text, const QString &ifMatchHash)
{
    const ConfigPutResult result = applyConfigText(text, ifMatchHash);
    later([this, result] { emit configPut(result); });
}

void LocalGatewayLink::nodeAction(const QString &node, NodeAction action)
{
    const bool known = m_gateway->config().provider(node) != nullptr;
    QString what;
    switch (action) {
    case NodeAction::Drain:
        what = u"drain "_s % node;
        m_gateway->setNodeDraining(node, true);
        break;
    case NodeAction::Enable:
        what = u"enable "_s % node;
        m_gateway->setNodeDraining(node, false);
        break;
    case NodeAction::Probe:
        what = u"probe "_s % node;
        if (known)
            m_gateway->probeNow(node);
        break;
    }
    const QString message = known ? QString() : tr("No node named '%1'").arg(node);
    later([this, what, known, message] {
        emit commandFinished(what, known, message);
        if (m_timer->isActive())
            poll(); // a drained node shows as draining in the very next status
    });
}

void LocalGatewayLink::setAccepting(bool accepting)
{
    QString message;
    bool ok = true;
    if (accepting) {
        const auto started = m_gateway->start();
        ok = started.hasValue();
        message = ok ? *started : started.error();
    } else {
        m_gateway->stop(); // graceful: in-flight requests finish, then stopped()
    }
    later([this, accepting, ok, message] {
        emit commandFinished(accepting ? u"start"_s : u"stop"_s, ok, message);
    });
}

// Keys: the registry the management API changes (gateway/keys), called directly, so both links
// answer alike. The registry's lock is held for a copy of the key list at most: nothing here waits.
void LocalGatewayLink::fetchKeys()
{
    std::vector<keys::KeyListing> listed = m_gateway->keys().list();
    QList<keys::KeyListing> out;
    out.reserve(qsizetype(listed.size()));
    for (keys::KeyListing &l : listed) {
        l.key.secretSha256.clear(); // as a remote gateway's listing: the view has no use for it
        out.append(std::move(l));
    }
    later([this, out = std::move(out)] { emit keysFetched(out); });
}

void LocalGatewayLink::createKey(const keys::KeyChange &spec)
{
    if (!spec.name || spec.name->trimmed().isEmpty()) {
        later([this] {
            emit commandFinished(u"create key"_s, false, tr("A key needs a name: whom or what it is for."));
        });
        return;
    }
    auto made = m_gateway->keys().create(spec);
    if (!made) {
        later([this] {
            emit commandFinished(
                u"create key"_s, false,
                tr("There are %1 keys already (revoked ones included).").arg(keys::KeyRegistry::MaxKeys));
        });
        return;
    }
    keys::KeyListing listing{made->key, {}};
    listing.key.secretSha256.clear(); // as a remote gateway's listing: the view has no use for it
    const QString secret = made->secret;
    later([this, listing, secret] {
        emit keyCreated(listing, secret);
        emit commandFinished(u"create key"_s, true, QString());
    });
}

void LocalGatewayLink::keyChangeDone(const QString &what,
                                     const Expected<keys::VirtualKey, keys::KeyRegistry::Error> &result)
{
    if (!result) {
        const QString why = result.error() == keys::KeyRegistry::Error::Revoked
                                ? tr("The key was revoked; a revoked key cannot be changed.")
                                : tr("No such key.");
        later([this, what, why] { emit commandFinished(what, false, why); });
        return;
    }
    const std::optional<keys::KeyListing> listing = m_gateway->keys().get(result->id);
    keys::KeyListing l = listing ? *listing : keys::KeyListing{*result, {}};
    l.key.secretSha256.clear();
    later([this, what, l] {
        emit keyChanged(l);
        emit commandFinished(what, true, QString());
    });
}

void LocalGatewayLink::updateKey(const QString &id, const keys::KeyChange &change)
{
    keyChangeDone(u"change key "_s % id, m_gateway->keys().update(id, change));
}

void LocalGatewayLink::revokeKey(const QString &id)
{
    keyChangeDone(u"revoke key "_s % id, m_gateway->keys().revoke(id));
}

std::shared_ptr<history::HistoryStore>
LocalGatewayLink::historyOr(const std::function<void(const QString &)> &refuse)
{
    std::shared_ptr<history::HistoryStore> store = m_gateway->history();
    if (store)
        return store;
    const QString problem = m_gateway->historyProblem();
    const QString why =
        problem.isEmpty()
            ? tr("This gateway keeps no lasting history: set switchyard.history.path in its config "
                 "(the Config tab's Storage settings; docs/HISTORY.md).")
            : tr("The history could not be opened: %1").arg(problem);
    later([refuse, why] { refuse(why); });
    return nullptr;
}

void LocalGatewayLink::onHistoryThread(std::function<void()> read)
{
    if (!m_historyThread) {
        m_historyThread = std::make_unique<QThread>();
        m_historyThread->setObjectName(u"history search"_s);
        m_historyContext = new QObject();
        m_historyContext->moveToThread(m_historyThread.get());
        connect(m_historyThread.get(), &QThread::finished, m_historyContext, &QObject::deleteLater);
        m_historyThread->start();
    }
    // The link outlives the read: its destructor waits for this thread, and an answer still queued to a
    // link that is gone is dropped with it.
    QMetaObject::invokeMethod(m_historyContext, std::move(read), Qt::QueuedConnection);
}

void LocalGatewayLink::searchHistory(quint64 ticket, const history::HistoryQuery &query)
{
    const auto store = historyOr([this, ticket](const QString &why) {
        HistorySearchResult r;
        r.ticket = ticket;
        r.error = why;
        emit historySearched(r);
    });
    if (!store)
        return;
    onHistoryThread([this, store, ticket, query] {
        HistorySearchResult r;
        r.ticket = ticket;
        auto page = store->search(query);
        r.ok = page.hasValue();
        if (page)
            r.page = std::move(*page);
        else
            r.error = tr("The history could not be read: %1").arg(page.error());
        QMetaObject::invokeMethod(
            this, [this, r = std::move(r)] { emit historySearched(r); }, Qt::QueuedConnection);
    });
}

void LocalGatewayLink::fetchRollups(quint64 ticket, const history::RollupQuery &query)
{
    const auto store = historyOr([this, ticket, query](const QString &why) {
        RollupsResult r;
        r.ticket = ticket;
        r.query = query;
        r.error = why;
        emit rollupsFetched(r);
    });
    if (!store)
        return;
    onHistoryThread([this, store, ticket, query] {
        RollupsResult r;
        r.ticket = ticket;
        r.query = query;
        if (r.query.toMs == 0)
            r.query.toMs = QDateTime::currentMSecsSinceEpoch();
        auto points = store->rollups(r.query.fromMs, r.query.toMs, r.query.bucketMinutes, r.query.node,
                                     r.query.model, r.query.keyId, r.query.split);
        r.ok = points.hasValue();
        if (points)
            r.points = std::move(*points);
        else
            r.error = tr("The history could not be read: %1").arg(points.error());
        QMetaObject::invokeMethod(
            this, [this, r = std::move(r)] { emit rollupsFetched(r); }, Qt::QueuedConnection);
    });
}

} // namespace switchyard::link
