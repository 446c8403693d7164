// The continuous-batching timing model, driven by a manual clock: rates, TTFT, queueing, KV cache,
// preemption, pause and cancel, checked exactly rather than against wall time.
#include "simnode/performancemodel.h"

#include <QTest>

#include <cmath>

using namespace switchyard::sim;

namespace {

constexpr qint64 Ms = 1'000'000;

struct ManualClock
{
    qint64 now = 1'000 * Ms;
    PerformanceModel::Clock fn()
    {
        return [this] { return now; };
    }
};

PerformanceParams fastParams()
{
    PerformanceParams p;
    p.tokensPerSecond = 100;
    p.ttftBaseMs = 50;
    p.prefillTokensPerSecond = 1000;
    return p;
}

// Runs the model in 1 ms steps until idle or until maxMs; returns tokens per sequence id.
struct RunResult
{
    std::map<SequenceId, int> tokens;
    std::map<SequenceId, qint64> firstTokenAt;
    std::map<SequenceId, qint64> finishedAt;
    std::map<SequenceId, FinishReason> reason;
};

RunResult run(PerformanceModel &m, ManualClock &clock, qint64 maxMs)
{
    RunResult r;
    for (qint64 i = 0; i < maxMs; ++i) {
        clock.now += Ms;
        for (const SequenceEvent &e : m.advance()) {
            r.tokens[e.id] += e.newTokens;
            if (e.firstToken)
                r.firstTokenAt[e.id] = clock.now;
            if (e.finished) {
                r.finishedAt[e.id] = clock.now;
                r.reason[e.id] = e.reason;
            }
        }
        if (!m.nanosUntilNextEvent() && m.waiting() == 0)
            break;
    }
    return r;
}

} // namespace

class TestPerformanceModel final : public QObject
{
    Q_OBJECT

private slots:
    void defaultsMatchTheSeed()
    {
        PerformanceModel m(PerformanceParams{});
        QCOMPARE(qRound(m.totalRate(1)), 15);
        QVERIFY(std::abs(m.totalRate(5) - 28.0) < 1e-9);
        QVERIFY(m.perSequenceRate(5) < m.perSequenceRate(1));
        QVERIFY(m.totalRate(256) > m.totalRate(5)); // the node total keeps rising, sub-linearly
        QVERIFY(m.totalRate(256) < 256 * 15.0);
    }

