#pragma once

// A small asynchronous OpenAI client for the chat console: lists the gateway's models and streams one
// chat completion at a time. Everything runs on the caller's event loop through QNetworkAccessManager,
// so the window never waits on the network; the stream is parsed as it arrives (SseParser), and the
// reply's end is always reported exactly once: completed, stopped, or failed with the gateway's message.

#include "conversation.h"
#include "openai/openaistream.h"
#include "upstream/pinnedcertificate.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QNetworkReply>
#include <QObject>
#include <QPointer>
#include <QUrl>

#include <optional>

class QNetworkAccessManager;

namespace switchyard::client {

struct ChatRequest
{
    QUrl baseUrl;   // the gateway, e.g. http://127.0.0.1:8080
    QString apiKey; // sent as "Authorization: Bearer …" when set
    QString model;
    QJsonArray messages;
    std::optional<double> temperature;
    int maxTokens = 0; // 0 = not sent

    // The JSON body: stream on, with stream_options.include_usage so the last chunk carries the usage
    // (and continuous_usage_stats, so every chunk does: a stopped reply knows its tokens too).
    QByteArray body() const;
};

struct ChatOutcome
{
    enum class End { Completed, Stopped, Failed };
    End end = End::Completed;
    ReplyStats stats;
    QString error; // Failed: why, in the gateway's words where it gave any
    // Failed because the gateway's certificate is neither trusted by the system nor pinned: which one
    // it showed, so the panel can ask whether to trust (pin) it.
    upstream::UntrustedCertificate untrusted;
};

class ChatClient final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ChatClient)

public:
    explicit ChatClient(QObject *parent = nullptr);
    ~ChatClient() override;

    // An https gateway whose certificate the system does not trust is still accepted when its
    // certificate's SHA-256 is this (32 bytes, upstream::parseFingerprint); empty = the system's trust only.
    void setPinnedSha256(const QByteArray &sha256) { m_pinnedSha256 = sha256; }
    QByteArray pinnedSha256() const { return m_pinnedSha256; }
    // The certificate the last refused handshake showed (also in ChatOutcome::untrusted); null when the
    // last failure, if any, was not about trust.
    const upstream::UntrustedCertificate &lastUntrustedCertificate() const { return m_untrusted; }

    // GET /v1/models; answers with modelsFetched or modelsFailed. A newer call supersedes an older one.
    void fetchModels(const QUrl &baseUrl, const QString &apiKey = {});

    // Starts streaming a chat completion. Returns false (and does nothing) while one is running.
    bool send(const ChatRequest &request);
    // Aborts the running request: the connection is closed, which is how the gateway (and through it the
    // node) learns to stop generating. finished() follows with End::Stopped.
    void stop();
    bool isBusy() const { return m_reply != nullptr; }
    // What is known so far about the running (or last) reply: node, attempts, time to first token.
    const ReplyStats &stats() const { return m_stats; }

    // The body of the last request sent (tests check the history that went out).
    QByteArray lastRequestBody() const { return m_lastBody; }

signals:
    void modelsFetched(const QList<switchyard::client::ModelEntry> &models);
    void modelsFailed(const QString &error);

    // The response headers arrived: who serves the reply and after how many attempts.
    void replyStarted(const QString &node, int attempts);
    void reasoningReceived(const QString &text);
    void contentReceived(const QString &text);
    void finished(const switchyard::client::ChatOutcome &outcome);

private:
    void onMetaData();
    void onReadyRead();
    void onFinished();
    void handleEvent(const SseEvent &event);
    void noteToken();
    void finish(ChatOutcome::End end, const QString &error = {});
    void onSslErrors(QNetworkReply *reply, const QList<QSslError> &errors);
    // The error text for a reply that got no response; says which certificate was refused, if one was.
    QString unreachableMessage(QNetworkReply *reply) const;

    QNetworkAccessManager *m_nam;
    QPointer<QNetworkReply> m_reply;
    QPointer<QNetworkReply> m_modelsReply;
    QByteArray m_lastBody;
    QUrl m_baseUrl;
    QByteArray m_pinnedSha256;
    upstream::UntrustedCertificate m_untrusted;
    QPointer<QNetworkReply> m_untrustedReply; // the reply m_untrusted was refused for

    // State of the running request.
    QElapsedTimer m_clock;
    SseParser m_sse;
    ReplyStats m_stats;
    QByteArray m_plainBody; // a response that is not an event stream (an error, or stream ignored)
    QString m_streamError;
    QString m_invalidEvent;
    bool m_headersSeen = false;
    bool m_isStream = false;
    bool m_done = false;
    bool m_stopRequested = false;
    int m_tokenChunks = 0;
};

// "http://0.0.0.0:8080" is where the gateway listens, not an address to connect to: the loopback is.
QUrl connectableUrl(const QString &listenUrl);

} // namespace switchyard::client
