#include "fleet/fleetlink.h"

#include "fleet/fleetmerge.h"

#include <QTimer>
#include <algorithm>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::client {

using link::ConfigPutResult;
using link::GatewayLink;
using link::LinkState;

FleetLink::FleetLink(std::vector<std::unique_ptr<GatewayLink>> members, QObject *parent)
    : GatewayLink(parent), m_members(std::move(members)), m_coalesce(new QTimer(this)),
      m_memberCursors(m_members.size(), 0)
{
    // Every member polls on its own clock; one merged status per burst of answers is enough.
    m_coalesce->setSingleShot(true);
    m_coalesce->setInterval(50);
    connect(m_coalesce, &QTimer::timeout, this, &FleetLink::refresh);
    for (int i = 0; i < int(m_members.size()); ++i)
        wire(i);
    refresh();
}

void FleetLink::wire(int i)
{
    GatewayLink *m = m_members[size_t(i)].get();
    connect(m, &GatewayLink::statusChanged, this, &FleetLink::onMemberStatus);
    connect(m, &GatewayLink::linkStatusChanged, this, &FleetLink::onMemberStatus);
    connect(m, &GatewayLink::requestsFetched, this,
            [this, i](const QList<stats::RequestRecord> &records, quint64 next, qint64 dropped) {
                onMemberRequests(i, records, next, dropped);
            });
    connect(m, &GatewayLink::historyFetched, this,
            [this, i](const QString &series, const QList<stats::SecondSample> &samples) {
                onMemberHistory(i, series, samples);
            });
    connect(m, &GatewayLink::configFetched, this, [this, i](const QByteArray &text, const QString &hash) {
        if (i != m_configFrom)
            return;
        m_configFrom = -1;
        emit configFetched(text, hash);
    });
    connect(m, &GatewayLink::configPut, this, [this, i](const ConfigPutResult &result) { onMemberConfigPut(i, result); });
    connect(m, &GatewayLink::commandFinished, this,
            [this, i](const QString &what, bool ok, const QString &message) { onMemberCommand(i, what, ok, message); });
    connect(m, &GatewayLink::keysFetched, this, [this, i](const QList<keys::KeyListing> &keys) { onMemberKeys(i, keys); });
    connect(m, &GatewayLink::keyCreated, this, [this, i](const keys::KeyListing &key, const QString &secret) {
        if (i == m_keyCommandMember)
            emit keyCreated(key, secret);
    });
    connect(m, &GatewayLink::keyChanged, this, [this, i](const keys::KeyListing &key) {
        if (i == m_keyCommandMember)
            emit keyChanged(key);
    });
}

void FleetLink::addMember(std::unique_ptr<GatewayLink> member)
{
    if (!member)
        return;
    m_members.push_back(std::move(member));
    m_memberCursors.push_back(0);
    wire(int(m_members.size()) - 1);
    if (m_started)
        m_members.back()->start();
    refresh();
    emit linkStatusChanged(m_linkStatus); // the name (and the window's title) changed
}

void FleetLink::removeMember(const GatewayLink *member)
{
    int i = 0;
    while (i < int(m_members.size()) && m_members[size_t(i)].get() != member)
        ++i;
    if (!member || i == int(m_members.size()))
        return;
    // Out of every answer being gathered: it will not send its part.
    if (m_requestsRound && m_requestsRound->waiting.removeOne(i) && m_requestsRound->waiting.isEmpty())
        later([this] { finishRequests(); });
    for (auto it = m_historyRounds.begin(); it != m_historyRounds.end(); ++it) {
        if (it->round.waiting.removeOne(i) && it->round.waiting.isEmpty())
            later([this, series = it.key()] { finishHistory(series); });
    }
    if (m_configRound && m_configRound->round.waiting.removeOne(i) && m_configRound->round.waiting.isEmpty())
        later([this] { finishConfigPut(); });
    for (auto it = m_commandRounds.begin(); it != m_commandRounds.end(); ++it) {
        if (it->round.waiting.removeOne(i) && it->round.waiting.isEmpty())
            later([this, what = it.key()] { finishCommand(what); });
    }
    if (m_configFrom == i) {
        m_configFrom = -1;
        later([this] { fetchConfig(); }); // from a gateway that is still here
    }
    if (m_keysRound && m_keysRound->round.waiting.removeOne(i) && m_keysRound->round.waiting.isEmpty())
        later([this] { finishKeys(); });
    if (m_keyCommandMember == i) {
        m_keyCommandMember = -1;
        later([this, what = m_keyCommand] {
            emit commandFinished(what, false, tr("The gateway it was sent to left the fleet before it answered."));
        });
    }
    GatewayLink *gone = m_members[size_t(i)].release();
    gone->disconnect(this);
    gone->stop();
    gone->deleteLater(); // this may run inside one of its own signals
    refresh();
    emit linkStatusChanged(m_linkStatus);
}

