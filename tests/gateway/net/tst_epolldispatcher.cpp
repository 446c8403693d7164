// A worker's event loop on epoll (net/epolldispatcher): it replaces Qt's dispatcher under every socket,
// timer and queued call of the gateway's workers, so here it runs this whole test's main thread, and
// everything QTest waits on goes through it. What the gateway relies on: sockets announce input and
// hang-ups while they have them, and not while switched off; a descriptor closed and reused within one
// turn is watched again; timers fire on time, repeat, stop, and survive their object's deletion and a
// move to another thread; calls posted from other threads wake the loop; Qt Network's own sockets work
// on a thread that has it.

#include "net/epolldispatcher.h"

#include <QAtomicInt>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QSocketNotifier>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <QThread>
#include <QTimer>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <sys/socket.h>
#include <unistd.h>

using switchyard::net::EpollDispatcher;

namespace {

// Both ends of a local stream socket, closed when it goes.
struct SocketPair
{
    int fd[2] = {-1, -1};
    SocketPair() { QVERIFY(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, fd) == 0); }
    ~SocketPair() { closeBoth(); }
    void closeBoth()
    {
        for (int &f : fd) {
            if (f >= 0)
                ::close(f);
            f = -1;
        }
    }
    void send(QByteArrayView bytes) const { QCOMPARE(::write(fd[1], bytes.data(), bytes.size()), bytes.size()); }
    QByteArray drain() const
    {
        QByteArray all;
        char buf[4096];
        for (ssize_t n; (n = ::read(fd[0], buf, sizeof buf)) > 0;)
            all.append(buf, n);
        return all;
    }
};

class TimerCounter final : public QObject
{
public:
    QAtomicInt fired;
    int killInside = 0; // the timer id to stop from its own event
protected:
    void timerEvent(QTimerEvent *event) override
    {
        fired.fetchAndAddRelaxed(1);
        if (event->timerId() == killInside)
            killTimer(killInside);
    }
};

} // namespace

class TestEpollDispatcher final : public QObject
{
    Q_OBJECT

private slots:
    void thisThreadRunsOnIt()
    {
        QVERIFY(qobject_cast<EpollDispatcher *>(QAbstractEventDispatcher::instance()));
    }

    void aSocketAnnouncesInputWhileItHasSomeAndNotWhenSwitchedOff()
    {
        SocketPair pair;
        QSocketNotifier notifier(pair.fd[0], QSocketNotifier::Read);
        int announced = 0;
        QByteArray got;
        connect(&notifier, &QSocketNotifier::activated, this, [&] {
            ++announced;
            got += pair.drain();
        });
        pair.send("first");
        QTRY_COMPARE(got, QByteArray("first"));
        const int afterFirst = announced;

        // Level-triggered: input left unread keeps announcing itself.
        notifier.setEnabled(false);
        pair.send("second");
        QTest::qWait(50); // a switched-off notifier stays quiet whatever arrives
        QCOMPARE(announced, afterFirst);
        notifier.setEnabled(true);
        QTRY_COMPARE(got, QByteArray("firstsecond"));

        // A hang-up is news for the reader too.
        ::close(pair.fd[1]);
        pair.fd[1] = -1;
        const int beforeHangUp = announced;
        QTRY_VERIFY(announced > beforeHangUp);
    }

    void switchingOffAndOnInOneTurnLosesNothing()
    {
        // How an unbuffered QTcpSocket reads: its notifier goes off and on again inside the handler.
        SocketPair pair;
        QSocketNotifier notifier(pair.fd[0], QSocketNotifier::Read);
        QByteArray got;
        connect(&notifier, &QSocketNotifier::activated, this, [&] {
            notifier.setEnabled(false);
            got += pair.drain();
            notifier.setEnabled(true);
        });
        for (const char *piece : {"a", "b", "c"}) {
            const QByteArray expected = got + piece;
            pair.send(piece);
            QTRY_COMPARE(got, expected);
        }
    }

    void aDescriptorClosedAndReusedInOneTurnIsWatchedAgain()
    {
        // A connection ends and the next one gets its descriptor number before the loop waits again:
        // the kernel forgot the old socket, so the new one must be registered anew.
        auto first = std::make_unique<SocketPair>();
        auto notifier = std::make_unique<QSocketNotifier>(first->fd[0], QSocketNotifier::Read);
        std::unique_ptr<SocketPair> second;
        std::unique_ptr<QSocketNotifier> secondNotifier;
        QByteArray got;
        int reusedNumber = -1;
        connect(notifier.get(), &QSocketNotifier::activated, this, [&] {
            const int oldNumber = first->fd[0];
            notifier->setEnabled(false);
            first->drain();
            first->closeBoth();
            second = std::make_unique<SocketPair>(); // the lowest free numbers: the ones just closed
            reusedNumber = second->fd[0] == oldNumber || second->fd[1] == oldNumber ? oldNumber : -1;
            // Whichever end took the old number is the one watched now.
            const int watched = second->fd[1] == oldNumber ? 1 : 0;
            if (watched == 1)
                std::swap(second->fd[0], second->fd[1]);
            secondNotifier = std::make_unique<QSocketNotifier>(second->fd[0], QSocketNotifier::Read);
            connect(secondNotifier.get(), &QSocketNotifier::activated, this, [&] { got += second->drain(); });
        });
        first->send("x");
        QTRY_VERIFY(secondNotifier);
        QVERIFY2(reusedNumber >= 0, "the new socket did not take the closed one's number");
        second->send("after reuse");
        QTRY_COMPARE(got, QByteArray("after reuse"));
    }

