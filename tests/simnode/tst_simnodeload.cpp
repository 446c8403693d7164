// The simulated node under load: /metrics moving as vLLM's do, the prefix cache, waiting beyond
// max_num_seqs, total throughput rising sub-linearly with concurrency (compared only as ratios), client
// aborts freeing their slot, and hundreds of concurrent streams.
#include "simnodetesting.h"

using namespace switchyard;
using namespace switchyard::sim;
using namespace switchyard::sim::testing;

class TestSimNodeLoad final : public QObject
{
    Q_OBJECT

private slots:
    void metricsMoveUnderLoad()
    {
        SimNodeOptions o = fastOptions();
        o.performance.tokensPerSecond = 100;
        auto node = startNode(o);
        QVERIFY(node);
        const QMap<QString, double> before = scrape(node->port());
        QCOMPARE(metric(before, QStringLiteral("vllm:num_requests_running")), 0.0);
        QCOMPARE(metric(before, QStringLiteral("vllm:generation_tokens_total")), 0.0);
        QCOMPARE(metric(before, QStringLiteral("vllm:request_success_total{finished_reason=\"stop\"}")), 0.0);

        std::vector<std::unique_ptr<Client>> streams;
        for (int i = 0; i < 3; ++i) {
            streams.push_back(std::make_unique<Client>(node->port()));
            streams.back()->send(
                httpRequest("POST", "/v1/chat/completions",
                            chatBody({{"stream", true}, {"max_tokens", 40}, {"ignore_eos", true}})));
        }
        for (auto &s : streams)
            QVERIFY(s->waitEvents(2));
        const QMap<QString, double> during = scrape(node->port());
        QCOMPARE(metric(during, QStringLiteral("vllm:num_requests_running")), 3.0);
        QVERIFY(metric(during, QStringLiteral("vllm:kv_cache_usage_perc")) > 0);
        QCOMPARE(metric(during, QStringLiteral("vllm:gpu_cache_usage_perc")),
                 metric(during, QStringLiteral("vllm:kv_cache_usage_perc")));
        QVERIFY(metric(during, QStringLiteral("vllm:prompt_tokens_total")) > 0);
        QCOMPARE(node->counters().running, 3);

        for (auto &s : streams)
            QVERIFY(s->waitResponses(1));
        const QMap<QString, double> after = scrape(node->port());
        QCOMPARE(metric(after, QStringLiteral("vllm:num_requests_running")), 0.0);
        QCOMPARE(metric(after, QStringLiteral("vllm:generation_tokens_total")), 120.0);
        QCOMPARE(metric(after, QStringLiteral("vllm:request_success_total{finished_reason=\"length\"}")),
                 3.0);
        for (const char *h : {"vllm:time_to_first_token_seconds", "vllm:e2e_request_latency_seconds",
                              "vllm:request_queue_time_seconds"}) {
            const QString name = QString::fromLatin1(h);
            QCOMPARE(metric(after, name + QStringLiteral("_count")), 3.0);
            QCOMPARE(metric(after, name + QStringLiteral("_bucket{le=\"+Inf\"}")), 3.0);
            QVERIFY(metric(after, name + QStringLiteral("_sum")) >= 0);
        }
        QCOMPARE(metric(after, QStringLiteral("vllm:inter_token_latency_seconds_count")), 3.0 * 39);
        // Buckets are cumulative.
        QVERIFY(metric(after, QStringLiteral("vllm:e2e_request_latency_seconds_bucket{le=\"0.3\"}")) <=
                metric(after, QStringLiteral("vllm:e2e_request_latency_seconds_bucket{le=\"5.0\"}")));
        QVERIFY(metric(after, QStringLiteral("vllm:num_preemptions_total")) >= 0);
    }

