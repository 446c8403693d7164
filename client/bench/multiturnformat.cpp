#include "multiturnformat.h"

#include "benchformat.h"

#include <QLocale>

#include <nlohmann/json.hpp>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::bench {

namespace {

using Json = nlohmann::ordered_json;

QString nodeName(const NodeShare &n)
{
    return n.node.isEmpty() ? u"(direct)"_s : n.node;
}

bool cacheReported(const MultiTurnRun &run)
{
    for (const NodeShare &n : run.nodes) {
        if (!n.cacheReported)
            return false;
    }
    return !run.nodes.isEmpty();
}

QString percent(double share)
{
    return QLocale(QLocale::English).toString(share * 100.0, 'f', 0) % u" %"_s;
}

Json statsJson(const LatencyStats &s)
{
    return {{"count", s.count}, {"mean", s.mean}, {"min", s.min}, {"p50", s.p50},
            {"p95", s.p95},     {"p99", s.p99},   {"max", s.max}};
}

QByteArray csvField(const QString &s)
{
    QByteArray b = s.toUtf8();
    if (b.contains(',') || b.contains('"') || b.contains('\n'))
        b = '"' + b.replace("\"", "\"\"") + '"';
    return b;
}

} // namespace

QString formatHitRate(qint64 cachedTokens, qint64 promptTokens, bool reported)
{
    if (!reported || promptTokens <= 0)
        return u"—"_s;
    return percent(double(cachedTokens) / double(promptTokens));
}

QString formatSplit(const MultiTurnRun &run)
{
    QStringList parts;
    for (const NodeShare &n : run.nodes)
        parts << nodeName(n) % u' ' % QString::number(n.requests);
    return parts.join(u" · "_s);
}

QString formatMultiTurnMarkdown(const MultiTurnResults &results)
{
    if (results.runs.isEmpty())
        return u"No multi-turn runs.\n"_s;
    const MultiTurnPlan &p = results.runs.first().plan;
    QString out =
        u"## Multi-turn: %1 conversations × %2 turns, %3 at a time\n\n"_s.arg(p.conversations)
            .arg(p.turns)
            .arg(p.concurrency) %
        u"A shared system prompt of about %1 tokens and a growing history (each question carries about %2 "
        "tokens of log); %3 tokens per answer. Hit rate: cached prompt tokens / prompt tokens, from the "
        "answers' usage.\n\n"_s.arg(p.systemPromptTokens)
            .arg(p.questionTokens)
            .arg(p.maxTokens);
    out += u"| strategy | target | success | TTFT p50 | TTFT p95 | latency p50 | latency p95 | tok/s | "
           u"prefix hits | split |\n"
           "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n"_s;
    for (const MultiTurnRun &r : results.runs) {
        if (!r.error.isEmpty()) {
            out += u"| %1 | %2 | ❌ %3 | | | | | | | |\n"_s.arg(r.plan.strategy, r.plan.target.label, r.error);
            continue;
        }
        out += u"| %1 | %2 | %3 | %4 | %5 | %6 | %7 | %8 | %9 | %10 |\n"_s
                   .arg(r.plan.strategy, r.plan.target.label, formatSuccess(r.succeeded, r.requests),
                        formatMs(r.ttft.p50), formatMs(r.ttft.p95), formatMs(r.latency.p50),
                        formatMs(r.latency.p95), formatRate(r.tokensPerSecond),
                        formatHitRate(r.cachedTokens, r.promptTokens, cacheReported(r)))
                   .arg(formatSplit(r));
    }
    out += u"\n| strategy | node | requests | share | prompt tokens | cached tokens | hit rate |\n"
           "| --- | --- | ---: | ---: | ---: | ---: | ---: |\n"_s;
    for (const MultiTurnRun &r : results.runs) {
        for (const NodeShare &n : r.nodes) {
            out += u"| %1 | %2 | %3 | %4 | %5 | %6 | %7 |\n"_s.arg(
                r.plan.strategy, nodeName(n), QString::number(n.requests),
                percent(r.succeeded > 0 ? double(n.requests) / r.succeeded : 0),
                QString::number(n.promptTokens), QString::number(n.cachedTokens),
                formatHitRate(n.cachedTokens, n.promptTokens, n.cacheReported));
        }
    }
    out += u"\nMean prompt tokens by turn (the history grows):\n\n"_s;
    for (const MultiTurnRun &r : results.runs) {
        QStringList turns;
        for (double t : r.meanPromptTokensByTurn)
            turns << QString::number(qRound(t));
        out += u"- %1: %2\n"_s.arg(r.plan.strategy, turns.join(u" → "_s));
    }
    return out;
}

QStringList multiTurnCsvColumns()
{
    return {u"strategy"_s,
            u"target"_s,
            u"node"_s,
            u"requests"_s,
            u"succeeded"_s,
            u"share"_s,
            u"ttft_p50_ms"_s,
            u"ttft_p95_ms"_s,
            u"latency_p50_ms"_s,
            u"latency_p95_ms"_s,
            u"tokens_per_second"_s,
            u"prompt_tokens"_s,
            u"cached_tokens"_s,
            u"hit_rate"_s,
            u"error"_s};
}

