#pragma once

// The node's Prometheus exposition, named and shaped like vLLM's /metrics (v1 engine): gauges for the
// scheduler state, counters with a _total suffix, and histograms with vLLM's bucket boundaries. Lives on
// the node's thread only; nothing here is shared.

#include <QByteArray>
#include <QString>

#include <array>
#include <vector>

namespace switchyard::sim {

class Histogram final
{
public:
    explicit Histogram(std::vector<double> upperBounds);

    void observe(double value, quint64 times = 1);
    quint64 count() const { return m_count; }
    double sum() const { return m_sum; }
    const std::vector<double> &upperBounds() const { return m_bounds; }

    void render(QByteArray &out, const QByteArray &name, const QByteArray &labels) const;

private:
    std::vector<double> m_bounds;
    std::vector<quint64> m_counts; // per bucket, not cumulative
    quint64 m_count = 0;
    double m_sum = 0;
};

class SimMetrics final
{
public:
    enum class Finished { Stop, Length, Abort };

    SimMetrics(const QString &modelName, int maxModelLen);
    Q_DISABLE_COPY_MOVE(SimMetrics)

    struct Gauges
    {
        int running = 0;
        int waiting = 0;
        double kvCacheUsage = 0;
        qint64 preemptions = 0;
        qint64 prefixCacheQueries = 0; // tokens looked up in the prefix cache
        qint64 prefixCacheHits = 0;    // of those, tokens found
    };

    void addPromptTokens(qint64 n) { m_promptTokens += n; }
    void addGenerationTokens(qint64 n) { m_generationTokens += n; }
    // A request left the engine: its success counter and its per-request histograms.
    void requestFinished(Finished how, double e2eSeconds, int promptTokens, int generationTokens);

    Histogram timeToFirstToken;
    Histogram interTokenLatency;
    Histogram e2eLatency;
    Histogram queueTime;

    QByteArray render(const Gauges &gauges) const;

private:
    QByteArray m_labels; // model_name="…",engine="0"
    qint64 m_promptTokens = 0;
    qint64 m_generationTokens = 0;
    std::array<qint64, 3> m_success{};
    Histogram m_promptTokensHist;
    Histogram m_generationTokensHist;
};

} // namespace switchyard::sim
