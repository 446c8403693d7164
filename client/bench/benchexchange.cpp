#include "benchexchange.h"

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

nlohmann::json parseJson(QByteArrayView text)
{
    return nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
}

} // namespace

std::optional<routing::Endpoint> benchEndpoint(const QString &baseUrl)
{
    auto ep = routing::parseEndpoint(baseUrl.trimmed());
    if (ep && ep->basePath.endsWith("/v1"))
        ep->basePath.chop(3);
    return ep;
}

QByteArray buildChatRequest(const routing::Endpoint &endpoint, const QString &model, const QString &apiKey,
                            const QString &prompt, int maxTokens, bool ignoreEos)
{
    nlohmann::ordered_json body;
    if (!model.isEmpty())
        body["model"] = model.toStdString();
    body["messages"] = nlohmann::json::array({{{"role", "user"}, {"content", prompt.toStdString()}}});
    body["max_tokens"] = maxTokens;
    // Greedy decoding: the same work for every target, and no sampling cost differences.
    body["temperature"] = 0;
    body["stream"] = true;
    // Without it a stream carries no token count; with it the last chunk has the server's own usage.
    body["stream_options"] = {{"include_usage", true}};
    if (ignoreEos)
        body["ignore_eos"] = true;
    const std::string text = body.dump();

    QByteArray out = requestHead(endpoint, "POST", "/v1/chat/completions", apiKey);
    out.append("Content-Type: application/json\r\nAccept: text/event-stream\r\nContent-Length: ")
        .append(QByteArray::number(qsizetype(text.size())))
        .append("\r\n\r\n")
        .append(text.data(), qsizetype(text.size()));
    return out;
}

QByteArray buildModelsRequest(const routing::Endpoint &endpoint, const QString &apiKey)
{
    return requestHead(endpoint, "GET", "/v1/models", apiKey).append("Accept: application/json\r\n\r\n");
}

QString firstModelId(QByteArrayView body)
{
    const nlohmann::json j = parseJson(body);
    if (!j.is_object() || !j.contains("data") || !j["data"].is_array())
        return {};
    for (const auto &m : j["data"]) {
        if (m.is_object() && m.contains("id") && m["id"].is_string())
            return QString::fromStdString(m["id"].get<std::string>());
    }
    return {};
}

QString errorMessageOf(QByteArrayView body)
{
    const nlohmann::json j = parseJson(body);
    if (j.is_object()) {
        // Current vLLM / OpenAI: {"error":{"message":…}}; before vLLM 0.10.1: {"object":"error","message":…}.
        const nlohmann::json *holder = &j;
        if (j.contains("error") && j["error"].is_object())
            holder = &j["error"];
        else if (j.contains("error") && j["error"].is_string())
            return QString::fromStdString(j["error"].get<std::string>());
        if (holder->contains("message") && (*holder)["message"].is_string())
            return QString::fromStdString((*holder)["message"].get<std::string>());
    }
    return QString::fromUtf8(body.first(std::min<qsizetype>(body.size(), 200))).simplified();
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
    if (payload == "[DONE]") {
        m_sawDone = true;
        return;
    }
    const nlohmann::json j = parseJson(payload);
    if (!j.is_object())
        return;
    if (j.contains("error")) {
        // vLLM reports errors after the stream began as a data event; the status stays 200.
        const std::string dumped = j.dump();
        m_streamError = errorMessageOf(QByteArrayView(dumped.data(), qsizetype(dumped.size())));
        return;
    }
    if (j.contains("choices") && j["choices"].is_array()) {
        for (const auto &choice : j["choices"]) {
            if (!choice.is_object() || !choice.contains("delta") || !choice["delta"].is_object())
                continue;
            const auto &delta = choice["delta"];
            bool text = false;
            for (const char *key : {"content", "reasoning_content", "reasoning"}) {
                if (delta.contains(key) && delta[key].is_string() && !delta[key].get_ref<const std::string &>().empty())
                    text = true;
            }
            if (text) {
                // The role-only opening chunk ({"role":"assistant","content":""}) is not a token.
                if (m_sample.ttftMs < 0)
                    m_sample.ttftMs = elapsedMs();
                ++m_chunks;
            }
        }
    }
    if (j.contains("usage") && j["usage"].is_object()) {
        const auto &u = j["usage"];
        if (u.contains("completion_tokens") && u["completion_tokens"].is_number_integer()) {
            m_sample.completionTokens = u["completion_tokens"].get<qint64>();
            m_sample.usageReported = true;
        }
        if (u.contains("prompt_tokens") && u["prompt_tokens"].is_number_integer())
            m_sample.promptTokens = u["prompt_tokens"].get<qint64>();
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
            complete(false, u"HTTP %1: %2"_s.arg(m_sample.httpStatus).arg(errorMessageOf(m_body)));
        return;
    }
    if (m_sample.httpStatus != 200) {
        complete(false, u"HTTP %1: %2"_s.arg(m_sample.httpStatus).arg(errorMessageOf(m_body)));
        return;
    }
    if (!m_sse) {
        // A server that ignores "stream": one JSON body. Its usage still counts, but there is no TTFT.
        const nlohmann::json j = parseJson(m_body);
        if (j.is_object() && j.contains("usage") && j["usage"].is_object()
            && j["usage"].value("completion_tokens", nlohmann::json()).is_number_integer()) {
            m_sample.completionTokens = j["usage"]["completion_tokens"].get<qint64>();
            m_sample.usageReported = true;
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
