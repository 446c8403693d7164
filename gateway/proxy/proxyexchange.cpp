#include "proxyexchange.h"

#include "common/clock.h"
#include "http/bytewriter.h"
#include "proxy/anthropicerror.h"
#include "proxy/openaierror.h"
#include "proxy/responseidmemory.h"
#include "upstream/upstreampool.h"

#include <QDateTime>
#include <QRandomGenerator>
#include <QTimerEvent>

#include <cmath>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::proxy {

namespace {
// Above this many bytes waiting for the client, stop reading the node until the client catches up.
constexpr qint64 BacklogHighWater = 1024 * 1024;
// An error body from a node is kept only this far, for the message that lists what each node said.
constexpr qsizetype MaxErrorBodyBytes = 8 * 1024;

bool isRetryableStatus(int status)
{
    return status == 429 || status == 500 || status == 502 || status == 503 || status == 504;
}

// Health verdicts and the backoff read the gateway's clock, which tests can stop and move on.
qint64 monotonicMs()
{
    return Clock::nowMs();
}
} // namespace

ProxyExchange::ProxyExchange(ExchangeContext context, ResponseSink *sink, QByteArray upstreamPath,
                             http::BodyTemplate body, std::vector<Target> targets, bool stream,
                             stats::RequestRecord record, QObject *parent)
    : Exchange(parent), m_ctx(std::move(context)), m_sink(sink), m_upstreamPath(std::move(upstreamPath)),
      m_body(std::move(body)), m_targets(std::move(targets)), m_stream(stream), m_record(std::move(record))
{
    m_clock.start();
}

void ProxyExchange::speak(ApiFamily family)
{
    m_family = family;
    m_usage = stats::UsageSniffer(usageDialect(family));
}

QByteArray ProxyExchange::errorBody(int status, const QString &message, const QByteArray &code) const
{
    return m_family == ApiFamily::Messages ? anthropicErrorBody(status, message)
                                           : openAiErrorBody(status, message, code);
}

QByteArray ProxyExchange::streamErrorEvent(int status, const QString &message, const QByteArray &code) const
{
    // Anthropic's clients read an `error` event; OpenAI's an error object and the end of the stream.
    if (m_family == ApiFamily::Messages)
        return anthropicErrorEvent(status, message);
    return "data: " + openAiErrorBody(status, message, code) + "\n\ndata: [DONE]\n\n";
}

void ProxyExchange::noteResponseId(QByteArrayView data)
{
    if (!m_responseIds || m_record.status < 200 || m_record.status >= 300)
        return;
    if (const std::optional<QByteArray> id = m_idScanner.feed(data))
        m_responseIds->remember(*id, m_node->name, monotonicMs());
}

void ProxyExchange::startPhaseTimer(int ms)
{
    m_phaseMs = ms;
    m_phaseTimer.start(*m_ctx.deadlines, ms);
}

void ProxyExchange::startTotalTimer(int ms)
{
    m_totalMs = ms;
    m_totalTimer.start(*m_ctx.deadlines, ms);
}

void ProxyExchange::timerEvent(QTimerEvent *event)
{
    // The backoff; the phase and total timeouts are Deadlines (common/deadlines).
    const int id = event->timerId();
    if (id == m_backoffTimer.timerId()) {
        // The backoff ends on the gateway's clock, not when the timer says: a timer may fire a little
        // early, and a test's stopped clock is looked at every few ms until the test moves it on.
        const qint64 left = m_backoffUntilMs - monotonicMs();
        if (left > 0) {
            m_backoffTimer.start(Clock::timerIntervalMs(left), this);
            return;
        }
        m_backoffTimer.stop();
        startAttempt(false);
    } else {
        QObject::timerEvent(event);
    }
}

ProxyExchange::~ProxyExchange()
{
    if (m_connection) {
        m_ctx.pool->discard(m_connection);
        m_connection = nullptr;
    }
}

void ProxyExchange::start()
{
    tryNext();
}

