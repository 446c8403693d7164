#include "benchmarkrunner.h"

#include "benchexchange.h"
#include "upstream/upstreamconnection.h"

#include <QTimer>
#include <algorithm>
#include <QUuid>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::bench {

namespace {
// vLLM (uvicorn) closes idle keep-alive connections after 5 s; reusing one idle for longer risks a
// request racing the close. Below this the connection is reused, above it a fresh one is opened.
constexpr qint64 MaxIdleReuseMs = 2000;
} // namespace

BenchmarkRunner::BenchmarkRunner(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<switchyard::bench::BenchmarkResults>();
}

BenchmarkRunner::~BenchmarkRunner()
{
    m_running = false;
    abortAll();
}

bool BenchmarkRunner::start(const BenchmarkPlan &plan)
{
    if (m_running) {
        m_lastError = u"a benchmark is already running"_s;
        return false;
    }
    if (plan.targets.isEmpty()) {
        m_lastError = u"no targets to measure"_s;
        return false;
    }
    m_lastError.clear();
    m_plan = plan;
    if (m_plan.prompt.isEmpty())
        m_plan.prompt = defaultPrompt();
    m_results = BenchmarkResults();
    m_results.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    m_results.startedAt = QDateTime::currentDateTimeUtc();
    m_results.plan = m_plan;
    for (const Target &t : std::as_const(m_plan.targets)) {
        TargetResult r;
        r.target = t;
        r.resolvedModel = t.model;
        if (!benchEndpoint(t.baseUrl))
            r.error = u"not an http(s) URL: "_s % t.baseUrl;
        m_results.targets.append(r);
    }
    buildSteps();
    m_stepIndex = 0;
    m_done = 0;
    ++m_generation;
    m_running = true;
    m_runClock.start();
    emit started(m_total);
    emitProgress();
    scheduleNextStep();
    return true;
}

void BenchmarkRunner::buildSteps()
{
    m_steps.clear();
    m_total = 0;
    for (int t = 0; t < m_plan.targets.size(); ++t) {
        if (!m_results.targets[t].error.isEmpty())
            continue;
        auto add = [&](Step::Kind kind, int maxTokens, int count, bool parallel) {
            if (count <= 0)
                return;
            m_steps.push_back({kind, t, maxTokens, count, parallel});
            if (kind != Step::Kind::ResolveModel)
                m_total += count;
        };
        if (m_plan.targets[t].model.isEmpty())
            add(Step::Kind::ResolveModel, 0, 1, false);
        const int warmupTokens = m_plan.maxTokensList.isEmpty() ? 16 : m_plan.maxTokensList.first();
        add(Step::Kind::Warmup, warmupTokens, m_plan.warmupRequests, false);
        if (m_plan.runsSingles()) {
            for (int maxTokens : std::as_const(m_plan.maxTokensList))
                add(Step::Kind::Singles, maxTokens, m_plan.repetitions, false);
        }
        if (m_plan.runsConcurrency())
            add(Step::Kind::Concurrency, m_plan.concurrencyMaxTokens, m_plan.concurrency, true);
        if (m_plan.runsSweep()) {
            for (int level : std::as_const(m_plan.sweepLevels))
                add(Step::Kind::SweepLevel, m_plan.sweepMaxTokens, level, true);
        }
    }
}

void BenchmarkRunner::cancel()
{
    if (!m_running)
        return;
    m_running = false;
    abortAll();
    m_results.cancelled = true;
    m_results.durationMs = double(m_runClock.nsecsElapsed()) / 1e6;
    emit cancelled(m_results);
}

void BenchmarkRunner::abortAll()
{
    for (auto &ex : m_active) {
        if (!ex)
            continue;
        upstream::UpstreamConnection *c = ex->connection();
        ex->abort();
        if (c)
            c->deleteLater();
        bury(std::move(ex));
    }
    m_active.clear();
    m_retried.clear();
    dropIdleConnections();
}

void BenchmarkRunner::scheduleNextStep()
{
    QMetaObject::invokeMethod(this, [this, generation = m_generation] {
        if (m_generation == generation)
            nextStep();
    }, Qt::QueuedConnection);
}

void BenchmarkRunner::nextStep()
{
    if (!m_running)
        return;
    if (m_stepIndex >= m_steps.size()) {
        finishRun();
        return;
    }
    const Step &step = m_steps[m_stepIndex];
    if (m_stepIndex > 0 && m_steps[m_stepIndex - 1].target != step.target)
        dropIdleConnections(); // a new target: nothing to reuse
    m_samples.clear();
    m_launched = 0;
    m_finished = 0;
    m_active.clear();
    m_retried.clear();
    emitProgress();
    m_stepClock.start();
    const int now = step.parallel ? step.count : 1;
    for (int i = 0; i < now; ++i)
        launch(i);
}

