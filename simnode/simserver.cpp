#include "simserver.h"

#include "simaudioapi.h"
#include "simvllmapi.h"

#include <QDateTime>
#include <QHostInfo>
#include <QRandomGenerator>
#include <QTcpServer>
#include <QTcpSocket>

#include <climits>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::sim {

namespace {

using OJson = nlohmann::ordered_json;

constexpr QByteArrayView JsonType = "application/json";

bool isInference(const http::Request &r)
{
    return r.method == "POST"
        && (r.path == "/v1/chat/completions" || r.path == "/v1/completions" || r.path == "/v1/embeddings"
            || r.path == "/v1/responses" || r.path == "/v1/messages" || r.path == "/v1/messages/count_tokens"
            || isVllmApiPath(r.path) || isAudioPath(r.path)); // vLLM's own endpoints and audio uploads
}

ApiError engineDeadError()
{
    return internalError("EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause.");
}

// Route errors come from Starlette as HTTPException; vLLM's handler turns them into its error shape with
// the status phrase as the type.
ApiError routeError(int status)
{
    return {status, http::reasonPhrase(status), http::reasonPhrase(status)};
}

std::string randomHex()
{
    QRandomGenerator *g = QRandomGenerator::global();
    const QByteArray hex = QByteArray::number(g->generate64(), 16).rightJustified(16, '0')
        + QByteArray::number(g->generate64(), 16).rightJustified(16, '0');
    return hex.toStdString();
}

quint64 mix(quint64 a, quint64 b)
{
    return Rng(a ^ (b * 0x9e3779b97f4a7c15ULL)).next();
}

QHostAddress resolveHost(const QString &host)
{
    QHostAddress a(host);
    if (!a.isNull())
        return a;
    if (host.compare(u"localhost"_s, Qt::CaseInsensitive) == 0)
        return QHostAddress(QHostAddress::LocalHost);
    const QList<QHostAddress> found = QHostInfo::fromName(host).addresses();
    return found.isEmpty() ? QHostAddress() : found.first();
}

} // namespace

SimServer::SimServer(SimNodeOptions options, SharedState &shared)
    : m_options(std::move(options)),
      m_shared(shared),
      m_listener(new QTcpServer(this)),
      m_model(m_options.performance),
      m_metrics(m_options.models.value(0), m_options.maxModelLen),
      m_faultRng(m_options.text.seed ? *m_options.text.seed ^ 0xfa17ULL : QRandomGenerator::global()->generate64())
{
    // Enough backlog for hundreds of clients connecting at once (Qt's default is 50).
    m_listener->setListenBacklogSize(1024);
    connect(m_listener, &QTcpServer::newConnection, this, &SimServer::onNewConnection);
    m_tickTimer.setSingleShot(true);
    m_tickTimer.setTimerType(Qt::PreciseTimer); // decode steps are milliseconds apart at test speeds
    connect(&m_tickTimer, &QTimer::timeout, this, &SimServer::tick);
    m_refuseTimer.setSingleShot(true);
    connect(&m_refuseTimer, &QTimer::timeout, this, [this] { setFault(FaultMode::Healthy, {}); });
    m_relistenTimer.setSingleShot(true);
    connect(&m_relistenTimer, &QTimer::timeout, this, &SimServer::startListening);
}

SimServer::~SimServer()
{
    shutdown();
}

Expected<quint16, QString> SimServer::listen()
{
    m_address = resolveHost(m_options.host);
    if (m_address.isNull())
        return unexpected(u"cannot resolve host %1"_s.arg(m_options.host));
    if (!m_listener->listen(m_address, m_options.port)) {
        return unexpected(u"cannot listen on %1:%2: %3"_s.arg(m_options.host).arg(m_options.port)
                              .arg(m_listener->errorString()));
    }
    m_port = m_listener->serverPort();
    if (m_options.fault != FaultMode::Healthy)
        setFault(m_options.fault, m_options.faultParams);
    return m_port;
}

