#include "epolldispatcher.h"

#include <QCoreApplication>
#include <QSocketNotifier>
#include <QTimerEvent>
#include <QtDebug>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <ctime>
#include <thread>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

namespace switchyard::net {

namespace {
// The epoll data of the wake-up eventfd; a socket's carries its descriptor and the watch's generation.
constexpr uint64_t WakeUpTag = ~uint64_t(0);
constexpr int MaxEventsPerTurn = 128;

uint64_t tagOf(int fd, uint32_t generation)
{
    return (uint64_t(generation) << 32) | uint32_t(fd);
}

// Whole milliseconds until a time left in nanoseconds, rounded up (never early), 0 when past.
int ceilMs(qint64 leftNs)
{
    return leftNs <= 0 ? 0 : int(std::min<qint64>(INT_MAX, (leftNs + 999999) / 1000000));
}
} // namespace

uint32_t EpollDispatcher::Watch::wanted() const
{
    return (read ? uint32_t(EPOLLIN) : 0u) | (write ? uint32_t(EPOLLOUT) : 0u) | (exception ? uint32_t(EPOLLPRI) : 0u);
}

EpollDispatcher::EpollDispatcher(QObject *parent) : QAbstractEventDispatcher(parent)
{
    m_epoll = ::epoll_create1(EPOLL_CLOEXEC);
    m_wakeFd = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (m_epoll >= 0 && m_wakeFd >= 0) {
        epoll_event ev{};
        ev.events = EPOLLIN;
        ev.data.u64 = WakeUpTag;
        if (::epoll_ctl(m_epoll, EPOLL_CTL_ADD, m_wakeFd, &ev) < 0) {
            ::close(m_wakeFd);
            m_wakeFd = -1;
        }
    }
    if (IoRing::wanted()) {
        // Made here, so its descriptor exists from the start like the epoll set's, and enabled on the
        // loop's thread (makeRing). Made on a thread of its own that ends at once: the kernel remembers
        // the thread that makes a ring, and when the ring is torn down it interrupts that thread to
        // tidy up, so a blocking call there fails with EINTR (a recv with a timeout on the panel's or a
        // test's main thread, a gateway restart later). A thread that has ended is forgotten.
        std::thread maker([this] { m_ring = IoRing::create(); });
        maker.join();
    }
}

EpollDispatcher::~EpollDispatcher()
{
    if (m_ring)
        m_ring->close(); // a socket that outlives the loop finds it closed: its connection is over
    if (m_wakeFd >= 0)
        ::close(m_wakeFd);
    if (m_epoll >= 0)
        ::close(m_epoll);
}

bool EpollDispatcher::wanted()
{
    static const bool qtsOwn = qEnvironmentVariable("SWITCHYARD_EVENT_DISPATCHER") == u"qt";
    return !qtsOwn;
}

std::shared_ptr<IoRing> EpollDispatcher::ringOfCurrentThread()
{
    auto *self = qobject_cast<EpollDispatcher *>(QAbstractEventDispatcher::instance());
    if (!self)
        return nullptr;
    self->makeRing();
    return self->m_ring && !self->m_ring->isClosed() ? self->m_ring : nullptr;
}

void EpollDispatcher::makeRing()
{
    // On the loop's own thread, the first time it turns or a socket asks: the kernel binds the ring to
    // the thread that enables it. (Once bound, binding again costs nothing; refused, the ring is gone.)
    if (m_ring && !m_ring->bindToThisThread())
        m_ring.reset();
}

qint64 EpollDispatcher::nowNs()
{
    timespec ts{};
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return qint64(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

// --- socket notifiers -------------------------------------------------------------------------------

void EpollDispatcher::markDirty(int fd, Watch &w)
{
    if (!w.dirty) {
        w.dirty = true;
        m_dirty.push_back(fd);
    }
}

void EpollDispatcher::registerSocketNotifier(QSocketNotifier *notifier)
{
    const int fd = int(notifier->socket());
    if (fd < 0)
        return;
    Watch &w = m_watches[fd];
    if (w.empty())
        ++w.generation; // perhaps another socket under a reused number: its events of this turn are stale
    QSocketNotifier **slot = notifier->type() == QSocketNotifier::Read    ? &w.read
                             : notifier->type() == QSocketNotifier::Write ? &w.write
                                                                          : &w.exception;
    if (*slot && *slot != notifier)
        qWarning("EpollDispatcher: a second socket notifier of one type for descriptor %d replaces the first", fd);
    *slot = notifier;
    markDirty(fd, w);
}

void EpollDispatcher::unregisterSocketNotifier(QSocketNotifier *notifier)
{
    const int fd = int(notifier->socket());
    const auto it = m_watches.find(fd);
    if (it == m_watches.end())
        return;
    Watch &w = it->second;
    for (QSocketNotifier **slot : {&w.read, &w.write, &w.exception}) {
        if (*slot == notifier)
            *slot = nullptr;
    }
    if (w.empty() && w.inKernel) {
        // Out of the kernel's set now, while the descriptor is surely still open: the set holds the
        // socket itself, not its number, so an entry left for a number that is then closed while a copy
        // of the descriptor lives on (a socket handed from Qt to PlainSocket) could never be removed,
        // and would keep waking the loop for a number nobody watches.
        ::epoll_ctl(m_epoll, EPOLL_CTL_DEL, fd, nullptr);
        w.inKernel = 0;
    }
    markDirty(fd, w);
}

void EpollDispatcher::reconcile()
{
    for (const int fd : m_dirty) {
        const auto it = m_watches.find(fd);
        if (it == m_watches.end())
            continue;
        Watch &w = it->second;
        w.dirty = false;
        const uint32_t want = w.wanted();
        if (want == 0) {
            m_watches.erase(it); // out of the kernel's set already (unregisterSocketNotifier)
            continue;
        }
        if (want == w.inKernel)
            continue;
        epoll_event ev{};
        ev.events = want;
        ev.data.u64 = tagOf(fd, w.generation);
        int rc = ::epoll_ctl(m_epoll, w.inKernel ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, fd, &ev);
        if (rc < 0 && errno == ENOENT)
            rc = ::epoll_ctl(m_epoll, EPOLL_CTL_ADD, fd, &ev);
        else if (rc < 0 && errno == EEXIST)
            rc = ::epoll_ctl(m_epoll, EPOLL_CTL_MOD, fd, &ev);
        if (rc < 0) {
            qWarning("EpollDispatcher: descriptor %d cannot be watched (%s)", fd, strerror(errno));
            w.inKernel = 0;
        } else {
            w.inKernel = want;
        }
    }
    m_dirty.clear();
}

void EpollDispatcher::activateNotifiers(const epoll_event *events, int count)
{
    for (int i = 0; i < count; ++i) {
        const uint64_t tag = events[i].data.u64;
        if (tag == WakeUpTag)
            continue;
        const int fd = int(uint32_t(tag));
        const uint32_t generation = uint32_t(tag >> 32);
        const uint32_t revents = events[i].events;
        // As Qt's poll-based dispatcher: a hang-up or an error is news for the reader, an error for the
        // writer too. Each notifier is looked up afresh: the one before may have removed or replaced it.
        const auto deliver = [&](QSocketNotifier *Watch::*which) {
            const auto it = m_watches.find(fd);
            if (it == m_watches.end() || it->second.generation != generation)
                return;
            if (QSocketNotifier *n = it->second.*which) {
                QEvent event(QEvent::SockAct);
                QCoreApplication::sendEvent(n, &event);
            }
        };
        if (revents & (EPOLLIN | EPOLLHUP | EPOLLERR))
            deliver(&Watch::read);
        if (revents & (EPOLLOUT | EPOLLERR))
            deliver(&Watch::write);
        if (revents & EPOLLPRI)
            deliver(&Watch::exception);
    }
}

// --- timers ------------------------------------------------------------------------------------------

void EpollDispatcher::registerTimer(int timerId, qint64 interval, Qt::TimerType timerType, QObject *object)
{
    if (timerId <= 0 || !object)
        return;
    unregisterTimer(timerId);
    Timer t;
    t.intervalMs = std::max<qint64>(0, interval);
    t.type = timerType;
    t.object = object;
    t.dueNs = nowNs() + t.intervalMs * 1000000;
    t.serial = ++m_timerSerial;
    m_timerQueue.emplace(t.dueNs, timerId);
    m_timers.emplace(timerId, t);
}

bool EpollDispatcher::unregisterTimer(int timerId)
{
    const auto it = m_timers.find(timerId);
    if (it == m_timers.end())
        return false;
    m_timerQueue.erase({it->second.dueNs, timerId});
    m_timers.erase(it);
    return true;
}

bool EpollDispatcher::unregisterTimers(QObject *object)
{
    bool any = false;
    for (auto it = m_timers.begin(); it != m_timers.end();) {
        if (it->second.object == object) {
            m_timerQueue.erase({it->second.dueNs, it->first});
            it = m_timers.erase(it);
            any = true;
        } else {
            ++it;
        }
    }
    return any;
}

QList<QAbstractEventDispatcher::TimerInfo> EpollDispatcher::registeredTimers(QObject *object) const
{
    QList<TimerInfo> list;
    for (const auto &[id, t] : m_timers) {
        if (t.object == object)
            list.append(TimerInfo(id, int(t.intervalMs), t.type));
    }
    return list;
}

int EpollDispatcher::remainingTime(int timerId)
{
    const auto it = m_timers.find(timerId);
    if (it == m_timers.end())
        return -1;
    return ceilMs(it->second.dueNs - nowNs());
}

int EpollDispatcher::waitMs() const
{
    // The first timer not already delivering its event (one whose handler runs a nested loop must not
    // make that loop spin).
    for (const auto &[due, id] : m_timerQueue) {
        if (m_timers.at(id).inEvent)
            continue;
        return ceilMs(due - nowNs());
    }
    return -1;
}

bool EpollDispatcher::activateTimers()
{
    if (m_timerQueue.empty())
        return false;
    const qint64 now = nowNs();
    // Those due now, each at most once this turn: a handler may start, stop or delete any timer.
    std::vector<std::pair<int, quint64>> firing; // (id, serial): a nested turn has its own
    for (auto it = m_timerQueue.begin(); it != m_timerQueue.end() && it->first <= now; ++it)
        firing.emplace_back(it->second, m_timers.at(it->second).serial);
    bool fired = false;
    for (const auto &[id, serial] : firing) {
        auto it = m_timers.find(id);
        if (it == m_timers.end() || it->second.serial != serial || it->second.inEvent)
            continue;
        Timer &t = it->second;
        // The next time it is due: one interval on, or one interval from now when it fell behind.
        m_timerQueue.erase({t.dueNs, id});
        t.dueNs += t.intervalMs * 1000000;
        if (t.dueNs < now)
            t.dueNs = now + t.intervalMs * 1000000;
        m_timerQueue.emplace(t.dueNs, id);
        t.inEvent = true;
        QObject *object = t.object;
        QTimerEvent event(id);
        QCoreApplication::sendEvent(object, &event);
        fired = true;
        it = m_timers.find(id);
        if (it != m_timers.end() && it->second.serial == serial)
            it->second.inEvent = false;
    }
    return fired;
}

// --- the loop ----------------------------------------------------------------------------------------

void EpollDispatcher::wakeUp()
{
    // Any thread. One write until the loop has drained it: a burst of posted events costs one wake-up.
    if (m_wakeUps.testAndSetAcquire(0, 1)) {
        const uint64_t one = 1;
        [[maybe_unused]] const ssize_t n = ::write(m_wakeFd, &one, sizeof one);
    }
}

void EpollDispatcher::interrupt()
{
    m_interrupt.storeRelaxed(1);
    wakeUp();
}

bool EpollDispatcher::processEvents(QEventLoop::ProcessEventsFlags flags)
{
    m_interrupt.storeRelaxed(0);
    makeRing();
    emit awake();
    QCoreApplication::sendPostedEvents(); // this thread's, as Qt's dispatcher does first

    reconcile();
    const bool canWait = (flags & QEventLoop::WaitForMoreEvents) && !m_interrupt.loadRelaxed();
    const bool timers = !(flags & QEventLoop::X11ExcludeTimers);
    int timeout = 0;
    if (canWait) {
        timeout = timers ? waitMs() : -1;
        if (timeout != 0)
            emit aboutToBlock();
    }
    epoll_event events[MaxEventsPerTurn];
    bool handled = false;
    int count;
    if (m_ring && !m_ring->isClosed()) {
        count = waitInRing(timeout, events, !(flags & QEventLoop::ExcludeSocketNotifiers), handled);
    } else {
        count = ::epoll_wait(m_epoll, events, MaxEventsPerTurn, timeout);
    }
    if (count < 0) {
        if (errno != EINTR)
            qWarning("EpollDispatcher: epoll_wait failed (%s)", strerror(errno));
        count = 0;
    }
    for (int i = 0; i < count; ++i) {
        if (events[i].data.u64 == WakeUpTag) {
            uint64_t value = 0;
            [[maybe_unused]] const ssize_t n = ::read(m_wakeFd, &value, sizeof value);
            m_wakeUps.storeRelease(0); // posted events are sent at the start of the next turn
            handled = true;
        }
    }
    if (!(flags & QEventLoop::ExcludeSocketNotifiers) && count > 0) {
        activateNotifiers(events, count);
        handled = true;
    }
    if (timers && activateTimers())
        handled = true;
    return handled;
}

int EpollDispatcher::waitInRing(int timeout, epoll_event *events, bool dispatchCompletions, bool &handled)
{
    if (!m_epollPolled) {
        m_ring->pollIn(m_epoll, this, 0);
        m_epollPolled = true;
    }
    // A nested loop that leaves sockets alone does not wait on them either.
    m_ring->submitAndWait(dispatchCompletions ? timeout : 0);
    m_epollReady = false;
    if (dispatchCompletions && m_ring->dispatch() > 0)
        handled = true;
    if (!m_epollReady)
        return 0;
    return ::epoll_wait(m_epoll, events, MaxEventsPerTurn, 0);
}

void EpollDispatcher::ringCompleted(int, int result, unsigned)
{
    // The poll of the epoll set: what in it is ready is asked for once this turn's completions are done.
    m_epollPolled = false;
    if (result != -ECANCELED)
        m_epollReady = true;
}

} // namespace switchyard::net
