#include "chatclient.h"

#include "http/httpclient.h"


using namespace Qt::Literals::StringLiterals;

namespace switchyard::client {

namespace {

QUrl endpoint(const QUrl &base, const QString &path)
{
    QUrl u = base;
    QString p = u.path();
    while (p.endsWith(u'/'))
        p.chop(1);
    u.setPath(p + path);
    return u;
}

HttpRequest jsonRequest(QByteArray method, const QUrl &url, const QString &apiKey, const QByteArray &pinnedSha256)
{
    HttpRequest r;
    r.method = std::move(method);
    r.url = url;
    r.addHeader("Content-Type", "application/json");
    r.addHeader("Accept", "application/json, text/event-stream");
    if (!apiKey.isEmpty())
        r.addHeader("Authorization", "Bearer " + apiKey.toUtf8());
    r.pinnedSha256 = pinnedSha256;
    r.connectTimeoutMs = 10'000;
    return r;
}

// Error bodies are small; a runaway one is cut so it cannot eat memory.
constexpr qsizetype MaxPlainBody = 4 * 1024 * 1024;

} // namespace

QUrl connectableUrl(const QString &listenUrl)
{
    QUrl u(listenUrl);
    if (u.host() == u"0.0.0.0"_s)
        u.setHost(u"127.0.0.1"_s);
    else if (u.host() == u"::"_s)
        u.setHost(u"::1"_s);
    return u;
}

QByteArray ChatRequest::body() const
{
    openai::GenerationRequest request;
    request.api = responsesApi ? openai::GenerationApi::Responses : openai::GenerationApi::ChatCompletions;
    request.model = model;
    request.messages = messages;
    request.maxTokens = maxTokens;
    request.temperature = temperature;
    // The usage chunk gives the footer exact prompt and output tokens. vLLM's continuous_usage_stats puts
    // the running usage in every chunk too, so a reply stopped early still shows its prompt tokens and
    // the exact output so far instead of "?" and an estimate.
    request.continuousUsage = true;
    return openai::generationBody(request);
}

ChatClient::ChatClient(QObject *parent) : QObject(parent), m_http(new HttpClient())
{
    m_thread.setObjectName(u"chat-http"_s);
    m_http->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_http, &QObject::deleteLater);
    m_thread.start();
}

ChatClient::~ChatClient()
{
    // Quietly: nobody listens any more. The HTTP client closes its connections as it is deleted (the
    // gateway sees the running reply's client go), on its own thread, when the thread's loop ends.
    m_thread.quit();
    m_thread.wait();
}

QString ChatClient::unreachableMessage(const HttpError &error) const
{
    if (error.kind == HttpErrorKind::Untrusted)
        return tr("The gateway at %1 showed a certificate that is not trusted: %2")
            .arg(m_baseUrl.toDisplayString(), upstream::untrustedMessage(error.untrusted));
    return tr("Cannot reach the gateway at %1: %2").arg(m_baseUrl.toDisplayString(), error.message);
}

void ChatClient::fetchModels(const QUrl &baseUrl, const QString &apiKey)
{
    const quint64 generation = ++m_modelsGeneration;
    HttpRequest r = jsonRequest("GET", endpoint(baseUrl, u"/v1/models"_s), apiKey, m_pinnedSha256);
    r.timeoutMs = ModelsTimeoutMs; // a list, not a generation: a gateway that takes longer is stuck
    r.maxResponseBytes = MaxPlainBody;
    QMetaObject::invokeMethod(m_http, [this, http = m_http, r = std::move(r), generation]() mutable {
        if (m_modelsId)
            http->cancel(m_modelsId); // superseded
        m_modelsId = http->send(std::move(r), [this, generation](const HttpResult &result) {
            m_modelsId = 0;
            QMetaObject::invokeMethod(this, [this, generation, result] {
                if (generation != m_modelsGeneration)
                    return;
                if (!result) {
                    if (result.error().kind == HttpErrorKind::Untrusted) {
                        m_untrusted = result.error().untrusted;
                        emit modelsFailed(upstream::untrustedMessage(m_untrusted));
                    } else {
                        emit modelsFailed(result.error().message);
                    }
                    return;
                }
                const HttpResponse &response = *result;
                if (response.status != 200) {
                    const QString said = errorMessageFromBody(response.body);
                    emit modelsFailed(said.isEmpty() ? tr("HTTP %1").arg(response.status)
                                                     : tr("HTTP %1: %2").arg(response.status).arg(said));
                    return;
                }
                QString why;
                const QList<ModelEntry> models = parseModelList(response.body, &why);
                if (!why.isEmpty()) {
                    emit modelsFailed(tr("Unreadable model list: %1").arg(why));
                    return;
                }
                emit modelsFetched(models);
            });
        });
    });
}