void SimServer::shutdown()
{
    m_tickTimer.stop();
    m_refuseTimer.stop();
    m_relistenTimer.stop();
    m_listener->close();
    const QList<SimConnection *> connections = m_connections.values();
    m_connections.clear();
    m_held.clear();
    m_exchanges.clear();
    for (SimConnection *c : connections)
        delete c; // its destructor silences the socket first: no callbacks into a dying server
    m_shared.openConnections = 0;
    m_shared.running = 0;
    m_shared.waiting = 0;
}

void SimServer::onNewConnection()
{
    while (QTcpSocket *socket = m_listener->nextPendingConnection()) {
        auto *c = new SimConnection(socket, *this, m_options.keepAliveTimeoutMs, this);
        m_connections.insert(c);
    }
    publishGauges();
}

void SimServer::handleRequest(SimConnection &connection, http::Request request)
{
    const bool control = request.path.startsWith("/control/");
    if (isInference(request))
        ++m_shared.requestsReceived;
    if (!control && m_fault == FaultMode::Garbage) {
        // A port taken over by something that is not an HTTP server (or a node gone mad): bytes that are
        // no HTTP response, then the connection closes. Counted as an injected fault.
        ++m_shared.faultsInjected;
        static constexpr char garbage[] = "\x15\x03\x01\x00\x02\x02\x50SSH-2.0-OpenSSH_9.2\r\n\x00\xff{not http}\r\n\r\n";
        connection.respondRaw(QByteArrayView(garbage, sizeof(garbage) - 1)); // NULs included

        return;
    }
    if (!control && m_fault == FaultMode::Hang) {
        // A wedged server reads the request and never answers; it resumes when the fault ends.
        m_held.insert_or_assign(&connection, std::move(request));
        return;
    }
    dispatch(connection, request);
}

void SimServer::dispatch(SimConnection &c, const http::Request &r)
{
    try {
        const QByteArray &path = r.path;
        // Answers 405 unless the method is right.
        auto allowed = [&](const char *method) {
            if (r.method == method)
                return true;
            respondJson(c, r, 405, errorBody(routeError(405)), QByteArray(QByteArray("allow: ") + method + "\r\n"));
            return false;
        };
        if (path.startsWith("/control/")) {
            handleControl(c, r);
            return;
        }
        if (!m_options.apiKey.isEmpty() && (path.startsWith("/v1") || path.startsWith("/v2"))
            && r.header("authorization") != QByteArray("Bearer " + m_options.apiKey.toUtf8())) {
            respondJson(c, r, 401, R"({"error":"Unauthorized"})");
            return;
        }
        if (path == "/health") {
            if (allowed("GET")) {
                const int status = m_fault == FaultMode::EngineDead ? 503 : 200;
                logAccess(c, r, status);
                c.respond(status, {}, {});
            }
        } else if (path == "/version") {
            if (allowed("GET"))
                respondJson(c, r, 200, toBytes(OJson{{"version", m_options.vllmVersion.toStdString()}}));
        } else if (path == "/v1/models") {
            if (allowed("GET")) {
                const QString root = m_options.modelRoot.isEmpty() ? u"/models/"_s + m_options.models.value(0)
                                                                   : m_options.modelRoot;
                respondJson(c, r, 200, modelsBody(m_options.models, root, m_options.maxModelLen,
                                                  QDateTime::currentSecsSinceEpoch()));
            }
        } else if (path == "/metrics") {
            if (allowed("GET")) {
                const PrefixCache *cache = m_model.prefixCache();
                const QByteArray body = m_metrics.render({m_model.running(), m_model.waiting(),
                                                          m_model.kvCacheUsage(), m_model.preemptions(),
                                                          cache ? cache->queriedTokens() : 0,
                                                          cache ? cache->hitTokens() : 0});
                logAccess(c, r, 200);
                c.respond(200, "text/plain; version=0.0.4; charset=utf-8", body);
            }
        } else if (path == "/v1/chat/completions") {
            if (allowed("POST"))
                handleGeneration(c, r, Endpoint::ChatCompletions);
        } else if (path == "/v1/completions") {
            if (allowed("POST"))
                handleGeneration(c, r, Endpoint::Completions);
        } else if (path == "/v1/embeddings") {
            if (allowed("POST"))
                handleEmbeddings(c, r);
        } else if (path == "/v1/responses") {
            if (allowed("POST"))
                handleGeneration(c, r, Endpoint::Responses);
        } else if (path.startsWith("/v1/responses/")) {
            handleStoredResponse(c, r);
        } else if (path == "/v1/messages") {
            if (allowed("POST"))
                handleGeneration(c, r, Endpoint::Messages);
        } else if (path == "/v1/messages/count_tokens") {
            if (allowed("POST"))
                handleCountTokens(c, r);
        } else if (isVllmApiPath(path)) { // vLLM's own endpoints and audio uploads
            if (allowed("POST"))
                handleVllmApi(c, r);
        } else if (isAudioPath(path)) {
            if (allowed("POST"))
                handleAudio(c, r);
        } else {
            respondJson(c, r, 404, errorBody(routeError(404)));
        }
    } catch (const std::exception &e) {
        // Never crash on a request: whatever slipped through validation becomes a 500.
        if (c.exchangeOpen() && c.tag() == 0)
            respondError(c, r, internalError(e.what()));
    }
}