void BenchmarkRunner::launch(int)
{
    const Step &step = m_steps[m_stepIndex];
    const Target &target = m_plan.targets[step.target];
    const TargetResult &tr = m_results.targets[step.target];
    const auto endpoint = benchEndpoint(target.baseUrl);
    ++m_launched;
    std::unique_ptr<BenchExchange> ex;
    auto done = [this](BenchExchange *e) { exchangeDone(e); };
    if (step.kind == Step::Kind::ResolveModel) {
        ex = std::make_unique<BenchExchange>(BenchExchange::Kind::Models, buildModelsRequest(*endpoint, target.apiKey),
                                             std::min(m_plan.requestTimeoutMs, 30000), done);
    } else {
        ex = std::make_unique<BenchExchange>(BenchExchange::Kind::Chat,
                                             buildChatRequest(*endpoint, tr.resolvedModel, target.apiKey, m_plan.prompt,
                                                              step.maxTokens, m_plan.ignoreEos, m_plan.api),
                                             m_plan.requestTimeoutMs, done);
        ex->setApi(m_plan.api);
    }
    BenchExchange *raw = ex.get();
    m_active.push_back(std::move(ex));
    raw->start(acquireConnection(false));
}

void BenchmarkRunner::exchangeDone(BenchExchange *exchange)
{
    if (!m_running)
        return;
    const Step step = m_steps[m_stepIndex];
    upstream::UpstreamConnection *connection = exchange->connection();
    const bool ok = exchange->sample().ok;

    if (!ok && exchange->staleConnectionFailure() && !m_retried.value(exchange)) {
        // The server closed the idle connection as we reused it: not the server's failure, try once more
        // on a fresh connection (the clock restarts with it).
        m_retried.insert(exchange, true);
        releaseConnection(connection, false);
        QMetaObject::invokeMethod(this, [this, exchange, generation = m_generation] {
            if (m_running && m_generation == generation)
                exchange->start(acquireConnection(true));
        }, Qt::QueuedConnection);
        return;
    }
    releaseConnection(connection, true);

    ++m_finished;
    TargetResult &tr = m_results.targets[step.target];
    if (step.kind == Step::Kind::ResolveModel) {
        const QString model = ok ? firstModelId(exchange->body()) : QString();
        if (!model.isEmpty()) {
            tr.resolvedModel = model;
        } else {
            // Requests go out without a model (vLLM then uses its only one); if the server is down they
            // fail and show up in the success rates, which is the honest place for it.
            tr.error = u"could not read the model from GET /v1/models ("_s
                       % (ok ? u"no models listed"_s : exchange->sample().error) % u"); requests sent without one"_s;
        }
    } else {
        ++m_done;
        if (step.kind == Step::Kind::Warmup) {
            if (!ok)
                ++tr.warmupFailures;
        } else {
            m_samples.append(exchange->sample());
        }
    }

    // The exchange may be in its own timer's signal or its connection's callback: delete it later.
    for (auto &p : m_active) {
        if (p.get() == exchange) {
            m_retried.remove(exchange);
            bury(std::move(p));
            break;
        }
    }

    if (m_finished >= step.count) {
        stepDone();
        return;
    }
    emitProgress();
    if (!step.parallel && m_launched < step.count) {
        QMetaObject::invokeMethod(this, [this, index = m_stepIndex, generation = m_generation] {
            if (m_running && m_generation == generation && m_stepIndex == index)
                launch(m_launched);
        }, Qt::QueuedConnection);
    }
}

void BenchmarkRunner::stepDone()
{
    const Step &step = m_steps[m_stepIndex];
    const double wallMs = double(m_stepClock.nsecsElapsed()) / 1e6;
    TargetResult &tr = m_results.targets[step.target];
    switch (step.kind) {
    case Step::Kind::ResolveModel:
    case Step::Kind::Warmup:
        break;
    case Step::Kind::Singles:
        tr.singles.append(summarizeSingles(step.maxTokens, m_samples));
        break;
    case Step::Kind::Concurrency:
        tr.concurrency = summarizeRound(step.count, step.maxTokens, wallMs, m_samples);
        break;
    case Step::Kind::SweepLevel:
        tr.sweep.append(summarizeRound(step.count, step.maxTokens, wallMs, m_samples));
        break;
    }
    m_samples.clear();
    m_active.clear();
    if (step.kind != Step::Kind::ResolveModel && step.kind != Step::Kind::Warmup)
        emit resultsUpdated(m_results);
    ++m_stepIndex;
    scheduleNextStep();
}