    void aDescriptorHandedOnUnderAnotherNumberLeavesNoGhost()
    {
        // How a node connection leaves Qt's socket for a PlainSocket: the descriptor is copied, the
        // original's notifiers go and it is closed, and the copy is watched. The kernel's set holds the
        // socket, not the number: had the original stayed in it, it could no longer be removed and the
        // loop would wake for it forever.
        SocketPair pair;
        auto reader = std::make_unique<QSocketNotifier>(pair.fd[0], QSocketNotifier::Read);
        auto writer = std::make_unique<QSocketNotifier>(pair.fd[0], QSocketNotifier::Write); // always ready
        QTRY_VERIFY(turnsWhile(10) > 0); // both in the kernel's set
        const int copy = ::fcntl(pair.fd[0], F_DUPFD_CLOEXEC, 0);
        QVERIFY(copy >= 0);
        reader.reset();
        writer.reset();
        ::close(std::exchange(pair.fd[0], copy));
        QSocketNotifier taken(copy, QSocketNotifier::Read);
        QByteArray got;
        connect(&taken, &QSocketNotifier::activated, this, [&] { got += pair.drain(); });
        pair.send("still here");
        QTRY_COMPARE(got, QByteArray("still here"));
        // Idle now: a ghost of the always-writable original would make this thousands of turns.
        const int turns = turnsWhile(100);
        QVERIFY2(turns < 50, qPrintable(QString::number(turns)));
    }

    void timersFireOnTimeRepeatAndStop()
    {
        QElapsedTimer clock;
        clock.start();
        qint64 singleAfter = -1;
        QTimer::singleShot(40, Qt::PreciseTimer, this, [&] { singleAfter = clock.elapsed(); });
        TimerCounter repeating;
        const int id = repeating.startTimer(5);
        QTRY_VERIFY(singleAfter >= 0);
        QVERIFY2(singleAfter >= 40, qPrintable(QString::number(singleAfter)));
        QTRY_VERIFY(repeating.fired.loadRelaxed() >= 5);
        QVERIFY(remainingOf(id) >= 0);
        repeating.killTimer(id);
        QCOMPARE(remainingOf(id), -1);
        const int stoppedAt = repeating.fired.loadRelaxed();
        QTest::qWait(40); // a stopped timer stays stopped
        QCOMPARE(repeating.fired.loadRelaxed(), stoppedAt);
    }

    void aTimerStoppedInsideItsOwnEventOrWithItsObjectNeverFiresAgain()
    {
        TimerCounter selfStopping;
        selfStopping.killInside = selfStopping.startTimer(1);
        auto doomed = std::make_unique<TimerCounter>();
        doomed->startTimer(1);
        doomed->startTimer(2);
        QTRY_VERIFY(doomed->fired.loadRelaxed() > 0);
        doomed.reset(); // its timers go with it
        TimerCounter witness;
        witness.startTimer(1);
        QTRY_VERIFY(witness.fired.loadRelaxed() >= 20);
        QCOMPARE(selfStopping.fired.loadRelaxed(), 1);
    }

    void aZeroTimerDoesNotStarveSockets()
    {
        TimerCounter busy;
        busy.startTimer(0);
        SocketPair pair;
        QSocketNotifier notifier(pair.fd[0], QSocketNotifier::Read);
        QByteArray got;
        connect(&notifier, &QSocketNotifier::activated, this, [&] { got += pair.drain(); });
        pair.send("through");
        QTRY_COMPARE(got, QByteArray("through"));
        QVERIFY(busy.fired.loadRelaxed() > 0);
    }

    void callsPostedFromAnotherThreadWakeTheLoop()
    {
        QAtomicInt arrived;
        std::unique_ptr<QThread> poster(QThread::create([&] {
            for (int i = 0; i < 100; ++i)
                QMetaObject::invokeMethod(this, [&] { arrived.fetchAndAddRelaxed(1); }, Qt::QueuedConnection);
        }));
        poster->start();
        QVERIFY(poster->wait(5000));
        QTRY_COMPARE(arrived.loadRelaxed(), 100);
    }

    void aTimerMovesWithItsObjectToAnotherThread()
    {
        // moveToThread reads the timers from this dispatcher and registers them on the other thread's.
        auto counter = std::make_unique<TimerCounter>();
        counter->startTimer(2);
        QThread other;
        other.start();
        counter->moveToThread(&other);
        const int before = counter->fired.loadRelaxed();
        QTRY_VERIFY(counter->fired.loadRelaxed() > before + 5);
        counter.release()->deleteLater(); // on its thread, which deletes it as it finishes at the latest
        other.quit();
        QVERIFY(other.wait(5000));
    }

