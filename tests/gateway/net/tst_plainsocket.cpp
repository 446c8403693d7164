// net::PlainSocket against real loopback TCP connections: what a client sends arrives, a client's close
// is read as such, a response's pieces leave in one piece, a slow reader gets every byte in order as it
// drains, and writing to a client that has gone is an error result (not a SIGPIPE that kills the gateway).
//
// The main thread runs on the workers' event loop (net::EpollDispatcher), so by default the socket goes
// through the loop's io_uring where the kernel allows it; CTest runs the suite twice more, with
// SWITCHYARD_IO_URING=0 (system calls on the epoll loop) and with SWITCHYARD_EVENT_DISPATCHER=qt (Qt's
// own loop): the three ways a gateway's client connection can be served.

#include "net/epolldispatcher.h"
#include "net/plainsocket.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTest>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace switchyard;

namespace {

// Hands over accepted descriptors as the gateway's listener does, without wrapping them.
class DescriptorServer final : public QTcpServer
{
public:
    QList<qintptr> accepted;

protected:
    void incomingConnection(qintptr descriptor) override { accepted.append(descriptor); }
};

// A client on a raw non-blocking descriptor, so the test decides when it reads.
struct RawClient
{
    int fd = -1;
    ~RawClient()
    {
        if (fd >= 0)
            ::close(fd);
    }
    bool connectTo(quint16 port)
    {
        fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(port);
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::connect(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0)
            return false;
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
        return true;
    }
    void send(const QByteArray &data) { QCOMPARE_GE(::send(fd, data.constData(), data.size(), 0), 0); }
    // Everything the kernel holds for the client now.
    QByteArray readSome()
    {
        QByteArray out;
        char buf[65536];
        ssize_t n;
        while ((n = ::read(fd, buf, sizeof buf)) > 0)
            out.append(buf, n);
        return out;
    }
    // Waits for `want` bytes without turning this thread's event loop (so nothing more is sent meanwhile).
    QByteArray readWithoutTheLoop(qsizetype want, int ms = 5000)
    {
        QByteArray out;
        QElapsedTimer t;
        t.start();
        while (out.size() < want && t.elapsed() < ms) {
            pollfd p{fd, POLLIN, 0};
            if (::poll(&p, 1, int(ms - t.elapsed())) > 0)
                out += readSome();
        }
        return out;
    }
    void resetAndClose()
    {
        const linger l{1, 0}; // close with a reset, as a client killed mid-answer
        ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
        ::close(fd);
        fd = -1;
    }
};

} // namespace

class TestPlainSocket final : public QObject
{
    Q_OBJECT

private:
    DescriptorServer m_server;
    RawClient m_client;
    std::unique_ptr<net::PlainSocket> m_socket;

private slots:
    void initTestCase()
    {
        // Default SIGPIPE: a write that raised it would end this test, as it would end the gateway.
        std::signal(SIGPIPE, SIG_DFL);
        QVERIFY(m_server.listen(QHostAddress::LocalHost, 0));
    }

    void init()
    {
        m_client = {};
        QVERIFY(m_client.connectTo(m_server.serverPort()));
        QTRY_COMPARE(m_server.accepted.size(), 1);
        m_socket = std::make_unique<net::PlainSocket>(m_server.accepted.takeFirst());
        QVERIFY(m_socket->peerAddress().isLoopback());
    }

    void cleanup() { m_socket.reset(); }

    void readsWhatTheClientSends()
    {
        QSignalSpy ready(m_socket.get(), &net::PlainSocket::readyRead);
        m_client.send("POST /v1/chat/completions HTTP/1.1\r\n");
        QVERIFY(ready.wait(5000));
        QByteArray in("already here:");
        const net::ReadOutcome r = m_socket->read(in, 1 << 20);
        QCOMPARE(in, QByteArray("already here:POST /v1/chat/completions HTTP/1.1\r\n"));
        QCOMPARE(r.bytes, 36);
        QVERIFY(!r.closed);
    }

    void readsNoMoreThanThereIsRoomFor()
    {
        QSignalSpy ready(m_socket.get(), &net::PlainSocket::readyRead);
        m_client.send(QByteArray(1000, 'x'));
        QVERIFY(ready.wait(5000));
        QByteArray in;
        QCOMPARE(m_socket->read(in, 300).bytes, 300);
        QCOMPARE(m_socket->read(in, 1 << 20).bytes, 700); // the rest waited in the kernel
    }