void SimServer::respondJson(SimConnection &c, const http::Request &r, int status, const QByteArray &body,
                            QByteArrayView extraHeaders)
{
    if (isInference(r))
        ++m_shared.completed; // before the bytes leave: a client that saw the answer sees the count
    logAccess(c, r, status);
    c.respond(status, JsonType, body, extraHeaders);
}

void SimServer::respondError(SimConnection &c, const http::Request &r, const ApiError &error)
{
    // vLLM answers the Messages API's errors in Anthropic's envelope.
    respondJson(c, r, error.status, r.path.startsWith("/v1/messages") ? messagesErrorBody(error) : errorBody(error));
}

bool SimServer::injectRequestFault(SimConnection &c, const http::Request &r)
{
    if (m_fault == FaultMode::EngineDead) {
        ++m_shared.faultsInjected;
        respondError(c, r, engineDeadError());
        return true;
    }
    if (m_fault == FaultMode::Error500 && m_faultRng.unit() < m_faultParams.errorFraction) {
        ++m_shared.faultsInjected;
        respondError(c, r, internalError("Simulated internal server error (fault injection: error500)."));
        return true;
    }
    return false;
}

void SimServer::handleGeneration(SimConnection &c, const http::Request &r, Endpoint endpoint)
{
    const char *idPrefix = endpoint == Endpoint::ChatCompletions ? "chatcmpl-"
                           : endpoint == Endpoint::Completions   ? "cmpl-"
                           : endpoint == Endpoint::Responses     ? "resp_"
                                                                 : "msg_";
    const std::string id = idPrefix + randomHex();
    std::shared_ptr<ApiWriter> api;
    GenerationRequest g;
    if (endpoint == Endpoint::Responses || endpoint == Endpoint::Messages) {
        auto parsed = parseApiRequest(r, endpoint, id);
        if (!parsed) {
            respondError(c, r, parsed.error());
            return;
        }
        g = std::move(parsed->first);
        api = std::move(parsed->second);
    } else {
        if (m_options.refuseStreamOptions && r.body.contains("\"stream_options\"")) {
            respondError(c, r, badRequest("[{'type': 'extra_forbidden', 'loc': ('body', 'stream_options'), "
                                          "'msg': 'Extra inputs are not permitted'}]"));
            return;
        }
        auto parsed = parseGenerationRequest(endpoint, r.body, m_options.models, m_options.maxModelLen);
        if (!parsed) {
            respondError(c, r, parsed.error());
            return;
        }
        g = std::move(*parsed);
    }
    if (injectRequestFault(c, r))
        return;
    if (!m_options.streamUsage) {
        g.includeUsage = false;
        g.continuousUsage = false;
    }

    // Same request, same text: with a request seed or a node seed, everything derives from it and the
    // prompt; otherwise each request gets fresh randomness.
    quint64 seed;
    if (g.seed)
        seed = mix(quint64(*g.seed), g.promptHash);
    else if (m_options.text.seed)
        seed = mix(*m_options.text.seed, g.promptHash);
    else
        seed = QRandomGenerator::global()->generate64();

    // Where a natural end-of-sequence would fall (at the end of a sentence a sampled length away), then
    // whichever limit comes first.
    TextGenerator answer(seed, TextGenerator::Style::Answer);
    const int reasoningTokens = endpoint == Endpoint::ChatCompletions ? m_options.text.reasoningTokens : 0;
    int natural = INT_MAX;
    if (!g.ignoreEos) {
        const int mean = m_options.text.meanOutputTokens;
        Rng lengthRng(seed ^ 0x1e57ULL);
        const int sampled = std::max({1, mean / 2 + lengthRng.below(mean + 1), g.minTokens});
        natural = reasoningTokens + answer.tokensToSentenceEnd(std::max(1, sampled - reasoningTokens));
    }
    const int limit = g.maxTokens.value_or(m_options.maxModelLen - g.promptTokens);
    const int target = std::max(1, std::min(natural, limit));
    const FinishReason reason = natural <= limit ? FinishReason::Stop : FinishReason::Length;

    const bool stream = g.stream;
    const SequenceId sequence = m_model.submit(g.promptTokens, target, reason, g.promptBlocks());
    Exchange ex{
        .connection = &c,
        .request = g,
        .writer = ResponseWriter(endpoint, id, QDateTime::currentSecsSinceEpoch(), g.model, g.includeUsage,
                                 g.continuousUsage),
        .reasoningTokens = reasoningTokens,
        .emitted = 0,
        .submittedAt = m_model.now(),
        .answer = std::move(answer),
        .reasoning = TextGenerator(mix(seed, 0x7ea5ULL), TextGenerator::Style::Reasoning),
        .text = {},
        .reasoningText = {},
        .api = std::move(api),
    };
    m_exchanges.emplace(sequence, std::move(ex));
    c.setTag(sequence);
    logAccess(c, r, 200);
    if (stream)
        c.beginStream(); // headers go out at once, as Starlette sends them before the first chunk
    publishGauges();
    scheduleTick();
}

