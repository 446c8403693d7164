#pragma once

// A parser for the Prometheus text exposition format (version 0.0.4), enough to read a vLLM node's
// /metrics: samples with labels, comments and TYPE lines skipped, escapes in label values handled.
// Malformed lines are skipped and counted rather than failing the whole scrape: one odd metric from a
// newer vLLM must not blind the health view.

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <optional>
#include <utility>

namespace switchyard::health {

struct MetricSample
{
    QByteArray name;
    QList<std::pair<QByteArray, QByteArray>> labels;
    double value = 0;

    QByteArray label(QByteArrayView key) const;
};

struct ParsedMetrics
{
    QList<MetricSample> samples;
    int malformedLines = 0;

    // Sum over every sample of that name (vLLM labels by model and engine; several engines add up).
    std::optional<double> sum(QByteArrayView name) const;
    // Sum over samples of that name whose label key has the given value.
    std::optional<double> sumWhere(QByteArrayView name, QByteArrayView key, QByteArrayView value) const;
};

// Bounded: stops after maxSamples samples.
ParsedMetrics parsePrometheusText(QByteArrayView text, int maxSamples = 20000);

} // namespace switchyard::health