int FleetLink::liveMemberCount() const
{
    return int(std::count_if(m_members.begin(), m_members.end(), [](const auto &m) { return m != nullptr; }));
}

FleetLink::~FleetLink() = default;

QString FleetLink::displayName() const
{
    QStringList names;
    for (const auto &m : m_members) {
        if (m)
            names.append(m->displayName());
    }
    return names.join(u" + "_s);
}

QList<int> FleetLink::connectedMembers() const
{
    QList<int> out;
    for (int i = 0; i < int(m_members.size()); ++i) {
        if (m_members[size_t(i)] && m_members[size_t(i)]->linkStatus().state == LinkState::Connected)
            out.append(i);
    }
    return out;
}

const link::GatewayLink *FleetLink::apiMember() const
{
    // The first member that answers, else the first there is: URL, key and pin always of the same one.
    const QList<int> up = connectedMembers();
    if (!up.isEmpty())
        return m_members[size_t(up.front())].get();
    for (const auto &m : m_members) {
        if (m)
            return m.get();
    }
    return nullptr;
}

QUrl FleetLink::apiUrl() const
{
    const link::GatewayLink *m = apiMember();
    return m ? m->apiUrl() : QUrl();
}

QString FleetLink::clientKey() const
{
    const link::GatewayLink *m = apiMember();
    return m ? m->clientKey() : QString();
}

QByteArray FleetLink::certificatePin() const
{
    const link::GatewayLink *m = apiMember();
    return m ? m->certificatePin() : QByteArray();
}

void FleetLink::start()
{
    m_started = true;
    for (const auto &m : m_members) {
        if (m)
            m->start();
    }
}

void FleetLink::stop()
{
    m_started = false;
    for (const auto &m : m_members) {
        if (m)
            m->stop();
    }
}

void FleetLink::onMemberStatus()
{
    if (!m_coalesce->isActive())
        m_coalesce->start();
}

void FleetLink::refresh()
{
    QList<FleetMember> up;
    QStringList notConnected;
    link::LinkStatus best;
    best.state = liveMemberCount() == 0 ? LinkState::Unreachable : LinkState::Connecting;
    for (const auto &m : m_members) {
        if (!m)
            continue;
        const link::LinkStatus ls = m->linkStatus();
        const auto s = m->status();
        if (ls.state == LinkState::Connected && s) {
            up.append({m->displayName(), *s});
            best.lastAnswerMs = std::max(best.lastAnswerMs, ls.lastAnswerMs);
            continue;
        }
        notConnected.append(m->displayName() % u": "_s % (ls.reason.isEmpty() ? link::linkStateName(ls.state) : ls.reason));
        if (best.state != LinkState::Connected && ls.state != LinkState::Connecting)
            best.state = ls.state; // what the last one that failed says, when none is connected
        best.retryInMs = best.retryInMs == 0 ? ls.retryInMs : std::min(best.retryInMs, ls.retryInMs);
    }
    if (!up.isEmpty()) {
        best.state = LinkState::Connected;
        best.retryInMs = 0;
    }
    // Connected with a reason: the fleet is seen, but not all of it.
    best.reason = notConnected.join(u"; "_s);
    const bool linkChanged = best.state != m_linkStatus.state || best.reason != m_linkStatus.reason;
    m_linkStatus = best;
    if (linkChanged)
        emit linkStatusChanged(m_linkStatus);
    if (up.isEmpty())
        return;
    m_status = mergeStatuses(up);
    emit statusChanged(*m_status);
}

// Every answer arrives by signal after the call returns, as the link contract says (and as a caller
// connecting after the call expects).
void FleetLink::later(std::function<void()> f)
{
    QMetaObject::invokeMethod(this, std::move(f), Qt::QueuedConnection);
}

// A round's timer may be the one whose timeout is being handled: never deleted under its own signal.
void FleetLink::dropTimer(QTimer *timer)
{
    if (!timer)
        return;
    timer->stop();
    timer->deleteLater();
}

