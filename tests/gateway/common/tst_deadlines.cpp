// A worker's request timeouts in one heap (common/deadlines): what a request relies on is that its
// timeout fires once, never early, never after it was disarmed, in due order among many, and that an
// expiring request may end itself, arm another timeout or disarm one from its callback.

#include "common/deadlines.h"

#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QTest>
#include <memory>
#include <vector>

using namespace switchyard;

class TestDeadlines final : public QObject
{
    Q_OBJECT

private slots:
    void firesOnceAndNeverEarly()
    {
        Deadlines deadlines;
        int fired = 0;
        qint64 afterMs = -1;
        QElapsedTimer clock;
        Deadline d([&] {
            ++fired;
            afterMs = clock.elapsed();
        });
        clock.start();
        d.start(deadlines, 30);
        QVERIFY(d.isActive());
        QTRY_COMPARE(fired, 1);
        QVERIFY2(afterMs >= 30, qPrintable(QString::number(afterMs)));
        QVERIFY(!d.isActive());
        QCOMPARE(deadlines.armed(), size_t(0));
        QTest::qWait(60); // nothing more comes
        QCOMPARE(fired, 1);
    }

    void aStoppedOrRestartedDeadlineDoesNotFireAtItsOldTime()
    {
        Deadlines deadlines;
        int stoppedFired = 0, restartedFired = 0, witnessFired = 0;
        Deadline stopped([&] { ++stoppedFired; });
        Deadline restarted([&] { ++restartedFired; });
        Deadline witness([&] { ++witnessFired; });
        stopped.start(deadlines, 10);
        restarted.start(deadlines, 10);
        witness.start(deadlines, 40);
        stopped.stop();
        restarted.start(deadlines, 400); // pushed back: not due when the witness fires
        QTRY_COMPARE(witnessFired, 1);
        QCOMPARE(stoppedFired, 0);
        QCOMPARE(restartedFired, 0);
        QVERIFY(restarted.isActive());
        QTRY_COMPARE_WITH_TIMEOUT(restartedFired, 1, 2000);
    }

    void manyFireInDueOrder()
    {
        // As under load: hundreds armed and disarmed in any order; those left fire by due time.
        Deadlines deadlines;
        constexpr int N = 300;
        std::vector<int> order;
        std::vector<std::unique_ptr<Deadline>> all;
        std::vector<int> due(N);
        QRandomGenerator rng(7);
        for (int i = 0; i < N; ++i) {
            due[size_t(i)] = 20 + 3 * int(rng.bounded(40));
            all.push_back(std::make_unique<Deadline>([&order, i] { order.push_back(i); }));
        }
        std::vector<qint64> dueNs(N); // when each is due, read just before it is armed
        for (int i = 0; i < N; ++i) {
            dueNs[size_t(i)] = Deadlines::nowNs() + qint64(due[size_t(i)]) * 1'000'000;
            all[size_t(i)]->start(deadlines, due[size_t(i)]);
        }
        int expected = 0;
        for (int i = 0; i < N; i += 3) // every third disarmed again (a request answered in time)
            all[size_t(i)]->stop();
        for (int i = 0; i < N; ++i)
            expected += i % 3 ? 1 : 0;
        QTRY_COMPARE(int(order.size()), expected);
        // In due order (within the few microseconds between reading the clock and arming).
        for (size_t k = 1; k < order.size(); ++k)
            QVERIFY(dueNs[size_t(order[k - 1])] <= dueNs[size_t(order[k])] + 1'000'000);
        for (int i : order)
            QVERIFY(i % 3 != 0);
        QCOMPARE(deadlines.armed(), size_t(0));
    }

    void aCallbackMayEndItsOwnerAndArmOrDisarmOthers()
    {
        Deadlines deadlines;
        int laterFired = 0, cancelledFired = 0;
        auto later = std::make_unique<Deadline>([&] { ++laterFired; });
        auto cancelled = std::make_unique<Deadline>([&] { ++cancelledFired; });
        std::unique_ptr<Deadline> owner;
        owner = std::make_unique<Deadline>([&] {
            cancelled->stop();
            later->start(deadlines, 5);
            owner.reset(); // the request ends itself, its deadline with it
        });
        owner->start(deadlines, 10);
        cancelled->start(deadlines, 10);
        QTRY_COMPARE(laterFired, 1);
        QVERIFY(!owner);
        QCOMPARE(cancelledFired, 0);
    }

    void destroyingTheHeapDisarmsWhatIsLeft()
    {
        int fired = 0;
        Deadline d([&] { ++fired; });
        {
            Deadlines deadlines;
            d.start(deadlines, 10);
        }
        QVERIFY(!d.isActive());
        d.stop(); // harmless
        QTest::qWait(30);
        QCOMPARE(fired, 0);
    }
};

QTEST_GUILESS_MAIN(TestDeadlines)
#include "tst_deadlines.moc"