void SimServer::handleEmbeddings(SimConnection &c, const http::Request &r)
{
    auto parsed = parseEmbeddingRequest(r.body, m_options.models, m_options.maxModelLen,
                                        m_options.text.embeddingDimensions);
    if (!parsed) {
        respondError(c, r, parsed.error());
        return;
    }
    if (injectRequestFault(c, r))
        return;
    m_metrics.addPromptTokens(parsed->promptTokens);
    m_shared.promptTokens += parsed->promptTokens;
    respondJson(c, r, 200, embeddingsBody(*parsed, "embd-" + randomHex(), QDateTime::currentSecsSinceEpoch(),
                                          m_options.text.embeddingDimensions));
}

void SimServer::handleVllmApi(SimConnection &c, const http::Request &r)
{
    const VllmApiContext context{m_options.models, m_options.maxModelLen, m_options.text.embeddingDimensions,
                                 randomHex(), QDateTime::currentSecsSinceEpoch()};
    auto answer = answerVllmApi(r.path, r.body, context);
    if (!answer) {
        respondError(c, r, answer.error());
        return;
    }
    if (injectRequestFault(c, r))
        return;
    m_metrics.addPromptTokens(answer->promptTokens);
    m_shared.promptTokens += answer->promptTokens;
    respondJson(c, r, 200, answer->body);
}