int ProxyExchange::timeoutFor(const config::ProviderConfig &p) const
{
    return std::max(1, p.network.requestTimeoutSeconds) * 1000;
}

void ProxyExchange::noteSkipped(const QString &node, const QString &why)
{
    const QString prefix = node % u": "_s;
    for (QString &s : m_skipped) {
        if (s.startsWith(prefix)) {
            s = prefix % why; // the latest reason, once per node
            return;
        }
    }
    m_skipped.append(prefix % why);
}

void ProxyExchange::forgetSkipped(const QString &node)
{
    const QString prefix = node % u": "_s;
    m_skipped.removeIf([&](const QString &s) { return s.startsWith(prefix); });
}

ProxyExchange::Pick ProxyExchange::admitted(const routing::PoolEntry &e)
{
    const routing::Node &node = m_ctx.table->nodes()[size_t(e.node)];
    m_trial = false;
    if (node.runtime->health.isDraining()) {
        noteSkipped(node.name, u"draining"_s);
        return Pick::Drained;
    }
    const qint64 now = monotonicMs();
    switch (node.runtime->health.admit(now)) {
    case health::Admission::Yes:
        return Pick::Go;
    case health::Admission::Trial:
        m_trial = true;
        return Pick::Go;
    case health::Admission::No:
        break;
    }
    noteSkipped(node.name, QString::fromLatin1(health::nodeStateName(node.runtime->health.state(now))) %
                               u" ("_s % node.runtime->health.reason(now) % u')');
    return Pick::Unhealthy;
}

bool ProxyExchange::admittedAsLastResort(const routing::PoolEntry &e)
{
    const routing::Node &node = m_ctx.table->nodes()[size_t(e.node)];
    m_trial = false;
    if (node.runtime->health.isDraining())
        return false; // drained since the first round: an operator's word is never overridden
    const Target &target = m_targets[m_targetIndex];
    const int deadlineMs =
        timeoutFor(m_ctx.table->nodes()[size_t(target.route.candidates.front().node)].provider);
    const qint64 now = monotonicMs();
    node.runtime->health.requestProbe(); // whatever happens here, find out soon whether it is back
    const QString verdict = QString::fromLatin1(health::nodeStateName(node.runtime->health.state(now))) %
                            u" ("_s % node.runtime->health.reason(now) % u')';
    if (m_clock.elapsed() >= deadlineMs) {
        noteSkipped(node.name, verdict % u"; no time left for a last resort"_s);
        return false;
    }
    if (!node.runtime->health.admitLastResort(now)) {
        noteSkipped(node.name,
                    verdict % u"; it timed out last time, so it is tried as a last resort once every "_s %
                        QString::number(health::NodeHealth::LastResortSlowIntervalMs / 1000) % u" s"_s);
        return false;
    }
    forgetSkipped(node.name);
    return true;
}

