#include "benchtypes.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::bench {

QString suiteName(Suite suite)
{
    switch (suite) {
    case Suite::Article:
        return u"article"_s;
    case Suite::Sweep:
        return u"sweep"_s;
    case Suite::Full:
        return u"full"_s;
    case Suite::Custom:
        return u"custom"_s;
    }
    return u"article"_s;
}

QString apiName(Api api)
{
    return api == Api::Responses ? u"responses"_s : u"chat"_s;
}

std::optional<Api> parseApi(QStringView name)
{
    for (Api a : {Api::ChatCompletions, Api::Responses}) {
        if (name.compare(apiName(a), Qt::CaseInsensitive) == 0)
            return a;
    }
    return std::nullopt;
}

std::optional<Suite> parseSuite(QStringView name)
{
    for (Suite s : {Suite::Article, Suite::Sweep, Suite::Full, Suite::Custom}) {
        if (name.compare(suiteName(s), Qt::CaseInsensitive) == 0)
            return s;
    }
    // The name of the article's suite in the first releases; scripts written then keep working.
    if (name.compare(u"seed", Qt::CaseInsensitive) == 0)
        return Suite::Article;
    return std::nullopt;
}

QList<int> articleMaxTokens()
{
    return {20, 100, 300};
}

QList<int> defaultSweepLevels()
{
    return {1, 2, 4, 8, 16, 32, 64};
}

bool BenchmarkPlan::runsSingles() const
{
    const bool listed = !maxTokensList.isEmpty() && repetitions > 0;
    return listed && (suite == Suite::Article || suite == Suite::Full || suite == Suite::Custom);
}

bool BenchmarkPlan::runsConcurrency() const
{
    return concurrency > 0 && (suite == Suite::Article || suite == Suite::Full || suite == Suite::Custom);
}

bool BenchmarkPlan::runsSweep() const
{
    return !sweepLevels.isEmpty() && (suite == Suite::Sweep || suite == Suite::Full || suite == Suite::Custom);
}

int BenchmarkPlan::totalRequests() const
{
    int perTarget = std::max(warmupRequests, 0);
    if (runsSingles())
        perTarget += int(maxTokensList.size()) * repetitions;
    if (runsConcurrency())
        perTarget += concurrency;
    if (runsSweep()) {
        for (int n : sweepLevels)
            perTarget += std::max(n, 0);
    }
    return perTarget * int(targets.size());
}

QString defaultPrompt()
{
    // Fixed, short (so prefill is a small part of every figure) and open-ended (so a server that does
    // not honour ignore_eos still has something to say for 300 tokens).
    return u"You are benchmarking an inference server. Explain, in plain words and in some detail, how a "
           "load balancer spreads requests over several servers, what happens when one of them fails, and "
           "why an operator would measure latency and throughput before choosing a design."_s;
}

double percentileNearestRank(const QList<double> &sorted, double p)
{
    if (sorted.isEmpty())
        return 0;
    // rank = ⌈p/100 · N⌉, 1-based; p = 0 gives the minimum.
    const qsizetype n = sorted.size();
    qsizetype rank = qsizetype(std::ceil(p / 100.0 * double(n) - 1e-9));
    rank = std::clamp<qsizetype>(rank, 1, n);
    return sorted[rank - 1];
}

LatencyStats computeStats(QList<double> values)
{
    LatencyStats s;
    if (values.isEmpty())
        return s;
    std::sort(values.begin(), values.end());
    s.count = int(values.size());
    s.mean = std::accumulate(values.cbegin(), values.cend(), 0.0) / double(values.size());
    s.min = values.first();
    s.max = values.last();
    s.p50 = percentileNearestRank(values, 50);
    s.p95 = percentileNearestRank(values, 95);
    s.p99 = percentileNearestRank(values, 99);
    return s;
}

namespace {

struct Aggregate
{
    int succeeded = 0;
    QList<double> latencies;
    QList<double> ttfts;
    qint64 tokens = 0;
    double latencySum = 0;
    double decodeTokens = 0;
    double decodeMs = 0;
    double perRequestRateSum = 0;
    bool usageReported = true;
};

Aggregate aggregate(const QList<RequestSample> &samples)
{
    Aggregate a;
    for (const RequestSample &r : samples) {
        if (!r.ok)
            continue;
        ++a.succeeded;
        a.latencies.append(r.latencyMs);
        if (r.ttftMs >= 0)
            a.ttfts.append(r.ttftMs);
        a.tokens += r.completionTokens;
        a.latencySum += r.latencyMs;
        if (r.latencyMs > 0)
            a.perRequestRateSum += double(r.completionTokens) * 1000.0 / r.latencyMs;
        if (r.ttftMs >= 0 && r.completionTokens > 1 && r.latencyMs > r.ttftMs) {
            a.decodeTokens += double(r.completionTokens - 1);
            a.decodeMs += r.latencyMs - r.ttftMs;
        }
        a.usageReported = a.usageReported && r.usageReported;
    }
    return a;
}

} // namespace

SingleResult summarizeSingles(int maxTokens, QList<RequestSample> samples)
{
    SingleResult r;
    r.maxTokens = maxTokens;
    r.requests = int(samples.size());
    const Aggregate a = aggregate(samples);
    r.succeeded = a.succeeded;
    r.latency = computeStats(a.latencies);
    r.ttft = computeStats(a.ttfts);
    r.tokensPerSecond = a.latencySum > 0 ? double(a.tokens) * 1000.0 / a.latencySum : 0;
    r.decodeTokensPerSecond = a.decodeMs > 0 ? a.decodeTokens * 1000.0 / a.decodeMs : 0;
    r.meanCompletionTokens = a.succeeded > 0 ? double(a.tokens) / a.succeeded : 0;
    r.usageReported = a.usageReported;
    r.samples = std::move(samples);
    return r;
}

ConcurrencyResult summarizeRound(int concurrency, int maxTokens, double wallMs, QList<RequestSample> samples)
{
    ConcurrencyResult r;
    r.concurrency = concurrency;
    r.maxTokens = maxTokens;
    r.requests = int(samples.size());
    r.wallMs = wallMs;
    const Aggregate a = aggregate(samples);
    r.succeeded = a.succeeded;
    r.completionTokens = a.tokens;
    r.effectiveTokensPerSecond = wallMs > 0 ? double(a.tokens) * 1000.0 / wallMs : 0;
    r.perRequestTokensPerSecond = a.succeeded > 0 ? a.perRequestRateSum / a.succeeded : 0;
    r.latency = computeStats(a.latencies);
    r.ttft = computeStats(a.ttfts);
    r.usageReported = a.usageReported;
    r.samples = std::move(samples);
    return r;
}

} // namespace switchyard::bench