void SimServer::handleAudio(SimConnection &c, const http::Request &r)
{
    auto answer = answerAudio(r.path, r.header("content-type"), r.body,
                              AudioContext{m_options.models, randomHex(), QDateTime::currentSecsSinceEpoch()});
    if (!answer) {
        respondError(c, r, answer.error());
        return;
    }
    if (injectRequestFault(c, r))
        return;
    m_metrics.addPromptTokens(answer->promptTokens);
    m_metrics.addGenerationTokens(answer->completionTokens);
    m_shared.promptTokens += answer->promptTokens;
    m_shared.generationTokens += answer->completionTokens;
    if (!answer->stream) {
        if (isInference(r))
            ++m_shared.completed;
        logAccess(c, r, 200);
        c.respond(200, answer->contentType, answer->body);
        return;
    }
    // The whole transcript is ready at once (nothing is decoded); drop-stream still cuts it after N events.
    logAccess(c, r, 200);
    c.beginStream();
    for (qsizetype i = 0; i < answer->events.size(); ++i) {
        if (m_fault == FaultMode::DropStream && i >= m_faultParams.dropAfterTokens) {
            ++m_shared.faultsInjected;
            c.drop();
            return;
        }
        c.streamData(answer->events[i]);
    }
    ++m_shared.completed;
    c.endStream();
}

void SimServer::handleControl(SimConnection &c, const http::Request &r)
{
    if (r.path == "/control/stats") {
        if (r.method == "GET")
            respondJson(c, r, 200, statsJson());
        else
            respondJson(c, r, 405, errorBody(routeError(405)), "allow: GET\r\n");
        return;
    }
    if (r.path != "/control/fault") {
        respondJson(c, r, 404, errorBody(routeError(404)));
        return;
    }
    if (r.method == "GET") {
        respondJson(c, r, 200, faultJson());
        return;
    }
    if (r.method != "POST") {
        respondJson(c, r, 405, errorBody(routeError(405)), "allow: GET, POST\r\n");
        return;
    }
    const nlohmann::json j = nlohmann::json::parse(r.body.begin(), r.body.end(), nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("mode") || !j["mode"].is_string()) {
        respondError(c, r, badRequest(R"(expected {"mode": "healthy|error500|hang|refuse|drop-stream|slow|dead|garbage", ...})"));
        return;
    }
    const auto mode = parseFaultMode(QString::fromStdString(j["mode"].get<std::string>()));
    if (!mode) {
        respondError(c, r, badRequest("unknown fault mode: " + j["mode"].get<std::string>()));
        return;
    }
    FaultParams p;
    auto number = [&](const char *key, auto &out) {
        if (j.contains(key) && j[key].is_number())
            out = j[key].get<std::decay_t<decltype(out)>>();
    };
    number("error_fraction", p.errorFraction);
    number("drop_after_tokens", p.dropAfterTokens);
    number("slow_factor", p.slowFactor);
    number("refuse_ms", p.refuseMs);
    if (p.errorFraction < 0 || p.errorFraction > 1 || p.dropAfterTokens < 0 || !(p.slowFactor > 0) || p.refuseMs < 0) {
        respondError(c, r, badRequest("fault parameters out of range"));
        return;
    }
    // Applied before answering, so the fault is in force once the client has its 200. This connection
    // has an open exchange, so "refuse" leaves it alone and the answer still arrives.
    setFault(*mode, p);
    respondJson(c, r, 200, faultJson());
}