bool ProxyExchange::pickNext()
{
    m_pickedRetry = false;
    m_lastResortAttempt = false;
    while (m_targetIndex < m_targets.size()) {
        const routing::Route &route = m_targets[m_targetIndex].route;
        if (m_retriesLeft < 0) {
            m_retriesLeft = route.candidates.empty()
                                ? 0
                                : std::max(0, m_ctx.table->nodes()[size_t(route.candidates.front().node)]
                                                  .provider.network.maxRetries);
            m_stage = Stage::Candidates;
            m_lastResort.clear();
            m_lastResortIndex = 0;
        }
        if (m_stage == Stage::Candidates) {
            while (m_candidateIndex < route.candidates.size()) {
                const size_t index = m_candidateIndex++;
                const routing::PoolEntry &e = route.candidates[index];
                const Pick pick = admitted(e);
                if (pick == Pick::Unhealthy)
                    m_lastResort.push_back(index); // its turn comes if every admitted node fails
                if (pick != Pick::Go)
                    continue;
                m_node = &m_ctx.table->nodes()[size_t(e.node)];
                m_keyIndex = e.key;
                return true;
            }
            m_stage = Stage::LastResort;
        }
        if (m_stage == Stage::LastResort) {
            // Every node health let through has failed (or there was none): before answering an error,
            // try the ones it passed over, each once, in the same order. Their verdict may be stale — a
            // node that healed a moment ago serves the request instead of a client seeing a 502.
            while (m_lastResortIndex < m_lastResort.size()) {
                const routing::PoolEntry &e = route.candidates[m_lastResort[m_lastResortIndex++]];
                if (!admittedAsLastResort(e))
                    continue;
                m_node = &m_ctx.table->nodes()[size_t(e.node)];
                m_keyIndex = e.key;
                m_lastResortAttempt = true;
                return true;
            }
            m_stage = Stage::Retries;
        }
        while (m_retriesLeft > 0 && !route.candidates.empty()) {
            --m_retriesLeft;
            // Retries cycle over the same nodes in the same weighted order.
            const routing::PoolEntry &e = route.candidates[size_t(m_retryNumber) % route.candidates.size()];
            ++m_retryNumber;
            if (admitted(e) != Pick::Go)
                continue;
            m_node = &m_ctx.table->nodes()[size_t(e.node)];
            m_keyIndex = e.key;
            m_pickedRetry = true;
            return true;
        }
        ++m_targetIndex;
        m_candidateIndex = 0;
        m_retriesLeft = -1;
        m_retryNumber = 0;
    }
    return false;
}

void ProxyExchange::tryNext()
{
    if (m_phase == Phase::Done)
        return;
    if (!pickNext()) {
        failAll();
        return;
    }
    if (m_pickedRetry) {
        // A retry after every node failed once: back off as Bifrost does, min(initial·2^n, max) ×
        // U(0.8, 1.2).
        const auto &net = m_node->provider.network;
        const double base =
            std::min<double>(double(net.retryBackoffMaxMs),
                             double(net.retryBackoffInitialMs) * std::pow(2.0, m_retryNumber - 1));
        const double jitter = 0.8 + 0.4 * QRandomGenerator::global()->generateDouble();
        const qint64 backoffMs = qint64(base * jitter);
        m_phase = Phase::Idle;
        m_backoffUntilMs = monotonicMs() + backoffMs;
        m_backoffTimer.start(Clock::timerIntervalMs(backoffMs), this);
        return;
    }
    startAttempt(false);
}

void ProxyExchange::startAttempt(bool forceFresh)
{
    const routing::Node &node = *m_node;
    const routing::Endpoint &ep = node.endpoint;
    const Target &target = m_targets[m_targetIndex];
    const QByteArrayView model = target.route.upstreamModel;
    const qsizetype bodySize = m_body.sizeWithModel(model) + m_bodyToCome;

    // The request to the node built in one buffer: head, then the body with this attempt's model
    // spliced in (no body-sized copy between them).
    QByteArrayView basePath = ep.basePath;
    // A base_url ending in /v1 with a request path starting /v1/ must not become /v1/v1/.
    if (basePath.endsWith("/v1") && m_upstreamPath.startsWith("/v1/"))
        basePath.chop(3);
    const QByteArray &auth = node.authorization[size_t(m_keyIndex)];
    const qsizetype headSize = 160 + m_method.size() + basePath.size() + m_upstreamPath.size() +
                               ep.hostHeader.size() + m_contentType.size() + auth.size() +
                               node.extraHeaderBlock.size();
    QByteArray req;
    req.reserve(headSize + bodySize);
    {
        http::ByteWriter w(req, headSize);
        w.put(m_method).put(' ').put(basePath).put(m_upstreamPath);
        w.put(" HTTP/1.1\r\nHost: ").put(ep.hostHeader).put("\r\n");
        if (bodySize > 0)
            w.put("Content-Type: ").put(m_contentType).put("\r\n");
        w.put(m_stream ? "Accept: text/event-stream\r\nContent-Length: "
                       : "Accept: application/json\r\nContent-Length: ");
        w.decimal(bodySize).put("\r\n");
        if (!auth.isEmpty())
            w.put("Authorization: ").put(auth).put("\r\n");
        w.put(node.extraHeaderBlock).put("\r\n");
    }
    m_body.appendWithModel(req, model);

    if (!forceFresh) {
        ++m_record.attempts;
        m_freshRetryUsed = false;
        // A fresh connection after a stale pooled one is the same attempt, not a node tried again.
        m_record.attemptStarted(node.name,
                                m_lastResortAttempt ? stats::Attempt::Via::LastResort
                                : m_pickedRetry     ? stats::Attempt::Via::Retry
                                                    : stats::Attempt::Via::Candidate,
                                m_targetIndex > 0 ? target.label : QString(), m_clock.elapsed());
    }
    m_record.node = node.name;
    m_errorStatus = 0;
    m_errorBody.clear();
    m_attemptClock.start();
    node.runtime->counters.requests.fetch_add(1, std::memory_order_relaxed);
    node.runtime->counters.inFlight.fetch_add(1, std::memory_order_relaxed);

    m_connection = m_ctx.pool->acquire(ep, forceFresh);
    const bool connected = m_connection->isConnected();
    m_phase = connected ? Phase::AwaitingHead : Phase::Connecting;
    const config::GatewaySettings &settings = m_ctx.table->config().settings;
    m_totalTimer.stop();
    if (!m_stream && m_bodyToCome == 0)
        startTotalTimer(timeoutFor(node.provider));
    if (connected)
        awaitAnswer();
    else
        startPhaseTimer(std::max(1, settings.connectTimeoutMs));
    m_connection->send(std::move(req), this);
}

