#include "benchexchange.h"

#include "openai/chatcompletion.h"
#include "openai/chatstream.h"
#include "openai/generationrequest.h"
#include "openai/openaierror.h"
#include "openai/openaimodels.h"
#include "openai/responsesstream.h"

#include <nlohmann/json.hpp>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::bench {

namespace {

QByteArray requestHead(const routing::Endpoint &endpoint, QByteArrayView method, QByteArrayView path,
                       const QString &apiKey)
{
    QByteArray head;
    head.reserve(256);
    head.append(method).append(' ').append(endpoint.basePath).append(path).append(" HTTP/1.1\r\n");
    head.append("Host: ").append(endpoint.hostHeader).append("\r\n");
    head.append("User-Agent: switchyard-bench/" SWITCHYARD_VERSION "\r\n");
    if (!apiKey.isEmpty())
        head.append("Authorization: Bearer ").append(apiKey.toUtf8()).append("\r\n");
    return head;
}

} // namespace

std::optional<routing::Endpoint> benchEndpoint(const QString &baseUrl)
{
    auto ep = routing::parseEndpoint(baseUrl.trimmed());
    if (ep && ep->basePath.endsWith("/v1"))
        ep->basePath.chop(3);
    return ep;
}

namespace {

// The streamed request every builder sends: greedy decoding (the same work for every target, and no
// sampling cost differences); extraHeaders end in "\r\n" each.
QByteArray generationRequest(const routing::Endpoint &endpoint, const QString &apiKey, openai::GenerationRequest request,
                             const QByteArray &extraHeaders = {})
{
    request.temperature = 0;
    const QByteArray body = openai::generationBody(request);
    QByteArray out = requestHead(endpoint, "POST", openai::generationPath(request.api), apiKey);
    out.append(extraHeaders);
    out.append("Content-Type: application/json\r\nAccept: text/event-stream\r\nContent-Length: ")
        .append(QByteArray::number(body.size()))
        .append("\r\n\r\n")
        .append(body);
    return out;
}

} // namespace

QByteArray buildChatRequest(const routing::Endpoint &endpoint, const QString &model, const QString &apiKey,
                            const QString &prompt, int maxTokens, bool ignoreEos, Api api)
{
    openai::GenerationRequest request;
    request.api = api;
    request.model = model;
    request.messages = nlohmann::ordered_json::array({{{"role", "user"}, {"content", prompt.toStdString()}}});
    request.maxTokens = maxTokens;
    request.ignoreEos = ignoreEos && api == Api::ChatCompletions;
    return generationRequest(endpoint, apiKey, std::move(request));
}

QByteArray buildConversationRequest(const routing::Endpoint &endpoint, const QString &model, const QString &apiKey,
                                    const QByteArray &messagesJson, int maxTokens, bool ignoreEos,
                                    const QString &sessionKey)
{
    openai::GenerationRequest request;
    request.model = model;
    request.messages = nlohmann::ordered_json::parse(messagesJson.begin(), messagesJson.end(), nullptr, false);
    if (request.messages.is_discarded())
        request.messages = nlohmann::ordered_json::array();
    request.maxTokens = maxTokens;
    request.ignoreEos = ignoreEos;
    request.user = sessionKey;
    // A header value is one line of visible ASCII; the runner's keys are, but say so here.
    QByteArray key = sessionKey.toLatin1();
    key.replace('\r', ' ').replace('\n', ' ');
    const QByteArray header = key.isEmpty() ? QByteArray() : "X-Session-Id: " + key + "\r\n";
    return generationRequest(endpoint, apiKey, std::move(request), header);
}

QByteArray buildModelsRequest(const routing::Endpoint &endpoint, const QString &apiKey)
{
    return requestHead(endpoint, "GET", "/v1/models", apiKey).append("Accept: application/json\r\n\r\n");
}

QString firstModelId(QByteArrayView body)
{
    const QList<openai::ModelEntry> models = openai::parseModelList(body);
    return models.isEmpty() ? QString() : models.first().id;
}

BenchExchange::BenchExchange(Kind kind, QByteArray request, int timeoutMs, Done done)
    : m_kind(kind), m_request(std::move(request)), m_timeoutMs(timeoutMs), m_done(std::move(done))
{
    m_timeout.setSingleShot(true);
    QObject::connect(&m_timeout, &QTimer::timeout, [this] {
        if (m_finished)
            return;
        if (m_connection)
            m_connection->abort();
        complete(false, u"timed out after %1 s"_s.arg(m_timeoutMs / 1000.0, 0, 'f', 1));
    });
}

BenchExchange::~BenchExchange()
{
    m_timeout.stop();
}

void BenchExchange::start(upstream::UpstreamConnection *connection)
{
    m_connection = connection;
    m_sample = RequestSample();
    m_body.clear();
    m_events.reset();
    m_sse = false;
    m_sawDone = false;
    m_streamError.clear();
    m_chunks = 0;
    m_finished = false;
    m_staleFailure = false;
    m_text.clear();
    m_clock.start();
    if (m_timeoutMs > 0)
        m_timeout.start(m_timeoutMs);
    connection->send(m_request, this);
}

void BenchExchange::abort()
{
    if (m_finished)
        return;
    m_finished = true;
    m_timeout.stop();
    if (m_connection)
        m_connection->abort();
}

void BenchExchange::upstreamHead(const http::ResponseParser &response)
{
    m_sample.httpStatus = response.status();
    m_sample.node = QString::fromUtf8(response.header("x-switchyard-node")).left(256);
    m_sse = response.status() == 200 && response.header("content-type").startsWith("text/event-stream");
}

