#include "proxy/responseidmemory.h"

namespace switchyard::proxy {

ResponseIdMemory::ResponseIdMemory(qsizetype maxEntries, qint64 maxAgeMs)
    : m_maxEntries(std::max<qsizetype>(1, maxEntries)), m_maxAgeMs(std::max<qint64>(1, maxAgeMs))
{}

void ResponseIdMemory::dropExpired(qint64 nowMs)
{
    // The list is ordered by last use, so the expired ones are all at its end.
    while (!m_order.empty() && nowMs - m_order.back().usedMs > m_maxAgeMs) {
        m_index.remove(m_order.back().id);
        m_order.pop_back();
    }
}

void ResponseIdMemory::remember(const QByteArray &id, const QString &node, qint64 nowMs)
{
    if (id.isEmpty() || id.size() > MaxIdBytes)
        return;
    const QMutexLocker lock(&m_mutex);
    dropExpired(nowMs);
    if (const auto it = m_index.constFind(id); it != m_index.constEnd()) {
        m_order.erase(*it);
        m_index.erase(it);
    }
    m_order.push_front({id, node, nowMs});
    m_index.insert(id, m_order.begin());
    while (m_order.size() > size_t(m_maxEntries)) {
        m_index.remove(m_order.back().id);
        m_order.pop_back();
    }
}

std::optional<QString> ResponseIdMemory::nodeFor(const QByteArray &id, qint64 nowMs)
{
    const QMutexLocker lock(&m_mutex);
    dropExpired(nowMs);
    const auto it = m_index.constFind(id);
    if (it == m_index.constEnd())
        return std::nullopt;
    List::iterator entry = *it;
    entry->usedMs = nowMs;
    m_order.splice(m_order.begin(), m_order, entry); // iterators stay valid
    return entry->node;
}

void ResponseIdMemory::forget(const QByteArray &id)
{
    const QMutexLocker lock(&m_mutex);
    if (const auto it = m_index.constFind(id); it != m_index.constEnd()) {
        m_order.erase(*it);
        m_index.erase(it);
    }
}

qsizetype ResponseIdMemory::size() const
{
    const QMutexLocker lock(&m_mutex);
    return qsizetype(m_order.size());
}

} // namespace switchyard::proxy
