#include "ioring.h"

#include <QtDebug>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <liburing.h>
#include <poll.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace switchyard::net {

namespace {
// The receive buffers every socket of the worker shares: one per receive completed and not yet handed
// to its socket, which is at most a turn's worth (a socket copies its bytes out and gives the buffer
// back at once). A receive that finds the pool empty fails with ENOBUFS and is queued again.
constexpr unsigned BufferCount = 64; // a power of two (the kernel's ring of buffers)
constexpr unsigned BufferBytes = unsigned(IoRing::ReceiveBytes);
constexpr int BufferGroup = 0;
constexpr unsigned SubmissionEntries = 256; // more queued in one turn are handed over early
constexpr unsigned CompletionEntries = 4096;
// A turn that brings this many completions or fewer is a quiet one (see send()).
constexpr unsigned QuietTurnCompletions = 1;

uint64_t tagOf(IoRing::Handler *handler, int operation)
{
    // Handlers are objects with a virtual table, so at least 8-aligned: the low three bits are free.
    return reinterpret_cast<uint64_t>(handler) | uint64_t(operation & 7);
}
} // namespace

bool IoRing::wanted()
{
    static const bool off = qEnvironmentVariable("SWITCHYARD_IO_URING") == u"0";
    return !off;
}

std::shared_ptr<IoRing> IoRing::create()
{
    std::shared_ptr<IoRing> r(new IoRing);
    r->m_ring = std::make_unique<io_uring>();
    io_uring_params params{};
    // Made disabled: the thread that enables it (bindToThisThread) is the only one that submits.
    params.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_TASKRUN_FLAG |
                   IORING_SETUP_CQSIZE | IORING_SETUP_R_DISABLED;
    params.cq_entries = CompletionEntries;
    if (io_uring_queue_init_params(SubmissionEntries, r->m_ring.get(), &params) < 0) {
        r->m_ring.reset();
        return nullptr; // kernel older than 6.1 or io_uring not allowed here
    }
    // One wait with a time limit must be one system call.
    if (!(params.features & IORING_FEAT_EXT_ARG)) {
        r->close();
        return nullptr;
    }
    void *ringMemory = nullptr;
    if (posix_memalign(&ringMemory, 4096, BufferCount * sizeof(io_uring_buf)) != 0) {
        r->close();
        return nullptr;
    }
    r->m_bufferRing = static_cast<io_uring_buf_ring *>(ringMemory);
    r->m_buffers = static_cast<char *>(std::malloc(size_t(BufferCount) * BufferBytes));
    io_uring_buf_ring_init(r->m_bufferRing);
    io_uring_buf_reg registration{};
    registration.ring_addr = reinterpret_cast<uint64_t>(r->m_bufferRing);
    registration.ring_entries = BufferCount;
    registration.bgid = BufferGroup;
    if (!r->m_buffers || io_uring_register_buf_ring(r->m_ring.get(), &registration, 0) < 0) {
        r->close();
        return nullptr;
    }
    const int mask = io_uring_buf_ring_mask(BufferCount);
    for (unsigned i = 0; i < BufferCount; ++i)
        io_uring_buf_ring_add(r->m_bufferRing, r->m_buffers + size_t(i) * BufferBytes, BufferBytes, i, mask, int(i));
    io_uring_buf_ring_advance(r->m_bufferRing, BufferCount);
    return r;
}

bool IoRing::bindToThisThread()
{
    if (m_bound)
        return true;
    // (liburing 2.3 declares io_uring_enable_rings but its library does not export it.)
    if (!m_ring || ::syscall(__NR_io_uring_register, m_ring->ring_fd, IORING_REGISTER_ENABLE_RINGS, nullptr, 0) < 0) {
        close();
        return false;
    }
    m_bound = true;
    return true;
}

IoRing::~IoRing()
{
    close();
}

void IoRing::submitPending()
{
    if (m_ring && io_uring_sq_ready(m_ring.get()) > 0)
        handOver();
}

