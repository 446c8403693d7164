#pragma once

// Follows a gateway's request log through its GatewayLink: with every status the link delivers (a few
// times a second) it asks for the records after its cursor, one bounded page at a time (the newest
// ones when more are waiting) and never two at once, and hands them on. So the Requests view and the Nodes view's recent errors cost one small read
// per status, whatever the request rate; records that fell out of the gateway's bounded log before they
// were read are counted, not queued.

#include "link/gatewaylink.h"

#include <QObject>
#include <QPointer>

namespace switchyard::ui {

class RequestLogFollower final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RequestLogFollower)

public:
    static constexpr int PageSize = 500;

    explicit RequestLogFollower(QObject *parent = nullptr);

    // Starts following from the oldest record the gateway still has (so a panel attaching to a running
    // gateway shows its recent requests). Null stops.
    void setLink(link::GatewayLink *gatewayLink);
    quint64 cursor() const { return m_cursor; }
    // Asks for the next page now unless one is on its way (what a status does).
    void poll();

signals:
    // Oldest first; dropped = records lost to the gateway's bound since the previous page.
    void recordsArrived(const QList<switchyard::stats::RequestRecord> &records, qint64 dropped);

private:
    void take(const QList<stats::RequestRecord> &records, quint64 nextCursor, qint64 dropped);

    QPointer<link::GatewayLink> m_link;
    QList<QMetaObject::Connection> m_connections;
    quint64 m_cursor = 0;
    bool m_pending = false;
};

} // namespace switchyard::ui