    void whatTheClientSentTogetherIsReadTogether()
    {
        // 48 KiB in one write (a small upload): the first announcement offers all of it, however the
        // socket is served (through the ring, receives of 16 KiB are gathered first).
        QSignalSpy ready(m_socket.get(), &net::PlainSocket::readyRead);
        m_client.send(QByteArray(48 * 1024, 'u'));
        QVERIFY(ready.wait(5000));
        QByteArray in;
        QCOMPARE(m_socket->read(in, 1 << 20).bytes, 48 * 1024);
    }

    void aClientsCloseIsReadAsClosed()
    {
        QSignalSpy ready(m_socket.get(), &net::PlainSocket::readyRead);
        m_client.send("last words");
        ::shutdown(m_client.fd, SHUT_WR);
        QByteArray in;
        bool closed = false;
        QTRY_VERIFY_WITH_TIMEOUT((closed = m_socket->read(in, 1 << 20).closed), 5000);
        QCOMPARE(in, QByteArray("last words"));
        QVERIFY(closed);
    }

    void theWayItIsServedIsTheExpectedOne()
    {
        const bool ring = net::EpollDispatcher::ringOfCurrentThread() != nullptr;
        if (qEnvironmentVariable("SWITCHYARD_IO_URING") == u"0" || !net::EpollDispatcher::wanted())
            QVERIFY(!ring);
        else if (!ring)
            QSKIP("this kernel refuses io_uring: the epoll loop serves, as the second run tests");
        qInfo("served %s", ring ? "through io_uring" : "with system calls");
    }

