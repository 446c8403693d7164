#pragma once

// A worker thread's io_uring(7): how its plain sockets read and write without a system call each.
//
// Why: on a virtual machine with page-table isolation a system call costs about a microsecond before it
// does anything (docs/PERFORMANCE.md, "System calls through io_uring"), and a proxied request needs four of them with any
// readiness loop (read the client, send to the node, read the node, send to the client) plus the wait.
// Here a socket queues its receives and sends in the ring's submission queue; the worker's loop hands
// the whole queue to the kernel and waits for what completed in one io_uring_enter(2) per turn
// (EpollDispatcher). A receive takes a buffer from a pool the kernel picks from (a provided-buffer
// ring), so a waiting connection holds no buffer of its own, and the bytes are copied out and the buffer
// given back before the next completion is looked at.
//
// One ring per worker thread, used only on that thread (the kernel is told so: single issuer, task
// work deferred to the wait). IoRing::create() returns nothing where the kernel refuses (older than
// 6.1, or io_uring blocked by a container's seccomp profile); everything then goes through plain
// system calls as before. SWITCHYARD_IO_URING=0 in the environment turns it off.

#include <QByteArrayView>
#include <QtGlobal>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <unordered_set>
#include <vector>

struct io_uring;
struct io_uring_sqe;
struct io_uring_buf_ring;

namespace switchyard::net {

class IoRing final
{
    Q_DISABLE_COPY_MOVE(IoRing)

public:
    // Who hears of an operation's end. `operation` is the number (0..7) given when it was queued;
    // `result` is what the system call would have returned, or -errno.
    class Handler
    {
    public:
        virtual ~Handler() = default;
        virtual void ringCompleted(int operation, int result, unsigned flags) = 0;
    };

    static constexpr qsizetype ReceiveBytes = 16 * 1024; // the most one receive brings

    // Made on any thread (so its descriptor exists from the start, like the loop's epoll set), used
    // only after bindToThisThread() on the one thread that will use it; false there means the kernel
    // refused and the ring is closed. Binding again is a no-op.
    static std::shared_ptr<IoRing> create(); // null when the kernel refuses
    static bool wanted();                     // not turned off with SWITCHYARD_IO_URING=0
    bool bindToThisThread();
    ~IoRing();

    // Operations are queued until the loop's next turn. A handler must stay alive until each of its
    // operations has completed (cancelled ones complete too, with -ECANCELED): see adoptOrphan().
    //
    // receive(): into pooled buffers; bytes via received(). Stays armed, one completion per arrival,
    // each flagged IORING_CQE_F_MORE while it stays so (the kernel watches the socket once, not once
    // per request); cancel() ends it. `onlyWaiting`: once, with what is there now, else -EAGAIN at once.
    void receive(int fd, Handler *handler, int operation, bool onlyWaiting = false);
    // A send queued and not yet handed to the kernel can still take more bytes (regrow()): a response
    // head and the first event behind it then leave together, and the second does not wait for the
    // first's completion, which this turn's wait may hold back (see submitAndWait).
    struct QueuedSend
    {
        io_uring_sqe *entry = nullptr;
        quint64 handOver = 0; // which hand-over to the kernel will take it
    };
    QueuedSend send(int fd, const char *data, size_t size, Handler *handler, int operation);
    bool stillQueued(const QueuedSend &send) const { return send.entry && send.handOver == m_handOvers; }
    void regrow(const QueuedSend &send, const char *data, size_t size); // only while stillQueued()
    void pollIn(int fd, Handler *handler, int operation);  // one-shot: completes once fd is readable
    void cancel(Handler *handler, int operation);

    // Whether a completion leaves its operation armed (more completions of it will come).
    static bool staysArmed(unsigned flags);
    // A receive's bytes, valid until recycle(flags), which must follow before the handler returns.
    QByteArrayView received(int result, unsigned flags) const;
    void recycle(unsigned flags);

    // Hands what is queued to the kernel now. A descriptor is named by its number until then, so a
    // socket calls this before it closes its descriptor, which another socket may get next.
    void submitPending();

    // The result of an operation that has completed but whose handler has not been called yet (it is
    // in this turn's completions); nothing when it is still in flight. Looks, calls nothing.
    std::optional<int> completedUnseen(Handler *handler, int operation) const;

    // A handler whose owner has gone while operations of it are still in the kernel: kept here and
    // deleted when the ring closes, unless it deletes itself first (then it calls forgetOrphan()).
    void adoptOrphan(Handler *handler) { m_orphans.insert(handler); }
    void forgetOrphan(Handler *handler) { m_orphans.erase(handler); }

    // The loop's side. submitAndWait hands every queued operation to the kernel and waits up to
    // timeoutMs (-1: no limit; 0: not at all) for one to complete, in one system call (none when there
    // is nothing to hand over and nothing can have completed). dispatch() calls the handlers of what
    // completed and returns how many it called.
    void submitAndWait(int timeoutMs);
    int dispatch();
    // Runs once this turn's completions have all been handled (a socket announces what a burst brought
    // in one piece). The function must check that what it calls on still exists.
    void afterDispatch(std::function<void()> f) { m_afterDispatch.push_back(std::move(f)); }

    // After close() (the worker's loop is going away) nothing is queued any more and nothing completes;
    // the kernel has dropped every operation.
    void close();
    bool isClosed() const { return !m_ring; }

private:
    IoRing() = default;
    io_uring_sqe *nextEntry(Handler *handler, int operation);
    void handOver();   // the queue to the kernel, without waiting
    void handedOver(); // after any call that handed the queue over

    std::unique_ptr<io_uring> m_ring;
    io_uring_buf_ring *m_bufferRing = nullptr;
    char *m_buffers = nullptr;
    std::unordered_set<Handler *> m_orphans;
    std::vector<std::function<void()>> m_afterDispatch;
    bool m_bound = false;
    bool m_quietTurn = false;   // this turn brought few completions: sends go to the kernel at once
    unsigned m_sendsQueued = 0; // sends queued since the last hand-over (see submitAndWait)
    quint64 m_handOvers = 0;    // how often the queue went to the kernel: what is queued goes with the next
};

} // namespace switchyard::net