void BenchExchange::upstreamBody(QByteArrayView data)
{
    if (m_finished)
        return;
    if (!m_sse) {
        // Error bodies and /v1/models are small; a runaway body is cut rather than buffered.
        if (m_body.size() < 4 * 1024 * 1024)
            m_body.append(data);
        return;
    }
    for (const http::SseEvent &e : m_events.feed(data))
        handleEvent(e.data);
}

void BenchExchange::handleEvent(QByteArrayView payload)
{
    const openai::ChatStreamEvent event = m_api == Api::Responses ? openai::parseResponsesStreamEvent(payload)
                                                                  : openai::parseChatStreamEvent(payload);
    // The Responses API ends with response.completed (or .incomplete: the budget ran out, as asked), a
    // failed response with response.failed; there is no [DONE].
    if (m_api == Api::Responses && event.kind == openai::ChatStreamEvent::Kind::Chunk && !event.finishReason.isEmpty()) {
        if (event.finishReason == u"error")
            m_streamError = u"the response failed"_s;
        else
            m_sawDone = true;
    }
    switch (event.kind) {
    case openai::ChatStreamEvent::Kind::Done:
        m_sawDone = true;
        return;
    case openai::ChatStreamEvent::Kind::Error:
        // vLLM reports errors after the stream began as a data event; the status stays 200.
        m_streamError = event.error;
        return;
    case openai::ChatStreamEvent::Kind::Invalid:
        return;
    case openai::ChatStreamEvent::Kind::Chunk:
        break;
    }
    // The role-only opening chunk ({"role":"assistant","content":""}) is not a token.
    if (!event.content.isEmpty() || !event.reasoning.isEmpty()) {
        if (m_sample.ttftMs < 0)
            m_sample.ttftMs = elapsedMs();
        ++m_chunks;
        if (m_keepText && m_text.size() < 1024 * 1024)
            m_text += event.content;
    }
    if (event.hasUsage) {
        if (event.usage.completionTokens >= 0) {
            m_sample.completionTokens = event.usage.completionTokens;
            m_sample.usageReported = true;
        }
        if (event.usage.promptTokens >= 0)
            m_sample.promptTokens = event.usage.promptTokens;
        if (event.usage.cachedPromptTokens >= 0)
            m_sample.cachedPromptTokens = event.usage.cachedPromptTokens;
    }
}

void BenchExchange::upstreamFinished()
{
    if (m_finished)
        return;
    const double now = elapsedMs();
    if (m_kind == Kind::Models) {
        m_sample.latencyMs = now;
        if (m_sample.httpStatus == 200)
            complete(true, {});
        else
            complete(false, u"HTTP %1: %2"_s.arg(m_sample.httpStatus).arg(openai::errorMessageFromBody(m_body)));
        return;
    }
    if (m_sample.httpStatus != 200) {
        complete(false, u"HTTP %1: %2"_s.arg(m_sample.httpStatus).arg(openai::errorMessageFromBody(m_body)));
        return;
    }
    if (!m_sse) {
        // A server that ignores "stream": one JSON body. Its usage still counts, but there is no TTFT.
        const openai::TokenUsage usage = openai::parseChatCompletion(m_body).usage;
        if (usage.completionTokens >= 0) {
            m_sample.completionTokens = usage.completionTokens;
            m_sample.usageReported = true;
            if (usage.promptTokens >= 0)
                m_sample.promptTokens = usage.promptTokens;
            m_sample.cachedPromptTokens = usage.cachedPromptTokens;
            m_sample.latencyMs = now;
            complete(m_sample.completionTokens > 0, u"the server sent no tokens"_s);
        } else {
            complete(false, u"not a stream and no usage in the response"_s);
        }
        return;
    }
    m_sample.latencyMs = now;
    if (m_events.hasPendingData()) { // a last event without its blank line: the body's end closes it
        for (const http::SseEvent &e : m_events.feed("\n\n"))
            handleEvent(e.data);
    }
    if (!m_streamError.isEmpty()) {
        complete(false, u"error in stream: "_s % m_streamError);
        return;
    }
    if (!m_sample.usageReported)
        m_sample.completionTokens = m_chunks; // vLLM sends one token per chunk
    if (!m_sawDone) {
        complete(false, u"stream ended without [DONE] after %1 tokens"_s.arg(m_chunks));
        return;
    }
    if (m_sample.completionTokens <= 0) {
        complete(false, u"the server sent no tokens"_s);
        return;
    }
    complete(true, {});
}

void BenchExchange::upstreamFailed(const upstream::UpstreamError &error)
{
    if (m_finished)
        return;
    m_sample.latencyMs = elapsedMs();
    m_staleFailure = !error.responseStarted && m_connection && m_connection->isReused();
    QString why = error.message;
    if (error.responseStarted && m_chunks > 0)
        why = u"%1 after %2 tokens"_s.arg(why).arg(m_chunks);
    complete(false, why);
}

void BenchExchange::complete(bool ok, const QString &error)
{
    if (m_finished)
        return;
    m_finished = true;
    m_timeout.stop();
    m_sample.ok = ok;
    m_sample.error = ok ? QString() : error;
    if (!ok && m_sample.latencyMs <= 0)
        m_sample.latencyMs = elapsedMs();
    if (!m_sample.usageReported && m_sample.completionTokens == 0)
        m_sample.completionTokens = m_chunks;
    if (m_done)
        m_done(this);
}

} // namespace switchyard::bench
