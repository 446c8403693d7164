#pragma once

// One measured request: a streaming chat completion sent on an UpstreamConnection (the gateway's own
// keep-alive HTTP/1.1 client over QTcpSocket — QNetworkAccessManager would queue the 7th concurrent
// request to a host in Qt 6.4 and flatten every concurrency figure above 6). It reads the SSE stream as it
// arrives, stamps the first generated token (TTFT) and the last byte (latency), and takes the token count
// from the usage chunk. Also used for the one GET /v1/models that finds a target's model.

#include "http/sseparser.h"
#include "benchtypes.h"
#include "routing/routingtable.h"
#include "upstream/upstreamconnection.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QTimer>
#include <functional>

namespace switchyard::bench {

// The bytes of POST …/v1/chat/completions (or …/v1/responses) for one benchmark request (same prompt for
// every target). ignoreEos applies to chat completions only.
QByteArray buildChatRequest(const routing::Endpoint &endpoint, const QString &model, const QString &apiKey,
                            const QString &prompt, int maxTokens, bool ignoreEos, Api api = Api::ChatCompletions);
// A turn of a conversation: the whole history as messages (a JSON array), and a session key sent as
// the X-Session-Id header and the "user" body field, so the gateway can keep a conversation on one node.
QByteArray buildConversationRequest(const routing::Endpoint &endpoint, const QString &model, const QString &apiKey,
                                    const QByteArray &messagesJson, int maxTokens, bool ignoreEos,
                                    const QString &sessionKey);
QByteArray buildModelsRequest(const routing::Endpoint &endpoint, const QString &apiKey);
// The first model id of a /v1/models body (openai::parseModelList), or an empty string.
QString firstModelId(QByteArrayView body);
// Strips a trailing "/v1" so "http://host:8000/v1" (the OpenAI SDK's habit) works like "http://host:8000".
std::optional<routing::Endpoint> benchEndpoint(const QString &baseUrl);

class BenchExchange final : public upstream::UpstreamListener
{
    Q_DISABLE_COPY_MOVE(BenchExchange)

public:
    enum class Kind { Chat, Models };
    using Done = std::function<void(BenchExchange *)>;

    BenchExchange(Kind kind, QByteArray request, int timeoutMs, Done done);
    ~BenchExchange() override;

    // Sends on the connection (which the caller owns and must keep alive until done or abort()).
    void start(upstream::UpstreamConnection *connection);
    // Cuts the request: the connection is aborted (the server sees the client go away); done is not called.
    void abort();

    Kind kind() const { return m_kind; }
    const QByteArray &request() const { return m_request; }
    upstream::UpstreamConnection *connection() const { return m_connection; }
    bool isFinished() const { return m_finished; }
    const RequestSample &sample() const { return m_sample; }
    const QByteArray &body() const { return m_body; } // kept for Models and for error responses
    // Keeps the streamed answer's content (a conversation's next turn sends it back).
    void setKeepText(bool keep) { m_keepText = keep; }
    // The stream's API (before start): Responses events end with response.completed, not [DONE].
    void setApi(Api api) { m_api = api; }
    const QString &text() const { return m_text; }
    // Failed before any response byte on a connection that had served before: probably closed by the
    // server while idle; worth one more try on a fresh connection.
    bool staleConnectionFailure() const { return m_staleFailure; }

    void upstreamHead(const http::ResponseParser &response) override;
    void upstreamBody(QByteArrayView data) override;
    void upstreamFinished() override;
    void upstreamFailed(const upstream::UpstreamError &error) override;

private:
    void handleEvent(QByteArrayView payload);
    void complete(bool ok, const QString &error);
    double elapsedMs() const { return double(m_clock.nsecsElapsed()) / 1e6; }

    Kind m_kind;
    Api m_api = Api::ChatCompletions;
    QByteArray m_request;
    int m_timeoutMs;
    Done m_done;
    upstream::UpstreamConnection *m_connection = nullptr;
    QElapsedTimer m_clock;
    QTimer m_timeout;
    RequestSample m_sample;
    QByteArray m_body;    // non-SSE bodies
    http::SseParser m_events; // the stream, split into events
    bool m_sse = false;
    bool m_sawDone = false;
    QString m_streamError;
    qint64 m_chunks = 0;
    bool m_finished = false;
    bool m_staleFailure = false;
    bool m_keepText = false;
    QString m_text;
};

} // namespace switchyard::bench
