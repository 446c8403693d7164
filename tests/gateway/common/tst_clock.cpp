// The gateway's clock: a ManualClock stops it, and the waits that read it follow it instead of real
// time — the backoff between retries and the health-check interval, over a real gateway in front of a
// simulated node. (The ejection cooldown is tst_health's failingNodeIsEjectedAndReadmitted.)
#include "common/clock.h"
#include "common/testhttpclient.h"
#include "gateway/gatewayfixture.h"

#include <QTest>

using namespace switchyard;
using namespace switchyard::testing;
using health::NodeState;

class TestClock final : public QObject
{
    Q_OBJECT

private slots:
    void manualClockStandsStillUntilAdvanced()
    {
        const qint64 realBefore = QDeadlineTimer::current().deadline();
        QCOMPARE(Clock::timerIntervalMs(2000), 2000);
        {
            ManualClock clock;
            const qint64 start = Clock::nowMs();
            QVERIFY(start >= realBefore);
            QVERIFY(QTest::qWaitFor([&] { return QDeadlineTimer::current().deadline() > start + 2; }));
            QCOMPARE(Clock::nowMs(), start); // real time went on, the gateway's did not
            clock.advance(1500);
            QCOMPARE(Clock::nowMs(), start + 1500);
            QCOMPARE(clock.nowMs(), start + 1500);
            // Whoever waits on a stopped clock looks again soon, to notice an advance.
            QVERIFY(Clock::timerIntervalMs(2000) <= 10);
            QCOMPARE(Clock::timerIntervalMs(0), 0);
        }
        // Gone: the real clock again.
        QVERIFY(Clock::nowMs() >= realBefore);
        QVERIFY(Clock::nowMs() <= QDeadlineTimer::current().deadline());
        QCOMPARE(Clock::timerIntervalMs(2000), 2000);
    }

    void retryBackoffWaitsForTheClock()
    {
        ManualClock clock;
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}, {}, {}, [](config::GatewayConfig &c) {
            c.providers[0].network.maxRetries = 2;
            c.providers[0].network.retryBackoffInitialMs = 20; // the first wait is 16–24 ms, the second 32–48
            c.providers[0].network.retryBackoffMaxMs = 1000;
            c.settings.healthCheckIntervalMs = 600000;
        }));
        f.node(0).setFault(sim::FaultMode::Error500);
        TestClient c(f.port);
        c.send("POST", "/v1/chat/completions", chatBody("a/m1", 2));
        QTRY_COMPARE_WITH_TIMEOUT(f.node(0).counters().requestsReceived, qint64(1), 5000);
        // A negative check: on the real clock the retry would be out within 24 ms; the stopped clock
        // holds it (50 ms is twice that, and ten looks at the clock).
        QTest::qWait(50);
        QCOMPARE(f.node(0).counters().requestsReceived, qint64(1));
        clock.advance(24);
        QTRY_COMPARE_WITH_TIMEOUT(f.node(0).counters().requestsReceived, qint64(2), 5000);
        clock.advance(48); // the second backoff is twice as long
        const TestResponse r = c.read();
        QCOMPARE(r.status, 502);
        QCOMPARE(r.attempts(), 3);
        QCOMPARE(f.node(0).counters().requestsReceived, qint64(3));
    }

    void healthChecksFollowTheClock()
    {
        ManualClock clock;
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}, {}, {}, [](config::GatewayConfig &c) {
            c.settings.healthCheckIntervalMs = 10000;
        }));
        // A new node is checked at once; the next check is due 10 s of the clock later.
        QTRY_COMPARE_WITH_TIMEOUT(f.gateway.snapshot().nodes[0].state, NodeState::Healthy, 5000);
        f.node(0).setFault(sim::FaultMode::Refuse);
        clock.advance(10000);
        QTRY_COMPARE_WITH_TIMEOUT(f.gateway.snapshot().nodes[0].state, NodeState::Down, 5000);
        QCOMPARE(f.gateway.snapshot().nodes[0].stateReason, QStringLiteral("connection refused"));
        f.node(0).setFault(sim::FaultMode::Healthy);
        clock.advance(10000);
        QTRY_COMPARE_WITH_TIMEOUT(f.gateway.snapshot().nodes[0].state, NodeState::Recovering, 5000);
        clock.advance(10000); // a second good check in a row
        QTRY_COMPARE_WITH_TIMEOUT(f.gateway.snapshot().nodes[0].state, NodeState::Healthy, 5000);
    }
};

QTEST_GUILESS_MAIN(TestClock)
#include "tst_clock.moc"
