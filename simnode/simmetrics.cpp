#include "simmetrics.h"

#include <QLocale>

#include <algorithm>
#include <cmath>

namespace switchyard::sim {

namespace {

// vLLM's buckets (vllm/v1/metrics/loggers.py).
std::vector<double> ttftBuckets()
{
    return {0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0,
            2.5,   5.0,   7.5,  10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0};
}
std::vector<double> itlBuckets()
{
    return {0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0};
}
std::vector<double> requestLatencyBuckets()
{
    return {0.3,  0.5,  0.8,  1.0,  1.5,  2.0,   2.5,   5.0,   10.0,   15.0,   20.0,
            30.0, 40.0, 50.0, 60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0};
}
// 1, 2, 5, 10, 20, 50, … up to the max model length, as vLLM's build_1_2_5_buckets.
std::vector<double> tokenBuckets(int max)
{
    std::vector<double> out;
    for (double exp = 1;; exp *= 10) {
        for (double m : {1.0, 2.0, 5.0}) {
            if (m * exp > max)
                return out;
            out.push_back(m * exp);
        }
    }
}

QByteArray number(double v)
{
    // prometheus_client prints floats Python-style ("12.0"); integral values keep a ".0".
    if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15)
        return QByteArray::number(qint64(v)) + ".0";
    return QByteArray::number(v, 'g', QLocale::FloatingPointShortest);
}

void head(QByteArray &out, const char *name, const char *type, const char *help)
{
    out.append("# HELP ").append(name).append(' ').append(help).append('\n');
    out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
}

void sample(QByteArray &out, const QByteArray &name, const QByteArray &labels, double value)
{
    out.append(name).append('{').append(labels).append("} ").append(number(value)).append('\n');
}

QByteArray escapeLabel(const QString &v)
{
    QByteArray b = v.toUtf8();
    b.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    return b;
}

} // namespace

Histogram::Histogram(std::vector<double> upperBounds)
    : m_bounds(std::move(upperBounds)), m_counts(m_bounds.size() + 1, 0)
{
}

void Histogram::observe(double value, quint64 times)
{
    if (times == 0)
        return;
    const auto it = std::lower_bound(m_bounds.begin(), m_bounds.end(), value); // le = "less or equal"
    m_counts[std::size_t(it - m_bounds.begin())] += times;
    m_count += times;
    m_sum += value * double(times);
}

void Histogram::render(QByteArray &out, const QByteArray &name, const QByteArray &labels) const
{
    quint64 cumulative = 0;
    for (std::size_t i = 0; i < m_bounds.size(); ++i) {
        cumulative += m_counts[i];
        out.append(name).append("_bucket{").append(labels).append(",le=\"").append(number(m_bounds[i]))
            .append("\"} ").append(number(double(cumulative))).append('\n');
    }
    out.append(name).append("_bucket{").append(labels).append(",le=\"+Inf\"} ").append(number(double(m_count))).append('\n');
    out.append(name).append("_count{").append(labels).append("} ").append(number(double(m_count))).append('\n');
    out.append(name).append("_sum{").append(labels).append("} ").append(number(m_sum)).append('\n');
}

SimMetrics::SimMetrics(const QString &modelName, int maxModelLen)
    : timeToFirstToken(ttftBuckets()),
      interTokenLatency(itlBuckets()),
      e2eLatency(requestLatencyBuckets()),
      queueTime(requestLatencyBuckets()),
      m_labels("model_name=\"" + escapeLabel(modelName) + "\",engine=\"0\""),
      m_promptTokensHist(tokenBuckets(maxModelLen)),
      m_generationTokensHist(tokenBuckets(maxModelLen))
{
}

void SimMetrics::requestFinished(Finished how, double e2eSeconds, int promptTokens, int generationTokens)
{
    ++m_success[std::size_t(how)];
    e2eLatency.observe(e2eSeconds);
    m_promptTokensHist.observe(promptTokens);
    m_generationTokensHist.observe(generationTokens);
}

QByteArray SimMetrics::render(const Gauges &g) const
{
    QByteArray out;
    out.reserve(16 * 1024);
    head(out, "vllm:num_requests_running", "gauge", "Number of requests in model execution batches.");
    sample(out, "vllm:num_requests_running", m_labels, g.running);
    head(out, "vllm:num_requests_waiting", "gauge", "Number of requests waiting to be processed.");
    sample(out, "vllm:num_requests_waiting", m_labels, g.waiting);
    head(out, "vllm:kv_cache_usage_perc", "gauge", "KV-cache usage. 1 means 100 percent usage.");
    sample(out, "vllm:kv_cache_usage_perc", m_labels, g.kvCacheUsage);
    // The pre-0.10 name, still read by older dashboards and by health views that accept both.
    head(out, "vllm:gpu_cache_usage_perc", "gauge", "GPU KV-cache usage. 1 means 100 percent usage.");
    sample(out, "vllm:gpu_cache_usage_perc", m_labels, g.kvCacheUsage);

    head(out, "vllm:num_preemptions", "counter", "Cumulative number of preemption from the engine.");
    sample(out, "vllm:num_preemptions_total", m_labels, double(g.preemptions));
    head(out, "vllm:prompt_tokens", "counter", "Number of prefill tokens processed.");
    sample(out, "vllm:prompt_tokens_total", m_labels, double(m_promptTokens));
    head(out, "vllm:generation_tokens", "counter", "Number of generation tokens processed.");
    sample(out, "vllm:generation_tokens_total", m_labels, double(m_generationTokens));
    // In tokens, counted when a sequence is first scheduled (vLLM v1); both stay 0 with prefix caching off.
    head(out, "vllm:prefix_cache_queries", "counter", "Prefix cache queries, in terms of number of queried tokens.");
    sample(out, "vllm:prefix_cache_queries_total", m_labels, double(g.prefixCacheQueries));
    head(out, "vllm:prefix_cache_hits", "counter", "Prefix cache hits, in terms of number of cached tokens.");
    sample(out, "vllm:prefix_cache_hits_total", m_labels, double(g.prefixCacheHits));
    head(out, "vllm:request_success", "counter", "Count of successfully processed requests.");
    static const char *const reasons[] = {"stop", "length", "abort"};
    for (std::size_t i = 0; i < m_success.size(); ++i)
        sample(out, "vllm:request_success_total", m_labels + ",finished_reason=\"" + reasons[i] + '"',
               double(m_success[i]));

    head(out, "vllm:request_prompt_tokens", "histogram", "Number of prefill tokens processed.");
    m_promptTokensHist.render(out, "vllm:request_prompt_tokens", m_labels);
    head(out, "vllm:request_generation_tokens", "histogram", "Number of generation tokens processed.");
    m_generationTokensHist.render(out, "vllm:request_generation_tokens", m_labels);
    head(out, "vllm:time_to_first_token_seconds", "histogram", "Histogram of time to first token in seconds.");
    timeToFirstToken.render(out, "vllm:time_to_first_token_seconds", m_labels);
    head(out, "vllm:inter_token_latency_seconds", "histogram", "Histogram of inter-token latency in seconds.");
    interTokenLatency.render(out, "vllm:inter_token_latency_seconds", m_labels);
    head(out, "vllm:e2e_request_latency_seconds", "histogram", "Histogram of e2e request latency in seconds.");
    e2eLatency.render(out, "vllm:e2e_request_latency_seconds", m_labels);
    head(out, "vllm:request_queue_time_seconds", "histogram",
         "Histogram of time spent in WAITING phase for request.");
    queueTime.render(out, "vllm:request_queue_time_seconds", m_labels);
    return out;
}

} // namespace switchyard::sim
