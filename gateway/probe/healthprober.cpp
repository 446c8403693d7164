#include "healthprober.h"

#include "common/clock.h"
#include "health/nodehealth.h"
#include "health/prometheustext.h"
#include "stats/noderuntime.h"
#include "upstream/upstreamconnection.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QTimer>
#include <algorithm>
#include <deque>
#include <limits>
#include <nlohmann/json.hpp>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::health {

namespace {
constexpr qsizetype MaxProbeBodyBytes = 2 * 1024 * 1024; // /metrics of a busy multi-engine node fits
constexpr qint64 EarlyCheckGapMs = 500;
}

// One node's checks: a round of sequential requests on one connection, then idle until due again.
class NodeProbe final : public QObject, private upstream::UpstreamListener
{
public:
    NodeProbe(const routing::Node &node, QObject *parent) : QObject(parent) { update(node); }
    ~NodeProbe() override { dropConnection(); }

    void update(const routing::Node &node)
    {
        m_name = node.name;
        m_endpoint = node.endpoint;
        m_runtime = node.runtime;
        m_expectedModels.clear();
        for (const config::KeyConfig &k : node.provider.keys) {
            for (const QString &m : k.models) {
                if (k.enabled && m != u"*" && !m_expectedModels.contains(m))
                    m_expectedModels.append(m);
            }
        }
        m_extraHeaders = node.extraHeaderBlock;
        m_authorization = node.authorization.empty() ? QByteArray() : node.authorization.front();
    }

    bool isBusy() const { return m_step != Step::Idle; }
    // Real time since the last round started; an early check (asked for by a last resort) waits this long.
    qint64 sinceLastRoundMs() const { return m_round.isValid() ? m_round.elapsed() : std::numeric_limits<qint64>::max(); }
    bool takeProbeRequest() { return m_runtime->health.takeProbeRequest(); }
    qint64 dueAtMs = 0;

    void startRound(int timeoutMs)
    {
        if (isBusy())
            return;
        m_timeoutMs = timeoutMs;
        m_round.start();
        m_details = m_runtime->health.details();
        m_result = ProbeResult();
        m_degraded.clear();
        m_step = Step::Health;
        send("/health");
    }

private:
    enum class Step { Idle, Health, Metrics, Models, Version };

    void send(const QByteArray &path)
    {
        dropConnection();
        m_body.clear();
        m_status = 0;
        m_connection = new upstream::UpstreamConnection(m_endpoint, this);
        QByteArray req = "GET " + m_endpoint.basePath + path + " HTTP/1.1\r\nHost: " + m_endpoint.hostHeader
                         + "\r\nAccept: */*\r\nConnection: close\r\n";
        if (!m_authorization.isEmpty())
            req += "Authorization: " + m_authorization + "\r\n";
        req += m_extraHeaders + "\r\n";
        if (!m_timer) {
            m_timer = new QTimer(this);
            m_timer->setSingleShot(true);
            connect(m_timer, &QTimer::timeout, this, [this] {
                dropConnection();
                if (m_step == Step::Health)
                    m_result.timedOut = true; // a last resort to this node would cost a timeout too
                stepFailed(u"timed out after "_s % QString::number(m_timeoutMs / 1000.0, 'g', 3) % u" s"_s);
            });
        }
        m_timer->start(m_timeoutMs);
        m_connection->send(req, this);
    }

    void dropConnection()
    {
        if (m_connection) {
            m_connection->abort();
            m_connection->deleteLater();
            m_connection = nullptr;
        }
    }

    void upstreamHead(const http::ResponseParser &response) override { m_status = response.status(); }
    void upstreamBody(QByteArrayView data) override
    {
        if (m_body.size() + data.size() <= MaxProbeBodyBytes)
            m_body.append(data);
    }
    void upstreamFinished() override
    {
        m_timer->stop();
        stepDone();
    }
    void upstreamFailed(const upstream::UpstreamError &error) override
    {
        m_timer->stop();
        stepFailed(error.kind == upstream::UpstreamErrorKind::ConnectRefused ? u"connection refused"_s : error.message);
    }

    void stepFailed(const QString &why)
    {
        if (m_step == Step::Health) {
            m_result.up = false;
            m_result.downReason = u"health check: "_s % why;
            if (why == u"connection refused")
                m_result.downReason = why;
            finishRound();
            return;
        }
        // /metrics, /v1/models or /version failing does not make a node down: /health said it is up.
        advance();
    }

    void stepDone()
    {
        switch (m_step) {
        case Step::Health:
            if (m_status != 200) {
                m_result.up = false;
                m_result.downReason = m_status == 503 ? u"health 503: engine dead"_s
                                                      : u"health answered HTTP "_s % QString::number(m_status);
                finishRound();
                return;
            }
            m_result.up = true;
            break;
        case Step::Metrics:
            if (m_status == 200)
                readMetrics();
            break;
        case Step::Models:
            if (m_status == 200)
                readModels();
            break;
        case Step::Version:
            if (m_status == 200) {
                const auto j = nlohmann::json::parse(m_body.begin(), m_body.end(), nullptr, false);
                if (j.is_object() && j.contains("version") && j["version"].is_string())
                    m_details.version = QString::fromStdString(j["version"].get<std::string>());
            }
            break;
        case Step::Idle:
            return;
        }
        advance();
    }

