#include "plainsocket.h"

#include "net/epolldispatcher.h"
#include "net/ioring.h"

#include <QEvent>
#include <QPointer>
#include <QSocketNotifier>

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

namespace switchyard::net {

namespace {
bool wouldBlock(int error)
{
    return error == EAGAIN || error == EWOULDBLOCK;
}

// A notifier that calls its socket from its event directly instead of emitting activated().
class DirectNotifier final : public QSocketNotifier
{
public:
    DirectNotifier(int fd, Type type, PlainSocket *socket, void (PlainSocket::*handler)())
        : QSocketNotifier(fd, type, socket), m_socket(socket), m_handler(handler)
    {
    }

protected:
    bool event(QEvent *e) override
    {
        if (e->type() != QEvent::SockAct)
            return QSocketNotifier::event(e);
        (m_socket->*m_handler)(); // may abort the socket, which deletes this notifier later, not now
        return true;
    }

private:
    PlainSocket *m_socket;
    void (PlainSocket::*m_handler)();
};
} // namespace

// The socket's receive and send in its thread's io_uring. It outlives the socket while either is still
// in the kernel (the kernel reads a send's bytes from sendBuffer until it completes), then deletes
// itself; the ring deletes it if the ring closes first.
class PlainSocket::RingChannel final : public IoRing::Handler
{
public:
    static constexpr qsizetype GatherBytes = 64 * 1024;

    enum Operation { Receive = 0, Send = 1 };

    RingChannel(std::shared_ptr<IoRing> ring, int fd, PlainSocket *socket)
        : ring(std::move(ring)), fd(fd), socket(socket)
    {
    }

    void receive(bool onlyWaiting = false)
    {
        if (receiving)
            return;
        receiving = true;
        gathering = onlyWaiting;
        ring->receive(fd, this, Receive, onlyWaiting);
    }

    // Reading is off: the armed receive is ended, so the client's bytes wait in the kernel again.
    void stopReceiving()
    {
        if (receiving && !gathering)
            ring->cancel(this, Receive);
    }

    void send()
    {
        sending = true;
        queued = ring->send(fd, sendBuffer.constData() + sent, size_t(sendBuffer.size() - sent), this, Send);
    }

    // More output while this turn's send is still queued: it takes it too (see IoRing::regrow).
    bool sendAlsoInQueuedSend(std::initializer_list<QByteArrayView> pieces)
    {
        if (!sending || !ring->stillQueued(queued))
            return false;
        for (QByteArrayView p : pieces)
            sendBuffer.append(p);
        ring->regrow(queued, sendBuffer.constData() + sent, size_t(sendBuffer.size() - sent));
        return true;
    }

    qint64 unsent() const { return sendBuffer.size() - sent; }

    // The socket closes: what is in flight is cancelled, and this goes when the last of it completes.
    void detach()
    {
        socket = nullptr;
        if (ring->isClosed() || (!receiving && !sending)) {
            delete this;
            return;
        }
        if (receiving)
            ring->cancel(this, Receive);
        if (sending)
            ring->cancel(this, Send);
        ring->adoptOrphan(this);
    }