    void prefixCacheServesARepeatedPrefix()
    {
        SimNodeOptions o = fastOptions();
        o.performance.prefillTokensPerSecond = 2000; // a 1000-token prompt: 0.5 s of prefill uncached
        auto node = startNode(o);
        QVERIFY(node);
        const std::string system(4000, 's'); // 1000 tokens
        auto messages = [&](int turns) {
            Json m = Json::array({{{"role", "system"}, {"content", system}}});
            for (int i = 0; i < turns; ++i) {
                m.push_back({{"role", "user"}, {"content", "question " + std::to_string(i)}});
                m.push_back(
                    {{"role", "assistant"}, {"content", "the answer to question " + std::to_string(i)}});
            }
            m.push_back({{"role", "user"}, {"content", "next?"}});
            return m;
        };
        // The stream's final usage; ttftNs: when its first event (sent with the first token) arrived,
        // counted from the connection's start.
        auto streamed = [&](const Json &msgs, qint64 &ttftNs) {
            Client c(node->port());
            c.send(httpRequest("POST", "/v1/chat/completions",
                               chatBody({{"messages", msgs},
                                         {"stream", true},
                                         {"max_tokens", 2},
                                         {"stream_options", {{"include_usage", true}}}})));
            if (!c.waitResponses(1))
                return Json();
            ttftNs = c.responses.first().eventTimesNs.value(0);
            const QList<QByteArray> events = c.responses.first().events();
            return Json::parse(events[events.size() - 2].toStdString(), nullptr, false);
        };

        qint64 coldNs = 0, warmNs = 0;
        const Json cold = streamed(messages(1), coldNs);
        QVERIFY(cold.is_object());
        JCOMPARE(cold["usage"]["prompt_tokens_details"]["cached_tokens"], 0);
        const QMap<QString, double> afterCold = scrape(node->port());
        const double coldPrompt = cold["usage"]["prompt_tokens"].get<double>();
        QCOMPARE(metric(afterCold, QStringLiteral("vllm:prefix_cache_queries_total")), coldPrompt);
        QCOMPARE(metric(afterCold, QStringLiteral("vllm:prefix_cache_hits_total")), 0.0);

        // The next turn extends the conversation: system prompt and turn 1 come from the cache.
        const Json warm = streamed(messages(2), warmNs);
        QVERIFY(warm.is_object());
        const int cached = warm["usage"]["prompt_tokens_details"]["cached_tokens"];
        QVERIFY2(cached >= 1000 && cached % 16 == 0, qPrintable(QString::number(cached)));
        QVERIFY(cached < warm["usage"]["prompt_tokens"].get<int>());
        // Timing as a ratio only: ~0.5 s of prefill against ~10 ms.
        QVERIFY2(warmNs * 3 < coldNs,
                 qPrintable(QStringLiteral("cold %1 ns, warm %2 ns").arg(coldNs).arg(warmNs)));
        const QMap<QString, double> afterWarm = scrape(node->port());
        QCOMPARE(metric(afterWarm, QStringLiteral("vllm:prefix_cache_queries_total")),
                 coldPrompt + warm["usage"]["prompt_tokens"].get<double>());
        QCOMPARE(metric(afterWarm, QStringLiteral("vllm:prefix_cache_hits_total")), double(cached));
        QCOMPARE(node->counters().cachedPromptTokens, qint64(cached));

        // Non-stream and completions answers carry it too.
        const Json whole =
            fetch(node->port(), httpRequest("POST", "/v1/chat/completions",
                                            chatBody({{"messages", messages(2)}, {"max_tokens", 1}})))
                .json();
        QVERIFY(whole["usage"]["prompt_tokens_details"]["cached_tokens"].get<int>() >= cached);
        const QByteArray completion = QByteArray::fromStdString(
            Json{{"model", Model.toStdString()}, {"prompt", system}, {"max_tokens", 1}}.dump());
        fetch(node->port(), httpRequest("POST", "/v1/completions", completion));
        const Json again = fetch(node->port(), httpRequest("POST", "/v1/completions", completion)).json();
        QVERIFY(again["usage"]["prompt_tokens_details"]["cached_tokens"].get<int>() >= 992);
    }

    void noPrefixCachingReportsNoDetails()
    {
        SimNodeOptions o = fastOptions();
        o.performance.prefixCaching = false;
        auto node = startNode(o);
        QVERIFY(node);
        const QByteArray body = chatBody({{"max_tokens", 1}}, std::string(800, 'x'));
        fetch(node->port(), httpRequest("POST", "/v1/chat/completions", body));
        const Json j = fetch(node->port(), httpRequest("POST", "/v1/chat/completions", body)).json();
        QVERIFY(j["usage"].contains("prompt_tokens_details") &&
                j["usage"]["prompt_tokens_details"].is_null());
        const QMap<QString, double> m = scrape(node->port());
        QCOMPARE(metric(m, QStringLiteral("vllm:prefix_cache_queries_total")), 0.0);
        QCOMPARE(metric(m, QStringLiteral("vllm:prefix_cache_hits_total")), 0.0);
    }

    void waitingBeyondMaxNumSeqs()
    {
        SimNodeOptions o = fastOptions();
        o.performance.maxNumSeqs = 2;
        o.performance.tokensPerSecond = 200;
        auto node = startNode(o);
        QVERIFY(node);
        std::vector<std::unique_ptr<Client>> streams;
        for (int i = 0; i < 5; ++i) {
            streams.push_back(std::make_unique<Client>(node->port()));
            streams.back()->send(httpRequest("POST", "/v1/chat/completions",
                                             chatBody({{"stream", true}, {"max_tokens", 30}})));
        }
        QTRY_COMPARE(node->counters().waiting, 3);
        QCOMPARE(node->counters().running, 2);
        QCOMPARE(metric(scrape(node->port()), QStringLiteral("vllm:num_requests_waiting")), 3.0);
        for (auto &s : streams)
            QVERIFY(s->waitResponses(1));
        QCOMPARE(node->counters().waiting, 0);
        QVERIFY(metric(scrape(node->port()), QStringLiteral("vllm:request_queue_time_seconds_sum")) > 0);
    }