    void advance()
    {
        switch (m_step) {
        case Step::Health:
            m_step = Step::Metrics;
            send("/metrics");
            return;
        case Step::Metrics:
            m_step = Step::Models;
            send("/v1/models");
            return;
        case Step::Models:
            if (m_details.version.isEmpty()) {
                m_step = Step::Version;
                send("/version");
                return;
            }
            finishRound();
            return;
        case Step::Version:
        case Step::Idle:
            finishRound();
            return;
        }
    }

    void readMetrics()
    {
        const ParsedMetrics m = parsePrometheusText(m_body);
        const auto running = m.sum("vllm:num_requests_running");
        const auto waiting = m.sum("vllm:num_requests_waiting");
        // Older vLLM builds name the KV-cache gauge after the GPU.
        auto kv = m.sum("vllm:kv_cache_usage_perc");
        if (!kv)
            kv = m.sum("vllm:gpu_cache_usage_perc");
        m_details.hasMetrics = running.has_value() || waiting.has_value() || kv.has_value();
        m_details.running = running.value_or(-1);
        m_details.waiting = waiting.value_or(-1);
        m_details.kvCacheUsage = kv.value_or(-1);
        m_details.promptTokensTotal = m.sum("vllm:prompt_tokens_total").value_or(-1);
        m_details.generationTokensTotal = m.sum("vllm:generation_tokens_total").value_or(-1);
        m_details.preemptionsTotal = m.sum("vllm:num_preemptions_total").value_or(-1);
        m_details.requestsSucceededTotal = m.sum("vllm:request_success_total").value_or(-1);
        readPrefixCache(m);
        HealthNumbers &h = m_numbers;
        h.running = running ? int(*running) : -1;
        h.waiting = waiting ? int(*waiting) : -1;
        h.kvPermille = kv ? int(*kv * 1000.0) : -1;
        const HealthPolicy policy;
        if (waiting && *waiting >= policy.queueWaitingDegradedAt)
            m_degraded << u"queue "_s % QString::number(int(*waiting)) % u" waiting"_s;
        if (kv && *kv >= policy.kvCacheDegradedAt)
            m_degraded << u"KV cache "_s % QString::number(int(*kv * 100)) % u"% full"_s;
    }

    // The prefix-cache hit rate over the recent window, from the two counters' deltas between checks.
    void readPrefixCache(const ParsedMetrics &m)
    {
        const auto queries = m.sum("vllm:prefix_cache_queries_total");
        const auto hits = m.sum("vllm:prefix_cache_hits_total");
        m_details.prefixCacheQueriesTotal = queries.value_or(-1);
        m_details.prefixCacheHitsTotal = hits.value_or(-1);
        if (!queries || !hits) {
            m_prefixSamples.clear();
            m_prefixHitRate = -1;
            m_details.prefixCacheHitRate = -1;
            m_details.predictedPrefixHitRate = -1; // nothing of the node's own to set it beside
            return;
        }
        const qint64 now = Clock::nowMs();
        // A counter going back means the node restarted: its history says nothing about the new one.
        if (!m_prefixSamples.empty()
            && (*queries < m_prefixSamples.back().queries || *hits < m_prefixSamples.back().hits))
            m_prefixSamples.clear();
        const stats::NodeCounters &c = m_runtime->counters;
        m_prefixSamples.push_back({now, *queries, *hits, c.predictedPrefixBytes.load(std::memory_order_relaxed),
                                   c.routedPromptBytes.load(std::memory_order_relaxed)});
        // Keep the newest sample at least PrefixHitWindowMs old as the window's start; bounded anyway.
        while (m_prefixSamples.size() > 2
               && (now - m_prefixSamples[1].atMs >= PrefixHitWindowMs || m_prefixSamples.size() > 256))
            m_prefixSamples.pop_front();
        const PrefixSample &first = m_prefixSamples.front();
        const double dq = *queries - first.queries;
        const double dh = *hits - first.hits;
        if (dq > 0)
            m_prefixHitRate = std::clamp(dh / dq, 0.0, 1.0);
        m_details.prefixCacheHitRate = m_prefixHitRate;
        // The prediction over the same checks, so the two numbers side by side speak of the same requests.
        const qint64 routed = m_prefixSamples.back().routed - first.routed;
        m_details.predictedPrefixHitRate =
            routed > 0 ? std::clamp(double(m_prefixSamples.back().predicted - first.predicted) / double(routed), 0.0, 1.0)
                       : -1;
    }

