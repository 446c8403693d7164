#pragma once

// Each node's latest failures, for the Nodes view's detail pane: a filter over the request log as the
// link delivers it (no statistics), bounded per node and in the number of nodes remembered. Every
// attempt a node failed counts, also one the gateway then failed over to another node (the client got
// its answer, the node still failed). A client closing its connection is no failure of the node: such
// requests are counted apart.

#include "ringbuffer.h"
#include "stats/requestrecord.h"

#include <QCoreApplication>
#include <QHash>
#include <QList>
#include <QString>

namespace switchyard::ui {

class RecentErrors final
{
    Q_DECLARE_TR_FUNCTIONS(switchyard::ui::RecentErrors)

public:
    static constexpr qsizetype PerNode = 20;
    static constexpr qsizetype MaxNodes = 256; // past this, the node heard of longest ago is forgotten

    // A record without its attempts listed (answered by a node of a gateway that does not list them):
    // a node's error when it failed (status 0 or ≥ 400, but not 499) or carries an error.
    static bool isError(const stats::RequestRecord &r);

    // Each error is a record of its own: node = the node that failed, status = what it answered (0 for
    // none), error = what went wrong (and where the request went on to), time = that attempt's.
    void add(const QList<stats::RequestRecord> &records);
    // Oldest first, at most PerNode.
    QList<stats::RequestRecord> of(const QString &node) const;
    // Requests whose client closed the connection while this node worked on them, since the panel
    // began following the log.
    qint64 clientClosed(const QString &node) const { return m_clientClosed.value(node); }
    // Forgets the nodes not named (a node removed from the config).
    void keepOnly(const QStringList &nodes);
    void clear();

private:
    void push(const stats::RequestRecord &error);
    void touch(const QString &node);

    QHash<QString, RingBuffer<stats::RequestRecord>> m_errors;
    QHash<QString, qint64> m_clientClosed;
    QHash<QString, quint64> m_lastSeen; // the order nodes were last heard of, to bound both maps
    quint64 m_counter = 0;
};

} // namespace switchyard::ui
