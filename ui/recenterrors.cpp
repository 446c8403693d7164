#include "recenterrors.h"

#include <QStringList>
#include <algorithm>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {
constexpr int ClientClosedStatus = 499;

// "HTTP 500: engine overloaded" → "engine overloaded": the Nodes view shows the status beside it.
QString withoutStatus(const QString &reason, int status)
{
    const QString prefix = u"HTTP "_s + QString::number(status);
    if (status <= 0 || !reason.startsWith(prefix))
        return reason;
    QString rest = reason.sliced(prefix.size());
    if (rest.startsWith(u": "_s))
        rest = rest.sliced(2);
    return rest;
}
} // namespace

bool RecentErrors::isError(const stats::RequestRecord &r)
{
    if (r.node.isEmpty())
        return false; // answered by the gateway itself (/v1/models, 404s): no node to blame
    if (r.status == ClientClosedStatus)
        return false; // the client left: counted apart
    return r.status == 0 || r.status >= 400 || !r.error.isEmpty();
}

void RecentErrors::touch(const QString &node)
{
    if (!m_lastSeen.contains(node) && m_lastSeen.size() >= MaxNodes) {
        const auto oldest = std::min_element(m_lastSeen.cbegin(), m_lastSeen.cend());
        const QString gone = oldest.key();
        m_errors.remove(gone);
        m_clientClosed.remove(gone);
        m_lastSeen.remove(gone);
    }
    m_lastSeen.insert(node, ++m_counter);
}

void RecentErrors::push(const stats::RequestRecord &error)
{
    touch(error.node);
    auto it = m_errors.find(error.node);
    if (it == m_errors.end())
        it = m_errors.insert(error.node, RingBuffer<stats::RequestRecord>(PerNode));
    it->push(error);
}

void RecentErrors::add(const QList<stats::RequestRecord> &records)
{
    using Outcome = stats::Attempt::Outcome;
    for (const stats::RequestRecord &r : records) {
        if (r.tried.isEmpty()) {
            if (r.status == ClientClosedStatus && !r.node.isEmpty()) {
                touch(r.node);
                ++m_clientClosed[r.node];
            } else if (isError(r)) {
                push(r);
            }
            continue;
        }
        bool clientClosedCounted = false;
        for (qsizetype i = 0; i < r.tried.size(); ++i) {
            const stats::Attempt &a = r.tried[i];
            if (a.outcome == Outcome::ClientClosed) {
                touch(a.node);
                ++m_clientClosed[a.node];
                clientClosedCounted = true;
                continue;
            }
            // A node's own error answer that went to the client (a 401 for a wrong key, a 501) is its
            // error as well; any other answer is not.
            const bool errorAnswer = a.outcome == Outcome::Answered && a.status >= 400;
            if (!a.failed() && !errorAnswer)
                continue;
            stats::RequestRecord e;
            e.startedMsSinceEpoch = r.startedMsSinceEpoch + a.startMs;
            e.durationMs = a.durationMs;
            e.method = r.method;
            e.path = r.path;
            e.model = r.model;
            e.node = a.node;
            e.status = a.status;
            e.stream = r.stream;
            e.attempts = 1;
            e.tried = {a};
            QString what = errorAnswer ? r.error : withoutStatus(a.reason, a.status);
            if (a.outcome == Outcome::Cut)
                what = tr("failed mid-answer: %1").arg(a.reason);
            if (what.isEmpty())
                what = tr("(no message)");
            // Where the request went on to: what makes a failover visible on the failed node.
            const stats::Attempt *next = i + 1 < r.tried.size() ? &r.tried[i + 1] : nullptr;
            const bool answeredLater = next && r.tried.last().outcome == Outcome::Answered;
            if (answeredLater && r.tried.last().node == a.node)
                what = tr("%1 (retried; it answered then)").arg(what);
            else if (answeredLater)
                what = tr("%1 (failed over; %2 answered)").arg(what, r.tried.last().node);
            else if (next && next->node == a.node)
                what = tr("%1 (retried)").arg(what);
            else if (next)
                what = tr("%1 (failed over to %2)").arg(what, next->node);
            e.error = what;
            push(e);
        }
        // A client that left while the gateway waited between retries: the node last tried was on it.
        if (r.status == ClientClosedStatus && !clientClosedCounted && !r.node.isEmpty()) {
            touch(r.node);
            ++m_clientClosed[r.node];
        }
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
    for (auto it = m_lastSeen.begin(); it != m_lastSeen.end();) {
        if (nodes.contains(it.key())) {
            ++it;
        } else {
            m_errors.remove(it.key());
            m_clientClosed.remove(it.key());
            it = m_lastSeen.erase(it);
        }
    }
}

void RecentErrors::clear()
{
    m_errors.clear();
    m_clientClosed.clear();
    m_lastSeen.clear();
}

} // namespace switchyard::ui
