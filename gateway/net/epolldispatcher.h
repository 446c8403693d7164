#pragma once

// The event loop of a gateway worker thread: Qt's event dispatcher interface on one epoll(7) set.
//
// Why not Qt's own (QEventDispatcherUNIX): on every turn of the loop it rebuilds the poll set from all
// of the thread's socket notifiers, hands it to ppoll(2), then walks it again to find what fired — work
// that grows with the connections a worker holds, paid once per wake-up, which under keep-alive load is
// about once per request (docs/PERFORMANCE.md, "Per core"). Here the kernel keeps the set: a turn is
// one epoll_wait(2) returning only what is ready, and a notifier switched off and on again within one
// turn (as a socket does while it is read) costs no system call at all, because the kernel's set is
// brought in line with the notifiers only before the next wait. (A descriptor whose last notifier goes
// leaves the set at once, see unregisterSocketNotifier.)
//
// Everything Qt expects of a dispatcher works as before, on the same thread: socket notifiers (level-
// triggered, as with poll), timers of every type (as precise timers, millisecond resolution), posted
// events and cross-thread wake-ups (an eventfd), interrupt() and quit(). The gateway installs it on its
// worker threads on Linux; SWITCHYARD_EVENT_DISPATCHER=qt in the environment keeps Qt's instead.
//
// Where the kernel offers io_uring (net/ioring.h), the loop waits in the ring instead: the epoll set is
// one of the things the ring watches (a one-shot poll on the epoll descriptor, queued again after it
// fires), beside the receives and sends of the thread's plain sockets. One io_uring_enter(2) then hands
// the kernel a turn's sends and receives and waits for the next completion, and epoll_wait(2) runs
// only, without waiting, in the turns where a descriptor of the set is ready.

#include <QAbstractEventDispatcher>
#include <QAtomicInt>

#include "net/ioring.h"

#include <cstdint>
#include <memory>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

struct epoll_event;

namespace switchyard::net {

class EpollDispatcher final : public QAbstractEventDispatcher, private IoRing::Handler
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EpollDispatcher)

public:
    explicit EpollDispatcher(QObject *parent = nullptr);
    ~EpollDispatcher() override;

    // False when the kernel refused the epoll set or the eventfd (then Qt's dispatcher must be used).
    bool isValid() const { return m_epoll >= 0 && m_wakeFd >= 0; }
    // Whether worker threads get this dispatcher: on Linux unless SWITCHYARD_EVENT_DISPATCHER=qt.
    static bool wanted();

    // The calling thread's io_uring when its dispatcher is this one, made with the loop and bound to
    // that thread on first use (the kernel is told only it submits); null when off, refused, or another
    // dispatcher.
    static std::shared_ptr<IoRing> ringOfCurrentThread();

    bool processEvents(QEventLoop::ProcessEventsFlags flags) override;

    void registerSocketNotifier(QSocketNotifier *notifier) override;
    void unregisterSocketNotifier(QSocketNotifier *notifier) override;

    void registerTimer(int timerId, qint64 interval, Qt::TimerType timerType, QObject *object) override;
    bool unregisterTimer(int timerId) override;
    bool unregisterTimers(QObject *object) override;
    QList<TimerInfo> registeredTimers(QObject *object) const override;
    int remainingTime(int timerId) override;

    void wakeUp() override;
    void interrupt() override;

private:
    // The notifiers on one descriptor, and what the kernel's set holds for it.
    struct Watch
    {
        QSocketNotifier *read = nullptr;
        QSocketNotifier *write = nullptr;
        QSocketNotifier *exception = nullptr;
        uint32_t inKernel = 0;   // the epoll events registered for it now (0: not in the set)
        uint32_t generation = 0; // changes when the descriptor may be a different socket
        bool dirty = false;      // listed in m_dirty
        uint32_t wanted() const;
        bool empty() const { return !read && !write && !exception; }
    };
    struct Timer
    {
        qint64 intervalMs = 0;
        Qt::TimerType type = Qt::CoarseTimer;
        QObject *object = nullptr;
        qint64 dueNs = 0;
        quint64 serial = 0;    // tells a timer from a later one that got the same id
        bool inEvent = false;  // its event is being delivered: it does not fire again inside it
    };

    // Brings the kernel's set in line with the notifiers changed since the last wait.
    void reconcile();
    void makeRing();
    void markDirty(int fd, Watch &w);
    void activateNotifiers(const ::epoll_event *events, int count);
    int waitInRing(int timeout, ::epoll_event *events, bool dispatchCompletions, bool &handled);
    void ringCompleted(int operation, int result, unsigned flags) override; // the epoll set is ready
    bool activateTimers();
    int waitMs() const;
    static qint64 nowNs();

    int m_epoll = -1;
    int m_wakeFd = -1;
    QAtomicInt m_wakeUps;   // 1 while the eventfd has been written and not yet drained
    QAtomicInt m_interrupt; // interrupt() asked the current processEvents() to return
    std::unordered_map<int, Watch> m_watches;
    std::vector<int> m_dirty;
    std::unordered_map<int, Timer> m_timers;     // by timer id
    std::set<std::pair<qint64, int>> m_timerQueue; // (due, id), earliest first
    quint64 m_timerSerial = 0;
    std::shared_ptr<IoRing> m_ring;
    bool m_epollPolled = false; // the ring's poll of the epoll set is queued or in the kernel
    bool m_epollReady = false;  // it fired this turn
};

} // namespace switchyard::net
