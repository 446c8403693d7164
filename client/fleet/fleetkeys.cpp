// FleetLink's virtual keys (fleetlink.h): the fleet window's Keys tab, for replicas that share their keys
// through one Redis (docs/KEYS.md, "Several gateways").

#include "fleet/fleetlink.h"
#include "fleet/fleetmerge.h"

#include <QMap>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::client {

QString FleetLink::keysNotShared() const
{
    const QList<int> up = connectedMembers();
    if (up.isEmpty())
        return m_linkStatus.reason;
    QStringList own;
    QMap<QString, QStringList> byRedis; // keys_shared_via → the gateways naming it
    for (int i : up) {
        const link::GatewayLink *m = m_members[size_t(i)].get();
        const QString via = m->status() ? m->status()->keysSharedVia : QString();
        if (via.isEmpty())
            own << m->displayName();
        else
            byRedis[via] << m->displayName();
    }
    if (!own.isEmpty()) {
        return tr("%1 keep their own keys (no switchyard.redis_url): manage keys in each gateway's own "
                  "window.")
            .arg(own.join(u", "_s));
    }
    if (byRedis.size() > 1) {
        QStringList groups;
        for (auto it = byRedis.cbegin(); it != byRedis.cend(); ++it)
            groups << it.value().join(u", "_s) % u" → "_s % it.key();
        return tr("The gateways share their keys through different Redis servers (%1): manage keys in each "
                  "gateway's own window.")
            .arg(groups.join(u"; "_s));
    }
    return {};
}

void FleetLink::fetchKeys()
{
    if (const QString why = keysNotShared(); !why.isEmpty()) {
        later([this, why] { emit commandFinished(u"list keys"_s, false, why); });
        return;
    }
    if (m_keysRound)
        return; // the round in flight answers this one too
    const QList<int> up = connectedMembers();
    m_keysRound = KeysRound{Round{up, startTimeout([this] { finishKeys(); })}, {}};
    for (int i : up)
        m_members[size_t(i)]->fetchKeys();
}

void FleetLink::onMemberKeys(int member, const QList<keys::KeyListing> &keys)
{
    if (!m_keysRound || !m_keysRound->round.waiting.removeOne(member))
        return; // late, or not asked
    m_keysRound->answers.append(keys);
    if (m_keysRound->round.waiting.isEmpty())
        finishKeys();
}

void FleetLink::finishKeys()
{
    if (!m_keysRound)
        return;
    KeysRound r = std::move(*m_keysRound);
    m_keysRound.reset();
    dropTimer(r.round.timeout);
    if (r.answers.isEmpty()) {
        emit commandFinished(u"list keys"_s, false, tr("No gateway of the fleet answered."));
        return;
    }
    emit keysFetched(mergeKeyListings(r.answers));
}

void FleetLink::keyCommand(const QString &what, const std::function<void(link::GatewayLink *)> &command)
{
    QString why = keysNotShared();
    if (why.isEmpty() && m_keyCommandMember >= 0)
        why = tr("A change to the keys is still on its way.");
    if (!why.isEmpty()) {
        later([this, what, why] { emit commandFinished(what, false, why); });
        return;
    }
    // The first connected gateway, as the chat console's: Redis takes the change to the others.
    m_keyCommandMember = connectedMembers().front();
    m_keyCommand = what;
    command(m_members[size_t(m_keyCommandMember)].get());
}

bool FleetLink::answersKeyCommand(int member, const QString &what, bool ok, const QString &message)
{
    if (member != m_keyCommandMember || what != m_keyCommand)
        return false;
    m_keyCommandMember = -1;
    emit commandFinished(what, ok,
                         ok ? QString() : m_members[size_t(member)]->displayName() % u": "_s % message);
    return true;
}

void FleetLink::createKey(const keys::KeyChange &spec)
{
    keyCommand(u"create key"_s, [&spec](link::GatewayLink *m) { m->createKey(spec); });
}

void FleetLink::updateKey(const QString &id, const keys::KeyChange &change)
{
    keyCommand(u"change key "_s % id, [&](link::GatewayLink *m) { m->updateKey(id, change); });
}

void FleetLink::revokeKey(const QString &id)
{
    keyCommand(u"revoke key "_s % id, [&id](link::GatewayLink *m) { m->revokeKey(id); });
}

} // namespace switchyard::client