void SimServer::setFault(FaultMode mode, const FaultParams &params)
{
    const FaultMode old = m_fault;
    tick(); // settle the model up to now before its speed or state changes (no-op inside a tick)
    m_fault = mode;
    m_faultParams = params;
    m_shared.fault = int(mode);
    m_model.setSlowFactor(mode == FaultMode::Slow ? params.slowFactor : 1.0);
    if (mode == FaultMode::Hang)
        m_model.pause();
    else
        m_model.resume();

    m_refuseTimer.stop();
    if (mode == FaultMode::Refuse) {
        stopListening();
        if (params.refuseMs > 0)
            m_refuseTimer.start(params.refuseMs);
    } else {
        startListening();
    }
    if (mode == FaultMode::EngineDead)
        failAllExchanges(engineDeadError());
    if (old == FaultMode::Hang && mode != FaultMode::Hang)
        releaseHeld();
    publishGauges();
    scheduleTick();
}

void SimServer::stopListening()
{
    m_relistenTimer.stop();
    m_listener->close();
    // Pooled idle connections would otherwise still reach a node that refuses new ones.
    const QList<SimConnection *> connections = m_connections.values();
    for (SimConnection *c : connections) {
        if (m_connections.contains(c))
            c->closeIfIdle();
    }
}

void SimServer::startListening()
{
    if (m_listener->isListening() || m_fault == FaultMode::Refuse || m_port == 0)
        return;
    if (!m_listener->listen(m_address, m_port))
        m_relistenTimer.start(100); // the port may be briefly unavailable; keep trying
}

void SimServer::releaseHeld()
{
    auto held = std::move(m_held);
    m_held.clear();
    for (auto &[connection, request] : held) {
        if (m_connections.contains(connection) && connection->exchangeOpen())
            dispatch(*connection, request);
    }
}

void SimServer::connectionClosed(SimConnection &c, bool exchangeOpen)
{
    m_connections.remove(&c);
    if (exchangeOpen) {
        const auto held = m_held.find(&c);
        if (held != m_held.end()) {
            if (isInference(held->second))
                ++m_shared.clientAborts;
            m_held.erase(held);
        } else if (c.tag() != 0) {
            takeAborted(c.tag());
            ++m_shared.clientAborts;
        }
    }
    c.deleteLater(); // we are inside its socket's signal
    publishGauges();
    scheduleTick();
}

std::optional<SimServer::Exchange> SimServer::takeAborted(SequenceId id)
{
    auto node = m_exchanges.extract(id);
    if (node.empty())
        return std::nullopt;
    Exchange &ex = node.mapped();
    m_model.cancel(id);
    m_metrics.requestFinished(SimMetrics::Finished::Abort, double(m_model.now() - ex.submittedAt) / 1e9,
                              ex.request.promptTokens, ex.emitted);
    return std::move(ex);
}

void SimServer::tick()
{
    if (m_inTick)
        return;
    m_inTick = true;
    // Exchanges may finish, drop or start (pipelined requests) while we go: emitTokens looks each one up
    // afresh and never keeps an iterator across a call into a connection.
    for (const SequenceEvent &e : m_model.advance())
        emitTokens(e.id, e);
    m_inTick = false;
    publishGauges();
    scheduleTick();
}

