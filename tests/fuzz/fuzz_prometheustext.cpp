// libFuzzer target: the Prometheus text parser the health prober runs on a node's /metrics
// (gateway/health/prometheustext). Properties: bounded output (maxSamples), every sample has a valid
// metric name, and the helpers the prober calls on the result work on anything parsed.

#include "fuzzsplit.h"
#include "health/prometheustext.h"

#include <cstdio>
#include <cstdlib>

using namespace switchyard;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QByteArrayView text(reinterpret_cast<const char *>(data), qsizetype(size));
    const health::ParsedMetrics m = health::parsePrometheusText(text, 64);
    FUZZ_ASSERT(m.samples.size() <= 64);
    for (const health::MetricSample &s : m.samples) {
        FUZZ_ASSERT(!s.name.isEmpty());
        (void)s.label("model_name");
    }
    (void)m.sum("vllm:num_requests_running");
    (void)m.sumWhere("vllm:request_success_total", "finished_reason", "stop");
    return 0;
}
