// The load balancer's rotation (routing/weightedschedule): which entry each request goes to first, for
// the weights an operator writes in the config. Exact sequences, because "3:1" must mean three of every
// four requests, spread out, and the same on every run.

#include "routing/weightedschedule.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <thread>

using switchyard::routing::WeightedSchedule;

namespace {
// One full period of picks.
QList<int> period(const WeightedSchedule &s)
{
    QList<int> out;
    for (int n = 0; n < s.period(); ++n)
        out.append(s.at(quint64(n)));
    return out;
}

// The largest amount by which any stretch of consecutive picks (wrapping around the period) gives an
// entry more or fewer picks than its weight's share of that stretch.
double worstDeviation(const WeightedSchedule &s, const std::vector<double> &weights)
{
    double total = 0;
    for (double w : weights)
        total += std::max(0.0, w);
    double worst = 0;
    const int p = s.period();
    for (int start = 0; start < p; ++start) {
        std::vector<int> counts(weights.size(), 0);
        for (int n = 1; n <= p; ++n) {
            ++counts[size_t(s.at(quint64(start + n - 1)))];
            for (size_t i = 0; i < weights.size(); ++i) {
                const double share = n * std::max(0.0, weights[i]) / total;
                worst = std::max(worst, std::abs(counts[i] - share));
            }
        }
    }
    return worst;
}
} // namespace

class TestWeightedSchedule final : public QObject
{
    Q_OBJECT

private slots:
    void exactSequence_data()
    {
        QTest::addColumn<std::vector<double>>("weights");
        QTest::addColumn<QList<int>>("expected");
        QTest::newRow("1:1 alternates") << std::vector<double>{1, 1} << QList<int>{0, 1};
        QTest::newRow("3:1") << std::vector<double>{3, 1} << QList<int>{0, 0, 1, 0};
        QTest::newRow("0.75:0.25 is 3:1") << std::vector<double>{0.75, 0.25} << QList<int>{0, 0, 1, 0};
        QTest::newRow("0.6:0.4") << std::vector<double>{0.6, 0.4} << QList<int>{0, 1, 0, 1, 0};
        QTest::newRow("0.5:0.3:0.2")
            << std::vector<double>{0.5, 0.3, 0.2} << QList<int>{0, 1, 2, 0, 0, 1, 0, 2, 1, 0};
        QTest::newRow("2:1:1") << std::vector<double>{2, 1, 1} << QList<int>{0, 1, 2, 0};
        QTest::newRow("1:0 only the first") << std::vector<double>{1, 0} << QList<int>{0};
        QTest::newRow("0:1 only the second") << std::vector<double>{0, 1} << QList<int>{1};
        QTest::newRow("1:0:1 skips the zero") << std::vector<double>{1, 0, 1} << QList<int>{0, 2};
        QTest::newRow("0:2:-1:1 negative is zero") << std::vector<double>{0, 2, -1, 1} << QList<int>{1, 3, 1};
    }
    void exactSequence()
    {
        QFETCH(std::vector<double>, weights);
        QFETCH(QList<int>, expected);
        const WeightedSchedule s(weights);
        QCOMPARE(period(s), expected);
        // The schedule repeats: the next period is the same sequence again.
        for (int n = 0; n < expected.size(); ++n)
            QCOMPARE(s.at(quint64(expected.size() + n)), expected[n]);
    }

    // Weights are honoured to 0.01: each entry gets exactly its share of every period.
    void fractionalSharesAreExact_data()
    {
        QTest::addColumn<std::vector<double>>("weights");
        QTest::addColumn<QList<int>>("picksPerPeriod");
        QTest::newRow("0.333:0.667") << std::vector<double>{0.333, 0.667} << QList<int>{33, 67};
        QTest::newRow("0.01:0.99") << std::vector<double>{0.01, 0.99} << QList<int>{1, 99};
        QTest::newRow("1.5:1") << std::vector<double>{1.5, 1} << QList<int>{3, 2};
        QTest::newRow("0.25:0.25:0.5") << std::vector<double>{0.25, 0.25, 0.5} << QList<int>{1, 1, 2};
    }
    void fractionalSharesAreExact()
    {
        QFETCH(std::vector<double>, weights);
        QFETCH(QList<int>, picksPerPeriod);
        const WeightedSchedule s(weights);
        QList<int> counts(int(weights.size()), 0);
        for (int e : period(s))
            ++counts[e];
        QCOMPARE(counts, picksPerPeriod);
    }

