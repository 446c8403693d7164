#include "multiturntypes.h"

#include <QMap>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::bench {

namespace {

const QStringList &topics()
{
    static const QStringList t = {u"routing"_s,     u"failover"_s, u"health checks"_s, u"KV cache usage"_s,
                                  u"rate limits"_s, u"draining"_s, u"timeouts"_s,      u"token usage"_s};
    return t;
}

} // namespace

QString multiTurnSystemPrompt(const QString &runTag, int tokens)
{
    // Operator-manual prose: long enough words that the node's estimate (max(words, chars / 4)) is
    // about a quarter of the characters, as with a real tokenizer on English text.
    QString text =
        u"[%1] You are the operations assistant of an inference cluster run by Switchyard. "_s.arg(runTag);
    const qsizetype wanted = qsizetype(std::max(tokens, 16)) * 4;
    for (int rule = 1; text.size() < wanted; ++rule) {
        text += u"Rule %1: when the operator asks about %2, answer precisely, name the metric or log line "
                "your answer rests on, prefer the gateway's own figures over guesses, and keep it brief. "_s
                    .arg(rule)
                    .arg(topics().at(rule % topics().size()));
    }
    return text.left(wanted);
}

QString multiTurnQuestion(const QString &runTag, int conversation, int turn, int contextTokens)
{
    QString q =
        u"[%1 c%2 t%3] What should I check about %4 on node %5 before the next deployment?"_s.arg(runTag)
            .arg(conversation)
            .arg(turn + 1)
            .arg(topics().at((conversation + turn) % topics().size()))
            .arg(conversation % 3 + 1);
    if (contextTokens <= 0)
        return q;
    q += u" Here is the log:\n"_s;
    const qsizetype wanted = q.size() + qsizetype(contextTokens) * 4;
    for (int line = 0; q.size() < wanted; ++line) {
        q += u"2026-12-04T01:%1:%2Z gateway request c%3-t%4-%5 routed, upstream status 200, ttft %6 ms\n"_s
                 .arg(line % 60, 2, 10, QChar(u'0'))
                 .arg((line * 7) % 60, 2, 10, QChar(u'0'))
                 .arg(conversation)
                 .arg(turn + 1)
                 .arg(line)
                 .arg(100 + (line * 37 + conversation * 11) % 900);
    }
    return q.left(wanted);
}

int multiTurnAnswerTokens(int maxTokens, int conversation, int turn)
{
    // A small integer hash: deterministic, no shared random state.
    quint32 h = quint32(conversation) * 2654435761u ^ quint32(turn + 1) * 40503u;
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    h ^= h >> 15;
    const int half = std::max(maxTokens / 2, 1);
    return half + int(h % quint32(maxTokens + 1));
}

QString multiTurnSessionKey(const QString &runTag, int conversation)
{
    return u"%1-c%2"_s.arg(runTag).arg(conversation);
}

void summarizeMultiTurn(MultiTurnRun &run)
{
    run.requests = int(run.samples.size());
    run.succeeded = 0;
    run.completionTokens = 0;
    run.promptTokens = 0;
    run.cachedTokens = 0;
    QList<double> ttfts, latencies;
    QMap<QString, NodeShare> nodes;
    QList<double> promptSum(run.plan.turns, 0.0);
    QList<int> promptCount(run.plan.turns, 0);
    for (const TurnSample &t : std::as_const(run.samples)) {
        const RequestSample &s = t.sample;
        if (!s.ok)
            continue;
        ++run.succeeded;
        if (s.ttftMs >= 0)
            ttfts << s.ttftMs;
        latencies << s.latencyMs;
        run.completionTokens += s.completionTokens;
        NodeShare &n = nodes[s.node];
        n.node = s.node;
        ++n.requests;
        if (s.promptTokens >= 0) {
            n.promptTokens += s.promptTokens;
            run.promptTokens += s.promptTokens;
            if (t.turn >= 0 && t.turn < run.plan.turns) {
                promptSum[t.turn] += double(s.promptTokens);
                ++promptCount[t.turn];
            }
        }
        if (s.cachedPromptTokens >= 0) {
            n.cachedTokens += s.cachedPromptTokens;
            run.cachedTokens += s.cachedPromptTokens;
        } else {
            n.cacheReported = false;
        }
    }
    run.ttft = computeStats(ttfts);
    run.latency = computeStats(latencies);
    run.tokensPerSecond = run.wallMs > 0 ? double(run.completionTokens) * 1000.0 / run.wallMs : 0;
    run.nodes = nodes.values();
    run.meanPromptTokensByTurn.clear();
    for (int i = 0; i < run.plan.turns; ++i)
        run.meanPromptTokensByTurn << (promptCount[i] > 0 ? promptSum[i] / promptCount[i] : 0.0);
}

} // namespace switchyard::bench
