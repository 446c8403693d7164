// Hot paths of one proxied request, each alone: parsing the client's request, scanning the body for
// `model`, rewriting it for the node, choosing the node, parsing the node's response and scanning the
// SSE stream for usage, and the statistics updates. Reports ns per operation (Google Benchmark).

#include "config/configloader.h"
#include "http/httprequestparser.h"
#include "http/httpresponseparser.h"
#include "http/jsonbodyscanner.h"
#include "routing/routingtable.h"
#include "routing/weightedschedule.h"
#include "stats/gatewaystats.h"
#include "stats/histogram.h"
#include "stats/noderuntime.h"
#include "stats/usagesniffer.h"

#include <benchmark/benchmark.h>

#include <QString>

using namespace switchyard;

namespace {

const QByteArray ChatBody =
    R"({"model":"nemotron-3-super","messages":[{"role":"system","content":"You are a helpful assistant."},)"
    R"({"role":"user","content":"Write a haiku about load balancers and the quiet hum of racks at night."}],)"
    R"("max_tokens":128,"temperature":0.7,"stream":true,"stream_options":{"include_usage":true},)"
    R"("fallbacks":["other-model","third-model"]})";

QByteArray chatRequest()
{
    return "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: OpenAI/Python "
           "1.40.0\r\n"
           "Accept: application/json\r\nContent-Type: application/json\r\nAuthorization: Bearer sk-local\r\n"
           "X-Stainless-Lang: python\r\nContent-Length: " +
           QByteArray::number(ChatBody.size()) + "\r\n\r\n" + ChatBody;
}

// One vLLM-style SSE event carrying a token, as sent in one chunk of a chunked response.
QByteArray sseEvent(int i)
{
    return R"(data: {"id":"chatcmpl-8f3a","object":"chat.completion.chunk","created":1733140000,"model":"nemotron-3-super","choices":[{"index":0,"delta":{"content":"tok)" +
           QByteArray::number(i) + R"( "},"logprobs":null,"finish_reason":null}]})" + "\n\n";
}

void BM_RequestParse(benchmark::State &state)
{
    const QByteArray wire = chatRequest();
    http::RequestParser parser;
    for (auto _ : state) {
        QByteArray buffer = wire;
        const auto s = parser.parse(buffer);
        http::Request r = parser.takeRequest();
        benchmark::DoNotOptimize(s);
        benchmark::DoNotOptimize(r);
    }
    state.SetBytesProcessed(state.iterations() * wire.size());
}
BENCHMARK(BM_RequestParse);

void BM_BodyScan(benchmark::State &state)
{
    for (auto _ : state) {
        http::ScannedBody scan = http::scanRequestBody(ChatBody);
        benchmark::DoNotOptimize(scan);
    }
    state.SetBytesProcessed(state.iterations() * ChatBody.size());
}
BENCHMARK(BM_BodyScan);

// A large prompt (64 KiB of message text): the scan is linear in the body.
void BM_BodyScanLarge(benchmark::State &state)
{
    QByteArray big = R"({"model":"m1","messages":[{"role":"user","content":")" + QByteArray(64 * 1024, 'x') +
                     R"("}],"stream":false})";
    for (auto _ : state) {
        http::ScannedBody scan = http::scanRequestBody(big);
        benchmark::DoNotOptimize(scan);
    }
    state.SetBytesProcessed(state.iterations() * big.size());
}
BENCHMARK(BM_BodyScanLarge);

void BM_BodyTemplateAndRewrite(benchmark::State &state)
{
    const http::ScannedBody scan = http::scanRequestBody(ChatBody);
    for (auto _ : state) {
        const http::BodyTemplate t = http::makeBodyTemplate(ChatBody, scan);
        QByteArray body = t.withModel("nemotron-3-super-fp8");
        benchmark::DoNotOptimize(body);
    }
}
BENCHMARK(BM_BodyTemplateAndRewrite);

void BM_ScheduleClaim(benchmark::State &state)
{
    const routing::WeightedSchedule schedule({3, 1, 2});
    for (auto _ : state) {
        int e = schedule.at(schedule.claim());
        benchmark::DoNotOptimize(e);
    }
}
BENCHMARK(BM_ScheduleClaim);