void ProxyExchange::awaitAnswer()
{
    if (m_bodyToCome > 0) {
        // An upload still arriving: the client connection's body deadline bounds it until its end.
        m_phaseTimer.stop();
        return;
    }
    const config::GatewaySettings &settings = m_ctx.table->config().settings;
    startPhaseTimer(settings.responseHeaderTimeoutMs > 0 ? settings.responseHeaderTimeoutMs
                                                         : timeoutFor(m_node->provider));
    if (!m_stream && !m_totalTimer.isActive())
        startTotalTimer(timeoutFor(m_node->provider));
}

void ProxyExchange::requestBodyArrived(QByteArrayView piece, bool complete)
{
    Q_UNUSED(complete); // the count of bytes to come says it
    m_body.after.append(piece);
    m_bodyToCome -= piece.size();
    if (!m_connection)
        return; // between attempts: the next one sends it with the rest
    m_connection->sendMore(piece);
    if (m_bodyToCome == 0 && m_phase == Phase::AwaitingHead)
        awaitAnswer();
}

void ProxyExchange::upstreamConnected()
{
    if (m_phase != Phase::Connecting)
        return;
    m_phase = Phase::AwaitingHead;
    awaitAnswer();
}

void ProxyExchange::upstreamHead(const http::ResponseParser &response)
{
    const int status = response.status();
    if (isRetryableStatus(status)) {
        // Read the (small) error body to name what the node said, then move on.
        m_errorStatus = status;
        m_phase = Phase::DrainingError;
        return;
    }
    m_committed = true;
    m_phase = Phase::Streaming;
    m_record.status = status;
    m_record.attemptAnswered(status);
    m_node->runtime->counters.successes.fetch_add(1, std::memory_order_relaxed);
    m_node->runtime->health.attemptSucceeded(
        monotonicMs()); // any real answer, 4xx included, shows the node works
    m_trial = false;
    if (status < 400) // cache_aware learns which node now holds this prompt: the one that answers it
        m_targets[m_targetIndex].route.recordServedBy(*m_node);
    // The node deleted the response: forgotten now, before any of its answer reaches the client. A
    // client that reads the id again as soon as it has the answer gets the gateway's 404 even when
    // another worker takes that request before this one has finished the exchange.
    if (m_forgetIds && status >= 200 && status < 300)
        m_forgetIds->forget(m_forgetId);
    const QByteArrayView contentType = response.header("content-type");
    m_sse = contentType.startsWith("text/event-stream");
    if (m_sse && !m_stream) {
        // An event stream is a stream, whatever the request seemed to ask (an upload's `stream` field
        // sent after its audio, read only by the node): idle timeout per event, no total timeout.
        m_stream = true;
        m_record.stream = true;
        m_totalTimer.stop();
    }
    m_filterUsage = m_usageAsked && m_sse;
    m_usage.setWholeReply(!m_sse); // one JSON document: its usage figures are all there is to read
    QByteArray headers;
    {
        const QByteArrayView requestId = response.header("x-request-id");
        http::ByteWriter w(headers, 160 + contentType.size() + m_node->nameUtf8.size() +
                                        m_rateLimitHeaders.size() + requestId.size());
        if (!contentType.isEmpty())
            w.put("Content-Type: ").put(contentType).put("\r\n");
        if (m_sse)
            w.put("Cache-Control: no-cache\r\n");
        w.put("X-Switchyard-Node: ").put(m_node->nameUtf8).put("\r\nX-Switchyard-Attempts: ");
        w.decimal(m_record.attempts).put("\r\n").put(m_rateLimitHeaders);
        if (!requestId.isEmpty())
            w.put("X-Request-Id: ").put(requestId).put("\r\n");
    }
    // The usage filter changes the body's length: the client's framing then cannot be the node's.
    const qint64 length = m_filterUsage ? -1
                          : response.framing() == http::ResponseParser::Framing::Length
                              ? qint64(response.contentLength())
                              : (response.framing() == http::ResponseParser::Framing::None ? 0 : -1);
    m_sink->sendResponseHead(status, headers, length);
    m_bodyLeft = m_filterUsage || response.framing() != http::ResponseParser::Framing::Length ? -1 : length;
    if (m_stream) {
        m_streamIdleMs = std::max(1, m_node->provider.network.streamIdleTimeoutSeconds) * 1000;
        m_lastBodyMs = -1;
        startPhaseTimer(m_streamIdleMs);
    } else
        m_phaseTimer.stop();
}