QTimer *FleetLink::startTimeout(std::function<void()> onTimeout)
{
    auto *t = new QTimer(this);
    t->setSingleShot(true);
    connect(t, &QTimer::timeout, this, std::move(onTimeout));
    t->start(AnswerTimeoutMs);
    return t;
}

// ---- the request log ----------------------------------------------------------------------------

void FleetLink::fetchRequests(quint64 afterCursor, int max)
{
    m_pageAfter = afterCursor;
    m_pageMax = std::max(1, max);
    if (m_requestsRound)
        return; // the round in flight answers this page too
    const QList<int> up = connectedMembers();
    if (up.isEmpty()) {
        later([this] { finishRequests(); });
        return;
    }
    m_requestsRound = Round{up, startTimeout([this] { finishRequests(); })};
    for (int i : up)
        m_members[size_t(i)]->fetchRequests(m_memberCursors[size_t(i)], m_pageMax);
}

void FleetLink::onMemberRequests(int member, const QList<stats::RequestRecord> &records, quint64 nextCursor,
                                 qint64 dropped)
{
    if (!m_requestsRound || !m_requestsRound->waiting.removeOne(member))
        return;
    m_memberCursors[size_t(member)] = nextCursor;
    m_logDropped += dropped;
    m_requestsArrived += records;
    if (m_requestsRound->waiting.isEmpty())
        finishRequests();
}

void FleetLink::finishRequests()
{
    if (m_requestsRound) {
        dropTimer(m_requestsRound->timeout);
        m_requestsRound.reset();
    }
    m_log += mergeByTime(std::exchange(m_requestsArrived, {}));
    if (m_log.size() > LogCapacity) {
        const qsizetype drop = m_log.size() - LogCapacity;
        m_log.remove(0, drop);
        m_logFirstCursor += quint64(drop);
    }
    // Fleet cursor c = the c-th record this fleet ever logged; the page is what follows m_pageAfter.
    const quint64 end = m_logFirstCursor + quint64(m_log.size()); // one past the last
    quint64 from = std::max(m_pageAfter + 1, m_logFirstCursor);
    qint64 missed = std::exchange(m_logDropped, 0);
    if (m_pageAfter + 1 < m_logFirstCursor)
        missed += qint64(m_logFirstCursor - (m_pageAfter + 1)); // fell out of our own log
    QList<stats::RequestRecord> page;
    for (quint64 c = from; c < end && page.size() < m_pageMax; ++c)
        page.append(m_log[qsizetype(c - m_logFirstCursor)]);
    const quint64 next = from + quint64(page.size()) - 1;
    emit requestsFetched(page, page.isEmpty() ? std::max(m_pageAfter, from - 1) : next, missed);
}

// ---- history ------------------------------------------------------------------------------------

void FleetLink::fetchHistory(const QString &series, int seconds)
{
    if (m_historyRounds.contains(series))
        return; // answered by the round in flight
    const QList<int> up = connectedMembers();
    if (up.isEmpty()) {
        later([this, series] { emit historyFetched(series, {}); });
        return;
    }
    HistoryRound &h = m_historyRounds[series];
    h.round = Round{up, startTimeout([this, series] { finishHistory(series); })};
    for (int i : up)
        m_members[size_t(i)]->fetchHistory(series, seconds);
}

void FleetLink::onMemberHistory(int member, const QString &series, const QList<stats::SecondSample> &samples)
{
    const auto it = m_historyRounds.find(series);
    if (it == m_historyRounds.end() || !it->round.waiting.removeOne(member))
        return;
    it->answers.append(samples);
    if (it->round.waiting.isEmpty())
        finishHistory(series);
}

void FleetLink::finishHistory(const QString &series)
{
    const auto it = m_historyRounds.find(series);
    if (it == m_historyRounds.end())
        return;
    dropTimer(it->round.timeout);
    const QList<stats::SecondSample> merged = mergeHistory(it->answers);
    m_historyRounds.erase(it);
    emit historyFetched(series, merged);
}

// ---- config -------------------------------------------------------------------------------------

void FleetLink::fetchConfig()
{
    const QList<int> up = connectedMembers();
    if (up.isEmpty()) {
        later([this, why = m_linkStatus.reason] { emit commandFinished(u"GET /api/config"_s, false, why); });
        return;
    }
    m_configFrom = up.front();
    m_members[size_t(m_configFrom)]->fetchConfig();
}