    void concurrencyRaisesTotalThroughputSubLinearly()
    {
        SimNodeOptions o = fastOptions();
        o.performance.tokensPerSecond = 400;
        auto node = startNode(o);
        QVERIFY(node);
        const QByteArray body = chatBody({{"stream", true}, {"max_tokens", 200}, {"ignore_eos", true}});
        // Tokens per second over the decode phase of n simultaneous streams, as a client sees them.
        auto measure = [&](int n) {
            std::vector<std::unique_ptr<Client>> clients;
            for (int i = 0; i < n; ++i) {
                clients.push_back(std::make_unique<Client>(node->port()));
                clients.back()->send(httpRequest("POST", "/v1/chat/completions", body));
            }
            qint64 first = LLONG_MAX;
            qint64 last = 0;
            int tokens = 0;
            for (auto &c : clients) {
                if (!c->waitResponses(1, 15000))
                    return -1.0;
                const QList<qint64> &t = c->responses[0].eventTimesNs;
                // events: role, 200 tokens, [DONE]; the clock counts from each client's creation, all
                // created together.
                first = std::min(first, t[1]);
                last = std::max(last, t[200]);
                tokens += 199;
            }
            return tokens / (double(last - first) / 1e9);
        };
        const double single = measure(1);
        const double five = measure(5);
        QVERIFY(single > 0 && five > 0);
        const double ratio = five / single;
        qInfo("single %.0f tok/s, five %.0f tok/s, ratio %.2f (model: %.2f)", single, five, ratio,
              std::pow(5.0, DefaultConcurrencyExponent));
        QVERIFY2(ratio > 1.5 && ratio < 2.3, qPrintable(QString::number(ratio)));
    }

    void clientAbortIsCountedAndFreesTheSlot()
    {
        SimNodeOptions o = fastOptions();
        o.performance.maxNumSeqs = 1;
        o.performance.tokensPerSecond = 100;
        auto node = startNode(o);
        QVERIFY(node);
        Client first(node->port());
        first.send(
            httpRequest("POST", "/v1/chat/completions", chatBody({{"stream", true}, {"max_tokens", 1000}})));
        QVERIFY(first.waitEvents(2));
        Client second(node->port());
        second.send(httpRequest("POST", "/v1/chat/completions", chatBody({{"max_tokens", 3}})));
        QTRY_COMPARE(node->counters().waiting, 1);
        first.abort();
        QTRY_COMPARE(node->counters().clientAborts, 1);
        QVERIFY(second.waitResponses(1, 5000)); // the slot went to the waiting request
        QCOMPARE(second.responses[0].status, 200);
        QTRY_COMPARE(node->counters().running, 0);
        QCOMPARE(metric(scrape(node->port()),
                        QStringLiteral("vllm:request_success_total{finished_reason=\"abort\"}")),
                 1.0);
    }

    void manyConcurrentStreams()
    {
        SimNodeOptions o = fastOptions();
        o.performance.tokensPerSecond = 2000;
        auto node = startNode(o);
        QVERIFY(node);
        const int n = 256;
        const QByteArray request =
            httpRequest("POST", "/v1/chat/completions",
                        chatBody({{"stream", true}, {"max_tokens", 60}, {"ignore_eos", true}}));
        std::vector<std::unique_ptr<Client>> clients;
        for (int i = 0; i < n; ++i) {
            clients.push_back(std::make_unique<Client>(node->port()));
            clients.back()->send(request);
        }
        int maxRunning = 0;
        const bool done = QTest::qWaitFor(
            [&] {
                maxRunning = std::max(maxRunning, node->counters().running);
                return std::all_of(clients.begin(), clients.end(),
                                   [](const auto &c) { return !c->responses.isEmpty() || c->closed; });
            },
            20000);
        QVERIFY(done);
        for (const auto &c : clients) {
            QCOMPARE(c->responses.size(), 1);
            QVERIFY(c->responses[0].body.endsWith("data: [DONE]\n\n"));
            QCOMPARE(c->responses[0].events().size(), 62);
        }
        QCOMPARE(maxRunning, n);
        QCOMPARE(node->counters().completed, n);
        QCOMPARE(node->counters().generationTokens, qint64(n) * 60);
    }
};

QTEST_GUILESS_MAIN(TestSimNodeLoad)
#include "tst_simnodeload.moc"