void ProxyExchange::upstreamBody(QByteArrayView data)
{
    if (m_phase == Phase::DrainingError) {
        if (m_errorBody.size() < MaxErrorBodyBytes)
            m_errorBody.append(data.first(std::min(data.size(), MaxErrorBodyBytes - m_errorBody.size())));
        return;
    }
    if (m_phase != Phase::Streaming)
        return;
    if (m_record.ttftMs < 0) {
        m_record.ttftMs = m_clock.elapsed();
        const qint64 attemptTtft = m_attemptClock.elapsed();
        m_node->runtime->health.recordTtft(attemptTtft);
        m_node->runtime->ttft.record(attemptTtft);
    }
    if (m_countUsage)
        m_usage.feed(data); // the node's bytes, the usage the gateway asked for included
    noteResponseId(data);
    if (m_sse)
        countTokens(); // tokens move the counters as they pass, not when the stream ends
    const QByteArrayView forClient = m_filterUsage ? m_usageFilter.feed(data) : data;
    if (m_bodyLeft >= 0) {
        m_bodyLeft -= data.size();
        if (m_bodyLeft <= 0)
            chargeKey(); // the answer is whole: its tokens count before its last byte reaches the client
    }
    if (!forClient.isEmpty())
        m_sink->sendResponseBody(forClient);
    if (m_phase != Phase::Streaming)
        return; // the write failed and the client is gone: clientGone() ended this exchange
    if (m_stream)
        m_lastBodyMs = m_clock.elapsed(); // the idle timer checks this when it fires (no re-arm per event)
    if (!m_paused && m_sink->outputBacklog() > BacklogHighWater && m_connection) {
        m_paused = true;
        m_connection->pause();
    }
}

void ProxyExchange::outputDrained()
{
    if (m_paused && m_connection && m_sink->outputBacklog() < BacklogHighWater / 4) {
        m_paused = false;
        m_connection->resume();
    }
}

