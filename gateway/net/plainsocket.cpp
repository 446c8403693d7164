#include "plainsocket.h"

#include <QEvent>
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

PlainSocket::PlainSocket(qintptr descriptor, QObject *parent) : QObject(parent), m_fd(int(descriptor))
{
    const int flags = ::fcntl(m_fd, F_GETFL);
    if (flags >= 0 && !(flags & O_NONBLOCK))
        ::fcntl(m_fd, F_SETFL, flags | O_NONBLOCK);
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
    if (m_readNotifier && m_readNotifier->isEnabled() != on)
        m_readNotifier->setEnabled(on);
}

bool PlainSocket::write(std::initializer_list<QByteArrayView> pieces)
{
    if (m_fd < 0)
        return false;
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

} // namespace switchyard::net
