#pragma once

// Which node created which stored response (the Responses API). vLLM keeps a response it made in that
// node's memory only, so GET /v1/responses/{id} and its cancel, and a follow-up naming it as
// previous_response_id, have to reach the node that created it. The gateway learns the id from the
// node's answer (proxy/responseidscanner) and remembers it here.
//
// Shared by every worker thread (one mutex, held for a hash lookup). Bounded twice: at most maxEntries
// ids, the least recently used going first, and none older than maxAgeMs since it was last used — a
// node forgets its responses on a restart anyway. Node names, not indices: a config reload may reorder
// the nodes, and an id whose node is gone from the config then answers 404.

#include <QByteArray>
#include <QHash>
#include <QMutex>
#include <QString>

#include <list>
#include <optional>

namespace switchyard::proxy {

class ResponseIdMemory final
{
    Q_DISABLE_COPY_MOVE(ResponseIdMemory)

public:
    static constexpr qsizetype DefaultMaxEntries = 100'000;
    static constexpr qint64 DefaultMaxAgeMs = 24LL * 3600 * 1000;
    // Longer ids are not remembered: vLLM's are "resp_" and 32 hex digits.
    static constexpr qsizetype MaxIdBytes = 256;

    explicit ResponseIdMemory(qsizetype maxEntries = DefaultMaxEntries, qint64 maxAgeMs = DefaultMaxAgeMs);

    void remember(const QByteArray &id, const QString &node, qint64 nowMs);
    // The node that created the response, if it is still remembered (and then fresh again).
    std::optional<QString> nodeFor(const QByteArray &id, qint64 nowMs);
    void forget(const QByteArray &id);
    qsizetype size() const;

private:
    struct Entry
    {
        QByteArray id;
        QString node;
        qint64 usedMs = 0;
    };
    using List = std::list<Entry>; // most recently used first

    void dropExpired(qint64 nowMs);

    const qsizetype m_maxEntries;
    const qint64 m_maxAgeMs;
    mutable QMutex m_mutex;
    List m_order;
    QHash<QByteArray, List::iterator> m_index;
};

} // namespace switchyard::proxy