void BenchmarkRunner::finishRun()
{
    m_running = false;
    dropIdleConnections();
    m_results.durationMs = double(m_runClock.nsecsElapsed()) / 1e6;
    emit progress(m_total, m_total, tr("done"));
    emit finished(m_results);
}

QString BenchmarkRunner::stepLabel() const
{
    if (m_stepIndex >= m_steps.size())
        return {};
    const Step &s = m_steps[m_stepIndex];
    const QString target = m_plan.targets[s.target].label;
    switch (s.kind) {
    case Step::Kind::ResolveModel:
        return target % u" · "_s % tr("finding the model");
    case Step::Kind::Warmup:
        return target % u" · "_s % tr("warm-up");
    case Step::Kind::Singles:
        return target % u" · "_s
               % tr("%1 tokens, request %2 of %3").arg(s.maxTokens).arg(std::min(m_finished + 1, s.count)).arg(s.count);
    case Step::Kind::Concurrency:
        return target % u" · "_s % tr("%1 parallel × %2 tokens").arg(s.count).arg(s.maxTokens);
    case Step::Kind::SweepLevel:
        return target % u" · "_s % tr("sweep: %1 parallel × %2 tokens").arg(s.count).arg(s.maxTokens);
    }
    return target;
}

void BenchmarkRunner::emitProgress()
{
    emit progress(m_done, m_total, stepLabel());
    emit timeLeft(estimateMsLeft());
}

// A request costs about its tokens plus a fixed part (connect, prefill); a round's requests share the
// wall time, growing with their number once the node batches them.
double BenchmarkRunner::workOf(const Step &step)
{
    if (step.kind == Step::Kind::ResolveModel)
        return 0;
    const double one = std::max(step.maxTokens, 1) + 16.0;
    return step.parallel ? one * (1.0 + step.count / 16.0) : one * step.count;
}

qint64 BenchmarkRunner::estimateMsLeft() const
{
    double done = 0;
    double left = 0;
    for (size_t i = 0; i < m_steps.size(); ++i) {
        const double w = workOf(m_steps[i]);
        if (i < m_stepIndex) {
            done += w;
        } else if (i == m_stepIndex && m_steps[i].count > 0) {
            const double part = std::clamp(double(m_finished) / m_steps[i].count, 0.0, 1.0);
            done += w * part;
            left += w * (1.0 - part);
        } else {
            left += w;
        }
    }
    const double elapsedMs = double(m_runClock.nsecsElapsed()) / 1e6;
    if (done <= 0 || elapsedMs < 1000)
        return -1;
    return qint64(left * elapsedMs / done);
}

upstream::UpstreamConnection *BenchmarkRunner::acquireConnection(bool fresh)
{
    while (!fresh && !m_idle.isEmpty()) {
        upstream::UpstreamConnection *c = m_idle.takeLast();
        if (c->isReusable() && c->idleMs() < MaxIdleReuseMs)
            return c;
        c->disconnect(this);
        c->deleteLater();
    }
    const Step &step = m_steps[m_stepIndex];
    const Target &target = m_plan.targets[step.target];
    auto endpoint = benchEndpoint(target.baseUrl);
    endpoint->pinnedSha256 = target.pinnedSha256;
    auto *c = new upstream::UpstreamConnection(*endpoint, this);
    connect(c, &upstream::UpstreamConnection::closedWhileIdle, this, [this](upstream::UpstreamConnection *self) {
        m_idle.removeOne(self);
        self->disconnect(this);
        self->deleteLater();
    });
    return c;
}

void BenchmarkRunner::releaseConnection(upstream::UpstreamConnection *connection, bool reusable)
{
    if (!connection)
        return;
    if (reusable && m_running && connection->isReusable()) {
        m_idle.append(connection);
        return;
    }
    connection->disconnect(this);
    connection->abort();
    connection->deleteLater();
}

void BenchmarkRunner::dropIdleConnections()
{
    for (upstream::UpstreamConnection *c : std::as_const(m_idle)) {
        c->disconnect(this);
        c->abort();
        c->deleteLater();
    }
    m_idle.clear();
}

void BenchmarkRunner::bury(std::unique_ptr<BenchExchange> exchange)
{
    if (!exchange)
        return;
    m_graveyard.push_back(std::move(exchange));
    if (m_graveyardScheduled)
        return;
    m_graveyardScheduled = true;
    QTimer::singleShot(0, this, [this] {
        m_graveyardScheduled = false;
        m_graveyard.clear();
    });
}

} // namespace switchyard::bench
