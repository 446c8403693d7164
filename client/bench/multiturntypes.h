#pragma once

// The multi-turn benchmark (`--suite multiturn`, docs/BENCHMARK.md): N conversations × M turns against
// one target, C conversations at a time. Every conversation opens with the same long system prompt and
// grows: each turn sends the whole history (system prompt, every earlier question and answer) plus a new
// question, so a node that served the previous turn finds most of the prompt in its prefix cache. Each
// conversation sends its own session key (X-Session-Id and "user"), so session affinity can keep it on
// one node. One run measures one routing strategy; several runs side by side compare them.
//
// Plain values, as benchtypes.h: the runner fills them, the formatters print them.

#include "benchtypes.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>

namespace switchyard::bench {

struct MultiTurnPlan
{
    Target target;
    // What this run measures, as a label: the strategy applied to the gateway, or "as configured" for
    // a target whose routing the benchmark does not control.
    QString strategy;
    int conversations = 8;
    int turns = 6;
    int concurrency = 4;           // conversations in flight at once
    int maxTokens = 48;            // mean per answer: each is between half and 1.5× (multiTurnAnswerTokens)
    int systemPromptTokens = 1500; // about, as the node counts tokens (max(words, characters / 4))
    // Each question carries a log excerpt of about this many tokens, as an agent loop pastes a tool's
    // output: the history grows by it every turn without costing decode time.
    int questionTokens = 120;
    // Starts the system prompt and every question: runs with different tags share no prefix, so each run
    // starts from caches as cold as the first run's (docs/BENCHMARK.md, "fair comparison").
    QString runTag;
    int requestTimeoutMs = 120000;
    bool ignoreEos = true;

    int totalRequests() const { return conversations * turns; }
};

// The system prompt of a run: deterministic, about tokens long, opening with the run's tag.
QString multiTurnSystemPrompt(const QString &runTag, int tokens);
// The question of one turn, with its excerpt of about contextTokens tokens.
QString multiTurnQuestion(const QString &runTag, int conversation, int turn, int contextTokens);
// max_tokens of one answer: spread over [maxTokens/2, 3·maxTokens/2] by conversation and turn, the same
// in every run. Equal lengths would keep the conversations in lockstep, and a round-robin balancer would
// then send each conversation to the same node every turn by accident.
int multiTurnAnswerTokens(int maxTokens, int conversation, int turn);
// The session key of one conversation: "<runTag>-c<conversation>".
QString multiTurnSessionKey(const QString &runTag, int conversation);

struct TurnSample
{
    int conversation = 0;
    int turn = 0;         // 0-based
    int messages = 0;     // in the request: the history's length
    RequestSample sample; // node and cached tokens included
};

// One node's part of a run, from the answers' X-Switchyard-Node header and usage.
struct NodeShare
{
    QString node;     // empty: answers without the header (a node measured directly)
    int requests = 0; // successful answers
    qint64 promptTokens = 0;
    qint64 cachedTokens = 0;   // prompt_tokens_details.cached_tokens
    bool cacheReported = true; // every answer reported cached_tokens
    double hitRate() const { return promptTokens > 0 ? double(cachedTokens) / double(promptTokens) : 0; }
};

struct MultiTurnRun
{
    MultiTurnPlan plan;
    QString error; // the run could not be made at all (the config refused the strategy)
    int requests = 0;
    int succeeded = 0;
    double wallMs = 0; // first send → last answer
    LatencyStats ttft; // successful requests
    LatencyStats latency;
    qint64 completionTokens = 0;
    double tokensPerSecond = 0; // completionTokens / wall time
    qint64 promptTokens = 0;
    qint64 cachedTokens = 0;
    QList<NodeShare> nodes;               // by node name
    QList<double> meanPromptTokensByTurn; // successful requests; grows with the history
    QList<TurnSample> samples;

    double hitRate() const { return promptTokens > 0 ? double(cachedTokens) / double(promptTokens) : 0; }
};

struct MultiTurnResults
{
    QString id;
    QDateTime startedAt; // UTC
    double durationMs = 0;
    bool cancelled = false;
    QList<MultiTurnRun> runs; // one per strategy, in the order run
};

// The figures of a run from its samples (plan and samples filled, wallMs measured).
void summarizeMultiTurn(MultiTurnRun &run);

} // namespace switchyard::bench

Q_DECLARE_METATYPE(switchyard::bench::MultiTurnRun)
