#include "requestlogfollower.h"

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

RequestLogFollower::RequestLogFollower(QObject *parent) : QObject(parent) { }

void RequestLogFollower::setLink(link::GatewayLink *gatewayLink)
{
    for (const QMetaObject::Connection &c : std::as_const(m_connections))
        disconnect(c);
    m_connections.clear();
    m_link = gatewayLink;
    m_cursor = 0;
    m_pending = false;
    if (!gatewayLink)
        return;
    m_connections << connect(gatewayLink, &link::GatewayLink::statusChanged, this, &RequestLogFollower::poll);
    m_connections << connect(gatewayLink, &link::GatewayLink::requestsFetched, this, &RequestLogFollower::take);
    // A read that failed (the link went away meanwhile) must not stop the following for good.
    m_connections << connect(gatewayLink, &link::GatewayLink::linkStatusChanged, this, [this](const link::LinkStatus &s) {
        if (s.state != link::LinkState::Connected)
            m_pending = false;
    });
    m_connections << connect(gatewayLink, &link::GatewayLink::commandFinished, this,
                             [this](const QString &what, bool ok, const QString &) {
                                 if (!ok && what.startsWith(u"GET /api/requests"_s))
                                     m_pending = false;
                             });
}

void RequestLogFollower::poll()
{
    if (!m_link || m_pending)
        return;
    m_pending = true;
    m_link->fetchRequests(m_cursor, PageSize);
}

void RequestLogFollower::take(const QList<stats::RequestRecord> &records, quint64 nextCursor, qint64 dropped)
{
    if (!m_pending)
        return; // an answer to someone else's read of the same link
    m_pending = false;
    // (A restarted remote gateway counts from the start again: its cursor is taken as it comes.)
    m_cursor = nextCursor;
    if (!records.isEmpty() || dropped > 0)
        emit recordsArrived(records, dropped);
}

} // namespace switchyard::ui
