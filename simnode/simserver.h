#pragma once

// The simulated node's engine room, living on the node's own thread: the listening socket, the
// connections, request routing, the performance model with its step timer, metrics, and the faults.
// SimNode is the thread-safe face; nothing here is touched from another thread except SharedState.

#include "performancemodel.h"
#include "simconnection.h"
#include "simmetrics.h"
#include "simoptions.h"
#include "simprotocol.h"
#include "simmessagesapi.h"
#include "simresponsesapi.h"
#include "textgenerator.h"
#include "common/expected.h"

#include <QHostAddress>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <atomic>
#include <memory>
#include <optional>
#include <unordered_map>

class QTcpServer;

namespace switchyard::sim {

// What other threads may read while the node runs.
struct SharedState
{
    std::atomic<qint64> requestsReceived{0};
    std::atomic<qint64> completed{0};
    std::atomic<qint64> clientAborts{0};
    std::atomic<qint64> faultsInjected{0};
    std::atomic<int> running{0};
    std::atomic<int> waiting{0};
    std::atomic<int> openConnections{0};
    std::atomic<qint64> bytesReceived{0};
    std::atomic<qint64> promptTokens{0};
    std::atomic<qint64> cachedPromptTokens{0}; // of promptTokens, served by the prefix cache
    std::atomic<qint64> generationTokens{0};
    std::atomic<int> fault{int(FaultMode::Healthy)};
};

class SimServer final : public QObject, private SimConnection::Handler
{
    Q_OBJECT

public:
    SimServer(SimNodeOptions options, SharedState &shared);
    ~SimServer() override;
    Q_DISABLE_COPY_MOVE(SimServer)

    Expected<quint16, QString> listen();
    // Closes the listener and every connection and stops the timers; the node thread calls it last.
    void shutdown();
    void setFault(FaultMode mode, const FaultParams &params);

private:
    // One generation request being served.
    struct Exchange
    {
        SimConnection *connection = nullptr;
        GenerationRequest request;
        ResponseWriter writer;
        int reasoningTokens = 0; // of the completion, sent as reasoning_content first
        int emitted = 0;
        int cachedTokens = 0;    // prompt tokens the prefix cache served (known once admitted)
        qint64 submittedAt = 0;  // model clock, for the e2e latency of aborted requests
        TextGenerator answer;
        TextGenerator reasoning;
        std::string text;          // accumulated answer (streams too, with prefix caching on)
        std::string reasoningText; // non-stream: accumulated reasoning
        // The Responses and Messages APIs write through this (chat and completions through writer);
        // their text accumulates in text whether or not they stream.
        std::shared_ptr<ApiWriter> api;
    };

    void handleRequest(SimConnection &connection, http::Request request) override;
    void connectionClosed(SimConnection &connection, bool exchangeOpen) override;
    void bytesReceived(qint64 bytes) override { m_shared.bytesReceived += bytes; }

    void onNewConnection();
    void dispatch(SimConnection &connection, const http::Request &request);
    void handleControl(SimConnection &connection, const http::Request &request);
    void handleGeneration(SimConnection &connection, const http::Request &request, Endpoint endpoint);
    void handleEmbeddings(SimConnection &connection, const http::Request &request);
    // The Responses and Messages APIs besides generation (simserverapis.cpp).
    void handleStoredResponse(SimConnection &connection, const http::Request &request);
    void handleCountTokens(SimConnection &connection, const http::Request &request);
    // Parses a /v1/responses or /v1/messages body into a generation and its writer.
    Expected<std::pair<GenerationRequest, std::shared_ptr<ApiWriter>>, ApiError>
    parseApiRequest(const http::Request &request, Endpoint endpoint, const std::string &id);
    // vLLM's own endpoints (simvllmapi) and audio uploads (simaudioapi).
    void handleVllmApi(SimConnection &connection, const http::Request &request);
    void handleAudio(SimConnection &connection, const http::Request &request);
    void respondJson(SimConnection &connection, const http::Request &request, int status, const QByteArray &body,
                     QByteArrayView extraHeaders = {});
    void respondError(SimConnection &connection, const http::Request &request, const ApiError &error);
    // Answers an inference request with an injected fault if the fault mode says so.
    bool injectRequestFault(SimConnection &connection, const http::Request &request);

    void tick();
    void scheduleTick();
    void emitTokens(SequenceId id, const SequenceEvent &event);
    void finishExchange(SequenceId id, FinishReason reason);
    void dropExchange(SequenceId id);
    void failAllExchanges(const ApiError &error);
    // Takes an exchange off the books as aborted (model, metrics); the caller answers or cuts it.
    std::optional<Exchange> takeAborted(SequenceId id);
    void publishGauges();
    Usage usageOf(const Exchange &ex) const;
    void cacheAnswer(Exchange &ex);

    void stopListening();
    void startListening();
    void releaseHeld();
    void logAccess(const SimConnection &connection, const http::Request &request, int status) const;
    QByteArray statsJson() const;
    QByteArray faultJson() const;

    const SimNodeOptions m_options;
    SharedState &m_shared;
    QTcpServer *m_listener;
    QHostAddress m_address;
    quint16 m_port = 0;
    QSet<SimConnection *> m_connections;
    PerformanceModel m_model;
    SimMetrics m_metrics;
    QTimer m_tickTimer;
    QTimer m_refuseTimer;   // ends a timed "refuse"
    QTimer m_relistenTimer; // retries listening when the port is briefly unavailable
    bool m_inTick = false;
    FaultMode m_fault = FaultMode::Healthy;
    FaultParams m_faultParams;
    Rng m_faultRng;
    std::unordered_map<SequenceId, Exchange> m_exchanges;
    std::unordered_map<SimConnection *, http::Request> m_held; // requests parked by "hang"
    ResponseStore m_responses; // the Responses API's stored responses
};

} // namespace switchyard::sim