void IoRing::handOver()
{
    io_uring_submit(m_ring.get());
    handedOver();
}

void IoRing::handedOver()
{
    // The queue is the kernel's now: no send waits in it to be counted by the wait, or to grow (regrow).
    m_sendsQueued = 0;
    ++m_handOvers;
}

std::optional<int> IoRing::completedUnseen(Handler *handler, int operation) const
{
    if (!m_ring)
        return std::nullopt;
    const uint64_t tag = tagOf(handler, operation);
    unsigned head;
    io_uring_cqe *cqe;
    io_uring_for_each_cqe(m_ring.get(), head, cqe)
    {
        if (cqe->user_data == tag)
            return cqe->res;
    }
    return std::nullopt;
}

void IoRing::close()
{
    // What was written last (a stream's closing event before the worker stops) goes to the kernel
    // before the ring is gone; whatever the kernel cannot take at once is then dropped with it.
    if (m_bound)
        submitPending();
    if (m_ring) {
        io_uring_queue_exit(m_ring.get()); // the kernel cancels whatever is still in flight
        m_ring.reset();
    }
    for (Handler *h : m_orphans)
        delete h;
    m_orphans.clear();
    std::free(m_bufferRing);
    m_bufferRing = nullptr;
    std::free(m_buffers);
    m_buffers = nullptr;
}

io_uring_sqe *IoRing::nextEntry(Handler *handler, int operation)
{
    if (!m_ring)
        return nullptr;
    io_uring_sqe *sqe = io_uring_get_sqe(m_ring.get());
    if (!sqe) {
        handOver(); // the queue is full this turn: hand it over now
        sqe = io_uring_get_sqe(m_ring.get());
    }
    if (sqe)
        io_uring_sqe_set_data64(sqe, handler ? tagOf(handler, operation) : 0);
    else
        qWarning("IoRing: the submission queue stays full; an operation is lost");
    return sqe;
}

void IoRing::receive(int fd, Handler *handler, int operation, bool onlyWaiting)
{
    if (io_uring_sqe *sqe = nextEntry(handler, operation)) {
        if (onlyWaiting)
            io_uring_prep_recv(sqe, fd, nullptr, BufferBytes, MSG_DONTWAIT);
        else
            io_uring_prep_recv_multishot(sqe, fd, nullptr, 0, 0); // each arrival takes a whole pooled buffer
        sqe->flags |= IOSQE_BUFFER_SELECT;
        sqe->buf_group = BufferGroup;
    }
}

IoRing::QueuedSend IoRing::send(int fd, const char *data, size_t size, Handler *handler, int operation)
{
    io_uring_sqe *sqe = nextEntry(handler, operation);
    if (!sqe)
        return {};
    io_uring_prep_send(sqe, fd, data, size, MSG_NOSIGNAL); // a client gone is an error result, not SIGPIPE
    ++m_sendsQueued;
    const QueuedSend queued{sqe, m_handOvers};
    // A quiet turn hands a send over at once: waiting for the turn's end would add the rest of the
    // turn's work (the request's record, its log line) to the request's latency, and there is nothing
    // to batch it with. Its completion, posted inside this call, is handled later in this turn.
    if (m_quietTurn)
        submitPending();
    return queued;
}

void IoRing::regrow(const QueuedSend &send, const char *data, size_t size)
{
    // The kernel reads a queued entry only when it is handed over: until then it is ours to change.
    Q_ASSERT(stillQueued(send));
    send.entry->addr = reinterpret_cast<uint64_t>(data);
    send.entry->len = unsigned(size);
}

void IoRing::pollIn(int fd, Handler *handler, int operation)
{
    if (io_uring_sqe *sqe = nextEntry(handler, operation))
        io_uring_prep_poll_add(sqe, fd, POLLIN);
}

void IoRing::cancel(Handler *handler, int operation)
{
    if (io_uring_sqe *sqe = nextEntry(nullptr, 0))
        io_uring_prep_cancel64(sqe, tagOf(handler, operation), 0);
}