    void readModels()
    {
        const auto j = nlohmann::json::parse(m_body.begin(), m_body.end(), nullptr, false);
        if (!j.is_object() || !j.contains("data") || !j["data"].is_array())
            return;
        QStringList served;
        for (const auto &d : j["data"]) {
            if (d.is_object() && d.contains("id") && d["id"].is_string())
                served << QString::fromStdString(d["id"].get<std::string>());
        }
        m_details.servedModels = served;
        QStringList missing;
        for (const QString &m : std::as_const(m_expectedModels)) {
            if (!served.contains(m))
                missing << m;
        }
        if (!missing.isEmpty()) {
            m_degraded << u"serves "_s % (served.isEmpty() ? u"no model"_s : served.join(u", "_s))
                              % u" but the config expects "_s % missing.join(u", "_s);
        }
    }

    void finishRound()
    {
        dropConnection();
        m_step = Step::Idle;
        m_details.lastCheckMsSinceEpoch = QDateTime::currentMSecsSinceEpoch();
        m_details.lastCheckDurationMs = m_round.elapsed();
        NodeHealth &health = m_runtime->health;
        if (m_result.up) {
            m_result.degradedReason = m_degraded.join(u"; "_s);
            health.running.store(m_numbers.running);
            health.waiting.store(m_numbers.waiting);
            health.kvCachePermille.store(m_numbers.kvPermille);
            health.prefixHitPermille.store(m_prefixHitRate < 0 ? -1 : int(m_prefixHitRate * 1000.0 + 0.5));
        }
        health.setDetails(m_details);
        health.probeFinished(Clock::nowMs(), m_result);
    }

    struct HealthNumbers
    {
        int running = -1, waiting = -1, kvPermille = -1;
    };

    QString m_name;
    routing::Endpoint m_endpoint;
    std::shared_ptr<stats::NodeRuntime> m_runtime;
    QStringList m_expectedModels;
    QByteArray m_extraHeaders;
    QByteArray m_authorization;
    upstream::UpstreamConnection *m_connection = nullptr;
    QTimer *m_timer = nullptr;
    Step m_step = Step::Idle;
    int m_timeoutMs = 3000;
    int m_status = 0;
    QByteArray m_body;
    QElapsedTimer m_round;
    ProbeResult m_result;
    ProbeDetails m_details;
    HealthNumbers m_numbers;
    QStringList m_degraded;
    struct PrefixSample
    {
        qint64 atMs = 0;
        double queries = 0, hits = 0;
        qint64 predicted = 0, routed = 0; // the gateway's own: NodeCounters::predictedPrefixBytes, routedPromptBytes
    };
    std::deque<PrefixSample> m_prefixSamples; // the checks of the last PrefixHitWindowMs, oldest first
    double m_prefixHitRate = -1;
};

HealthProber::HealthProber(QObject *parent) : QObject(parent) {}

HealthProber::~HealthProber()
{
    qDeleteAll(m_probes);
}

void HealthProber::setTable(std::shared_ptr<const routing::RoutingTable> table)
{
    m_table = std::move(table);
    QHash<QString, NodeProbe *> next;
    const qint64 now = Clock::nowMs();
    for (const routing::Node &node : m_table->nodes()) {
        NodeProbe *p = m_probes.take(node.name);
        if (p) {
            p->update(node);
        } else {
            p = new NodeProbe(node, nullptr);
            p->dueAtMs = now; // a new node is checked at once
        }
        next.insert(node.name, p);
    }
    qDeleteAll(m_probes); // nodes no longer configured
    m_probes = std::move(next);
    if (!m_timer) {
        m_timer = new QTimer(this);
        m_timer->setInterval(100);
        connect(m_timer, &QTimer::timeout, this, &HealthProber::tick);
        m_timer->start();
    }
    tick();
}

void HealthProber::probeNow(const QString &node)
{
    if (NodeProbe *p = m_probes.value(node)) {
        p->dueAtMs = 0;
        tick();
    }
}

void HealthProber::tick()
{
    if (!m_table)
        return;
    const int interval = std::max(50, m_table->config().settings.healthCheckIntervalMs);
    // A check may take at most most of an interval, and never more than 3 s.
    const int timeout = std::clamp(interval * 3 / 4, 50, 3000);
    // Due times are on the gateway's clock (a test moves it on instead of waiting an interval); the
    // 100 ms tick only looks at it.
    const qint64 now = Clock::nowMs();
    for (NodeProbe *p : std::as_const(m_probes)) {
        if (p->isBusy())
            continue;
        // Requests that needed a node as a last resort ask for an early check, at most one round per
        // EarlyCheckGapMs: a node that has recovered is readmitted within a tick, not an interval.
        const bool early = p->sinceLastRoundMs() >= EarlyCheckGapMs && p->takeProbeRequest();
        if (early || now >= p->dueAtMs) {
            p->dueAtMs = now + interval;
            p->startRound(timeout);
        }
    }
}

} // namespace switchyard::health