    void qtNetworkServesOnAThreadThatHasIt()
    {
        // The gateway's case: a worker thread given the dispatcher before it starts, with Qt's own TCP
        // sockets on it (a node connection is one).
        QThread worker;
        QVERIFY(startOnTheWorkersLoop(worker));
        auto *server = new QTcpServer();
        server->moveToThread(&worker);
        quint16 port = 0;
        QMetaObject::invokeMethod(server, [&] {
            QObject::connect(server, &QTcpServer::newConnection, server, [server] {
                while (QTcpSocket *s = server->nextPendingConnection()) {
                    QObject::connect(s, &QTcpSocket::readyRead, s, [s] { s->write(s->readAll().toUpper()); });
                    QObject::connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
                }
            });
            server->listen(QHostAddress::LocalHost);
            port = server->serverPort();
        }, Qt::BlockingQueuedConnection);
        QVERIFY(port != 0);

        QTcpSocket client;
        client.connectToHost(QHostAddress::LocalHost, port);
        QVERIFY(client.waitForConnected(5000));
        QByteArray echoed;
        for (const QByteArray &line : {QByteArray("hello"), QByteArray("worker")}) {
            client.write(line);
            while (echoed.size() < line.size() && client.waitForReadyRead(5000))
                echoed += client.readAll();
            QCOMPARE(echoed, line.toUpper());
            echoed.clear();
        }
        client.disconnectFromHost();
        QMetaObject::invokeMethod(server, [server] { delete server; }, Qt::BlockingQueuedConnection);
        worker.quit();
        QVERIFY(worker.wait(5000));
    }

    void aWorkerLoopEndingLeavesTheThreadThatBuiltItAlone()
    {
        // The gateway builds its workers' loops on the thread that starts it (the panel's GUI thread), and
        // each loop makes its io_uring then. The kernel remembers the thread that makes a ring and, when
        // the ring is torn down, interrupts it to tidy up: a blocking call there with a time limit failed
        // with EINTR (CI saw a test's recv fail as a gateway it had stopped was torn down).
        QThread worker;
        EpollDispatcher *dispatcher = startOnTheWorkersLoop(worker);
        QVERIFY(dispatcher);
        bool ring = false;
        QMetaObject::invokeMethod(dispatcher, [&] { ring = EpollDispatcher::ringOfCurrentThread() != nullptr; },
                                  Qt::BlockingQueuedConnection);
        if (!ring) {
            worker.quit();
            worker.wait();
            QSKIP("no io_uring here (kernel older than 6.1, not allowed, or SWITCHYARD_IO_URING=0)");
        }

        // This thread waits in a recv with a time limit while the worker ends and its ring is torn down.
        // Another thread ends the worker, then lets the kernel finish the teardown (it runs on its own,
        // with nothing to wait on from here) and answers the recv.
        SocketPair pair;
        const int flags = ::fcntl(pair.fd[0], F_GETFL);
        ::fcntl(pair.fd[0], F_SETFL, flags & ~O_NONBLOCK);
        timeval limit{10, 0};
        QCOMPARE(::setsockopt(pair.fd[0], SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit), 0);
        std::unique_ptr<QThread> ender(QThread::create([&] {
            worker.quit();
            worker.wait();
            QThread::msleep(200);
            [[maybe_unused]] const ssize_t n = ::write(pair.fd[1], "x", 1);
        }));
        ender->start();
        char byte = 0;
        const ssize_t n = ::recv(pair.fd[0], &byte, 1, 0);
        const int error = errno;
        QVERIFY(ender->wait(15000));
        QVERIFY2(n == 1, n < 0 ? strerror(error) : "closed");
    }

private:
    // Starts a thread on the dispatcher, as the gateway starts a worker; null if the kernel refused it.
    static EpollDispatcher *startOnTheWorkersLoop(QThread &worker)
    {
        auto *dispatcher = new EpollDispatcher();
        if (!dispatcher->isValid()) {
            delete dispatcher;
            return nullptr;
        }
        worker.setEventDispatcher(dispatcher); // the thread owns it from here
        worker.start();
        return dispatcher;
    }
    // How many times the loop wakes while it runs for ms milliseconds with nothing to do.
    static int turnsWhile(int ms)
    {
        int turns = 0;
        QEventLoop loop;
        const auto counting = connect(QAbstractEventDispatcher::instance(), &QAbstractEventDispatcher::awake,
                                      [&] { ++turns; });
        QTimer::singleShot(ms, &loop, &QEventLoop::quit);
        loop.exec();
        disconnect(counting);
        return turns;
    }
    static int remainingOf(int id) { return QAbstractEventDispatcher::instance()->remainingTime(id); }
};

int main(int argc, char **argv)
{
    // Before the application exists: the main thread then runs on the dispatcher under test.
    QCoreApplication::setEventDispatcher(new EpollDispatcher());
    QCoreApplication app(argc, argv);
    TestEpollDispatcher test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_epolldispatcher.moc"