void FleetLink::putConfig(const QByteArray &text, const QString &ifMatchHash)
{
    ConfigPutResult refused;
    refused.outcome = ConfigPutResult::Outcome::Failed;
    if (m_configRound) {
        refused.reason = u"An apply to the fleet is still in progress."_s;
        later([this, refused] { emit configPut(refused); });
        return;
    }
    const QList<int> up = connectedMembers();
    if (up.isEmpty() || up.size() < liveMemberCount()) {
        // All or none: a config applied to some replicas only is drift the operator did not ask for.
        refused.reason = u"Not every gateway of the fleet is connected (%1); nothing was applied."_s.arg(m_linkStatus.reason);
        later([this, refused] { emit configPut(refused); });
        return;
    }
    // Drift first: which gateways run another config than the one that was edited?
    QStringList drifted;
    QString current;
    for (int i : up) {
        const auto s = m_members[size_t(i)]->status();
        const QString hash = s ? s->configHash : QString();
        if (!link::ifMatchAccepts(ifMatchHash, hash)) {
            drifted.append(m_members[size_t(i)]->displayName());
            current = hash;
        }
    }
    if (!drifted.isEmpty()) {
        ConfigPutResult stale;
        stale.outcome = ConfigPutResult::Outcome::Stale;
        stale.configHash = current;
        stale.reason = u"These gateways run another config than the one you edited: %1. Nothing was applied; "
                       u"reload to edit what runs, or overwrite to give every gateway this one."_s
                           .arg(drifted.join(u", "_s));
        later([this, stale] { emit configPut(stale); });
        return;
    }
    m_configRound = ConfigRound{};
    m_configRound->round = Round{up, startTimeout([this] { finishConfigPut(); })};
    for (int i : up)
        m_members[size_t(i)]->putConfig(text, ifMatchHash);
}

void FleetLink::onMemberConfigPut(int member, const ConfigPutResult &result)
{
    if (!m_configRound || !m_configRound->round.waiting.removeOne(member))
        return;
    const QString name = m_members[size_t(member)]->displayName();
    switch (result.outcome) {
    case ConfigPutResult::Outcome::Applied:
        m_configRound->applied.append(name);
        m_configRound->summaries.append(result.summary);
        m_configRound->lastHash = result.configHash;
        break;
    case ConfigPutResult::Outcome::Stale:
        m_configRound->stale.append(name);
        break;
    case ConfigPutResult::Outcome::Invalid:
        m_configRound->invalid.append(name);
        if (m_configRound->problems.isEmpty())
            m_configRound->problems = result.problems;
        break;
    case ConfigPutResult::Outcome::Failed:
        m_configRound->failed.append(name % u": "_s % result.reason);
        break;
    }
    if (m_configRound->round.waiting.isEmpty())
        finishConfigPut();
}

void FleetLink::finishConfigPut()
{
    if (!m_configRound)
        return;
    ConfigRound r = std::move(*m_configRound);
    m_configRound.reset();
    dropTimer(r.round.timeout);
    for (int i : std::as_const(r.round.waiting))
        r.failed.append(m_members[size_t(i)]->displayName() % u": no answer"_s);
    ConfigPutResult out;
    const int total = int(r.applied.size() + r.stale.size() + r.invalid.size() + r.failed.size());
    if (int(r.applied.size()) == total) {
        out.outcome = ConfigPutResult::Outcome::Applied;
        out.configHash = r.lastHash;
        QStringList distinct;
        for (const QString &s : std::as_const(r.summaries)) {
            if (!distinct.contains(s))
                distinct.append(s);
        }
        out.summary = distinct.join(u"; "_s) % u" (on %1 gateways)"_s.arg(total);
    } else if (r.applied.isEmpty() && !r.invalid.isEmpty() && r.stale.isEmpty() && r.failed.isEmpty()) {
        out.outcome = ConfigPutResult::Outcome::Invalid;
        out.problems = r.problems;
    } else if (r.applied.isEmpty() && r.failed.isEmpty() && r.invalid.isEmpty()) {
        out.outcome = ConfigPutResult::Outcome::Stale;
        out.reason = u"The config changed on %1 since it was read; nothing was applied."_s.arg(r.stale.join(u", "_s));
    } else {
        // Some gateways took it and some did not: say exactly which, so the operator can act.
        out.outcome = ConfigPutResult::Outcome::Failed;
        QStringList parts;
        if (!r.applied.isEmpty())
            parts.append(u"applied on %1"_s.arg(r.applied.join(u", "_s)));
        if (!r.stale.isEmpty())
            parts.append(u"changed meanwhile on %1"_s.arg(r.stale.join(u", "_s)));
        if (!r.invalid.isEmpty())
            parts.append(u"refused as invalid by %1"_s.arg(r.invalid.join(u", "_s)));
        if (!r.failed.isEmpty())
            parts.append(u"failed on %1"_s.arg(r.failed.join(u"; "_s)));
        out.reason = u"The fleet now runs different configs: "_s % parts.join(u"; "_s) % u'.';
    }
    emit configPut(out);
}