void ProxyExchange::upstreamFinished()
{
    m_phaseTimer.stop();
    m_totalTimer.stop();
    // A node that answered before the whole upload reached it may still be reading it: not reused.
    if (m_phase == Phase::DrainingError) {
        releaseConnection(m_bodyToCome == 0);
        const QString said = upstreamErrorMessage(m_errorBody);
        // A 429 is the node protecting itself, not a broken node: fail over, but do not eject it.
        attemptFailed(u"HTTP "_s % QString::number(m_errorStatus) %
                          (said.isEmpty() ? QString() : u": "_s % said),
                      false, m_errorStatus != 429);
        return;
    }
    if (m_phase != Phase::Streaming)
        return;
    m_node->runtime->counters.latencyMsSum.fetch_add(m_attemptClock.elapsed(), std::memory_order_relaxed);
    m_node->runtime->latency.record(m_attemptClock.elapsed());
    releaseConnection(m_bodyToCome == 0);
    m_record.attemptEnded(stats::Attempt::Outcome::Answered, m_record.status, {}, m_clock.elapsed());
    chargeKey(); // before the stream's last event goes out (the usage event is held until now)
    flushHeldEvent();
    m_sink->endResponse();
    finish(m_record.status);
}

void ProxyExchange::upstreamFailed(const upstream::UpstreamError &error)
{
    m_phaseTimer.stop();
    m_totalTimer.stop();
    const bool wasReused = m_connection && m_connection->isReused();
    releaseConnection(false);
    if (m_committed) {
        m_node->runtime->counters.failures.fetch_add(1, std::memory_order_relaxed);
        m_node->runtime->health.attemptFailed(monotonicMs(), error.message);
        m_record.attemptEnded(stats::Attempt::Outcome::Cut, 0, error.message, m_clock.elapsed());
        const QString msg = u"The node '"_s % m_node->name % u"' failed mid-response: "_s % error.message;
        if (m_sse) {
            // The status line is long gone: tell the client in the stream, as vLLM itself does.
            flushHeldEvent();
            m_sink->sendResponseBody(streamErrorEvent(502, msg, "upstream_error"));
            m_sink->endResponse();
        } else {
            m_sink->abortResponse();
        }
        finish(m_record.status, msg);
        return;
    }
    // A pooled connection the node had closed while idle: the request most likely never reached it.
    if (wasReused && !error.responseStarted && !m_freshRetryUsed &&
        error.kind == upstream::UpstreamErrorKind::Closed) {
        m_node->runtime->counters.requests.fetch_sub(1, std::memory_order_relaxed); // counted again below
        m_freshRetryUsed = true;
        startAttempt(true);
        return;
    }
    attemptFailed(error.message, false);
}

void ProxyExchange::onPhaseTimeout()
{
    const int ms = m_phaseMs;
    const QString secs = QString::number(ms / 1000.0, 'g', 3);
    if (m_phase == Phase::Streaming) {
        // Idle is measured from the last body piece: fire again for the rest of the interval if one came.
        const qint64 idle = m_lastBodyMs >= 0 ? m_clock.elapsed() - m_lastBodyMs : m_streamIdleMs;
        if (idle < m_streamIdleMs) {
            startPhaseTimer(int(m_streamIdleMs - idle));
            return;
        }
        upstreamFailed({upstream::UpstreamErrorKind::Closed,
                        u"stream idle for "_s % QString::number(m_streamIdleMs / 1000.0, 'g', 3) % u" s"_s,
                        true});
        return;
    }
    const QString what = m_phase == Phase::Connecting ? u"connect timed out after "_s % secs % u" s"_s
                                                      : u"no response headers within "_s % secs % u" s"_s;
    releaseConnection(false);
    attemptFailed(what, true);
}

void ProxyExchange::onTotalTimeout()
{
    const QString what = u"request timed out after "_s % QString::number(m_totalMs / 1000) % u" s"_s;
    if (m_committed) {
        upstreamFailed({upstream::UpstreamErrorKind::Closed, what, true});
        return;
    }
    m_phaseTimer.stop();
    releaseConnection(false);
    attemptFailed(what, true);
}