bool IoRing::staysArmed(unsigned flags)
{
    return flags & IORING_CQE_F_MORE;
}

QByteArrayView IoRing::received(int result, unsigned flags) const
{
    if (result <= 0 || !(flags & IORING_CQE_F_BUFFER) || !m_buffers)
        return {};
    const unsigned id = flags >> IORING_CQE_BUFFER_SHIFT;
    return QByteArrayView(m_buffers + size_t(id) * BufferBytes, qsizetype(result));
}

void IoRing::recycle(unsigned flags)
{
    if (!(flags & IORING_CQE_F_BUFFER) || !m_bufferRing)
        return;
    const unsigned id = flags >> IORING_CQE_BUFFER_SHIFT;
    io_uring_buf_ring_add(m_bufferRing, m_buffers + size_t(id) * BufferBytes, BufferBytes, id,
                          io_uring_buf_ring_mask(BufferCount), 0);
    io_uring_buf_ring_advance(m_bufferRing, 1);
}

void IoRing::submitAndWait(int timeoutMs)
{
    if (!m_ring)
        return;
    io_uring *ring = m_ring.get();
    // Completions that already wait (or task work the kernel holds for us) make this a turn without
    // waiting.
    const bool kernelHolds = IO_URING_READ_ONCE(*ring->sq.kflags) & (IORING_SQ_CQ_OVERFLOW | IORING_SQ_TASKRUN);
    if (timeoutMs == 0 || io_uring_cq_ready(ring) > 0) {
        if (io_uring_sq_ready(ring) > 0 || kernelHolds)
            io_uring_submit_and_get_events(ring);
        handedOver();
        return;
    }
    // A send nearly always completes as it is handed over, inside this same call: its completion is no
    // reason to end the wait (it would cost a second call per turn just to learn the bytes went out).
    // So the wait is for one completion more than the sends handed over. A send the kernel could not
    // take at once (a client's window full) completes later and may then leave the wait one short: the
    // wait is cut to a millisecond in those turns so such a completion is never held for long.
    const unsigned sends = m_sendsQueued;
    handedOver();
    if (sends > 0 && (timeoutMs < 0 || timeoutMs > 1))
        timeoutMs = 1;
    io_uring_cqe *cqe = nullptr;
    __kernel_timespec limit{};
    limit.tv_sec = timeoutMs / 1000;
    limit.tv_nsec = (timeoutMs % 1000) * 1000000LL;
    const int rc = io_uring_submit_and_wait_timeout(ring, &cqe, 1 + sends, timeoutMs < 0 ? nullptr : &limit, nullptr);
    if (rc < 0 && rc != -ETIME && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY)
        qWarning("IoRing: waiting failed (%s)", strerror(-rc));
}

int IoRing::dispatch()
{
    int count = 0;
    io_uring_cqe *cqe = nullptr;
    if (!m_ring)
        return 0;
    m_quietTurn = io_uring_cq_ready(m_ring.get()) <= QuietTurnCompletions;
    // One at a time, and seen before its handler runs: the handler may queue more, or close the ring.
    while (m_ring && io_uring_peek_cqe(m_ring.get(), &cqe) == 0) {
        const uint64_t tag = cqe->user_data;
        const int result = cqe->res;
        const unsigned flags = cqe->flags;
        io_uring_cqe_seen(m_ring.get(), cqe);
        if (tag == 0) {
            recycle(flags); // a cancellation's own completion, or an operation whose owner is gone
            continue;
        }
        auto *handler = reinterpret_cast<Handler *>(tag & ~uint64_t(7));
        handler->ringCompleted(int(tag & 7), result, flags);
        ++count;
    }
    m_quietTurn = false;
    while (!m_afterDispatch.empty()) {
        std::vector<std::function<void()>> after;
        after.swap(m_afterDispatch);
        for (const auto &f : after)
            f();
    }
    return count;
}

} // namespace switchyard::net