// ---- commands -----------------------------------------------------------------------------------

void FleetLink::sendToAll(const QString &what, const std::function<void(GatewayLink *)> &command)
{
    const QList<int> up = connectedMembers();
    if (up.isEmpty()) {
        later([this, what, why = m_linkStatus.reason] { emit commandFinished(what, false, why); });
        return;
    }
    CommandRound &c = m_commandRounds[what];
    if (c.round.timeout)
        dropTimer(c.round.timeout);
    c = CommandRound{Round{up, startTimeout([this, what] { finishCommand(what); })}, {}};
    for (int i : up)
        command(m_members[size_t(i)].get());
}

void FleetLink::nodeAction(const QString &node, link::NodeAction action)
{
    const char *name = action == link::NodeAction::Drain ? "drain" : action == link::NodeAction::Enable ? "enable" : "probe";
    sendToAll(QString::fromLatin1(name) % u' ' % node, [&](GatewayLink *m) { m->nodeAction(node, action); });
}

void FleetLink::setAccepting(bool accepting)
{
    // A remote gateway answers "pause"/"resume"; a local one "stop"/"start" (onMemberCommand maps them).
    sendToAll(accepting ? u"resume"_s : u"pause"_s, [&](GatewayLink *m) { m->setAccepting(accepting); });
}

void FleetLink::onMemberCommand(int member, const QString &what, bool ok, const QString &message)
{
    if (answersKeyCommand(member, what, ok, message))
        return;
    QString key = what;
    if (what == u"start"_s)
        key = u"resume"_s;
    else if (what == u"stop"_s)
        key = u"pause"_s;
    const auto it = m_commandRounds.find(key);
    if (it == m_commandRounds.end() || !it->round.waiting.removeOne(member)) {
        if (!ok)
            readFailed(member, what, message);
        return;
    }
    if (!ok)
        it->failed.append(m_members[size_t(member)]->displayName() % u": "_s % message);
    if (it->round.waiting.isEmpty())
        finishCommand(key);
}

void FleetLink::readFailed(int member, const QString &what, const QString &message)
{
    // A gateway that cannot answer a read is left out of that answer at once, not after the timeout.
    if (what == u"GET /api/requests"_s && m_requestsRound && m_requestsRound->waiting.removeOne(member)) {
        if (m_requestsRound->waiting.isEmpty())
            finishRequests();
        return;
    }
    if (what == u"GET /api/history"_s) {
        for (const QString &series : m_historyRounds.keys()) {
            HistoryRound &h = m_historyRounds[series];
            if (h.round.waiting.removeOne(member) && h.round.waiting.isEmpty())
                finishHistory(series);
        }
        return;
    }
    if (what == u"list keys"_s && m_keysRound && m_keysRound->round.waiting.removeOne(member)) {
        if (m_keysRound->round.waiting.isEmpty())
            finishKeys();
        return;
    }
    if (what == u"GET /api/config"_s && member == m_configFrom)
        m_configFrom = -1;
    emit commandFinished(what, false, m_members[size_t(member)]->displayName() % u": "_s % message);
}

void FleetLink::finishCommand(const QString &what)
{
    const auto it = m_commandRounds.find(what);
    if (it == m_commandRounds.end())
        return;
    CommandRound c = std::move(*it);
    m_commandRounds.erase(it);
    dropTimer(c.round.timeout);
    for (int i : std::as_const(c.round.waiting))
        c.failed.append(m_members[size_t(i)]->displayName() % u": no answer"_s);
    emit commandFinished(what, c.failed.isEmpty(), c.failed.join(u"; "_s));
    if (!m_coalesce->isActive())
        m_coalesce->start(); // show the drained node at once
}

} // namespace switchyard::client