bool ChatClient::send(const ChatRequest &request)
{
    if (m_busy)
        return false;
    m_busy = true;
    const quint64 generation = ++m_generation;
    m_baseUrl = request.baseUrl;
    m_lastBody = request.body();
    m_untrusted = {};
    m_sse.reset();
    m_stats = {};
    m_plainBody.clear();
    m_streamError.clear();
    m_invalidEvent.clear();
    m_headersSeen = false;
    m_isStream = false;
    m_done = false;
    m_tokenChunks = 0;
    m_responsesApi = request.responsesApi;

    HttpRequest r = jsonRequest(
        "POST", endpoint(request.baseUrl, m_responsesApi ? u"/v1/responses"_s : u"/v1/chat/completions"_s),
        request.apiKey, m_pinnedSha256);
    r.body = m_lastBody;
    r.timeoutMs = 0; // a reply may stream for many minutes; what bounds it is the wait for the next byte
    r.idleTimeoutMs = StreamIdleTimeoutMs;
    // On the HTTP thread: hand each piece over to this object's thread, tagged with the request's number.
    r.onHead = [this, generation](const HttpResponse &head) {
        QMetaObject::invokeMethod(this, [this, generation, head] { onHead(generation, head); });
    };
    r.onBody = [this, generation](QByteArrayView piece) {
        QMetaObject::invokeMethod(this, [this, generation, bytes = piece.toByteArray()] { onBody(generation, bytes); });
    };
    m_clock.start();
    QMetaObject::invokeMethod(m_http, [this, http = m_http, r = std::move(r), generation]() mutable {
        m_chatId = http->send(std::move(r), [this, generation](const HttpResult &result) {
            m_chatId = 0;
            QMetaObject::invokeMethod(this, [this, generation, result] {
                onResult(generation, result.hasValue(), result ? HttpError{} : result.error());
            });
        });
    });
    return true;
}

void ChatClient::stop()
{
    if (!m_busy)
        return;
    // Closing the connection is what tells the gateway to stop the node; what is still on its way
    // for this request is dropped (its number is no longer the current one).
    QMetaObject::invokeMethod(m_http, [this, http = m_http] {
        if (m_chatId)
            http->cancel(m_chatId);
        m_chatId = 0;
    });
    finish(ChatOutcome::End::Stopped);
}

void ChatClient::onHead(quint64 generation, const HttpResponse &head)
{
    if (generation != m_generation || !m_busy || m_headersSeen)
        return;
    m_headersSeen = true;
    m_stats.httpStatus = head.status;
    m_stats.node = QString::fromUtf8(head.header("x-switchyard-node"));
    m_stats.attempts = head.header("x-switchyard-attempts").toInt();
    m_isStream = head.status == 200 && head.header("content-type").startsWith("text/event-stream");
    if (head.status < 400)
        emit replyStarted(m_stats.node, m_stats.attempts);
}

void ChatClient::onBody(quint64 generation, const QByteArray &bytes)
{
    if (generation != m_generation || !m_busy)
        return;
    if (!m_isStream) {
        m_plainBody.append(bytes.first(std::min(bytes.size(), MaxPlainBody - std::min(MaxPlainBody, m_plainBody.size()))));
        return;
    }
    const QList<SseEvent> events = m_sse.feed(bytes);
    for (const SseEvent &e : events) {
        handleEvent(e);
        if (generation != m_generation || !m_busy)
            return; // a slot connected to a signal emitted above stopped the request
    }
}

