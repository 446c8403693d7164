#include "chatclient.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>

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

QNetworkRequest jsonRequest(const QUrl &url, const QString &apiKey)
{
    QNetworkRequest r(url);
    r.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
    r.setRawHeader("Accept", "application/json, text/event-stream");
    if (!apiKey.isEmpty())
        r.setRawHeader("Authorization", "Bearer " + apiKey.toUtf8());
    // Redirects would turn a POST into a GET on some servers; a gateway has no reason to send one.
    r.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    return r;
}

int httpStatus(const QNetworkReply *reply)
{
    return reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
}

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
    QJsonObject o;
    o.insert(u"model"_s, model);
    o.insert(u"messages"_s, messages);
    o.insert(u"stream"_s, true);
    // The usage chunk gives the footer exact prompt and output tokens. vLLM's continuous_usage_stats
    // puts the running usage in every chunk too, so a reply stopped early still shows its prompt
    // tokens and the exact output so far instead of "?" and an estimate.
    o.insert(u"stream_options"_s, QJsonObject{{u"include_usage"_s, true}, {u"continuous_usage_stats"_s, true}});
    if (temperature)
        o.insert(u"temperature"_s, *temperature);
    if (maxTokens > 0)
        o.insert(u"max_tokens"_s, maxTokens);
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

ChatClient::ChatClient(QObject *parent) : QObject(parent), m_nam(new QNetworkAccessManager(this))
{
    // The console talks to our own gateway, usually on loopback: an http_proxy meant for the internet
    // must not sit in between.
    m_nam->setProxy(QNetworkProxy::NoProxy);
    connect(m_nam, &QNetworkAccessManager::sslErrors, this, &ChatClient::onSslErrors);
}

void ChatClient::onSslErrors(QNetworkReply *reply, const QList<QSslError> &errors)
{
    const QSslCertificate peer = reply->sslConfiguration().peerCertificate();
    if (upstream::judgePeer(errors, peer, m_pinnedSha256) != upstream::PeerVerdict::Refused) {
        reply->ignoreSslErrors(); // the certificate the operator pinned for this gateway
        return;
    }
    m_untrusted = upstream::describeUntrusted(peer, errors);
    m_untrustedReply = reply;
}

QString ChatClient::unreachableMessage(QNetworkReply *reply) const
{
    if (reply == m_untrustedReply && !m_untrusted.isNull())
        return tr("The gateway at %1 showed a certificate that is not trusted: %2")
            .arg(m_baseUrl.toDisplayString(), upstream::untrustedMessage(m_untrusted));
    return tr("Cannot reach the gateway at %1: %2").arg(m_baseUrl.toDisplayString(), reply->errorString());
}

ChatClient::~ChatClient()
{
    // Quietly: nobody listens any more, and finished() from a destructor would reach half-gone owners.
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
    }
    if (m_modelsReply) {
        m_modelsReply->disconnect(this);
        m_modelsReply->abort();
    }
}

void ChatClient::fetchModels(const QUrl &baseUrl, const QString &apiKey)
{
    if (m_modelsReply) {
        m_modelsReply->disconnect(this);
        m_modelsReply->abort();
        m_modelsReply->deleteLater();
    }
    m_untrusted = {};
    QNetworkRequest req = jsonRequest(endpoint(baseUrl, u"/v1/models"_s), apiKey);
    req.setTransferTimeout(10000); // a list, not a generation: a gateway that takes longer is stuck
    QNetworkReply *reply = m_nam->get(req);
    m_modelsReply = reply;
    connect(reply, &QNetworkReply::finished, this, [this, reply] {
        reply->deleteLater();
        if (m_modelsReply == reply)
            m_modelsReply = nullptr;
        const QByteArray body = reply->readAll();
        const int status = httpStatus(reply);
        if (status == 0) {
            emit modelsFailed(reply == m_untrustedReply && !m_untrusted.isNull()
                                  ? upstream::untrustedMessage(m_untrusted)
                                  : reply->errorString());
            return;
        }
        if (status != 200) {
            const QString said = errorMessageFromBody(body);
            emit modelsFailed(said.isEmpty() ? tr("HTTP %1").arg(status) : tr("HTTP %1: %2").arg(status).arg(said));
            return;
        }
        QString why;
        const QList<ModelEntry> models = parseModelList(body, &why);
        if (!why.isEmpty()) {
            emit modelsFailed(tr("Unreadable model list: %1").arg(why));
            return;
        }
        emit modelsFetched(models);
    });
}

