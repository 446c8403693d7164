// Weighted rendezvous hashing (routing/rendezvous): a session always gets the same order, many sessions
// spread over the nodes by weight, a node that leaves moves only its own sessions, and the hash it
// rests on is the same in every process (routing/stablehash).

#include "routing/rendezvous.h"
#include "routing/stablehash.h"

#include <QTest>

using namespace switchyard::routing;

namespace {
std::vector<RendezvousNode> nodes(const std::vector<QByteArray> &names,
                                  const std::vector<double> &weights = {})
{
    std::vector<RendezvousNode> out;
    for (size_t i = 0; i < names.size(); ++i)
        out.push_back({stableHash64(names[i]), i < weights.size() ? weights[i] : 1.0});
    return out;
}

QByteArray session(int i)
{
    return "session-" + QByteArray::number(i);
}
} // namespace

class TestRendezvous final : public QObject
{
    Q_OBJECT

private slots:
    void theHashIsFixedAcrossProcessesAndMachines()
    {
        // Literal values: a change of algorithm would move every session of a running fleet, so it must
        // be a deliberate one (and two gateway versions must not disagree silently).
        QCOMPARE(stableHash64(""), stableHash64(QByteArrayView()));
        QCOMPARE(stableHash64("vllm-server1"), stableHash64(QByteArray("vllm-server1")));
        QVERIFY(stableHash64("a") != stableHash64("b"));
        QVERIFY(stableHash64("abcdefgh") != stableHash64("abcdefgi"));
        QVERIFY(stableHash64("x", 1) != stableHash64("x", 2));
        QCOMPARE(stableHash64("vllm-server1"), Q_UINT64_C(0xf9f3aa01b79697ed));
        for (quint64 h : {quint64(0), ~quint64(0), stableHash64("z")}) {
            const double u = unitInterval(h);
            QVERIFY(u > 0.0 && u < 1.0);
        }
    }

    void aSessionAlwaysGetsTheSameOrder()
    {
        const auto n = nodes({"a", "b", "c"});
        const std::vector<int> first = rendezvousOrder("conversation-42", n);
        QCOMPARE(first.size(), size_t(3));
        for (int i = 0; i < 100; ++i)
            QCOMPARE(rendezvousOrder("conversation-42", n), first);
        // The candidates' order in the pool does not matter: the scores belong to (session, node).
        const auto reversed = nodes({"c", "b", "a"});
        const std::vector<int> r = rendezvousOrder("conversation-42", reversed);
        for (size_t i = 0; i < 3; ++i)
            QCOMPARE(2 - r[i], first[i]);
    }

    void weightsHoldOverManySessions_data()
    {
        QTest::addColumn<double>("weightA");
        QTest::addColumn<double>("weightB");
        QTest::newRow("1:1") << 1.0 << 1.0;
        QTest::newRow("3:1") << 3.0 << 1.0;
        QTest::newRow("0.3:0.1 (fractions)") << 0.3 << 0.1;
    }
    void weightsHoldOverManySessions()
    {
        QFETCH(double, weightA);
        QFETCH(double, weightB);
        const auto n = nodes({"vllm-server1", "vllm-server2"}, {weightA, weightB});
        const int sessions = 4000;
        int a = 0;
        for (int i = 0; i < sessions; ++i)
            a += rendezvousOrder(session(i), n).front() == 0;
        const double expected = weightA / (weightA + weightB);
        // Binomial: σ = √(n·p·(1−p)) ≤ 32 sessions at n = 4000; 3 % (120 sessions) is more than 3.7σ.
        const double share = double(a) / sessions;
        QVERIFY2(std::abs(share - expected) < 0.03,
                 qPrintable(QStringLiteral("share of a %1, expected %2").arg(share).arg(expected)));
    }

    void aNodeThatLeavesMovesOnlyItsOwnSessions()
    {
        const auto three = nodes({"a", "b", "c"});
        const auto withoutB = nodes({"a", "c"});
        int moved = 0, onB = 0;
        for (int i = 0; i < 3000; ++i) {
            const std::vector<int> before = rendezvousOrder(session(i), three);
            const int nodeBefore = before.front();
            const int after =
                rendezvousOrder(session(i), withoutB).front() == 0 ? 0 : 2; // back to a/b/c numbering
            if (nodeBefore == 1) {
                ++onB;
                // Its sessions go to their own second choice, so they spread rather than pile up.
                QCOMPARE(after, before[1]);
            } else {
                moved += after != nodeBefore;
            }
        }
        QCOMPARE(moved, 0);
        QVERIFY(onB > 800 && onB < 1200); // b had about a third of them
    }

    void aNodeThatJoinsTakesOnlyTheSessionsItWins()
    {
        const auto two = nodes({"a", "b"});
        const auto three = nodes({"a", "b", "c"});
        int toC = 0;
        for (int i = 0; i < 3000; ++i) {
            const int before = rendezvousOrder(session(i), two).front();
            const int after = rendezvousOrder(session(i), three).front();
            if (after == 2)
                ++toC;
            else
                QCOMPARE(after, before);
        }
        QVERIFY(toC > 800 && toC < 1200);
    }
};

QTEST_GUILESS_MAIN(TestRendezvous)
#include "tst_rendezvous.moc"
