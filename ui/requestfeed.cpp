#include "requestfeed.h"

namespace switchyard::ui {

void RequestFeed::push(const stats::RequestRecord &record)
{
    QMutexLocker lock(&m_mutex);
    m_pending.push_back(record);
    if (qsizetype(m_pending.size()) > m_capacity) {
        m_pending.pop_front();
        ++m_dropped;
    }
}

QList<stats::RequestRecord> RequestFeed::takeAll(qint64 *dropped)
{
    std::deque<stats::RequestRecord> taken;
    qint64 lost = 0;
    {
        QMutexLocker lock(&m_mutex);
        taken.swap(m_pending);
        lost = m_dropped;
        m_dropped = 0;
    }
    if (dropped)
        *dropped = lost;
    QList<stats::RequestRecord> out;
    out.reserve(qsizetype(taken.size()));
    for (stats::RequestRecord &r : taken)
        out.append(std::move(r));
    return out;
}

} // namespace switchyard::ui
