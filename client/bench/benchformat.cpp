#include "benchformat.h"

#include <QLocale>
#include <QMap>

#include <nlohmann/json.hpp>

using namespace Qt::Literals::StringLiterals;
using Json = nlohmann::ordered_json;

namespace switchyard::bench {

namespace {

const QLocale &english()
{
    static const QLocale l(QLocale::English, QLocale::UnitedStates); // "1,401": grouped like the article
    return l;
}

QString runLabel(const BenchmarkResults &r)
{
    return r.startedAt.toLocalTime().toString(u"yyyy-MM-dd HH:mm"_s);
}

QString rowLabel(const BenchmarkResults &run, const TargetResult &t, bool withRun)
{
    return withRun ? t.target.label % u" ("_s % runLabel(run) % u')' : t.target.label;
}

QString escapeCell(QString s)
{
    return s.replace(u'|', u"\\|"_s).replace(u'\n', u' ');
}

QString tableRow(const QStringList &cells)
{
    QString row = u"|"_s;
    for (const QString &c : cells)
        row += u' ' % escapeCell(c) % u" |"_s;
    return row % u'\n';
}

QString tableHeader(const QStringList &cells, int leftAligned = 2)
{
    QString sep = u"|"_s;
    for (int i = 0; i < cells.size(); ++i)
        sep += i < leftAligned ? u"---|"_s : u"---:|"_s;
    return tableRow(cells) % sep % u'\n';
}

// Failures grouped by reason, so a failing node reads "5 × HTTP 500: …" rather than hiding in a rate.
QString failureLines(const QList<RequestSample> &samples)
{
    QMap<QString, int> reasons;
    for (const RequestSample &s : samples) {
        if (!s.ok)
            ++reasons[s.error.isEmpty() ? u"unknown"_s : s.error];
    }
    QStringList parts;
    for (auto it = reasons.cbegin(); it != reasons.cend(); ++it)
        parts << u"%1 × %2"_s.arg(it.value()).arg(it.key());
    return parts.join(u"; "_s);
}

QString describePlan(const BenchmarkPlan &p)
{
    QStringList parts;
    parts << u"suite **%1**"_s.arg(suiteName(p.suite));
    if (p.runsSingles()) {
        QStringList tokens;
        for (int t : p.maxTokensList)
            tokens << QString::number(t);
        parts << u"single requests at max_tokens %1 × %2 repetition%3"_s.arg(tokens.join(u'/'))
                     .arg(p.repetitions)
                     .arg(p.repetitions == 1 ? QString() : u"s"_s);
    }
    if (p.runsConcurrency())
        parts << u"%1 parallel requests × %2 tokens"_s.arg(p.concurrency).arg(p.concurrencyMaxTokens);
    if (p.runsSweep()) {
        QStringList levels;
        for (int l : p.sweepLevels)
            levels << QString::number(l);
        parts << u"sweep %1 parallel × %2 tokens"_s.arg(levels.join(u'/')).arg(p.sweepMaxTokens);
    }
    parts << u"%1 warm-up request%2 per target, not counted"_s.arg(p.warmupRequests).arg(p.warmupRequests == 1 ? QString() : u"s"_s);
    if (p.api == Api::Responses)
        parts << u"the Responses API (POST /v1/responses; no ignore_eos there)"_s;
    else if (p.ignoreEos)
        parts << u"ignore_eos (every request generates max_tokens)"_s;
    return parts.join(u"; "_s);
}

struct NotesCollector
{
    QStringList lines;
    void add(const BenchmarkResults &run, const TargetResult &t, bool withRun)
    {
        const QString who = rowLabel(run, t, withRun);
        if (!t.error.isEmpty())
            lines << u"- %1: %2"_s.arg(who, t.error);
        if (t.warmupFailures > 0)
            lines << u"- %1: %2 warm-up request(s) failed"_s.arg(who).arg(t.warmupFailures);
        auto addFailures = [&](const QString &test, const QList<RequestSample> &samples, bool usage) {
            const QString f = failureLines(samples);
            if (!f.isEmpty())
                lines << u"- %1, %2: %3"_s.arg(who, test, f);
            if (!usage)
                lines << u"- %1, %2: no usage chunk from the server; tokens counted from stream chunks"_s.arg(who, test);
        };
        for (const SingleResult &s : t.singles)
            addFailures(u"%1 tokens"_s.arg(s.maxTokens), s.samples, s.usageReported);
        if (t.concurrency)
            addFailures(u"%1 parallel"_s.arg(t.concurrency->concurrency), t.concurrency->samples,
                        t.concurrency->usageReported);
        for (const ConcurrencyResult &c : t.sweep)
            addFailures(u"sweep %1 parallel"_s.arg(c.concurrency), c.samples, c.usageReported);
    }
};

} // namespace

QString formatMs(double ms)
{
    return english().toString(ms, 'f', 0) % u" ms"_s;
}

QString formatRate(double tokensPerSecond)
{
    return english().toString(tokensPerSecond, 'f', 1) % u" tok/s"_s;
}

QString formatSuccess(int succeeded, int requests)
{
    return u"%1/%2 %3"_s.arg(succeeded).arg(requests).arg(succeeded == requests && requests > 0 ? u"✅"_s : u"❌"_s);
}

QString formatMarkdown(const BenchmarkResults &results)
{
    return formatMarkdown(QList<BenchmarkResults>{results});
}

QString formatMarkdown(const QList<BenchmarkResults> &runs)
{
    const bool withRun = runs.size() > 1;
    QString out;
    if (runs.isEmpty())
        return out;
    const BenchmarkResults &first = runs.first();
    out += u"# Switchyard benchmark — %1\n\n"_s.arg(withRun ? u"%1 runs"_s.arg(runs.size()) : runLabel(first));
    for (const BenchmarkResults &run : runs) {
        out += (withRun ? u"- %1: "_s.arg(runLabel(run)) : QString()) % describePlan(run.plan)
               % u"; took %1 s"_s.arg(english().toString(run.durationMs / 1000.0, 'f', 1))
               % (run.cancelled ? u" — **cancelled**, partial results"_s : QString()) % u".\n"_s;
    }
    out += u"\nLatency: request sent → last byte. TTFT: request sent → first generated token. "
           "tok/s: completion tokens (from the stream's usage) / latency. "
           "Percentiles: nearest rank over the successful requests.\n\n"_s;

    out += u"## Targets\n\n"_s % tableHeader({u"Target"_s, u"URL"_s, u"Model"_s}, 3);
    for (const BenchmarkResults &run : runs) {
        for (const TargetResult &t : run.targets)
            out += tableRow({rowLabel(run, t, withRun), t.target.baseUrl, t.resolvedModel.isEmpty() ? u"—"_s : t.resolvedModel});
    }

    // Single requests: the article's table (test, server, average latency, throughput, P95) plus P50/P99,
    // TTFT and the decode rate, grouped by test so targets sit next to each other.
    QList<int> tokenTests;
    for (const BenchmarkResults &run : runs) {
        for (const TargetResult &t : run.targets) {
            for (const SingleResult &s : t.singles) {
                if (!tokenTests.contains(s.maxTokens))
                    tokenTests.append(s.maxTokens);
            }
        }
    }
    if (!tokenTests.isEmpty()) {
        out += u"\n## Single requests\n\n"_s
               % tableHeader({u"Test"_s, u"Target"_s, u"Avg latency"_s, u"Throughput"_s, u"P95 latency"_s,
                              u"P50 latency"_s, u"P99 latency"_s, u"Avg TTFT"_s, u"Decode"_s, u"Success"_s});
        for (int tokens : std::as_const(tokenTests)) {
            for (const BenchmarkResults &run : runs) {
                for (const TargetResult &t : run.targets) {
                    for (const SingleResult &s : t.singles) {
                        if (s.maxTokens != tokens)
                            continue;
                        const bool any = s.succeeded > 0;
                        const QString dash = u"—"_s;
                        out += tableRow({u"%1 tokens"_s.arg(tokens), rowLabel(run, t, withRun),
                                         any ? formatMs(s.latency.mean) : dash, any ? formatRate(s.tokensPerSecond) : dash,
                                         any ? formatMs(s.latency.p95) : dash, any ? formatMs(s.latency.p50) : dash,
                                         any ? formatMs(s.latency.p99) : dash, any ? formatMs(s.ttft.mean) : dash,
                                         any ? formatRate(s.decodeTokensPerSecond) : dash,
                                         formatSuccess(s.succeeded, s.requests)});
                    }
                }
            }
        }
    }

    bool anyConcurrency = false;
    int concurrency = 0;
    int concurrencyTokens = 0;
    for (const BenchmarkResults &run : runs) {
        for (const TargetResult &t : run.targets) {
            if (t.concurrency) {
                anyConcurrency = true;
                concurrency = t.concurrency->concurrency;
                concurrencyTokens = t.concurrency->maxTokens;
            }
        }
    }
    if (anyConcurrency) {
        out += u"\n## Concurrency (%1 parallel requests × %2 tokens)\n\n"_s.arg(concurrency).arg(concurrencyTokens)
               % tableHeader({u"Target"_s, u"Total time"_s, u"Effective throughput"_s, u"Success rate"_s,
                              u"Avg latency"_s, u"P95 latency"_s, u"Avg TTFT"_s},
                             1);
        for (const BenchmarkResults &run : runs) {
            for (const TargetResult &t : run.targets) {
                if (!t.concurrency)
                    continue;
                const ConcurrencyResult &c = *t.concurrency;
                const bool any = c.succeeded > 0;
                const QString dash = u"—"_s;
                out += tableRow({rowLabel(run, t, withRun), formatMs(c.wallMs), formatRate(c.effectiveTokensPerSecond),
                                 formatSuccess(c.succeeded, c.requests), any ? formatMs(c.latency.mean) : dash,
                                 any ? formatMs(c.latency.p95) : dash, any ? formatMs(c.ttft.mean) : dash});
            }
        }
    }

    bool anySweep = false;
    for (const BenchmarkResults &run : runs) {
        for (const TargetResult &t : run.targets)
            anySweep = anySweep || !t.sweep.isEmpty();
    }
    if (anySweep) {
        out += u"\n## Concurrency sweep\n\n"_s
               % tableHeader({u"Target"_s, u"Parallel"_s, u"Total time"_s, u"Effective throughput"_s,
                              u"Per request"_s, u"Avg latency"_s, u"P95 latency"_s, u"Avg TTFT"_s, u"Success"_s},
                             1);
        for (const BenchmarkResults &run : runs) {
            for (const TargetResult &t : run.targets) {
                for (const ConcurrencyResult &c : t.sweep) {
                    const bool any = c.succeeded > 0;
                    const QString dash = u"—"_s;
                    out += tableRow({rowLabel(run, t, withRun), QString::number(c.concurrency), formatMs(c.wallMs),
                                     formatRate(c.effectiveTokensPerSecond),
                                     any ? formatRate(c.perRequestTokensPerSecond) : dash,
                                     any ? formatMs(c.latency.mean) : dash, any ? formatMs(c.latency.p95) : dash,
                                     any ? formatMs(c.ttft.mean) : dash, formatSuccess(c.succeeded, c.requests)});
                }
            }
        }
    }

    NotesCollector notes;
    for (const BenchmarkResults &run : runs) {
        for (const TargetResult &t : run.targets)
            notes.add(run, t, withRun);
    }
    if (!notes.lines.isEmpty())
        out += u"\n## Failures and notes\n\n"_s % notes.lines.join(u'\n') % u'\n';
    return out;
}

// ---- CSV ----

QStringList csvColumns()
{
    return {u"run_id"_s,          u"started_at"_s,      u"target"_s,          u"base_url"_s,
            u"model"_s,           u"test"_s,            u"max_tokens"_s,      u"concurrency"_s,
            u"requests"_s,        u"succeeded"_s,       u"success_rate"_s,    u"avg_latency_ms"_s,
            u"p50_latency_ms"_s,  u"p95_latency_ms"_s,  u"p99_latency_ms"_s,  u"min_latency_ms"_s,
            u"max_latency_ms"_s,  u"avg_ttft_ms"_s,     u"p95_ttft_ms"_s,     u"tokens_per_s"_s,
            u"decode_tokens_per_s"_s, u"total_time_ms"_s, u"completion_tokens"_s, u"effective_tokens_per_s"_s,
            u"usage_reported"_s, u"failures"_s};
}

namespace {

QString csvField(const QString &s)
{
    if (!s.contains(u',') && !s.contains(u'"') && !s.contains(u'\n') && !s.contains(u'\r'))
        return s;
    QString q = s;
    q.replace(u"\""_s, u"\"\""_s);
    return u'"' % q % u'"';
}

QString num(double v, int decimals = 1)
{
    return QString::number(v, 'f', decimals);
}

} // namespace

QByteArray formatCsv(const BenchmarkResults &results)
{
    return formatCsv(QList<BenchmarkResults>{results});
}

QByteArray formatCsv(const QList<BenchmarkResults> &runs)
{
    QString out = csvColumns().join(u',') % u"\r\n"_s;
    auto row = [&out](const QStringList &cells) {
        QStringList quoted;
        for (const QString &c : cells)
            quoted << csvField(c);
        out += quoted.join(u',') % u"\r\n"_s;
    };
    for (const BenchmarkResults &run : runs) {
        const QString started = run.startedAt.toString(Qt::ISODate);
        for (const TargetResult &t : run.targets) {
            const QStringList who{run.id, started, t.target.label, t.target.baseUrl, t.resolvedModel};
            for (const SingleResult &s : t.singles) {
                const double rate = s.requests > 0 ? double(s.succeeded) / s.requests : 0;
                // No successful request: no latency to report — empty, not a misleading 0.
                const bool any = s.succeeded > 0;
                auto v = [any](double x, int decimals = 1) { return any ? num(x, decimals) : QString(); };
                row(who + QStringList{u"single"_s, QString::number(s.maxTokens), u"1"_s, QString::number(s.requests),
                                      QString::number(s.succeeded), num(rate, 3), v(s.latency.mean),
                                      v(s.latency.p50), v(s.latency.p95), v(s.latency.p99), v(s.latency.min),
                                      v(s.latency.max), v(s.ttft.mean), v(s.ttft.p95), v(s.tokensPerSecond, 2),
                                      v(s.decodeTokensPerSecond, 2), QString(),
                                      QString::number(qint64(s.meanCompletionTokens * s.succeeded + 0.5)), QString(),
                                      s.usageReported ? u"true"_s : u"false"_s, failureLines(s.samples)});
            }
            auto round = [&](const QString &test, const ConcurrencyResult &c) {
                const double rate = c.requests > 0 ? double(c.succeeded) / c.requests : 0;
                const bool any = c.succeeded > 0;
                auto v = [any](double x, int decimals = 1) { return any ? num(x, decimals) : QString(); };
                row(who + QStringList{test, QString::number(c.maxTokens), QString::number(c.concurrency),
                                      QString::number(c.requests), QString::number(c.succeeded), num(rate, 3),
                                      v(c.latency.mean), v(c.latency.p50), v(c.latency.p95), v(c.latency.p99),
                                      v(c.latency.min), v(c.latency.max), v(c.ttft.mean), v(c.ttft.p95),
                                      v(c.perRequestTokensPerSecond, 2), QString(), num(c.wallMs),
                                      QString::number(c.completionTokens), num(c.effectiveTokensPerSecond, 2),
                                      c.usageReported ? u"true"_s : u"false"_s, failureLines(c.samples)});
            };
            if (t.concurrency)
                round(u"concurrency"_s, *t.concurrency);
            for (const ConcurrencyResult &c : t.sweep)
                round(u"sweep"_s, c);
        }
    }
    return out.toUtf8();
}

// ---- JSON ----

namespace {

std::string str(const QString &s)
{
    return s.toStdString();
}

QString qstr(const Json &j, const char *key)
{
    if (!j.contains(key) || !j[key].is_string())
        return {};
    return QString::fromStdString(j[key].get<std::string>());
}

double dbl(const Json &j, const char *key, double fallback = 0)
{
    return j.contains(key) && j[key].is_number() ? j[key].get<double>() : fallback;
}

qint64 integer(const Json &j, const char *key, qint64 fallback = 0)
{
    return j.contains(key) && j[key].is_number() ? j[key].get<qint64>() : fallback;
}

bool boolean(const Json &j, const char *key, bool fallback = false)
{
    return j.contains(key) && j[key].is_boolean() ? j[key].get<bool>() : fallback;
}

Json statsJson(const LatencyStats &s)
{
    return {{"count", s.count}, {"mean", s.mean}, {"min", s.min}, {"p50", s.p50},
            {"p95", s.p95},     {"p99", s.p99},   {"max", s.max}};
}

LatencyStats statsFrom(const Json &j)
{
    LatencyStats s;
    if (!j.is_object())
        return s;
    s.count = int(integer(j, "count"));
    s.mean = dbl(j, "mean");
    s.min = dbl(j, "min");
    s.p50 = dbl(j, "p50");
    s.p95 = dbl(j, "p95");
    s.p99 = dbl(j, "p99");
    s.max = dbl(j, "max");
    return s;
}

Json samplesJson(const QList<RequestSample> &samples)
{
    Json a = Json::array();
    for (const RequestSample &s : samples) {
        Json o = {{"ok", s.ok},
                  {"status", s.httpStatus},
                  {"latency_ms", s.latencyMs},
                  {"ttft_ms", s.ttftMs},
                  {"prompt_tokens", s.promptTokens},
                  {"completion_tokens", s.completionTokens},
                  {"usage_reported", s.usageReported}};
        if (!s.ok)
            o["error"] = str(s.error);
        a.push_back(std::move(o));
    }
    return a;
}

QList<RequestSample> samplesFrom(const Json &j)
{
    QList<RequestSample> out;
    if (!j.is_array())
        return out;
    for (const Json &o : j) {
        if (!o.is_object())
            continue;
        RequestSample s;
        s.ok = boolean(o, "ok");
        s.httpStatus = int(integer(o, "status"));
        s.error = qstr(o, "error");
        s.latencyMs = dbl(o, "latency_ms");
        s.ttftMs = dbl(o, "ttft_ms", -1);
        s.promptTokens = integer(o, "prompt_tokens", -1);
        s.completionTokens = integer(o, "completion_tokens");
        s.usageReported = boolean(o, "usage_reported");
        out.append(s);
    }
    return out;
}

Json roundJson(const ConcurrencyResult &c, bool withSamples)
{
    Json o = {{"concurrency", c.concurrency},
              {"max_tokens", c.maxTokens},
              {"requests", c.requests},
              {"succeeded", c.succeeded},
              {"wall_ms", c.wallMs},
              {"completion_tokens", c.completionTokens},
              {"effective_tokens_per_s", c.effectiveTokensPerSecond},
              {"per_request_tokens_per_s", c.perRequestTokensPerSecond},
              {"latency_ms", statsJson(c.latency)},
              {"ttft_ms", statsJson(c.ttft)},
              {"usage_reported", c.usageReported}};
    if (withSamples)
        o["samples"] = samplesJson(c.samples);
    return o;
}

ConcurrencyResult roundFrom(const Json &o)
{
    ConcurrencyResult c;
    c.concurrency = int(integer(o, "concurrency"));
    c.maxTokens = int(integer(o, "max_tokens"));
    c.requests = int(integer(o, "requests"));
    c.succeeded = int(integer(o, "succeeded"));
    c.wallMs = dbl(o, "wall_ms");
    c.completionTokens = integer(o, "completion_tokens");
    c.effectiveTokensPerSecond = dbl(o, "effective_tokens_per_s");
    c.perRequestTokensPerSecond = dbl(o, "per_request_tokens_per_s");
    if (o.contains("latency_ms"))
        c.latency = statsFrom(o["latency_ms"]);
    if (o.contains("ttft_ms"))
        c.ttft = statsFrom(o["ttft_ms"]);
    c.usageReported = boolean(o, "usage_reported", true);
    if (o.contains("samples"))
        c.samples = samplesFrom(o["samples"]);
    return c;
}

Json intList(const QList<int> &v)
{
    Json a = Json::array();
    for (int i : v)
        a.push_back(i);
    return a;
}

QList<int> intListFrom(const Json &j)
{
    QList<int> out;
    if (j.is_array()) {
        for (const Json &v : j) {
            if (v.is_number_integer())
                out.append(v.get<int>());
        }
    }
    return out;
}

Json runJson(const BenchmarkResults &r, bool withSamples)
{
    const BenchmarkPlan &p = r.plan;
    Json plan = {{"suite", str(suiteName(p.suite))},
                 {"repetitions", p.repetitions},
                 {"max_tokens", intList(p.maxTokensList)},
                 {"concurrency", p.concurrency},
                 {"concurrency_max_tokens", p.concurrencyMaxTokens},
                 {"sweep_levels", intList(p.sweepLevels)},
                 {"sweep_max_tokens", p.sweepMaxTokens},
                 {"warmup_requests", p.warmupRequests},
                 {"request_timeout_ms", p.requestTimeoutMs},
                 {"ignore_eos", p.ignoreEos},
                 {"api", str(apiName(p.api))},
                 {"prompt", str(p.prompt)}};
    Json targets = Json::array();
    for (const TargetResult &t : r.targets) {
        Json singles = Json::array();
        for (const SingleResult &s : t.singles) {
            Json o = {{"max_tokens", s.maxTokens},
                      {"requests", s.requests},
                      {"succeeded", s.succeeded},
                      {"latency_ms", statsJson(s.latency)},
                      {"ttft_ms", statsJson(s.ttft)},
                      {"tokens_per_s", s.tokensPerSecond},
                      {"decode_tokens_per_s", s.decodeTokensPerSecond},
                      {"mean_completion_tokens", s.meanCompletionTokens},
                      {"usage_reported", s.usageReported}};
            if (withSamples)
                o["samples"] = samplesJson(s.samples);
            singles.push_back(std::move(o));
        }
        Json sweep = Json::array();
        for (const ConcurrencyResult &c : t.sweep)
            sweep.push_back(roundJson(c, withSamples));
        Json o = {{"label", str(t.target.label)},
                  {"base_url", str(t.target.baseUrl)},
                  {"model", str(t.resolvedModel)},
                  {"requested_model", str(t.target.model)},
                  {"warmup_failures", t.warmupFailures},
                  {"singles", std::move(singles)},
                  {"concurrency", t.concurrency ? roundJson(*t.concurrency, withSamples) : Json()},
                  {"sweep", std::move(sweep)}};
        if (!t.error.isEmpty())
            o["error"] = str(t.error);
        // The API key is deliberately not written: results files get shared.
        targets.push_back(std::move(o));
    }
    return {{"format", "switchyard-bench/1"},
            {"id", str(r.id)},
            {"started_at", str(r.startedAt.toString(Qt::ISODateWithMs))},
            {"duration_ms", r.durationMs},
            {"cancelled", r.cancelled},
            {"percentiles", "nearest-rank"},
            {"plan", std::move(plan)},
            {"targets", std::move(targets)}};
}

std::optional<BenchmarkResults> runFrom(const Json &j)
{
    if (!j.is_object() || qstr(j, "format") != u"switchyard-bench/1")
        return std::nullopt;
    BenchmarkResults r;
    r.id = qstr(j, "id");
    r.startedAt = QDateTime::fromString(qstr(j, "started_at"), Qt::ISODateWithMs);
    r.durationMs = dbl(j, "duration_ms");
    r.cancelled = boolean(j, "cancelled");
    if (j.contains("plan") && j["plan"].is_object()) {
        const Json &p = j["plan"];
        r.plan.suite = parseSuite(qstr(p, "suite")).value_or(Suite::Custom);
        r.plan.repetitions = int(integer(p, "repetitions", r.plan.repetitions));
        if (p.contains("max_tokens"))
            r.plan.maxTokensList = intListFrom(p["max_tokens"]);
        r.plan.concurrency = int(integer(p, "concurrency", r.plan.concurrency));
        r.plan.concurrencyMaxTokens = int(integer(p, "concurrency_max_tokens", r.plan.concurrencyMaxTokens));
        if (p.contains("sweep_levels"))
            r.plan.sweepLevels = intListFrom(p["sweep_levels"]);
        r.plan.sweepMaxTokens = int(integer(p, "sweep_max_tokens", r.plan.sweepMaxTokens));
        r.plan.warmupRequests = int(integer(p, "warmup_requests", r.plan.warmupRequests));
        r.plan.requestTimeoutMs = int(integer(p, "request_timeout_ms", r.plan.requestTimeoutMs));
        r.plan.ignoreEos = boolean(p, "ignore_eos", true);
        r.plan.api = parseApi(qstr(p, "api")).value_or(Api::ChatCompletions); // runs stored before: chat
        r.plan.prompt = qstr(p, "prompt");
    }
    if (j.contains("targets") && j["targets"].is_array()) {
        for (const Json &o : j["targets"]) {
            if (!o.is_object())
                continue;
            TargetResult t;
            t.target.label = qstr(o, "label");
            t.target.baseUrl = qstr(o, "base_url");
            t.target.model = qstr(o, "requested_model");
            t.resolvedModel = qstr(o, "model");
            t.warmupFailures = int(integer(o, "warmup_failures"));
            t.error = qstr(o, "error");
            if (o.contains("singles") && o["singles"].is_array()) {
                for (const Json &s : o["singles"]) {
                    SingleResult sr;
                    sr.maxTokens = int(integer(s, "max_tokens"));
                    sr.requests = int(integer(s, "requests"));
                    sr.succeeded = int(integer(s, "succeeded"));
                    if (s.contains("latency_ms"))
                        sr.latency = statsFrom(s["latency_ms"]);
                    if (s.contains("ttft_ms"))
                        sr.ttft = statsFrom(s["ttft_ms"]);
                    sr.tokensPerSecond = dbl(s, "tokens_per_s");
                    sr.decodeTokensPerSecond = dbl(s, "decode_tokens_per_s");
                    sr.meanCompletionTokens = dbl(s, "mean_completion_tokens");
                    sr.usageReported = boolean(s, "usage_reported", true);
                    if (s.contains("samples"))
                        sr.samples = samplesFrom(s["samples"]);
                    t.singles.append(sr);
                }
            }
            if (o.contains("concurrency") && o["concurrency"].is_object())
                t.concurrency = roundFrom(o["concurrency"]);
            if (o.contains("sweep") && o["sweep"].is_array()) {
                for (const Json &c : o["sweep"])
                    t.sweep.append(roundFrom(c));
            }
            r.targets.append(t);
            r.plan.targets.append(t.target);
        }
    }
    return r;
}

QByteArray toBytes(const Json &j)
{
    const std::string s = j.dump(2, ' ', false, Json::error_handler_t::replace);
    return QByteArray(s.data(), qsizetype(s.size()));
}

Json parse(QByteArrayView text)
{
    return Json::parse(text.begin(), text.end(), nullptr, false);
}

} // namespace

QByteArray formatJson(const BenchmarkResults &results, bool withSamples)
{
    return toBytes(runJson(results, withSamples));
}

QByteArray formatJsonHistory(const QList<BenchmarkResults> &runs)
{
    Json a = Json::array();
    for (const BenchmarkResults &r : runs)
        a.push_back(runJson(r, true));
    return toBytes(Json{{"format", "switchyard-bench-history/1"}, {"runs", std::move(a)}});
}

std::optional<BenchmarkResults> resultsFromJson(QByteArrayView json)
{
    return runFrom(parse(json));
}

std::optional<QList<BenchmarkResults>> historyFromJson(QByteArrayView json)
{
    const Json j = parse(json);
    if (!j.is_object())
        return std::nullopt;
    QList<BenchmarkResults> out;
    if (qstr(j, "format") == u"switchyard-bench/1") {
        if (auto r = runFrom(j))
            out.append(*r);
        return out;
    }
    if (qstr(j, "format") != u"switchyard-bench-history/1" || !j.contains("runs") || !j["runs"].is_array())
        return std::nullopt;
    for (const Json &r : j["runs"]) {
        if (auto run = runFrom(r))
            out.append(*run);
    }
    return out;
}

} // namespace switchyard::bench