QByteArray formatMultiTurnCsv(const MultiTurnResults &results)
{
    QByteArray out = multiTurnCsvColumns().join(u',').toUtf8() + '\n';
    auto num = [](double v) { return QByteArray::number(v, 'f', 3); };
    for (const MultiTurnRun &r : results.runs) {
        const QByteArray lead = csvField(r.plan.strategy) + ',' + csvField(r.plan.target.label) + ',';
        out += lead + "all," + QByteArray::number(r.requests) + ',' + QByteArray::number(r.succeeded) +
               ",1.000," + num(r.ttft.p50) + ',' + num(r.ttft.p95) + ',' + num(r.latency.p50) + ',' +
               num(r.latency.p95) + ',' + num(r.tokensPerSecond) + ',' + QByteArray::number(r.promptTokens) +
               ',' + QByteArray::number(r.cachedTokens) + ',' + num(r.hitRate()) + ',' + csvField(r.error) +
               '\n';
        for (const NodeShare &n : r.nodes) {
            out += lead + csvField(nodeName(n)) + ',' + QByteArray::number(n.requests) + ',' +
                   QByteArray::number(n.requests) + ',' +
                   num(r.succeeded > 0 ? double(n.requests) / r.succeeded : 0) + ",,,,,," +
                   QByteArray::number(n.promptTokens) + ',' + QByteArray::number(n.cachedTokens) + ',' +
                   (n.cacheReported ? num(n.hitRate()) : QByteArray()) + ",\n";
        }
    }
    return out;
}

QByteArray formatMultiTurnJson(const MultiTurnResults &results, bool withSamples)
{
    Json runs = Json::array();
    for (const MultiTurnRun &r : results.runs) {
        Json nodes = Json::array();
        for (const NodeShare &n : r.nodes) {
            nodes.push_back({{"node", n.node.toStdString()},
                             {"requests", n.requests},
                             {"prompt_tokens", n.promptTokens},
                             {"cached_tokens", n.cachedTokens},
                             {"hit_rate", n.cacheReported ? Json(n.hitRate()) : Json(nullptr)}});
        }
        Json byTurn = Json::array();
        for (double t : r.meanPromptTokensByTurn)
            byTurn.push_back(t);
        Json run = {{"strategy", r.plan.strategy.toStdString()},
                    {"target", r.plan.target.label.toStdString()},
                    {"base_url", r.plan.target.baseUrl.toStdString()},
                    {"model", r.plan.target.model.toStdString()},
                    {"run_tag", r.plan.runTag.toStdString()},
                    {"error", r.error.isEmpty() ? Json(nullptr) : Json(r.error.toStdString())},
                    {"requests", r.requests},
                    {"succeeded", r.succeeded},
                    {"wall_ms", r.wallMs},
                    {"ttft_ms", statsJson(r.ttft)},
                    {"latency_ms", statsJson(r.latency)},
                    {"completion_tokens", r.completionTokens},
                    {"tokens_per_second", r.tokensPerSecond},
                    {"prompt_tokens", r.promptTokens},
                    {"cached_tokens", r.cachedTokens},
                    {"hit_rate", cacheReported(r) ? Json(r.hitRate()) : Json(nullptr)},
                    {"nodes", std::move(nodes)},
                    {"mean_prompt_tokens_by_turn", std::move(byTurn)}};
        if (withSamples) {
            Json samples = Json::array();
            for (const TurnSample &t : r.samples) {
                const RequestSample &s = t.sample;
                samples.push_back({{"conversation", t.conversation},
                                   {"turn", t.turn},
                                   {"messages", t.messages},
                                   {"ok", s.ok},
                                   {"status", s.httpStatus},
                                   {"error", s.error.toStdString()},
                                   {"node", s.node.toStdString()},
                                   {"ttft_ms", s.ttftMs},
                                   {"latency_ms", s.latencyMs},
                                   {"prompt_tokens", s.promptTokens},
                                   {"cached_tokens", s.cachedPromptTokens},
                                   {"completion_tokens", s.completionTokens}});
            }
            run["samples"] = std::move(samples);
        }
        runs.push_back(std::move(run));
    }
    Json plan = Json::object();
    if (!results.runs.isEmpty()) {
        const MultiTurnPlan &p = results.runs.first().plan;
        plan = {{"conversations", p.conversations},
                {"turns", p.turns},
                {"concurrency", p.concurrency},
                {"max_tokens", p.maxTokens},
                {"system_prompt_tokens", p.systemPromptTokens},
                {"question_tokens", p.questionTokens}};
    }
    const Json doc = {{"format", "switchyard-bench-multiturn/1"},
                      {"id", results.id.toStdString()},
                      {"started_at", results.startedAt.toString(Qt::ISODateWithMs).toStdString()},
                      {"duration_ms", results.durationMs},
                      {"cancelled", results.cancelled},
                      {"suite", "multiturn"},
                      {"plan", std::move(plan)},
                      {"runs", std::move(runs)}};
    const std::string s = doc.dump(2, ' ', false, Json::error_handler_t::replace);
    return QByteArray(s.data(), qsizetype(s.size()));
}

} // namespace switchyard::bench