void ProxyExchange::releaseConnection(bool reusable)
{
    if (m_node && m_connection)
        m_node->runtime->counters.inFlight.fetch_sub(1, std::memory_order_relaxed);
    if (!m_connection)
        return;
    upstream::UpstreamConnection *c = m_connection;
    m_connection = nullptr;
    m_paused = false;
    if (reusable)
        m_ctx.pool->release(c);
    else
        m_ctx.pool->discard(c);
}

void ProxyExchange::attemptFailed(const QString &what, bool timeout, bool nodeAtFault)
{
    m_node->runtime->counters.failures.fetch_add(1, std::memory_order_relaxed);
    if (nodeAtFault)
        m_node->runtime->health.attemptFailed(monotonicMs(), what, timeout);
    else
        m_node->runtime->health.attemptAbandoned(m_trial);
    m_trial = false;
    m_record.attemptEnded(timeout         ? stats::Attempt::Outcome::Timeout
                          : m_errorStatus ? stats::Attempt::Outcome::ErrorStatus
                                          : stats::Attempt::Outcome::ConnectionError,
                          m_errorStatus, what, m_clock.elapsed());
    m_tried.append(m_node->name % (m_lastResortAttempt ? u" (last resort): "_s : u": "_s) % what);
    ++m_failures;
    if (timeout)
        ++m_timeouts;
    if (m_errorStatus != 429)
        m_all429 = false;
    m_phase = Phase::Idle;
    tryNext();
}

void ProxyExchange::failAll()
{
    int status = 502;
    QByteArray code = "upstream_error";
    QString message;
    // A stored response's request names no model: it went to the node that created the response.
    const QString what = m_record.model.isEmpty() ? u"the stored response"_s
                                                  : QString(u"the model '"_s % m_record.model % u"'"_s);
    if (m_failures == 0) {
        status = 503;
        code = "no_usable_node";
        message = u"No usable node for "_s % what %
                  (m_skipped.isEmpty() ? QString() : u": "_s % m_skipped.join(u"; "_s));
    } else {
        if (m_timeouts == m_failures) {
            status = 504;
            code = "upstream_timeout";
        } else if (m_all429) {
            status = 429;
            code = "rate_limited";
        }
        message = u"All "_s % QString::number(m_failures) %
                  (m_failures == 1 ? u" attempt"_s : u" attempts"_s) % u" failed for "_s % what % u": "_s %
                  m_tried.join(u"; "_s);
        if (!m_skipped.isEmpty())
            message += u"; skipped "_s % m_skipped.join(u"; "_s);
    }
    m_record.status = status;
    const QByteArray body = errorBody(status, message, code);
    QByteArray headers =
        "Content-Type: application/json\r\nX-Switchyard-Attempts: " + QByteArray::number(m_record.attempts) +
        "\r\n";
    if (m_node)
        headers += "X-Switchyard-Node: " + m_node->name.toUtf8() + "\r\n";
    headers += m_rateLimitHeaders;
    m_sink->sendResponseHead(status, headers, body.size());
    m_sink->sendResponseBody(body);
    m_sink->endResponse();
    finish(status, message);
}

void ProxyExchange::clientGone()
{
    if (m_phase == Phase::Done)
        return;
    m_record.attemptEnded(stats::Attempt::Outcome::ClientClosed, 0, u"client closed the connection"_s,
                          m_clock.elapsed());
    abandonAttempt();
    finish(499, u"client closed the connection"_s);
}

void ProxyExchange::abandonAttempt()
{
    m_backoffTimer.stop();
    m_phaseTimer.stop();
    m_totalTimer.stop();
    if (m_connection && m_node)
        m_node->runtime->health.attemptAbandoned(m_trial); // no verdict on the node: frees a trial slot
    releaseConnection(false); // closing the node's connection is how the node learns to stop
}

