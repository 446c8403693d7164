// A node's token totals as /metrics exports them (stats/tokencounter): a Prometheus counter that never
// goes down, even when a stream's live estimate turns out above the node's exact usage, and that is
// exact again once later tokens have paid the surplus. A dashboard's rate() over it never shows the
// false restart a decrease would cause.

#include "stats/tokencounter.h"

#include <QTest>
#include <thread>
#include <vector>

using switchyard::stats::TokenCounter;

class TestTokenCounter final : public QObject
{
    Q_OBJECT

private slots:
    void anEstimateBelowTheUsageIsCorrectedUpwards()
    {
        TokenCounter c;
        c.add(5); // chunks counted while the stream ran
        c.add(3); // the exact usage said 8
        QCOMPARE(c.load(), 8);
        QCOMPARE(c.owed(), 0);
    }

    void anEstimateAboveTheUsageIsOwedNotTakenBack()
    {
        TokenCounter c;
        c.add(5);  // five text chunks counted...
        c.add(-2); // ...but the node's usage said 3
        QCOMPARE(c.load(), 5); // a counter does not go down
        QCOMPARE(c.owed(), 2);
        c.add(1); // the next stream's first token pays part of it
        QCOMPARE(c.load(), 5);
        QCOMPARE(c.owed(), 1);
        c.add(4); // and then the total is exact: 3 + 5
        QCOMPARE(c.load(), 8);
        QCOMPARE(c.owed(), 0);
    }

    void totalsFromManyWorkersAreExactOnceTheSurplusIsPaid()
    {
        // Four workers, each counting streams whose estimate ran 1 above the exact usage of 10: the
        // total never goes down on the way, it is always the exact sum plus what is owed, and a last
        // stream longer than what is owed makes it exact.
        TokenCounter c;
        constexpr int Workers = 4, Streams = 2000;
        std::atomic<bool> done{false}, decreased{false};
        std::thread watcher([&] {
            qint64 last = 0;
            while (!done.load()) {
                const qint64 now = c.load();
                if (now < last)
                    decreased = true;
                last = now;
            }
        });
        std::vector<std::thread> workers;
        for (int w = 0; w < Workers; ++w) {
            workers.emplace_back([&c] {
                for (int s = 0; s < Streams; ++s) {
                    c.add(11);
                    c.add(-1);
                }
            });
        }
        for (std::thread &t : workers)
            t.join();
        done = true;
        watcher.join();
        QVERIFY(!decreased);
        const qint64 exact = qint64(Workers) * Streams * 10;
        QCOMPARE(c.load() - c.owed(), exact);
        const qint64 last = c.owed() + 10;
        c.add(last);
        QCOMPARE(c.owed(), 0);
        QCOMPARE(c.load(), exact + last);
    }
};

QTEST_GUILESS_MAIN(TestTokenCounter)
#include "tst_tokencounter.moc"