    void ringCompleted(int operation, int result, unsigned flags) override
    {
        if (operation == Receive) {
            const bool armed = IoRing::staysArmed(flags);
            if (!armed)
                receiving = false;
            if (!socket) {
                ring->recycle(flags);
                deleteWhenIdle();
                return;
            }
            PlainSocket *s = socket;
            if (result > 0) {
                s->m_arrived.append(ring->received(result, flags));
                ring->recycle(flags);
                // A full buffer: more is most likely waiting. Take it first, up to a bound, so the reader
                // sees what the client sent together at once, as read(2) of all that waits would give it
                // (a small upload then arrives whole, and is checked whole before a node sees any of it).
                if (result == IoRing::ReceiveBytes && s->m_reading && s->m_arrived.size() < GatherBytes) {
                    if (!armed) {
                        receive(true);
                        return;
                    }
                    // Still armed: the rest of the burst is in this turn's completions already.
                    if (!s->m_gatherQueued) {
                        s->m_gatherQueued = true;
                        ring->afterDispatch([p = QPointer<PlainSocket>(s)] {
                            if (p) {
                                p->m_gatherQueued = false;
                                p->announceNow();
                            }
                        });
                    }
                    return;
                }
                if (s->m_gatherQueued)
                    return; // the burst is announced once, when the turn's completions are done
                s->ringReceived(); // may close the socket and so delete this: nothing after it
            } else if (result == -EAGAIN && gathering) {
                s->ringReceived(); // nothing more waited: what came is announced
            } else if (result == -ECANCELED) {
                s->keepReceiving(); // ended as reading went off; armed again if it is back on since
            } else if (result == -ENOBUFS || result == -EINTR || result == -EAGAIN) {
                ring->recycle(flags);
                s->keepReceiving(); // the pool was empty this turn: buffers come back as it is read
            } else {
                s->m_ended = true; // 0: the client closed its side; < 0: reset or another failure
                s->ringReceived();
            }
            return;
        }
        sending = false;
        if (!socket) {
            deleteWhenIdle();
            return;
        }
        if (result == -EINTR || result == -EAGAIN || result == 0) {
            send();
            return;
        }
        if (result < 0) {
            socket->ringSent(true);
            return;
        }
        sent += result;
        if (sent < sendBuffer.size()) {
            send(); // the kernel took part of it: the rest as it takes more
            return;
        }
        sendBuffer.clear();
        sent = 0;
        socket->ringSent(false);
    }