void SimServer::scheduleTick()
{
    if (m_inTick)
        return;
    const std::optional<qint64> due = m_model.nanosUntilNextEvent();
    if (!due) {
        m_tickTimer.stop();
        return;
    }
    m_tickTimer.start(std::chrono::milliseconds((*due + 999'999) / 1'000'000));
}

void SimServer::emitTokens(SequenceId id, const SequenceEvent &e)
{
    const auto it = m_exchanges.find(id);
    if (it == m_exchanges.end())
        return;
    Exchange &ex = it->second;
    if (e.admitted) {
        m_metrics.queueTime.observe(e.queueSeconds);
        ex.cachedTokens = e.cachedTokens;
        m_shared.cachedPromptTokens += e.cachedTokens;
    }
    if (e.firstToken) {
        m_metrics.timeToFirstToken.observe(e.ttftSeconds);
        m_metrics.addPromptTokens(ex.request.promptTokens);
        m_shared.promptTokens += ex.request.promptTokens;
    }
    if (e.itlCount > 0)
        m_metrics.interTokenLatency.observe(e.itlSumSeconds / e.itlCount, quint64(e.itlCount));
    m_metrics.addGenerationTokens(e.newTokens);
    m_shared.generationTokens += e.newTokens;

    const bool chat = ex.request.endpoint == Endpoint::ChatCompletions;
    for (int i = 0; i < e.newTokens; ++i) {
        if (m_fault == FaultMode::DropStream && ex.emitted >= m_faultParams.dropAfterTokens) {
            dropExchange(id);
            return;
        }
        const bool last = e.finished && i == e.newTokens - 1;
        const bool reasoning = ex.emitted < ex.reasoningTokens;
        const QByteArray token = reasoning ? ex.reasoning.next() : ex.answer.next();
        ++ex.emitted;
        if (ex.api) {
            if (ex.request.stream) {
                if (ex.emitted == 1)
                    ex.connection->streamData(ex.api->openEvents({ex.request.promptTokens, 0}));
                ex.connection->streamData(ex.api->tokenEvent(token));
            }
            ex.text.append(token.constData(), std::size_t(token.size()));
        } else if (ex.request.stream) {
            const Usage usage{ex.request.promptTokens, ex.emitted};
            if (ex.emitted == 1 && chat)
                ex.connection->streamData(ex.writer.roleEvent({ex.request.promptTokens, 0}));
            ex.connection->streamData(
                ex.writer.tokenEvent(token, reasoning, last ? std::optional(e.reason) : std::nullopt, usage));
        } else {
            (reasoning ? ex.reasoningText : ex.text).append(token.constData(), std::size_t(token.size()));
        }
        if (ex.request.stream && !reasoning && chat && m_model.prefixCache())
            ex.text.append(token.constData(), std::size_t(token.size())); // for cacheAnswer()
    }
    if (e.finished)
        finishExchange(id, e.reason);
}

void SimServer::finishExchange(SequenceId id, FinishReason reason)
{
    auto node = m_exchanges.extract(id);
    if (node.empty())
        return;
    Exchange &ex = node.mapped();
    m_metrics.requestFinished(reason == FinishReason::Stop ? SimMetrics::Finished::Stop : SimMetrics::Finished::Length,
                              double(m_model.now() - ex.submittedAt) / 1e9, ex.request.promptTokens, ex.emitted);
    cacheAnswer(ex);
    const Usage usage = usageOf(ex);
    ++m_shared.completed;
    if (ex.api) {
        if (ex.request.endpoint == Endpoint::Responses)
            m_responses.put(ex.writer.id(), ex.api->completeBody(ex.text, reason, usage));
        if (ex.request.stream) {
            ex.connection->streamData(ex.api->closeEvents(ex.text, reason, usage));
            ex.connection->endStream();
        } else {
            ex.connection->respond(200, JsonType, ex.api->completeBody(ex.text, reason, usage));
        }
    } else if (ex.request.stream) {
        if (ex.request.includeUsage)
            ex.connection->streamData(ex.writer.usageEvent(usage));
        ex.connection->streamData(ResponseWriter::doneEvent());
        ex.connection->endStream();
    } else {
        const QByteArray body = ex.writer.completeBody(ex.text, ex.reasoningText, reason, usage);
        ex.connection->respond(200, JsonType, body);
    }
}

void SimServer::dropExchange(SequenceId id)
{
    if (const auto ex = takeAborted(id)) {
        ++m_shared.faultsInjected;
        ex->connection->drop();
    }
}

void SimServer::failAllExchanges(const ApiError &error)
{
    std::vector<SequenceId> ids;
    ids.reserve(m_exchanges.size());
    for (const auto &[id, ex] : m_exchanges)
        ids.push_back(id);
    for (SequenceId id : ids) {
        const auto ex = takeAborted(id);
        if (!ex)
            continue;
        ++m_shared.completed;
        if (ex->api && ex->request.stream) {
            ex->connection->streamData(ex->api->errorEvent(error));
            ex->connection->endStream();
        } else if (ex->api) {
            ex->connection->respond(error.status, JsonType,
                                    ex->request.endpoint == Endpoint::Messages ? messagesErrorBody(error)
                                                                               : errorBody(error));
        } else if (ex->request.stream) {
            // After the stream began the status is already 200: the error travels as an event.
            ex->connection->streamData(ResponseWriter::errorEvent(error));
            ex->connection->streamData(ResponseWriter::doneEvent());
            ex->connection->endStream();
        } else {
            ex->connection->respond(error.status, JsonType, errorBody(error));
        }
    }
}

void SimServer::cacheAnswer(Exchange &ex)
{
    // The next turn of a chat sends this prompt, this answer and an end token first: cache those blocks
    // as vLLM keeps the generated tokens' blocks (the reasoning is left out, as clients drop it from
    // the history). Completions are not continued this way.
    if (ex.request.endpoint != Endpoint::ChatCompletions || !m_model.prefixCache())
        return;
    ex.request.tokenizer.addText(ex.text);
    ex.request.tokenizer.addMessageEnd();
    m_model.cacheFinishedBlocks(ex.request.tokenizer.blocks());
}

Usage SimServer::usageOf(const Exchange &ex) const
{
    Usage u{ex.request.promptTokens, ex.emitted, std::nullopt};
    if (m_model.prefixCache())
        u.cachedTokens = ex.cachedTokens;
    return u;
}

void SimServer::publishGauges()
{
    m_shared.running = m_model.running();
    m_shared.waiting = m_model.waiting();
    m_shared.openConnections = int(m_connections.size());
}

void SimServer::logAccess(const SimConnection &c, const http::Request &r, int status) const
{
    if (!m_options.accessLog)
        return;
    qInfo().noquote() << (m_options.name.isEmpty() ? u"simnode"_s : m_options.name) << c.peer() << u"- \""_s
                             + QString::fromLatin1(r.method) + u' ' + QString::fromLatin1(r.target)
                             + (r.versionMinor == 0 ? u" HTTP/1.0\""_s : u" HTTP/1.1\""_s)
                      << status << http::reasonPhrase(status);
}

QByteArray SimServer::faultJson() const
{
    OJson j = OJson::object();
    j["mode"] = faultModeName(m_fault).toStdString();
    j["error_fraction"] = m_faultParams.errorFraction;
    j["drop_after_tokens"] = m_faultParams.dropAfterTokens;
    j["slow_factor"] = m_faultParams.slowFactor;
    j["refuse_ms"] = m_faultParams.refuseMs;
    return toBytes(j);
}

QByteArray SimServer::statsJson() const
{
    OJson j = OJson::object();
    j["requests_received"] = m_shared.requestsReceived.load();
    j["completed"] = m_shared.completed.load();
    j["client_aborts"] = m_shared.clientAborts.load();
    j["faults_injected"] = m_shared.faultsInjected.load();
    j["running"] = m_model.running();
    j["waiting"] = m_model.waiting();
    j["open_connections"] = int(m_connections.size());
    j["bytes_received"] = m_shared.bytesReceived.load();
    j["prompt_tokens"] = m_shared.promptTokens.load();
    j["generation_tokens"] = m_shared.generationTokens.load();
    j["cached_prompt_tokens"] = m_shared.cachedPromptTokens.load();
    j["prefix_caching"] = m_model.prefixCache() != nullptr;
    j["kv_cache_usage"] = m_model.kvCacheUsage();
    j["num_preemptions"] = m_model.preemptions();
    j["fault"] = faultModeName(m_fault).toStdString();
    return toBytes(j);
}

} // namespace switchyard::sim
