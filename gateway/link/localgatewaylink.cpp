#include "link/localgatewaylink.h"

#include "config/configloader.h"
#include "gateway.h"

#include <QDateTime>
#include <QTimer>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::link {

LocalGatewayLink::LocalGatewayLink(Gateway *gateway, QObject *parent)
    : GatewayLink(parent), m_gateway(gateway), m_timer(new QTimer(this))
{
    qRegisterMetaType<GatewayStatus>();
    qRegisterMetaType<LinkStatus>();
    qRegisterMetaType<ConfigPutResult>();
    qRegisterMetaType<stats::SecondSample>();
    qRegisterMetaType<stats::RequestRecord>();
    m_timer->setInterval(PollIntervalMs);
    connect(m_timer, &QTimer::timeout, this, &LocalGatewayLink::poll);
    // Starting or stopping shows at once, not at the next tick.
    connect(m_gateway, &Gateway::runningChanged, this, [this] {
        if (m_timer->isActive())
            poll();
    });
}

LocalGatewayLink::~LocalGatewayLink() = default;

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
    RunState run;
    run.running = m_gateway->isRunning();
    run.stopping = m_gateway->isStopping();
    run.listenUrl = m_gateway->listenUrl();
    m_status = gatewayStatusOf(*m_gateway->routingTable(), m_gateway->stats(), run);
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
    later([this, page = std::move(page)] { emit requestsFetched(page.records, page.cursor, qint64(page.missed)); });
}

void LocalGatewayLink::fetchHistory(const QString &series, int seconds)
{
    QList<stats::SecondSample> samples =
        m_gateway->history(series, std::clamp(seconds, 0, stats::SecondsHistory::Capacity));
    later([this, series, samples = std::move(samples)] { emit historyFetched(series, samples); });
}

void LocalGatewayLink::fetchConfig()
{
    const config::GatewayConfig &cfg = m_gateway->config();
    const std::string text = configToJson(cfg, true).dump(2);
    const QByteArray bytes(text.data(), qsizetype(text.size()));
    const QString hash = configHash(cfg);
    later([this, bytes, hash] { emit configFetched(bytes, hash); });
}

ConfigPutResult LocalGatewayLink::applyConfigText(const QByteArray &text, const QString &ifMatchHash)
{
    ConfigPutResult r;
    const QString current = configHash(m_gateway->config());
    if (!ifMatchHash.isEmpty() && ifMatchHash != current) {
        r.outcome = ConfigPutResult::Outcome::Stale;
        r.reason = tr("The running config changed since it was read; reload it and apply again.");
        return r;
    }
    const auto parsed = config::parseConfig(text);
    if (!parsed) {
        r.outcome = ConfigPutResult::Outcome::Invalid;
        for (const config::ConfigProblem &p : parsed.error())
            r.problems.append(p.toString());
        return r;
    }
    const Gateway::ConfigUpdate update = m_gateway->updateConfig(*parsed, text);
    if (!update.error.isEmpty()) {
        r.outcome = ConfigPutResult::Outcome::Failed;
        r.reason = update.error;
        return r;
    }
    const Gateway::ApplyResult &applied = update.result;
    r.outcome = ConfigPutResult::Outcome::Applied;
    r.savedTo = update.savedTo;
    r.summary = applied.changes.isEmpty() ? tr("no changes") : applied.changes.summary();
    if (!applied.listenError.isEmpty())
        r.summary += u"; "_s % applied.listenError;
    r.configHash = configHash(m_gateway->config());
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

} // namespace switchyard::link
