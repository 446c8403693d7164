#pragma once

// A client's plain-HTTP connection, read with read(2) and written with one sendmsg(2) per response
// piece, straight between the kernel and our buffers.
//
// Why not QTcpSocket here: before every read it asks the kernel how much is waiting (an ioctl), reads
// into its own ring buffer and copies out again on readAll(), and a socket taken with
// setSocketDescriptor() (how an accepted connection arrives) stays buffered whatever the open mode.
// That machinery was a large share of a proxied request's cost (docs/PERFORMANCE.md). Two
// QSocketNotifiers on the worker's event loop say when to read and when the kernel takes more output;
// nothing else runs per request. HTTPS connections keep QSslSocket, whose TLS engine needs its buffer.
//
// Where the worker's loop has an io_uring (net/ioring.h), the same calls go through the ring instead:
// a receive stays queued while reading is on and its bytes wait here for read(); write() copies the
// pieces and queues one send, so what it hands over is counted in bytesToWrite() until the kernel has
// taken it, then bytesWritten() follows. No system call is made per read or write; the loop's one wait
// per turn hands everything over.
//
// Reading is level-triggered: while there is input and reading is on, readyRead() keeps coming. The
// owner turns reading off (setReading) when it will not take more, and the kernel then pushes back on
// the client.

#include "net/socketreader.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QHostAddress>
#include <QObject>

#include <initializer_list>
#include <memory>

class QSocketNotifier;

namespace switchyard::net {

class PlainSocket final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PlainSocket)

public:
    // Takes a connected, accepted descriptor; closes it when aborted or destroyed.
    explicit PlainSocket(qintptr descriptor, QObject *parent = nullptr);
    ~PlainSocket() override;

    bool isOpen() const { return m_fd >= 0; }
    QHostAddress peerAddress() const;
    void setNoDelay(); // TCP_NODELAY: a stream's events go out as they come

    // Appends what the kernel has to `in`, at most `room` bytes. `closed` when the client closed its
    // side or the connection failed: nothing more will come (reading is then off).
    ReadOutcome read(QByteArray &in, qint64 room);
    void setReading(bool on);

    // Hands the pieces to the kernel in one system call. What it does not take now waits here (with
    // anything written after it) and goes out as the client reads, each step announced by
    // bytesWritten(). False when the client is gone.
    bool write(std::initializer_list<QByteArrayView> pieces);
    qint64 bytesToWrite() const;

    // Closes now; what waits to be written is dropped. Emits nothing.
    void abort();

    // Who reads the socket, called straight from the event loop whenever input waits and reading is on.
    // Set, it replaces readyRead(): the notifier's signal and then ours cost more per request than the
    // read itself (docs/PERFORMANCE.md, "Per core"). The reader may abort the socket from the call.
    class Reader
    {
    public:
        virtual void plainSocketReadable() = 0;

    protected:
        ~Reader() = default;
    };
    void setReader(Reader *reader) { m_reader = reader; }

signals:
    void readyRead();
    void bytesWritten();
    // Writing what waited failed: the client reset or closed the connection.
    void failed();

private:
    class RingChannel; // the socket's side of its thread's io_uring (plainsocket.cpp)
    friend class RingChannel;

    void onReadable();
    void onWritable();
    ReadOutcome readArrived(QByteArray &in, qint64 room);
    bool writeThroughRing(std::initializer_list<QByteArrayView> pieces);
    void handPendingToRing();
    void ringReceived();
    void ringSent(bool failedNow);
    void keepReceiving();
    void announceArrivedLater();
    void announceNow();

    int m_fd = -1;
    Reader *m_reader = nullptr;
    QSocketNotifier *m_readNotifier = nullptr;
    QSocketNotifier *m_writeNotifier = nullptr;
    QByteArray m_pending;     // output the kernel has not taken yet (through the ring: not handed over yet)
    qsizetype m_pendingSent = 0; // how much of m_pending has gone out since
    // Through the ring only:
    RingChannel *m_channel = nullptr;
    QByteArray m_arrived;       // received, not read yet
    bool m_ended = false;       // the client closed its side, or the connection failed
    bool m_sendFailed = false;
    bool m_reading = true;
    bool m_announceQueued = false;
    bool m_gatherQueued = false; // a burst's completions are being gathered this turn
};

} // namespace switchyard::net
