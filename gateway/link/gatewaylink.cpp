#include "link/gatewaylink.h"

using namespace Qt::Literals::StringLiterals;

namespace switchyard::link {

QString linkStateName(LinkState state)
{
    switch (state) {
    case LinkState::Connecting:
        return u"connecting"_s;
    case LinkState::Connected:
        return u"connected"_s;
    case LinkState::Unreachable:
        return u"unreachable"_s;
    case LinkState::Unauthorized:
        return u"unauthorized"_s;
    case LinkState::Forbidden:
        return u"forbidden"_s;
    case LinkState::Incompatible:
        return u"incompatible"_s;
    }
    return u"unknown"_s;
}

void GatewayLink::refuseKeys(const QString &what)
{
    QMetaObject::invokeMethod(
        this,
        [this, what] {
            emit commandFinished(
                what, false,
                tr("Virtual keys are managed on one gateway at a time: open that gateway's own window."));
        },
        Qt::QueuedConnection);
}

void GatewayLink::fetchKeys()
{
    refuseKeys(u"list keys"_s);
}

void GatewayLink::createKey(const keys::KeyChange &)
{
    refuseKeys(u"create key"_s);
}

void GatewayLink::updateKey(const QString &id, const keys::KeyChange &)
{
    refuseKeys(u"change key "_s + id);
}

void GatewayLink::revokeKey(const QString &id)
{
    refuseKeys(u"revoke key "_s + id);
}

void GatewayLink::searchHistory(quint64 ticket, const history::HistoryQuery &)
{
    QMetaObject::invokeMethod(
        this,
        [this, ticket] {
            HistorySearchResult r;
            r.ticket = ticket;
            r.error = tr("Each gateway keeps its own history: search it in that gateway's own window.");
            emit historySearched(r);
        },
        Qt::QueuedConnection);
}

void GatewayLink::fetchRollups(quint64 ticket, const history::RollupQuery &query)
{
    QMetaObject::invokeMethod(
        this,
        [this, ticket, query] {
            RollupsResult r;
            r.ticket = ticket;
            r.query = query;
            r.error =
                tr("Each gateway keeps its own history: see its day and week in that gateway's own window.");
            emit rollupsFetched(r);
        },
        Qt::QueuedConnection);
}

} // namespace switchyard::link