bool ChatClient::send(const ChatRequest &request)
{
    if (m_reply)
        return false;
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
    m_stopRequested = false;
    m_tokenChunks = 0;

    QNetworkRequest req = jsonRequest(endpoint(request.baseUrl, u"/v1/chat/completions"_s), request.apiKey);
    m_clock.start();
    QNetworkReply *reply = m_nam->post(req, m_lastBody);
    m_reply = reply;
    connect(reply, &QNetworkReply::metaDataChanged, this, &ChatClient::onMetaData);
    connect(reply, &QIODevice::readyRead, this, &ChatClient::onReadyRead);
    connect(reply, &QNetworkReply::finished, this, &ChatClient::onFinished);
    return true;
}

void ChatClient::stop()
{
    if (!m_reply)
        return;
    m_stopRequested = true;
    // abort() closes the socket at once and emits finished(), which reports End::Stopped.
    m_reply->abort();
}

void ChatClient::onMetaData()
{
    if (!m_reply || m_headersSeen)
        return;
    const int status = httpStatus(m_reply);
    if (status == 0)
        return;
    m_headersSeen = true;
    m_stats.httpStatus = status;
    m_stats.node = QString::fromUtf8(m_reply->rawHeader("X-Switchyard-Node"));
    m_stats.attempts = m_reply->rawHeader("X-Switchyard-Attempts").toInt();
    const QByteArray type = m_reply->header(QNetworkRequest::ContentTypeHeader).toByteArray();
    m_isStream = status == 200 && type.startsWith("text/event-stream");
    if (status < 400)
        emit replyStarted(m_stats.node, m_stats.attempts);
}

void ChatClient::onReadyRead()
{
    if (!m_reply)
        return;
    if (!m_headersSeen)
        onMetaData();
    const QByteArray bytes = m_reply->readAll();
    if (!m_isStream) {
        // Error bodies are small; a runaway one is cut so it cannot eat memory.
        constexpr qsizetype MaxPlainBody = 4 * 1024 * 1024;
        m_plainBody.append(bytes.first(std::min(bytes.size(), MaxPlainBody - std::min(MaxPlainBody, m_plainBody.size()))));
        return;
    }
    const QList<SseEvent> events = m_sse.feed(bytes);
    for (const SseEvent &e : events) {
        handleEvent(e);
        if (!m_reply)
            return; // a slot connected to a signal emitted above stopped the request
    }
}

void ChatClient::handleEvent(const SseEvent &event)
{
    if (m_done)
        return;
    const ChatStreamEvent ev = parseChatStreamEvent(event.data);
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
    if (!ev.content.isEmpty() && m_reply) {
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

void ChatClient::onFinished()
{
    QNetworkReply *reply = m_reply;
    if (!reply)
        return;
    if (!m_headersSeen)
        onMetaData();
    if (reply->bytesAvailable() > 0)
        onReadyRead();
    if (!m_reply)
        return;
    const QNetworkReply::NetworkError netError = reply->error();
    const int status = httpStatus(reply);

    if (m_stopRequested) {
        finish(ChatOutcome::End::Stopped);
        return;
    }
    if (status == 0) {
        // Never got a response: refused, reset, DNS, timeout.
        finish(ChatOutcome::End::Failed, unreachableMessage(reply));
        return;
    }
    if (!m_isStream) {
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
        if (!c.content.isEmpty()) {
            noteToken();
            emit contentReceived(c.content);
        }
        finish(ChatOutcome::End::Completed);
        return;
    }
    if (!m_streamError.isEmpty()) {
        finish(ChatOutcome::End::Failed, m_streamError);
        return;
    }
    if (netError != QNetworkReply::NoError && !m_done) {
        finish(ChatOutcome::End::Failed, tr("The stream broke off before the reply was complete: %1").arg(reply->errorString()));
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

void ChatClient::finish(ChatOutcome::End end, const QString &error)
{
    QNetworkReply *reply = m_reply;
    m_reply = nullptr;
    if (reply) {
        reply->disconnect(this);
        reply->deleteLater();
    }
    ChatOutcome outcome;
    outcome.end = end;
    outcome.error = error;
    if (reply && reply == m_untrustedReply)
        outcome.untrusted = m_untrusted;
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