    std::shared_ptr<IoRing> ring;
    int fd;
    PlainSocket *socket; // null once the socket has closed
    bool receiving = false;
    bool gathering = false; // the receive in flight only takes what already waits
    bool sending = false;
    QByteArray sendBuffer; // in the kernel's hands while sending
    qsizetype sent = 0;
    IoRing::QueuedSend queued; // the send in flight, while it may still be queued

private:
    ~RingChannel() override = default;
    friend class IoRing; // deletes orphans when it closes
    void deleteWhenIdle()
    {
        if (receiving || sending)
            return;
        ring->forgetOrphan(this);
        delete this;
    }
};

PlainSocket::PlainSocket(qintptr descriptor, QObject *parent) : QObject(parent), m_fd(int(descriptor))
{
    const int flags = ::fcntl(m_fd, F_GETFL);
    if (flags >= 0 && !(flags & O_NONBLOCK))
        ::fcntl(m_fd, F_SETFL, flags | O_NONBLOCK);
    if (std::shared_ptr<IoRing> ring = EpollDispatcher::ringOfCurrentThread()) {
        m_channel = new RingChannel(std::move(ring), m_fd, this);
        m_channel->receive();
        return;
    }
    m_readNotifier = new DirectNotifier(m_fd, QSocketNotifier::Read, this, &PlainSocket::onReadable);
    m_writeNotifier = new DirectNotifier(m_fd, QSocketNotifier::Write, this, &PlainSocket::onWritable);
    m_writeNotifier->setEnabled(false);
}

void PlainSocket::onReadable()
{
    if (m_reader)
        m_reader->plainSocketReadable();
    else
        emit readyRead();
}

PlainSocket::~PlainSocket()
{
    abort();
}

QHostAddress PlainSocket::peerAddress() const
{
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    if (m_fd < 0 || ::getpeername(m_fd, reinterpret_cast<sockaddr *>(&address), &length) != 0)
        return {};
    return QHostAddress(reinterpret_cast<const sockaddr *>(&address));
}

void PlainSocket::setNoDelay()
{
    const int on = 1;
    if (m_fd >= 0)
        ::setsockopt(m_fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
}

ReadOutcome PlainSocket::read(QByteArray &in, qint64 room)
{
    if (m_channel)
        return readArrived(in, room);
    ReadOutcome out;
    if (m_fd < 0) {
        out.closed = true;
        return out;
    }
    // One chunk on the stack, then appended: the buffer holds exactly what came, and a waiting
    // connection keeps no spare capacity.
    char chunk[16 * 1024];
    while (room > 0) {
        const size_t want = size_t(std::min<qint64>(sizeof chunk, room));
        const ssize_t n = ::read(m_fd, chunk, want);
        if (n > 0) {
            in.append(chunk, n);
            out.bytes += n;
            room -= n;
            if (size_t(n) < want)
                break; // drained: another read would only say EAGAIN
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && wouldBlock(errno))
            break;
        out.closed = true; // 0: the client closed its side; < 0: reset or another failure
        setReading(false);
        break;
    }
    return out;
}

void PlainSocket::setReading(bool on)
{
    if (m_channel) {
        if (m_reading == on)
            return;
        m_reading = on;
        if (on)
            keepReceiving();
        else
            m_channel->stopReceiving();
        return;
    }
    if (m_readNotifier && m_readNotifier->isEnabled() != on)
        m_readNotifier->setEnabled(on);
}

qint64 PlainSocket::bytesToWrite() const
{
    return m_pending.size() - m_pendingSent + (m_channel ? m_channel->unsent() : 0);
}

bool PlainSocket::write(std::initializer_list<QByteArrayView> pieces)
{
    if (m_fd < 0)
        return false;
    if (m_channel)
        return writeThroughRing(pieces);
    if (bytesToWrite() > 0) {
        // Behind output that waits already: in order, when the client has read that.
        for (QByteArrayView p : pieces)
            m_pending.append(p);
        return true;
    }
    iovec vectors[8];
    int count = 0;
    qint64 total = 0;
    for (QByteArrayView p : pieces) {
        if (p.isEmpty())
            continue;
        Q_ASSERT(count < 8);
        vectors[count].iov_base = const_cast<char *>(p.data());
        vectors[count].iov_len = size_t(p.size());
        total += p.size();
        ++count;
    }
    if (total == 0)
        return true;
    msghdr message{};
    message.msg_iov = vectors;
    message.msg_iovlen = size_t(count);
    ssize_t sent;
    do {
        sent = ::sendmsg(m_fd, &message, MSG_NOSIGNAL); // a client gone is an error result, not SIGPIPE
    } while (sent < 0 && errno == EINTR);
    if (sent < 0) {
        if (!wouldBlock(errno))
            return false;
        sent = 0;
    }
    if (sent == total)
        return true;
    // The kernel's send buffer is full (a client reading slower than we write): keep the rest.
    m_pending.clear();
    m_pendingSent = 0;
    qint64 skip = sent;
    for (QByteArrayView p : pieces) {
        if (skip >= p.size()) {
            skip -= p.size();
            continue;
        }
        m_pending.append(p.sliced(skip));
        skip = 0;
    }
    m_writeNotifier->setEnabled(true);
    return true;
}

void PlainSocket::onWritable()
{
    if (m_fd < 0)
        return;
    while (bytesToWrite() > 0) {
        const ssize_t sent = ::send(m_fd, m_pending.constData() + m_pendingSent, size_t(bytesToWrite()), MSG_NOSIGNAL);
        if (sent > 0) {
            m_pendingSent += sent;
            continue;
        }
        if (sent < 0 && errno == EINTR)
            continue;
        if (sent < 0 && wouldBlock(errno))
            break;
        m_writeNotifier->setEnabled(false);
        emit failed();
        return;
    }
    if (bytesToWrite() == 0) {
        m_pending.clear();
        m_pendingSent = 0;
        m_writeNotifier->setEnabled(false);
    }
    emit bytesWritten();
}

void PlainSocket::abort()
{
    if (m_fd < 0)
        return;
    if (m_channel) {
        // What is queued names the descriptor by number: it reaches the kernel before the number is
        // free for another connection (a write just before the close is sent, as with send(2)). Then
        // what is still in flight is cancelled.
        if (!m_channel->ring->isClosed()) {
            // Output that waits behind a send the kernel has in fact finished (its completion is only
            // not handled yet) is in order to go now: as with send(2), what was written before the
            // close reaches the client, e.g. a stream's closing error event when the gateway stops.
            if (!m_pending.isEmpty() && m_channel->sending
                && m_channel->ring->completedUnseen(m_channel, RingChannel::Send) == int(m_channel->unsent()))
                ::send(m_fd, m_pending.constData(), size_t(m_pending.size()), MSG_NOSIGNAL | MSG_DONTWAIT);
            m_channel->ring->submitPending();
        }
        m_channel->detach();
        m_channel = nullptr;
        ::close(m_fd);
        m_fd = -1;
        m_pending.clear();
        m_arrived.clear();
        return;
    }
    // Notifiers are switched off before their descriptor closes (one left on a closed descriptor would
    // misfire), and deleted later: abort() may run inside one's own activated() signal.
    for (QSocketNotifier *n : {m_readNotifier, m_writeNotifier}) {
        n->setEnabled(false);
        n->deleteLater();
    }
    m_readNotifier = nullptr;
    m_writeNotifier = nullptr;
    ::close(m_fd);
    m_fd = -1;
    m_pending.clear();
    m_pendingSent = 0;
}

// --- through the ring ---------------------------------------------------------------------------------

ReadOutcome PlainSocket::readArrived(QByteArray &in, qint64 room)
{
    ReadOutcome out;
    if (m_fd < 0) {
        out.closed = true;
        return out;
    }
    if (m_arrived.isEmpty()) {
        // As read(2) would: the end is told once all before it was read.
        if (m_ended) {
            out.closed = true;
            m_reading = false;
        }
        return out;
    }
    const qsizetype n = qsizetype(std::min<qint64>(room, m_arrived.size()));
    if (n <= 0)
        return out;
    if (n == m_arrived.size()) {
        if (in.isEmpty())
            in.swap(m_arrived); // no copy: the bytes change hands
        else
            in.append(m_arrived);
        m_arrived.clear();
    } else {
        in.append(m_arrived.constData(), n);
        m_arrived.remove(0, n);
    }
    out.bytes = n;
    if (m_arrived.isEmpty() && m_reading && !m_ended)
        m_channel->receive(); // all read: the next bytes may come (nothing if a receive is queued)
    return out;
}

void PlainSocket::ringReceived()
{
    if (!m_reading)
        return; // it waits in m_arrived until reading is on again
    onReadable();
    keepReceiving(); // nothing when the reader closed the socket
}

void PlainSocket::keepReceiving()
{
    if (!m_channel || !m_reading)
        return;
    if (!m_arrived.isEmpty() || m_ended) {
        announceArrivedLater(); // level-triggered: what the reader left is news again next turn
        return;
    }
    m_channel->receive();
}

void PlainSocket::announceNow()
{
    if (m_fd < 0 || !m_reading)
        return;
    if (!m_arrived.isEmpty() || m_ended)
        ringReceived();
    else
        keepReceiving();
}

void PlainSocket::announceArrivedLater()
{
    if (m_announceQueued)
        return;
    m_announceQueued = true;
    QMetaObject::invokeMethod(this, [this] {
        m_announceQueued = false;
        announceNow(); // (read meanwhile, outside the reader: it receives again)
    }, Qt::QueuedConnection);
}

bool PlainSocket::writeThroughRing(std::initializer_list<QByteArrayView> pieces)
{
    if (m_sendFailed || m_channel->ring->isClosed())
        return false;
    qsizetype total = 0;
    for (QByteArrayView p : pieces)
        total += p.size();
    if (total == 0)
        return true;
    // Copied: the caller's bytes may change once we return, and the kernel reads them later.
    if (m_pending.isEmpty() && m_channel->sendAlsoInQueuedSend(pieces))
        return true;
    m_pending.reserve(m_pending.size() + total);
    for (QByteArrayView p : pieces)
        m_pending.append(p);
    if (!m_channel->sending)
        handPendingToRing();
    return true;
}

void PlainSocket::handPendingToRing()
{
    // The channel's buffer is empty here (its last send completed); what was written since goes as one.
    m_channel->sendBuffer.swap(m_pending);
    m_channel->sent = 0;
    m_channel->send();
}

void PlainSocket::ringSent(bool failedNow)
{
    if (failedNow) {
        m_sendFailed = true;
        emit failed();
        return;
    }
    if (!m_pending.isEmpty())
        handPendingToRing(); // what was written meanwhile, in order
    emit bytesWritten();
}

} // namespace switchyard::net
