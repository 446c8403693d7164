#pragma once

// Reading a proxied connection's socket with as few system calls as the kernel allows.
//
// The plain TCP connection to a node is opened Unbuffered: Qt then reads nothing itself. A buffered
// QTcpSocket asks the kernel how much is waiting (an ioctl) before every read(2) into its own ring
// buffer, and readAll() copies the bytes out again; unbuffered, one read(2) lands them in our buffer.
// That was one of the 7.2 system calls of a proxied request (docs/PERFORMANCE.md). A QSslSocket stays
// buffered (its TLS engine reads for itself) and is read with readAll() as before. A client's socket
// stays buffered too: Qt 6.4 makes a socket truly unbuffered only in connectToHost(), and
// setSocketDescriptor() (how an accepted connection is taken) keeps its own buffer whatever the mode.
//
// An unbuffered QAbstractSocket reports the peer's close, or a read error, only as the result of the
// read: it emits neither disconnected() nor errorOccurred(). The caller treats `closed` as its
// disconnect.

#include <QAbstractSocket>
#include <QByteArray>

namespace switchyard::net {

// What a read found: bytes appended, and whether the peer has closed (or the socket failed) after them.
struct ReadOutcome
{
    qint64 bytes = 0;
    bool closed = false;
};

// True for sockets opened in unbuffered mode (connectToHost with QIODevice::Unbuffered).
inline bool isUnbuffered(const QAbstractSocket *socket)
{
    return socket->openMode().testFlag(QIODevice::Unbuffered);
}

// Appends what the socket has to `in`, at most `room` bytes for an unbuffered socket (a buffered one
// bounds itself with setReadBufferSize). Reads again only while a read filled its whole chunk, so the
// usual case is one read(2).
ReadOutcome readAvailable(QAbstractSocket *socket, QByteArray &in, qint64 room);

} // namespace switchyard::net
