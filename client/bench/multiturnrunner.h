#pragma once

// Runs one multi-turn benchmark run (MultiTurnPlan) asynchronously on the runner's thread: C
// conversations at a time, each sending its turns one after the other over its own keep-alive
// connection (a streamed chat completion per turn, with the conversation's session key), appending every
// answer and the next question to its history. A failed turn is recorded and the conversation goes on
// with an empty answer, so the request count stays N × M. Comparing strategies is the caller's job:
// one run per strategy, the gateway re-configured in between (benchcli.cpp does it for --demo/--config).

#include "multiturntypes.h"

#include <QElapsedTimer>
#include <QObject>
#include <memory>
#include <vector>

namespace switchyard::bench {

class BenchExchange;

class MultiTurnRunner final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MultiTurnRunner)

public:
    explicit MultiTurnRunner(QObject *parent = nullptr);
    ~MultiTurnRunner() override; // aborts a run in progress (without signals)

    // false (and lastError()) when a run is going, the URL is not http(s) or the plan is empty.
    bool start(const MultiTurnPlan &plan);
    // Aborts the requests in flight and emits cancelled() with what finished. No-op when idle.
    void cancel();

    bool isRunning() const { return m_running; }
    QString lastError() const { return m_lastError; }

signals:
    void progress(int done, int total, const QString &label);
    void finished(const switchyard::bench::MultiTurnRun &run);
    void cancelled(const switchyard::bench::MultiTurnRun &partial);

private:
    struct Conversation;

    void startConversations();
    void sendTurn(Conversation &c, bool retry);
    void turnDone(Conversation *c);
    void endConversation(Conversation *c);
    void finishRun();
    void abortAll();
    void bury(std::unique_ptr<BenchExchange> exchange);

    MultiTurnPlan m_plan;
    MultiTurnRun m_run;
    QString m_lastError;
    bool m_running = false;
    quint64 m_generation = 0; // guards queued calls against a run that ended meanwhile
    int m_nextConversation = 0;
    int m_done = 0;
    QElapsedTimer m_clock;
    std::vector<std::unique_ptr<Conversation>> m_active;
    std::vector<std::unique_ptr<BenchExchange>> m_graveyard;
    bool m_graveyardScheduled = false;
};

} // namespace switchyard::bench