void ProxyExchange::gatewayStopping()
{
    if (m_phase == Phase::Done)
        return;
    abandonAttempt();
    const QString msg = u"The gateway is shutting down; the request was cut"_s;
    m_record.attemptEnded(stats::Attempt::Outcome::GatewayStopped, 0, msg, m_clock.elapsed());
    if (!m_committed) {
        // Nothing reached the client yet: a proper 503, which a client may retry elsewhere.
        const QByteArray body = errorBody(503, msg, "gateway_shutting_down");
        m_sink->sendResponseHead(503, "Content-Type: application/json\r\nRetry-After: 1\r\n", body.size());
        m_sink->sendResponseBody(body);
        m_sink->endResponse();
        finish(503, msg);
        return;
    }
    if (m_sse) {
        // Mid-stream: the same in-stream error event and [DONE] as a node failing mid-response, so a
        // client library raises a clear error instead of reporting a truncated answer as complete.
        flushHeldEvent();
        m_sink->sendResponseBody(streamErrorEvent(503, msg, "gateway_shutting_down"));
        m_sink->endResponse();
    }
    finish(m_record.status, msg);
}

void ProxyExchange::chargeTo(KeyHold hold)
{
    m_record.keyId = hold.charge.entry()->key.id;
    m_charge.emplace(std::move(hold.charge));
    m_rateLimitHeaders = std::move(hold.rateLimitHeaders);
}

void ProxyExchange::countTokens()
{
    // Only the answering node's bytes reach the sniffer, so m_node is the node that generated them.
    // The difference may be negative (an estimate above the exact usage): the counter keeps it owed
    // rather than going down, see stats/tokencounter.h.
    if (!m_node)
        return;
    stats::NodeCounters &c = m_node->runtime->counters;
    const qint64 completion = std::max<qint64>(0, completionTokensSeen());
    if (completion != m_countedCompletion) {
        c.completionTokens.add(completion - m_countedCompletion);
        m_countedCompletion = completion;
    }
    const qint64 prompt = std::max<qint64>(0, m_usage.promptTokens());
    if (prompt != m_countedPrompt) {
        c.promptTokens.add(prompt - m_countedPrompt);
        m_countedPrompt = prompt;
    }
}

qint64 ProxyExchange::completionTokensSeen() const
{
    // Counting chunks with text estimates a stream's tokens; in a whole answer the same keys are no
    // tokens (a rerank's documents, a transcript's segments each hold a "text"), only reported usage is.
    return m_sse || m_usage.usageReported() ? m_usage.completionTokens() : -1;
}

void ProxyExchange::chargeKey()
{
    // A client that sends its next request the moment this answer is whole must meet a key whose tokens
    // already count: charged before the last bytes go out, not after (another worker may take that next
    // request while this one is still finishing). end() charges once; finish() calls it again harmlessly.
    if (m_charge)
        m_charge->end(m_usage.promptTokens(), completionTokensSeen());
}

void ProxyExchange::flushHeldEvent()
{
    if (!m_filterUsage)
        return;
    const QByteArray held = m_usageFilter.takeHeld();
    if (!held.isEmpty())
        m_sink->sendResponseBody(held);
}

void ProxyExchange::finish(int status, const QString &error)
{
    if (m_phase == Phase::Done)
        return;
    m_phase = Phase::Done;
    m_backoffTimer.stop();
    m_phaseTimer.stop();
    m_totalTimer.stop();
    m_record.status = status;
    m_record.error = error;
    m_record.durationMs = m_clock.elapsed();
    m_record.promptTokens = m_usage.promptTokens();
    m_record.completionTokens = completionTokensSeen();
    countTokens(); // a stream's estimate reconciled with the exact usage; a whole answer counted now
    if (m_charge)
        m_charge->end(m_record.promptTokens, m_record.completionTokens);
    if (m_ctx.onFinished)
        m_ctx.onFinished(m_record);
    m_sink->exchangeFinished(this);
}

} // namespace switchyard::proxy