void ChatClient::handleEvent(const SseEvent &event)
{
    if (m_done)
        return;
    const ChatStreamEvent ev = m_responsesApi ? parseResponsesStreamEvent(event.data) : parseChatStreamEvent(event.data);
    switch (ev.kind) {
    case ChatStreamEvent::Kind::Done:
        m_done = true;
        return;
    case ChatStreamEvent::Kind::Error:
        // Status 200 is long sent: this is how a failure after the first byte arrives. Keep the first.
        if (m_streamError.isEmpty())
            m_streamError = ev.error.isEmpty() ? tr("The stream reported an error without a message.") : ev.error;
        return;
    case ChatStreamEvent::Kind::Invalid:
        if (m_invalidEvent.isEmpty())
            m_invalidEvent = ev.error;
        return;
    case ChatStreamEvent::Kind::Chunk:
        break;
    }
    if (!ev.finishReason.isEmpty())
        m_stats.finishReason = ev.finishReason;
    if (m_responsesApi && ev.hasUsage)
        m_done = true; // response.completed ends a Responses stream: there is no [DONE]
    if (ev.hasUsage) {
        if (ev.usage.promptTokens >= 0)
            m_stats.promptTokens = ev.usage.promptTokens;
        if (ev.usage.completionTokens >= 0)
            m_stats.completionTokens = ev.usage.completionTokens;
    }
    if (!ev.reasoning.isEmpty()) {
        noteToken();
        emit reasoningReceived(ev.reasoning);
    }
    if (!ev.content.isEmpty() && m_busy) {
        noteToken();
        emit contentReceived(ev.content);
    }
}

void ChatClient::noteToken()
{
    if (m_stats.ttftMs < 0)
        m_stats.ttftMs = m_clock.elapsed();
    ++m_tokenChunks;
}

void ChatClient::onResult(quint64 generation, bool ok, const HttpError &error)
{
    if (generation != m_generation || !m_busy)
        return;
    if (!ok && !m_headersSeen) {
        // Never got a response: refused, reset, unreachable, an untrusted certificate, a timeout.
        finish(ChatOutcome::End::Failed, unreachableMessage(error),
               error.kind == HttpErrorKind::Untrusted ? error.untrusted : upstream::UntrustedCertificate{});
        return;
    }
    const int status = m_stats.httpStatus;
    if (!m_isStream) {
        if (!ok) {
            finish(ChatOutcome::End::Failed, tr("The answer broke off before it was complete: %1").arg(error.message));
            return;
        }
        if (status >= 400 || status < 200) {
            const QString said = errorMessageFromBody(m_plainBody);
            finish(ChatOutcome::End::Failed, said.isEmpty() ? tr("The gateway answered HTTP %1 without a message.").arg(status)
                                                            : said);
            return;
        }
        // 200 without an event stream: a server that ignored "stream": show the whole answer at once.
        const ChatCompletion c = parseChatCompletion(m_plainBody);
        if (!c.valid) {
            const QString said = errorMessageFromBody(m_plainBody);
            finish(ChatOutcome::End::Failed, tr("The gateway answered HTTP %1 but not with a chat completion%2")
                                                 .arg(status)
                                                 .arg(said.isEmpty() ? QString() : u": "_s + said));
            return;
        }
        m_stats.finishReason = c.finishReason;
        m_stats.promptTokens = c.usage.promptTokens;
        m_stats.completionTokens = c.usage.completionTokens;
        if (!c.reasoning.isEmpty()) {
            noteToken();
            emit reasoningReceived(c.reasoning);
        }
        if (!c.content.isEmpty() && m_busy) {
            noteToken();
            emit contentReceived(c.content);
        }
        if (m_busy)
            finish(ChatOutcome::End::Completed);
        return;
    }
    if (!m_streamError.isEmpty()) {
        finish(ChatOutcome::End::Failed, m_streamError);
        return;
    }
    if (!ok && !m_done) {
        finish(ChatOutcome::End::Failed, tr("The stream broke off before the reply was complete: %1").arg(error.message));
        return;
    }
    if (!m_done && m_stats.finishReason.isEmpty()) {
        finish(ChatOutcome::End::Failed,
               m_invalidEvent.isEmpty()
                   ? tr("The stream ended before the reply was complete (no finish reason, no [DONE]).")
                   : tr("The stream ended before the reply was complete; an event could not be read: %1").arg(m_invalidEvent));
        return;
    }
    finish(ChatOutcome::End::Completed);
}

void ChatClient::finish(ChatOutcome::End end, const QString &error, const upstream::UntrustedCertificate &untrusted)
{
    m_busy = false;
    ++m_generation; // whatever is still on its way for this request is dropped
    m_untrusted = untrusted;
    ChatOutcome outcome;
    outcome.end = end;
    outcome.error = error;
    outcome.untrusted = untrusted;
    outcome.stats = m_stats;
    outcome.stats.totalMs = m_clock.elapsed();
    if (outcome.stats.completionTokens < 0 && m_tokenChunks > 0) {
        // No usage chunk (stopped, or cut off): vLLM sends about one token per chunk.
        outcome.stats.completionTokens = m_tokenChunks;
        outcome.stats.tokensEstimated = true;
    }
    emit finished(outcome);
}

} // namespace switchyard::client
