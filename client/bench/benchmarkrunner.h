#pragma once

// Runs a BenchmarkPlan against its targets, one target after the other (so targets never compete for the
// same nodes), entirely asynchronously on the thread the runner lives on. Per target:
//   1. the model, when none was given: GET /v1/models, first id;
//   2. warm-up requests (connections opened, caches warm) — sent, waited for, not reported;
//   3. singles: for each max_tokens, `repetitions` requests one after the other;
//   4. concurrency: one round of `concurrency` requests sent at once;
//   5. sweep: one round per level, each level's requests sent at once.
// Every request is a streaming chat completion over its own keep-alive connection (as many connections
// as requests in flight — no client-side queueing). A failed request is recorded with its reason and
// counted in the success rate; the run goes on.
//
// In the panel the runner lives on its own thread, so repainting charts never delays a timestamp.

#include "benchtypes.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <memory>
#include <vector>

namespace switchyard::upstream {
class UpstreamConnection;
}

namespace switchyard::bench {

class BenchExchange;

class BenchmarkRunner final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BenchmarkRunner)

public:
    explicit BenchmarkRunner(QObject *parent = nullptr);
    ~BenchmarkRunner() override; // aborts a run in progress (without signals)

    // Starts a run; false (and lastError()) when one is running or the plan has no targets. Call on the
    // runner's thread (QMetaObject::invokeMethod from another one).
    bool start(const BenchmarkPlan &plan);
    // Stops at once: requests in flight are aborted (their connections closed, so servers stop generating)
    // and nothing more is sent. Emits cancelled() with what finished before. No-op when idle.
    void cancel();

    bool isRunning() const { return m_running; }
    QString lastError() const { return m_lastError; }
    // The current (or last) run's results so far.
    const BenchmarkResults &results() const { return m_results; }

signals:
    void started(int totalRequests);
    // done/total count requests (warm-up included); label says what runs now, e.g. "vllm-server1 · 100 tokens 2/3".
    void progress(int done, int total, const QString &label);
    // With each progress: the time the run still needs, estimated from how fast its work went so far (a
    // request's work grows with its max_tokens; a round's requests run at once). -1 until there is
    // enough to go on.
    void timeLeft(qint64 ms);
    // After every finished test (a singles group or a round): the results so far, for live tables.
    void resultsUpdated(const switchyard::bench::BenchmarkResults &results);
    void finished(const switchyard::bench::BenchmarkResults &results);
    void cancelled(const switchyard::bench::BenchmarkResults &partial);

private:
    struct Step
    {
        enum class Kind { ResolveModel, Warmup, Singles, Concurrency, SweepLevel };
        Kind kind = Kind::Warmup;
        int target = 0;
        int maxTokens = 0;
        int count = 1;         // requests in this step
        bool parallel = false; // all at once (a round) or one after the other
    };

    void buildSteps();
    void scheduleNextStep();
    void nextStep();
    void launch(int slot);
    void exchangeDone(BenchExchange *exchange);
    void stepDone();
    void finishRun();
    void emitProgress();
    QString stepLabel() const;
    static double workOf(const Step &step);
    qint64 estimateMsLeft() const;
    upstream::UpstreamConnection *acquireConnection(bool fresh);
    void releaseConnection(upstream::UpstreamConnection *connection, bool reusable);
    void dropIdleConnections();
    void abortAll();
    void bury(std::unique_ptr<BenchExchange> exchange);

    BenchmarkPlan m_plan;
    BenchmarkResults m_results;
    QString m_lastError;
    bool m_running = false;
    quint64 m_generation = 0; // guards queued calls against a run that ended meanwhile
    QElapsedTimer m_runClock;

    std::vector<Step> m_steps;
    std::size_t m_stepIndex = 0;
    int m_done = 0;
    int m_total = 0;

    // The current step.
    std::vector<std::unique_ptr<BenchExchange>> m_active;
    QList<RequestSample> m_samples;
    int m_launched = 0;
    int m_finished = 0;
    QElapsedTimer m_stepClock;
    QHash<BenchExchange *, bool> m_retried;

    // The current target's keep-alive connections.
    QList<upstream::UpstreamConnection *> m_idle;
    std::vector<std::unique_ptr<BenchExchange>> m_graveyard;
    bool m_graveyardScheduled = false;
};

} // namespace switchyard::bench