std::shared_ptr<const routing::RoutingTable> threeNodeTable(const char *strategy)
{
    const QByteArray json =
        R"({"providers":{)"
        R"("n1":{"keys":[{"name":"k","value":"","models":["m1"],"weight":3}],"network_config":{"base_url":"http://127.0.0.1:9001"},"custom_provider_config":{"base_provider_type":"openai"}},)"
        R"("n2":{"keys":[{"name":"k","value":"","models":["m1"],"weight":1}],"network_config":{"base_url":"http://127.0.0.1:9002"},"custom_provider_config":{"base_provider_type":"openai"}},)"
        R"("n3":{"keys":[{"name":"k","value":"","models":["m1"],"weight":2}],"network_config":{"base_url":"http://127.0.0.1:9003"},"custom_provider_config":{"base_provider_type":"openai"}}},)"
        R"("switchyard":{"routing":{"default_strategy":")" +
        QByteArray(strategy) + R"("}}})";
    auto cfg = config::parseConfig(json);
    if (!cfg) {
        std::fprintf(stderr, "benchmark config rejected: %s\n", qPrintable(cfg.error().first().toString()));
        std::abort();
    }
    auto stats = std::make_shared<stats::GatewayStats>();
    return routing::RoutingTable::build(*cfg, [stats](const QString &n) { return stats->nodeRuntime(n); });
}

void BM_ResolvePool(benchmark::State &state)
{
    const auto table = threeNodeTable("weighted_round_robin");
    for (auto _ : state) {
        auto route = table->resolve("m1", nullptr);
        benchmark::DoNotOptimize(route);
    }
}
BENCHMARK(BM_ResolvePool);

void BM_ResolvePoolLoadAware(benchmark::State &state)
{
    const auto table = threeNodeTable("load_aware");
    for (auto _ : state) {
        auto route = table->resolve("m1", nullptr);
        benchmark::DoNotOptimize(route);
    }
}
BENCHMARK(BM_ResolvePoolLoadAware);

// A 4 KiB chat history, as a multi-turn conversation's tenth turn sends it.
QByteArray conversationPrompt(int id)
{
    QByteArray m = R"([{"role":"system","content":"You are a helpful assistant."})";
    while (m.size() < 4096)
        m += R"(,{"role":"user","content":"Turn of conversation )" + QByteArray::number(id) +
             R"(: a question that takes about a hundred bytes to ask, give or take a few words."})";
    return m + "]";
}

void BM_ResolveSessionAffinity(benchmark::State &state)
{
    const auto table = threeNodeTable("session_affinity");
    routing::RouteRequest r;
    r.sessionKey = "conversation-4711";
    for (auto _ : state) {
        auto route = table->resolve("m1", nullptr, r);
        benchmark::DoNotOptimize(route);
    }
}
BENCHMARK(BM_ResolveSessionAffinity);

// cache_aware on a 4 KiB prompt whose first 3/4 one node has seen, the index holding 1000 other
// conversations: hashing the prompt, a binary search per node, the reorder. With ->Threads(2) both
// threads share the one index (as a gateway's workers do), so the shard locks are contended.
void BM_ResolveCacheAware(benchmark::State &state)
{
    static const auto table = [] {
        auto t = threeNodeTable("cache_aware");
        for (int i = 0; i < 1000; ++i)
            t->prefixIndex()->record(routing::PrefixIndex::keyFor("m1", conversationPrompt(i)),
                                     t->nodes()[size_t(i % 3)].nameHash);
        const QByteArray seen = conversationPrompt(4711).first(3072);
        t->prefixIndex()->record(routing::PrefixIndex::keyFor("m1", seen), t->nodes()[1].nameHash);
        return t;
    }();
    const QByteArray prompt = conversationPrompt(4711);
    routing::RouteRequest r;
    r.prompt = prompt;
    for (auto _ : state) {
        auto route = table->resolve("m1", nullptr, r);
        benchmark::DoNotOptimize(route);
    }
}
BENCHMARK(BM_ResolveCacheAware)->Threads(1)->Threads(2);

// What a served cache_aware request adds after its answer: its 64 blocks into the index (1000
// conversations rotating through it, so both new and refreshed entries).
void BM_PrefixIndexRecord(benchmark::State &state)
{
    static routing::PrefixIndex index;
    std::vector<routing::PromptKey> keys;
    for (int i = 0; i < 1000; ++i)
        keys.push_back(routing::PrefixIndex::keyFor("m1", conversationPrompt(i + 10000 * state.thread_index())));
    size_t i = 0;
    for (auto _ : state)
        index.record(keys[i++ % keys.size()], 42);
}
BENCHMARK(BM_PrefixIndexRecord)->Threads(1)->Threads(2);