    // Smooth, not in runs: over any stretch of requests, no entry is more than a pick or so away from
    // its share (plain weighted round-robin would send 3:1 as a,a,a,b; 9:1:… in runs of nine).
    void smoothOverAnyStretch_data()
    {
        QTest::addColumn<std::vector<double>>("weights");
        QTest::newRow("3:1") << std::vector<double>{3, 1};
        QTest::newRow("0.5:0.3:0.2") << std::vector<double>{0.5, 0.3, 0.2};
        QTest::newRow("5:1:1") << std::vector<double>{5, 1, 1};
        QTest::newRow("7:2:1") << std::vector<double>{7, 2, 1};
        QTest::newRow("0.01:0.99") << std::vector<double>{0.01, 0.99};
        QTest::newRow("4:3:2:1") << std::vector<double>{4, 3, 2, 1};
    }
    void smoothOverAnyStretch()
    {
        QFETCH(std::vector<double>, weights);
        const WeightedSchedule s(weights);
        QVERIFY2(worstDeviation(s, weights) < 2.0, qPrintable(QString::number(worstDeviation(s, weights))));
    }

    void noPositiveWeightMeansEmpty()
    {
        QVERIFY(WeightedSchedule().isEmpty());
        QVERIFY(WeightedSchedule(std::vector<double>{}).isEmpty());
        QVERIFY(WeightedSchedule(std::vector<double>{0, 0}).isEmpty());
        QVERIFY(WeightedSchedule(std::vector<double>{-1}).isEmpty());
        QVERIFY(!WeightedSchedule(std::vector<double>{0, 0.01}).isEmpty());
    }

    // A sum too large for one period is scaled down, but a light entry keeps its pick.
    void largeSumsScaleDownButKeepEveryEntry()
    {
        const WeightedSchedule s(std::vector<double>{100, 0.01});
        QVERIFY(s.period() <= WeightedSchedule::MaxPeriod + 1);
        const QList<int> picks = period(s);
        QCOMPARE(picks.count(1), 1);
        QCOMPARE(picks.count(0), s.period() - 1);
    }

    // Copies of a schedule (in a copied table) share one rotation.
    void copiesShareTheRotation()
    {
        const WeightedSchedule a(std::vector<double>{1, 1});
        const WeightedSchedule b = a;
        QCOMPARE(a.claim(), quint64(0));
        QCOMPARE(b.claim(), quint64(1));
        QCOMPARE(a.claim(), quint64(2));
    }

    // Workers claim positions concurrently: every claim gets a position of its own, none is lost.
    void claimsFromSeveralThreadsAreDistinct()
    {
        const WeightedSchedule s(std::vector<double>{3, 1});
        constexpr int Threads = 4;
        constexpr int PerThread = 2000;
        std::vector<std::vector<quint64>> got(Threads);
        std::vector<std::thread> threads;
        for (int t = 0; t < Threads; ++t) {
            threads.emplace_back([&s, &mine = got[size_t(t)]] {
                for (int i = 0; i < PerThread; ++i)
                    mine.push_back(s.claim());
            });
        }
        for (std::thread &t : threads)
            t.join();
        std::vector<quint64> all;
        for (const auto &v : got)
            all.insert(all.end(), v.begin(), v.end());
        std::sort(all.begin(), all.end());
        QCOMPARE(int(all.size()), Threads * PerThread);
        for (size_t i = 0; i < all.size(); ++i)
            QCOMPARE(all[i], quint64(i));
    }
};

QTEST_GUILESS_MAIN(TestWeightedSchedule)
#include "tst_weightedschedule.moc"
