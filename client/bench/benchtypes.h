#pragma once

// What a benchmark run is asked to do (BenchmarkPlan) and what it measured (BenchmarkResults), as plain
// values: the runner fills them, the formatters print them, the panel shows and stores them. Nothing here
// knows about sockets or widgets.
//
// Definitions (also in docs/BENCHMARK.md), chosen so the numbers line up with the article's tables:
// - latency: request sent → last byte of the stream (includes connecting when no keep-alive connection
//   was idle, as a real client would);
// - TTFT: request sent → first chunk carrying generated text (content or reasoning_content);
// - tok/s of a single request: completion tokens / latency — the article's "吞吐" (20 tokens in 1,401 ms is
//   14.3 tok/s); the decode rate, (tokens − 1) / (latency − TTFT), is reported beside it;
// - effective throughput of a concurrent round: all completion tokens / wall time of the round (first
//   send → last byte of the slowest request);
// - tokens come from the stream's usage chunk (stream_options.include_usage); only when a server does
//   not send one are the content chunks counted, and the sample says so;
// - percentiles use the nearest-rank method: P(p) is the smallest sample with at least p % of the
//   samples at or below it, so every reported value is one that was actually measured.

#include "openai/generationrequest.h"

#include <QDateTime>
#include <QList>
#include <QMetaType>
#include <QString>
#include <optional>

namespace switchyard::bench {

enum class Suite {
    Article, // single requests at each max_tokens × repetitions, then one round of N parallel requests
    Sweep,   // rounds of 1, 2, 4 … parallel requests
    Full,    // Article, then Sweep
    Custom,  // whatever the plan's lists hold: singles if maxTokensList, concurrency if > 0, sweep if levels
};

// Which OpenAI API the measured requests speak: chat completions (every server), or the Responses API
// (POST /v1/responses, which vLLM serves and newer SDKs and agents use): the same prompt and token budget,
// the same TTFT and token counts (from the stream's usage), so the two can be compared side by side.
using Api = openai::GenerationApi;
QString apiName(Api api); // "chat", "responses"
std::optional<Api> parseApi(QStringView name);

// "article", "sweep", "full", "custom"; parseSuite also takes "seed", the first releases' name for "article".
QString suiteName(Suite suite);
std::optional<Suite> parseSuite(QStringView name);

struct Target
{
    QString label;   // "vllm-server1", "gateway pool"
    QString baseUrl; // "http://127.0.0.1:8030" (a trailing "/v1" is tolerated); requests go to …/v1/chat/completions
    QString model;   // sent as "model"; empty: the first id of GET /v1/models
    QString apiKey;  // sent as "Authorization: Bearer …" when set
    // https: the SHA-256 (32 bytes) of a certificate trusted besides the system's (a self-signed gateway).
    QByteArray pinnedSha256;
};

// Out of line: GCC 12 warns falsely about list initialisers in default member initialisers.
QList<int> articleMaxTokens();
QList<int> defaultSweepLevels();

struct BenchmarkPlan
{
    QList<Target> targets;
    Suite suite = Suite::Article;
    int repetitions = 3;                         // measured requests per max_tokens value
    QList<int> maxTokensList = articleMaxTokens(); // the article's single-request tests: 20, 100, 300
    int concurrency = 5;                         // the article's parallel test; 0 = none (Custom)
    int concurrencyMaxTokens = 20;               // the article's 5 × 20 tokens (26.6 tok/s over 3,754 ms)
    QList<int> sweepLevels = defaultSweepLevels(); // 1, 2, 4 … 64
    int sweepMaxTokens = 32;
    int warmupRequests = 1;                      // per target, before anything is measured; not reported
    int requestTimeoutMs = 120000;               // the article's default_request_timeout_in_seconds
    // vLLM's ignore_eos: generate exactly max_tokens, so a "300 tokens" test is 300 tokens and targets
    // are compared on equal work. Servers that reject unknown fields need it off.
    bool ignoreEos = true;                       // chat completions only: the Responses API has no such field
    QString prompt;                              // empty: defaultPrompt()
    Api api = Api::ChatCompletions;

    bool runsSingles() const;
    bool runsConcurrency() const;
    bool runsSweep() const;
    // Requests the run will send (warm-up included): the progress bar's total.
    int totalRequests() const;
};

// The fixed prompt, the same for every target and run.
QString defaultPrompt();

struct RequestSample
{
    bool ok = false;
    int httpStatus = 0;           // 0: no response head
    QString error;                // why it failed; empty when ok
    double latencyMs = 0;
    double ttftMs = -1;           // -1: no token arrived
    qint64 promptTokens = -1;     // from usage; -1 unknown
    qint64 completionTokens = 0;  // from usage, or counted chunks (usageReported false)
    bool usageReported = false;
    qint64 cachedPromptTokens = -1; // usage.prompt_tokens_details.cached_tokens; -1 not reported
    QString node;                 // the X-Switchyard-Node response header (the gateway's choice); empty direct
};

struct LatencyStats
{
    int count = 0;
    double mean = 0;
    double min = 0;
    double p50 = 0;
    double p95 = 0;
    double p99 = 0;
    double max = 0;
};

// Nearest-rank percentile of sorted values (p in 0..100); 0 for no values.
double percentileNearestRank(const QList<double> &sorted, double p);
LatencyStats computeStats(QList<double> values);

// N sequential requests at one max_tokens.
struct SingleResult
{
    int maxTokens = 0;
    int requests = 0;
    int succeeded = 0;
    LatencyStats latency; // successful requests only
    LatencyStats ttft;
    double tokensPerSecond = 0;       // Σ tokens / Σ latency of the successful requests
    double decodeTokensPerSecond = 0; // Σ (tokens − 1) / Σ (latency − TTFT)
    double meanCompletionTokens = 0;
    bool usageReported = true;        // every successful sample had a usage chunk
    QList<RequestSample> samples;
};

// One round of N parallel requests (the article's concurrency test, or one sweep level).
struct ConcurrencyResult
{
    int concurrency = 0;
    int maxTokens = 0;
    int requests = 0;
    int succeeded = 0;
    double wallMs = 0;                   // first send → last request done
    qint64 completionTokens = 0;         // successful requests
    double effectiveTokensPerSecond = 0; // completionTokens / wall time
    double perRequestTokensPerSecond = 0; // mean over successful requests of tokens / latency
    LatencyStats latency;
    LatencyStats ttft;
    bool usageReported = true;
    QList<RequestSample> samples;
};

struct TargetResult
{
    Target target;
    QString resolvedModel;    // the model actually sent (after GET /v1/models when none was given)
    int warmupFailures = 0;
    QString error;            // the target could not be measured at all (bad URL, no model)
    QList<SingleResult> singles;
    std::optional<ConcurrencyResult> concurrency;
    QList<ConcurrencyResult> sweep;
};

struct BenchmarkResults
{
    QString id;               // unique per run, for history
    QDateTime startedAt;      // UTC
    double durationMs = 0;
    bool cancelled = false;   // stopped early: the results hold what finished before
    BenchmarkPlan plan;
    QList<TargetResult> targets;
};

SingleResult summarizeSingles(int maxTokens, QList<RequestSample> samples);
ConcurrencyResult summarizeRound(int concurrency, int maxTokens, double wallMs, QList<RequestSample> samples);

} // namespace switchyard::bench

Q_DECLARE_METATYPE(switchyard::bench::BenchmarkResults)
