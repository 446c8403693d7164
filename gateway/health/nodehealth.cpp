#include "nodehealth.h"

using namespace Qt::Literals::StringLiterals;

namespace switchyard::health {

const char *nodeStateName(NodeState state)
{
    switch (state) {
    case NodeState::Unknown: return "unknown";
    case NodeState::Healthy: return "healthy";
    case NodeState::Degraded: return "degraded";
    case NodeState::Down: return "down";
    case NodeState::Recovering: return "recovering";
    case NodeState::Draining: return "draining";
    }
    return "unknown";
}

Admission NodeHealth::admit(qint64 nowMs)
{
    if (m_draining.load(std::memory_order_relaxed) || m_probeDown.load(std::memory_order_relaxed))
        return Admission::No;
    const qint64 until = m_ejectedUntilMs.load(std::memory_order_acquire);
    if (until == 0)
        return Admission::Yes;
    if (nowMs < until)
        return Admission::No;
    bool expected = false;
    if (m_trialInFlight.compare_exchange_strong(expected, true))
        return Admission::Trial;
    return Admission::No;
}

bool NodeHealth::isAvailable(qint64 nowMs) const
{
    if (m_draining.load() || m_probeDown.load())
        return false;
    const qint64 until = m_ejectedUntilMs.load();
    return until == 0 || (nowMs >= until && !m_trialInFlight.load());
}

bool NodeHealth::admitLastResort(qint64 nowMs)
{
    if (m_draining.load())
        return false;
    if (!m_lastFailureSlow.load())
        return true; // it failed fast last time: trying again costs little
    // One request per interval, gateway-wide, may spend a timeout on a node that hung last time.
    qint64 last = m_lastResortSlowAtMs.load();
    while (nowMs - last >= LastResortSlowIntervalMs) {
        if (m_lastResortSlowAtMs.compare_exchange_weak(last, nowMs))
            return true;
    }
    return false;
}

void NodeHealth::attemptSucceeded(qint64 nowMs)
{
    m_sawTraffic.store(true, std::memory_order_relaxed);
    countAttempt(nowMs, false);
    m_consecutiveFailures.store(0, std::memory_order_relaxed);
    if (m_requestsFailing.load(std::memory_order_relaxed))
        m_requestsFailing.store(false);
    if (m_lastFailureSlow.load(std::memory_order_relaxed))
        m_lastFailureSlow.store(false);
    if (m_ejectedUntilMs.load(std::memory_order_relaxed) != 0) {
        m_ejectedUntilMs.store(0);
        m_cooldownMs.store(0);
        m_trialInFlight.store(false);
    }
    if (m_probeDown.load(std::memory_order_relaxed)) {
        // A last-resort request was served: the node works whatever its last check said. It takes
        // traffic again as Recovering; the next check has the final word.
        m_probeDown.store(false);
        m_recovering.store(true);
        return;
    }
    if (m_recovering.load(std::memory_order_relaxed))
        m_recovering.store(false);
}

void NodeHealth::attemptFailed(qint64 nowMs, const QString &why, bool slow)
{
    m_sawTraffic.store(true, std::memory_order_relaxed);
    if (m_lastFailureSlow.load(std::memory_order_relaxed) != slow)
        m_lastFailureSlow.store(slow);
    if (m_ejectedUntilMs.load() != 0) {
        // A failed trial (or a straggler of the requests that got it ejected): eject again, longer.
        if (m_trialInFlight.exchange(false))
            eject(nowMs, u"trial request failed: "_s % why);
        return;
    }
    countAttempt(nowMs, true);
    const int n = m_consecutiveFailures.fetch_add(1) + 1;
    {
        // Failures are the rare path; the snapshot's Degraded reason reads it.
        QMutexLocker lock(&m_reasonMutex);
        m_lastFailure = why;
    }
    if (n >= m_consecutiveLimit.load(std::memory_order_relaxed)) {
        eject(nowMs, QString::number(n) % u" consecutive failures, last: "_s % why);
        return;
    }
    const int permille = m_errorRatePermille.load(std::memory_order_relaxed);
    if (permille <= 0)
        return;
    const WindowCounts w = windowCounts(nowMs);
    if (w.attempts >= std::max(1, m_errorRateMinRequests.load(std::memory_order_relaxed))
        && qint64(w.failures) * 1000 >= qint64(w.attempts) * permille) {
        eject(nowMs, QString::number(w.failures * 100 / w.attempts) % u"% of "_s % QString::number(w.attempts)
                         % u" requests failed in the last "_s % QString::number(m_errorRateWindowS.load())
                         % u" s, last: "_s % why);
    }
}

void NodeHealth::countAttempt(qint64 nowMs, bool failed)
{
    const qint64 second = nowMs / 1000;
    SecondSlot &slot = m_window[second % MaxRateWindowSeconds];
    qint64 tag = slot.second.load(std::memory_order_acquire);
    if (tag != second && slot.second.compare_exchange_strong(tag, second, std::memory_order_acq_rel)) {
        slot.attempts.store(0, std::memory_order_relaxed);
        slot.failures.store(0, std::memory_order_relaxed);
    }
    slot.attempts.fetch_add(1, std::memory_order_relaxed);
    if (failed)
        slot.failures.fetch_add(1, std::memory_order_relaxed);
}

NodeHealth::WindowCounts NodeHealth::windowCounts(qint64 nowMs) const
{
    const qint64 second = nowMs / 1000;
    const int span = m_errorRateWindowS.load(std::memory_order_relaxed);
    WindowCounts w;
    for (const SecondSlot &slot : m_window) {
        const qint64 tag = slot.second.load(std::memory_order_acquire);
        if (tag > second - span && tag <= second) {
            w.attempts += slot.attempts.load(std::memory_order_relaxed);
            w.failures += slot.failures.load(std::memory_order_relaxed);
        }
    }
    return w;
}

void NodeHealth::clearWindow()
{
    // After an ejection the node starts with a clean slate: the failures that ejected it must not
    // eject it again right after its trial succeeds.
    for (SecondSlot &slot : m_window)
        slot.second.store(-1, std::memory_order_release);
}

void NodeHealth::attemptAbandoned(bool wasTrial)
{
    if (wasTrial)
        m_trialInFlight.store(false);
}

void NodeHealth::eject(qint64 nowMs, const QString &why)
{
    int cooldown = m_cooldownMs.load();
    cooldown = cooldown == 0 ? m_cooldownInitialMs.load() : std::min(cooldown * 2, m_cooldownMaxMs.load());
    m_cooldownMs.store(cooldown);
    m_consecutiveFailures.store(0);
    clearWindow();
    m_requestsFailing.store(true);
    m_ejectedUntilMs.store(nowMs + cooldown, std::memory_order_release);
    QMutexLocker lock(&m_reasonMutex);
    m_ejectReason = why;
}

void NodeHealth::probeFinished(qint64 nowMs, const ProbeResult &result)
{
    m_probed.store(true);
    QMutexLocker lock(&m_reasonMutex);
    if (!result.up) {
        m_downReason = result.downReason;
        m_degradedReason.clear();
        m_lastFailureSlow.store(result.timedOut);
        m_probeDown.store(true);
        return;
    }
    m_lastFailureSlow.store(false);
    const bool wasDown = m_probeDown.exchange(false);
    if (wasDown)
        m_recovering.store(true);
    else if (m_recovering.load() && !m_requestsFailing.load())
        m_recovering.store(false); // a second good probe in a row, and no request failing
    m_downReason.clear();
    m_degradedReason = result.degradedReason;
    const qint64 until = m_ejectedUntilMs.load();
    if (until == 0)
        return;
    if (wasDown) {
        // Seen down, now seen up (restarted, unwedged, engine back): readmitted at once, not after the
        // rest of its cooldown.
        m_ejectedUntilMs.store(0);
        m_trialInFlight.store(false);
        m_recovering.store(true);
        return;
    }
    // Requests ejected it: a good /health says little (a node answering 500 to every request still
    // passes it). After the cooldown the next request is its trial; only that readmits it.
    (void)nowMs;
}

void NodeHealth::recordTtft(qint64 ms)
{
    // Exponentially weighted (α = 1/4): recent enough to steer load-aware routing, smooth enough not to
    // flap on one slow prompt. A lost race between two workers only drops one sample.
    const int prev = ttftEwmaMs.load(std::memory_order_relaxed);
    const int next = prev < 0 ? int(ms) : int((3 * qint64(prev) + ms) / 4);
    ttftEwmaMs.store(next, std::memory_order_relaxed);
}

void NodeHealth::setDetails(const ProbeDetails &details)
{
    QMutexLocker lock(&m_reasonMutex);
    m_details = details;
}

ProbeDetails NodeHealth::details() const
{
    QMutexLocker lock(&m_reasonMutex);
    return m_details;
}

NodeState NodeHealth::state(qint64 nowMs) const
{
    if (m_draining.load())
        return NodeState::Draining;
    if (m_probeDown.load())
        return NodeState::Down;
    const qint64 until = m_ejectedUntilMs.load();
    if (until != 0)
        return nowMs < until ? NodeState::Down : NodeState::Recovering;
    if (m_recovering.load())
        return NodeState::Recovering;
    if (m_consecutiveFailures.load(std::memory_order_relaxed) > 0)
        return NodeState::Degraded; // its last request failed; the next success clears it
    {
        QMutexLocker lock(&m_reasonMutex);
        if (!m_degradedReason.isEmpty())
            return NodeState::Degraded;
    }
    if (!m_probed.load() && !m_sawTraffic.load())
        return NodeState::Unknown;
    return NodeState::Healthy;
}

QString NodeHealth::reason(qint64 nowMs) const
{
    const NodeState s = state(nowMs);
    QMutexLocker lock(&m_reasonMutex);
    switch (s) {
    case NodeState::Draining:
        return u"draining: takes no new requests"_s;
    case NodeState::Down: {
        if (m_probeDown.load())
            return m_downReason;
        const qint64 left = std::max<qint64>(0, m_ejectedUntilMs.load() - nowMs);
        return u"ejected ("_s % m_ejectReason % u"); trial in "_s % QString::number((left + 999) / 1000) % u" s"_s;
    }
    case NodeState::Recovering:
        if (m_requestsFailing.load()) {
            const QString checks = m_probed.load() && !m_probeDown.load() ? u"; its health check passes, but "_s
                                                                           : u"; "_s;
            return u"ejected ("_s % m_ejectReason % u")"_s % checks
                   % u"no request has succeeded since: the next request is its trial"_s;
        }
        return u"recovering: waiting for a successful request or check"_s;
    case NodeState::Degraded: {
        const int failed = m_consecutiveFailures.load();
        if (failed <= 0)
            return m_degradedReason;
        QString why = failed == 1 ? QString(u"its last request failed: "_s % m_lastFailure)
                                  : QString(u"its last "_s % QString::number(failed) % u" requests failed, last: "_s
                                            % m_lastFailure);
        if (!m_degradedReason.isEmpty())
            why += u"; "_s % m_degradedReason;
        return why;
    }
    case NodeState::Unknown:
        return u"not checked yet"_s;
    case NodeState::Healthy:
        return {};
    }
    return {};
}

} // namespace switchyard::health