    void piecesLeaveTogether()
    {
        QVERIFY(m_socket->write({"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n", QByteArrayView(), "ok"}));
        QTRY_COMPARE(m_socket->bytesToWrite(), 0); // at once with system calls; in the next turn via the ring
        QByteArray got;
        QTRY_COMPARE_WITH_TIMEOUT((got += m_client.readSome()), QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"), 5000);
    }

    void writesOfOneTurnLeaveInThatTurn()
    {
        // A stream's first event comes with the node's response head, so the gateway writes the head and
        // then the event in one turn of the loop, often for several streams at once. Both must reach each
        // client when that turn hands its output to the kernel. Through the ring the event used to wait
        // for the head's completion, and a busy turn's wait could hold that back for a millisecond.
        RawClient other;
        QVERIFY(other.connectTo(m_server.serverPort()));
        QTRY_COMPARE(m_server.accepted.size(), 1);
        net::PlainSocket second(m_server.accepted.takeFirst());
        const QByteArray head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n";
        for (net::PlainSocket *s : {m_socket.get(), &second}) {
            QVERIFY(s->write({head}));
            QVERIFY(s->write({"data: first\n\n"}));
        }
        QCoreApplication::processEvents(); // one turn, not waiting
        const QByteArray both = head + "data: first\n\n";
        QCOMPARE(m_client.readWithoutTheLoop(both.size()), both);
        QCOMPARE(other.readWithoutTheLoop(both.size()), both);
        QTRY_COMPARE(m_socket->bytesToWrite() + second.bytesToWrite(), 0);
    }

    void aSlowReaderGetsEveryByteInOrder()
    {
        // Far more than loopback's socket buffers hold: most of it has to wait with us.
        QByteArray payload(16 * 1024 * 1024, Qt::Uninitialized);
        for (qsizetype i = 0; i < payload.size(); ++i)
            payload[i] = char('a' + (i * 7 + i / 4096) % 26);
        QSignalSpy written(m_socket.get(), &net::PlainSocket::bytesWritten);
        QVERIFY(m_socket->write({"head:", payload}));
        QVERIFY(m_socket->bytesToWrite() > 0);
        QVERIFY(m_socket->write({":tail"})); // queued behind, in order
        QByteArray got;
        got.reserve(payload.size() + 10);
        QTRY_VERIFY_WITH_TIMEOUT(((got += m_client.readSome()), got.size() == payload.size() + 10), 30000);
        QCOMPARE(got.first(5), QByteArray("head:"));
        QVERIFY(got.sliced(5, payload.size()) == payload);
        QCOMPARE(got.last(5), QByteArray(":tail"));
        QTRY_COMPARE(m_socket->bytesToWrite(), 0);
        QVERIFY(written.size() > 0);
    }

    void writingToAGoneClientFailsWithoutSigpipe()
    {
        m_client.resetAndClose();
        // The reset reaches us at once on loopback; the first write after it fails.
        QTRY_VERIFY_WITH_TIMEOUT(!m_socket->write({"data: {}\n\n"}), 5000);
        QByteArray in;
        QVERIFY(m_socket->read(in, 1024).closed);
    }

    void readingSwitchedOffHoldsInputUntilSwitchedOn()
    {
        QSignalSpy ready(m_socket.get(), &net::PlainSocket::readyRead);
        m_socket->setReading(false);
        m_client.send("held");
        // A second connection's input arriving shows the loop has turned while this one's waited.
        RawClient other;
        QVERIFY(other.connectTo(m_server.serverPort()));
        QTRY_COMPARE(m_server.accepted.size(), 1);
        net::PlainSocket second(m_server.accepted.takeFirst());
        QSignalSpy secondReady(&second, &net::PlainSocket::readyRead);
        other.send("go");
        QVERIFY(secondReady.wait(5000));
        QCOMPARE(ready.size(), 0);
        m_socket->setReading(true);
        QVERIFY(ready.wait(5000));
        QByteArray in;
        m_socket->read(in, 1 << 20);
        QCOMPARE(in, QByteArray("held"));
    }

    void manyConnectionsSendingAtOnceLoseNothing()
    {
        // More connections than the ring's pool has receive buffers (64), all with input at once: some
        // receives find the pool empty and must be queued again, and every byte still arrives in order.
        constexpr int Clients = 150;
        constexpr int Bytes = 40 * 1024;
        std::vector<RawClient> clients(Clients);
        std::vector<std::unique_ptr<net::PlainSocket>> sockets;
        std::vector<QByteArray> got(Clients);
        for (int i = 0; i < Clients; ++i) {
            QVERIFY(clients[i].connectTo(m_server.serverPort()));
            QTRY_COMPARE(m_server.accepted.size(), 1);
            sockets.push_back(std::make_unique<net::PlainSocket>(m_server.accepted.takeFirst()));
            connect(sockets.back().get(), &net::PlainSocket::readyRead, this, [&, i] { sockets[i]->read(got[i], 1 << 20); });
        }
        for (int i = 0; i < Clients; ++i) {
            QByteArray data(Bytes, Qt::Uninitialized);
            for (int j = 0; j < Bytes; ++j)
                data[j] = char('a' + (i + j / 1000) % 26);
            clients[i].send(data);
        }
        const auto complete = [&] {
            return std::all_of(got.begin(), got.end(), [](const QByteArray &g) { return g.size() >= Bytes; });
        };
        QTRY_VERIFY_WITH_TIMEOUT(complete(), 20000);
        for (int i = 0; i < Clients; ++i) {
            QCOMPARE(got[i].size(), Bytes);
            for (int j = 0; j < Bytes; j += 997)
                QCOMPARE(got[i][j], char('a' + (i + j / 1000) % 26));
        }
    }

    void closingWithOutputInFlightLeavesNothingBehind()
    {
        // The client does not read: most of this waits with us (or in the kernel's hands, through the
        // ring) when the socket is destroyed. The client then sees the connection end, and nothing
        // leaks (the sanitizer runs check that).
        QVERIFY(m_socket->write({QByteArray(8 * 1024 * 1024, 'z')}));
        QVERIFY(m_socket->bytesToWrite() > 0);
        m_socket.reset();
        const auto ended = [this] { // reads what arrived; true once the end is read
            char buf[65536];
            for (;;) {
                const ssize_t n = ::read(m_client.fd, buf, sizeof buf);
                if (n == 0 || (n < 0 && errno != EAGAIN))
                    return true;
                if (n < 0)
                    return false;
            }
        };
        QTRY_VERIFY_WITH_TIMEOUT(ended(), 10000);
    }

    void abortClosesTheConnection()
    {
        m_socket->abort();
        QVERIFY(!m_socket->isOpen());
        QVERIFY(!m_socket->write({"x"}));
        char c;
        QTRY_COMPARE_WITH_TIMEOUT(::read(m_client.fd, &c, 1), ssize_t(0), 5000); // the client sees the close
    }
};

int main(int argc, char **argv)
{
    // Before the application exists: the main thread then runs on the gateway workers' loop.
    if (net::EpollDispatcher::wanted())
        QCoreApplication::setEventDispatcher(new net::EpollDispatcher());
    QCoreApplication app(argc, argv);
    TestPlainSocket test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}
#include "tst_plainsocket.moc"
