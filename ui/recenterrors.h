#pragma once

// Each node's latest failed requests, for the Nodes view's detail pane: a filter over the request log
// as the link delivers it (no statistics), bounded per node and in the number of nodes remembered.

#include "ringbuffer.h"
#include "stats/requestrecord.h"

#include <QHash>
#include <QList>
#include <QString>

namespace switchyard::ui {

class RecentErrors final
{
public:
    static constexpr qsizetype PerNode = 20;
    static constexpr qsizetype MaxNodes = 256; // past this, the node heard of longest ago is forgotten

    // Records answered by a node that failed (status 0 or ≥ 400) or carry an error.
    static bool isError(const stats::RequestRecord &r);

    void add(const QList<stats::RequestRecord> &records);
    // Oldest first, at most PerNode.
    QList<stats::RequestRecord> of(const QString &node) const;
    // Forgets the nodes not named (a node removed from the config).
    void keepOnly(const QStringList &nodes);
    void clear();

private:
    QHash<QString, RingBuffer<stats::RequestRecord>> m_errors;
    QHash<QString, quint64> m_lastSeen; // the order nodes were last heard of, to bound m_errors
    quint64 m_counter = 0;
};

} // namespace switchyard::ui