void BM_ResolvePinned(benchmark::State &state)
{
    const auto table = threeNodeTable("weighted_round_robin");
    for (auto _ : state) {
        auto route = table->resolve("n2/m1", nullptr);
        benchmark::DoNotOptimize(route);
    }
}
BENCHMARK(BM_ResolvePinned);

// A whole non-streamed node response: head and a Content-Length body.
void BM_ResponseParse(benchmark::State &state)
{
    const QByteArray body =
        R"({"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"m1","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":1,"total_tokens":6}})";
    const QByteArray wire = "HTTP/1.1 200 OK\r\nServer: nginx\r\nDate: Wed, 02 Dec 2026 16:00:00 GMT\r\n"
                            "Content-Type: application/json\r\nContent-Length: " +
                            QByteArray::number(body.size()) + "\r\nConnection: keep-alive\r\n\r\n" + body;
    http::ResponseParser parser;
    for (auto _ : state) {
        QByteArray buffer = wire;
        parser.reset();
        parser.parseHead(buffer);
        qsizetype consumed = 0;
        qsizetype seen = 0;
        parser.feedBody(buffer, consumed, [&](QByteArrayView piece) { seen += piece.size(); });
        benchmark::DoNotOptimize(seen);
    }
}
BENCHMARK(BM_ResponseParse);

// Per SSE chunk on the streaming path: de-chunk the node's bytes and sniff them for usage, as
// ProxyExchange does for every piece it forwards.
void BM_SseChunk(benchmark::State &state)
{
    std::vector<QByteArray> chunks;
    for (int i = 0; i < 64; ++i) {
        const QByteArray ev = sseEvent(i);
        chunks.push_back(QByteArray::number(ev.size(), 16) + "\r\n" + ev + "\r\n");
    }
    http::ResponseParser parser;
    QByteArray head =
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";
    parser.parseHead(head);
    stats::UsageSniffer sniffer;
    size_t i = 0;
    for (auto _ : state) {
        const QByteArray &c = chunks[i++ % chunks.size()];
        qsizetype consumed = 0;
        parser.feedBody(c, consumed, [&](QByteArrayView piece) { sniffer.feed(piece); });
        benchmark::DoNotOptimize(consumed);
    }
    benchmark::DoNotOptimize(sniffer.completionTokens());
}
BENCHMARK(BM_SseChunk);

void BM_UsageSnifferEvent(benchmark::State &state)
{
    const QByteArray ev = sseEvent(7);
    stats::UsageSniffer sniffer;
    for (auto _ : state)
        sniffer.feed(ev);
    benchmark::DoNotOptimize(sniffer.completionTokens());
    state.SetBytesProcessed(state.iterations() * ev.size());
}
BENCHMARK(BM_UsageSnifferEvent);

void BM_HistogramRecord(benchmark::State &state)
{
    stats::Histogram h;
    qint64 ms = 0;
    for (auto _ : state)
        h.record(ms++ & 1023);
}
BENCHMARK(BM_HistogramRecord)->ThreadRange(1, 2);

// What one finished request costs the statistics: the gateway-wide and per-node counters and
// histograms, and the recent-request ring (the one lock on the request path).
void BM_StatsPerRequest(benchmark::State &state)
{
    static stats::GatewayStats stats;
    static const std::shared_ptr<stats::NodeRuntime> node = stats.nodeRuntime(QStringLiteral("n1"));
    stats::RequestRecord r;
    r.method = "POST";
    r.path = "/v1/chat/completions";
    r.model = QStringLiteral("nemotron-3-super");
    r.node = QStringLiteral("n1");
    r.status = 200;
    r.attempts = 1;
    r.ttftMs = 12;
    r.durationMs = 40;
    for (auto _ : state) {
        node->counters.requests.fetch_add(1, std::memory_order_relaxed);
        node->counters.inFlight.fetch_add(1, std::memory_order_relaxed);
        node->ttft.record(r.ttftMs);
        node->counters.successes.fetch_add(1, std::memory_order_relaxed);
        node->latency.record(r.durationMs);
        node->counters.inFlight.fetch_sub(1, std::memory_order_relaxed);
        stats.requestsTotal.fetch_add(1, std::memory_order_relaxed);
        stats.inFlight.fetch_add(1, std::memory_order_relaxed);
        stats.inFlight.fetch_sub(1, std::memory_order_relaxed);
        stats.ttft.record(r.ttftMs);
        stats.latency.record(r.durationMs);
        stats.recordRequest(r);
    }
}
BENCHMARK(BM_StatsPerRequest)->ThreadRange(1, 2);

} // namespace

BENCHMARK_MAIN();