    void timeToFirstTokenFollowsTheFormula()
    {
        ManualClock clock;
        PerformanceModel m(fastParams(), clock.fn());
        const qint64 t0 = clock.now;
        const SequenceId id = m.submit(100, 10, FinishReason::Stop);
        // 50 ms base + 100 tokens at 1000 tok/s = 150 ms.
        QCOMPARE(*m.nanosUntilNextEvent(), 150 * Ms);
        const RunResult r = run(m, clock, 10'000);
        QCOMPARE(r.firstTokenAt.at(id) - t0, 150 * Ms);
        QCOMPARE(r.tokens.at(id), 10);
        QCOMPARE(r.reason.at(id), FinishReason::Stop);
        // 9 more tokens at 100 tok/s.
        QCOMPARE(r.finishedAt.at(id) - r.firstTokenAt.at(id), 90 * Ms);
    }

    void promptsShareTheNodesPrefill()
    {
        // The prefill rate is the node's: a second prompt admitted with the first computes after it,
        // and a short one behind a long one waits for it (vLLM's scheduler spends one budget per step).
        ManualClock clock;
        PerformanceModel m(fastParams(), clock.fn());
        const qint64 t0 = clock.now;
        const SequenceId longPrompt = m.submit(1000, 2, FinishReason::Stop);
        const SequenceId shortPrompt = m.submit(100, 2, FinishReason::Stop);
        const RunResult r = run(m, clock, 10'000);
        // 1000 tokens at 1000 tok/s, then the 50 ms overhead.
        QCOMPARE(r.firstTokenAt.at(longPrompt) - t0, 1050 * Ms);
        // Computes from 1000 ms to 1100 ms, then its overhead.
        QCOMPARE(r.firstTokenAt.at(shortPrompt) - t0, 1150 * Ms);

        // Once the queue is empty a prompt starts at once again.
        const qint64 t1 = clock.now;
        const SequenceId later = m.submit(100, 2, FinishReason::Stop);
        const RunResult r2 = run(m, clock, 10'000);
        QCOMPARE(r2.firstTokenAt.at(later) - t1, 150 * Ms);
    }

    void singleVersusFiveConcurrentRatio()
    {
        auto measure = [](int n) {
            ManualClock clock;
            PerformanceModel m(fastParams(), clock.fn());
            for (int i = 0; i < n; ++i)
                m.submit(10, 201, FinishReason::Length);
            const RunResult r = run(m, clock, 100'000);
            const qint64 first = r.firstTokenAt.begin()->second;
            qint64 last = 0;
            int tokens = 0;
            for (const auto &[id, t] : r.finishedAt)
                last = std::max(last, t);
            for (const auto &[id, t] : r.tokens)
                tokens += t - 1; // decode tokens after the first
            return tokens / (double(last - first) / 1e9);
        };
        const double single = measure(1);
        const double five = measure(5);
        QVERIFY2(std::abs(single - 100) < 1, qPrintable(QString::number(single)));
        const double expected = std::pow(5.0, DefaultConcurrencyExponent); // 28/15
        QVERIFY2(std::abs(five / single - expected) < 0.02, qPrintable(QString::number(five / single)));
    }

    void waitsBeyondMaxNumSeqs()
    {
        ManualClock clock;
        PerformanceParams p = fastParams();
        p.maxNumSeqs = 2;
        PerformanceModel m(p, clock.fn());
        const SequenceId a = m.submit(10, 5, FinishReason::Stop);
        m.submit(10, 5, FinishReason::Stop);
        const SequenceId c = m.submit(10, 5, FinishReason::Stop);
        QCOMPARE(m.running(), 2);
        QCOMPARE(m.waiting(), 1);
        bool sawQueueTime = false;
        for (int i = 0; i < 2000 && m.running() + m.waiting() > 0; ++i) {
            clock.now += Ms;
            for (const SequenceEvent &e : m.advance()) {
                if (e.id == c && e.admitted) {
                    QVERIFY(e.queueSeconds > 0.05); // waited for a slot
                    sawQueueTime = true;
                }
                if (e.id == a && e.admitted)
                    QCOMPARE(e.queueSeconds, 0.0);
            }
        }
        QVERIFY(sawQueueTime);
        QCOMPARE(m.running(), 0);
    }

    void kvCacheUsageAndPreemption()
    {
        ManualClock clock;
        PerformanceParams p = fastParams();
        p.kvCacheTokens = 100;
        PerformanceModel m(p, clock.fn());
        const SequenceId a = m.submit(40, 50, FinishReason::Length);
        QCOMPARE(m.tokensInFlight(), 40);
        QCOMPARE(m.kvCacheUsage(), 0.4);
        const SequenceId b = m.submit(40, 50, FinishReason::Length);
        QCOMPARE(m.kvCacheUsage(), 0.8);
        // A third does not fit: it waits although slots are free.
        m.submit(30, 5, FinishReason::Length);
        QCOMPARE(m.waiting(), 1);
        // Both grow until the cache is full, then the later one is preempted and recomputed later.
        const RunResult r = run(m, clock, 100'000);
        QVERIFY(m.preemptions() >= 1);
        QCOMPARE(r.tokens.at(a), 50);
        QCOMPARE(r.tokens.at(b), 50);
        QCOMPARE(m.tokensInFlight(), 0);
        QCOMPARE(m.kvCacheUsage(), 0.0);
    }

    void cancelFreesTheSlot()
    {
        ManualClock clock;
        PerformanceParams p = fastParams();
        p.maxNumSeqs = 1;
        PerformanceModel m(p, clock.fn());
        const SequenceId a = m.submit(10, 1000, FinishReason::Length);
        const SequenceId b = m.submit(10, 3, FinishReason::Stop);
        QCOMPARE(m.waiting(), 1);
        clock.now += 200 * Ms;
        m.advance();
        QVERIFY(m.cancel(a));
        QVERIFY(!m.cancel(a));
        QCOMPARE(m.running(), 1);
        QCOMPARE(m.waiting(), 0);
        const RunResult r = run(m, clock, 10'000);
        QCOMPARE(r.tokens.at(b), 3);
        QVERIFY(!r.tokens.contains(a));
    }

    void pauseFreezesAndResumeDoesNotBurst()
    {
        ManualClock clock;
        PerformanceModel m(fastParams(), clock.fn());
        const SequenceId id = m.submit(0, 100, FinishReason::Length);
        clock.now += 100 * Ms; // 50 ms prefill, then 5 tokens at 10 ms each
        int tokens = 0;
        for (const SequenceEvent &e : m.advance())
            tokens += e.newTokens;
        QCOMPARE(tokens, 6);
        m.pause();
        clock.now += 10'000 * Ms;
        QVERIFY(m.advance().empty());
        QVERIFY(!m.nanosUntilNextEvent());
        m.resume();
        clock.now += 20 * Ms;
        tokens = 0;
        for (const SequenceEvent &e : m.advance()) {
            QCOMPARE(e.id, id);
            tokens += e.newTokens;
        }
        QCOMPARE(tokens, 2);
    }

    void slowFactorStretchesEverything()
    {
        ManualClock clock;
        PerformanceModel m(fastParams(), clock.fn());
        m.setSlowFactor(3);
        const qint64 t0 = clock.now;
        const SequenceId id = m.submit(100, 4, FinishReason::Stop);
        const RunResult r = run(m, clock, 10'000);
        QCOMPARE(r.firstTokenAt.at(id) - t0, 450 * Ms);
        QCOMPARE(r.finishedAt.at(id) - r.firstTokenAt.at(id), 90 * Ms);
    }

    void interTokenLatencyIsReported()
    {
        ManualClock clock;
        PerformanceModel m(fastParams(), clock.fn());
        m.submit(0, 11, FinishReason::Stop);
        double sum = 0;
        int count = 0;
        for (int i = 0; i < 1000; ++i) {
            clock.now += Ms;
            for (const SequenceEvent &e : m.advance()) {
                sum += e.itlSumSeconds;
                count += e.itlCount;
            }
        }
        QCOMPARE(count, 10);
        QVERIFY(std::abs(sum / count - 0.01) < 1e-9);
    }
};

QTEST_GUILESS_MAIN(TestPerformanceModel)
#include "tst_performancemodel.moc"
