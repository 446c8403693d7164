#pragma once

// A simulated vLLM node: an OpenAI-compatible HTTP server that behaves like vLLM closely enough for the
// gateway, its tests, demos and benchmarks (see docs/SIMNODE.md). It runs on its own thread, so a test's
// main thread may block on a client while the node serves, and the panel can host several in-process.

#include "common/expected.h"
#include "simoptions.h"

#include <QMutex>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

class QThread;

namespace switchyard::sim {

class SimServer;
struct SharedState;

class SimNode final : public QObject
{
    Q_OBJECT

public:
    explicit SimNode(SimNodeOptions options, QObject *parent = nullptr);
    ~SimNode() override; // stops cleanly
    Q_DISABLE_COPY_MOVE(SimNode)

    // Starts the node's thread and binds (port 0 = ephemeral); returns the port, or why it could not
    // start (invalid options, port in use). Starting a running node returns its port.
    Expected<quint16, QString> start();
    // Closes every connection and joins the thread. Safe to call twice; start() may follow.
    void stop();
    bool isRunning() const;

    quint16 port() const { return m_port.load(); }
    QString baseUrl() const; // "http://127.0.0.1:PORT"
    const SimNodeOptions &options() const { return m_options; }

    // Thread-safe. Takes effect for new requests at once (the call returns once the node applied it);
    // for running ones: hang pauses them, slow slows them, drop-stream cuts them after N tokens, dead
    // ends them with an error. Before start() it sets the mode the node starts in.
    void setFault(FaultMode mode, FaultParams params = {});
    FaultMode fault() const;

    struct Counters
    {
        qint64 requestsReceived = 0; // inference requests (chat, completions, embeddings, vLLM's own, audio) fully read
        qint64 completed = 0;        // inference requests whose response was fully sent (any status)
        qint64 clientAborts = 0;     // client closed before the response finished
        int running = 0;             // sequences in the batch (prefill + decode)
        int waiting = 0;             // sequences queued beyond max-num-seqs or the KV cache
        int openConnections = 0;
        qint64 bytesReceived = 0;    // from clients, as they arrive: a request's body still on its way included
        qint64 promptTokens = 0;
        qint64 cachedPromptTokens = 0; // of promptTokens, served by the prefix cache
        qint64 generationTokens = 0;
        qint64 faultsInjected = 0;   // injected 500s and dropped streams
    };
    Counters counters() const; // thread-safe (atomics)

private:
    SimNodeOptions m_options;
    std::unique_ptr<SharedState> m_shared;
    std::atomic<quint16> m_port{0};
    // Serialises start/stop/setFault; the node thread never takes it, so blocking calls into the node
    // made under it cannot deadlock.
    mutable QMutex m_control;
    std::unique_ptr<QThread> m_thread;
    std::atomic<SimServer *> m_server{nullptr};
};

} // namespace switchyard::sim
