#pragma once

// A small asynchronous OpenAI client for the chat console: lists the gateway's models and streams one
// chat completion at a time. The HTTP is the panel's own client (http/httpclient, on the gateway's
// UpstreamConnection) on a thread of its own, so the window's thread never touches a socket and never
// waits on the network; the stream is parsed as it arrives (SseParser), and the reply's end is always
// reported exactly once: completed, stopped, or failed with the gateway's message.

#include "conversation.h"
#include "openai/generationrequest.h"
#include "openai/openaistream.h"
#include "upstream/pinnedcertificate.h"

#include <QElapsedTimer>
#include <QObject>
#include <QThread>
#include <QUrl>

#include <optional>

namespace switchyard::client {

class HttpClient;
struct HttpResponse;
struct HttpError;

struct ChatRequest
{
    QUrl baseUrl;   // the gateway, e.g. http://127.0.0.1:8080
    QString apiKey; // sent as "Authorization: Bearer …" when set
    QString model;
    nlohmann::ordered_json messages = nlohmann::ordered_json::array(); // [{role, content}, …]
    std::optional<double> temperature;
    int maxTokens = 0; // 0 = not sent
    // Through the Responses API (POST /v1/responses) instead of chat completions: the same history as
    // its `input`, max_output_tokens, and the reply from its stream events.
    bool responsesApi = false;

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
    // node) learns to stop generating. finished() follows at once with End::Stopped.
    void stop();
    bool isBusy() const { return m_busy; }
    // What is known so far about the running (or last) reply: node, attempts, time to first token.
    const ReplyStats &stats() const { return m_stats; }

    // The body of the last request sent (tests check the history that went out).
    QByteArray lastRequestBody() const { return m_lastBody; }

    // A chat waits this long for the next byte of its stream (a long prompt's prefill included) before
    // it gives up; the list of models waits this long in all.
    static constexpr int StreamIdleTimeoutMs = 300'000;
    static constexpr int ModelsTimeoutMs = 10'000;

signals:
    void modelsFetched(const QList<switchyard::client::ModelEntry> &models);
    void modelsFailed(const QString &error);

    // The response headers arrived: who serves the reply and after how many attempts.
    void replyStarted(const QString &node, int attempts);
    void reasoningReceived(const QString &text);
    void contentReceived(const QString &text);
    void finished(const switchyard::client::ChatOutcome &outcome);

private:
    // What arrives from the HTTP thread, on this object's thread, for request number `generation`.
    void onHead(quint64 generation, const HttpResponse &head);
    void onBody(quint64 generation, const QByteArray &bytes);
    void onResult(quint64 generation, bool ok, const HttpError &error);
    void handleEvent(const SseEvent &event);
    void noteToken();
    void finish(ChatOutcome::End end, const QString &error = {}, const upstream::UntrustedCertificate &untrusted = {});
    // The error text for a request that got no response; says which certificate was refused, if one was.
    QString unreachableMessage(const HttpError &error) const;

    QThread m_thread;
    HttpClient *m_http; // lives on m_thread: only touched through invokeMethod
    // The HTTP client's ids of the running chat and models requests; read and written on m_thread only.
    quint64 m_chatId = 0;
    quint64 m_modelsId = 0;
    // Each request gets a number; what arrives for an older one (stopped, superseded) is dropped.
    quint64 m_generation = 0;
    quint64 m_modelsGeneration = 0;
    QByteArray m_lastBody;
    QUrl m_baseUrl;
    QByteArray m_pinnedSha256;
    upstream::UntrustedCertificate m_untrusted;

    // State of the running request.
    QElapsedTimer m_clock;
    SseParser m_sse;
    ReplyStats m_stats;
    QByteArray m_plainBody; // a response that is not an event stream (an error, or stream ignored)
    QString m_streamError;
    QString m_invalidEvent;
    bool m_busy = false;
    bool m_headersSeen = false;
    bool m_isStream = false;
    bool m_done = false;
    bool m_responsesApi = false;
    int m_tokenChunks = 0;
};

// "http://0.0.0.0:8080" is where the gateway listens, not an address to connect to: the loopback is.
QUrl connectableUrl(const QString &listenUrl);

} // namespace switchyard::client
