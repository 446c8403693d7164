#include "recenterrors.h"

#include <QStringList>
#include <algorithm>

namespace switchyard::ui {

bool RecentErrors::isError(const stats::RequestRecord &r)
{
    if (r.node.isEmpty())
        return false; // answered by the gateway itself (/v1/models, 404s): no node to blame
    return r.status == 0 || r.status >= 400 || !r.error.isEmpty();
}

void RecentErrors::add(const QList<stats::RequestRecord> &records)
{
    for (const stats::RequestRecord &r : records) {
        if (!isError(r))
            continue;
        auto it = m_errors.find(r.node);
        if (it == m_errors.end()) {
            if (m_errors.size() >= MaxNodes) {
                auto oldest = std::min_element(m_lastSeen.cbegin(), m_lastSeen.cend());
                const QString gone = oldest.key();
                m_errors.remove(gone);
                m_lastSeen.remove(gone);
            }
            it = m_errors.insert(r.node, RingBuffer<stats::RequestRecord>(PerNode));
        }
        it->push(r);
        m_lastSeen.insert(r.node, ++m_counter);
    }
}

QList<stats::RequestRecord> RecentErrors::of(const QString &node) const
{
    QList<stats::RequestRecord> out;
    const auto it = m_errors.constFind(node);
    if (it == m_errors.constEnd())
        return out;
    out.reserve(it->size());
    for (qsizetype i = 0; i < it->size(); ++i)
        out.append(it->at(i));
    return out;
}

void RecentErrors::keepOnly(const QStringList &nodes)
{
    for (auto it = m_errors.begin(); it != m_errors.end();) {
        if (nodes.contains(it.key())) {
            ++it;
        } else {
            m_lastSeen.remove(it.key());
            it = m_errors.erase(it);
        }
    }
}

void RecentErrors::clear()
{
    m_errors.clear();
    m_lastSeen.clear();
}

} // namespace switchyard::ui
