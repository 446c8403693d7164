// The GUI event-loop lag probe (ui/eventlooplag): its statistics over a bounded window, and that a
// blocked event loop shows up as lag.

#include "eventlooplag.h"

#include <QSignalSpy>
#include <QTest>
#include <QThread>

using namespace switchyard::ui;

class TestEventLoopLag final : public QObject
{
    Q_OBJECT

private slots:
    void emptyIsZero()
    {
        const LagStats s(10);
        QCOMPARE(s.percentile(0.5), 0.0);
        QCOMPARE(s.percentile(0.99), 0.0);
        QCOMPARE(s.windowMax(), 0.0);
        QCOMPARE(s.totalCount(), 0);
    }

    void percentilesAreNearestRank()
    {
        LagStats s(1000);
        for (int i = 1; i <= 100; ++i)
            s.add(i); // 1..100 ms
        QCOMPARE(s.percentile(0.5), 50.0);
        QCOMPARE(s.percentile(0.99), 99.0);
        QCOMPARE(s.percentile(1.0), 100.0);
        QCOMPARE(s.percentile(0.0), 1.0);
        QCOMPARE(s.windowMax(), 100.0);
    }

    void oneSpikeInAHundredIsTheP99NotTheP50()
    {
        LagStats s(1000);
        for (int i = 0; i < 98; ++i)
            s.add(1);
        s.add(80);
        s.add(90);
        QCOMPARE(s.percentile(0.5), 1.0);
        QCOMPARE(s.percentile(0.99), 80.0);
        QCOMPARE(s.windowMax(), 90.0);
    }

    void windowForgetsOldSamplesButTotalsDoNot()
    {
        LagStats s(4);
        s.add(500); // an old spike
        for (int i = 0; i < 4; ++i)
            s.add(2);
        QCOMPARE(s.windowSize(), 4);
        QCOMPARE(s.windowMax(), 2.0);
        QCOMPARE(s.percentile(0.99), 2.0);
        QCOMPARE(s.totalMax(), 500.0);
        QCOMPARE(s.totalCount(), 5);
    }

    void earlyTicksCountAsZero()
    {
        LagStats s(10);
        s.add(-3); // a tick can fire a little early; that is no lag
        QCOMPARE(s.percentile(0.5), 0.0);
    }

    void blockedEventLoopShowsAsLag()
    {
        EventLoopLagProbe probe;
        QSignalSpy spy(&probe, &EventLoopLagProbe::sampled);
        QVERIFY(spy.wait(5000)); // one ordinary tick
        QThread::msleep(300);    // the GUI thread busy: the next tick is at least 250 ms late
        QVERIFY(spy.wait(5000));
        QVERIFY2(probe.recent().windowMax() >= 200.0, qPrintable(probe.summary()));
        QVERIFY(probe.summary().contains(u"max"));
    }

    void probeRunsOnlyWhenThePerfScriptsAsk()
    {
        // The operator's window has no lag probe; bench/perf/bench-guilag.sh sets SWITCHYARD_LAG_REPORT=1.
        QObject owner;
        qunsetenv("SWITCHYARD_LAG_REPORT");
        QVERIFY(!installLagProbeIfAsked(&owner));
        qputenv("SWITCHYARD_LAG_REPORT", "1");
        EventLoopLagProbe *probe = installLagProbeIfAsked(&owner);
        qunsetenv("SWITCHYARD_LAG_REPORT");
        QVERIFY(probe);
        QCOMPARE(probe->parent(), &owner);
    }
};

QTEST_MAIN(TestEventLoopLag)
#include "tst_eventlooplag.moc"
