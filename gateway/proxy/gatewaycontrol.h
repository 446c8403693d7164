#pragma once

// What the management API reaches of the Gateway object from a worker thread. The run state is the
// Gateway's own (running, stopping, paused, the address it listens on): the Gateway writes it, every
// worker reads it, and `paused` is read on every proxied request, so it is an atomic. The commands
// that change the gateway (a config, a probe, pause and resume) run on the Gateway's thread, one at a
// time; the worker waits for the answer through a future and never blocks its thread.

#include "config/config.h"
#include "link/gatewaystatus.h"
#include "proxy/localresponse.h"

#include <QByteArray>
#include <QFuture>
#include <QMutex>
#include <QString>
#include <atomic>
#include <functional>
#include <memory>
#include <variant>

namespace switchyard::proxy {

// PUT /api/config: validated on the worker; the precondition is checked on the Gateway's thread, in
// the same step that applies, so two PUTs made against one hash cannot both apply.
struct ConfigPutCommand
{
    config::GatewayConfig parsed;
    QByteArray text;
    QString ifMatch; // the If-Match header as sent; empty = no precondition
};

// POST /api/nodes/{name}/probe
struct ProbeCommand
{
    QString node;
};

// POST /api/gateway/pause and /resume
struct PauseCommand
{
    bool paused = false;
};

using GatewayCommand = std::variant<ConfigPutCommand, ProbeCommand, PauseCommand>;

// Runs a command on the Gateway's thread; the future carries the complete answer, or ends without a
// result when the Gateway went away first.
using CommandRunner = std::function<QFuture<LocalResponse>(GatewayCommand command)>;

class SharedRunState final
{
    Q_DISABLE_COPY_MOVE(SharedRunState)

public:
    SharedRunState() = default;

    // The Gateway's thread.
    void set(const link::RunState &state)
    {
        const QMutexLocker lock(&m_mutex);
        m_state = state;
        m_paused.store(state.paused, std::memory_order_release);
    }

    // Any thread.
    link::RunState get() const
    {
        const QMutexLocker lock(&m_mutex);
        return m_state;
    }
    bool isPaused() const { return m_paused.load(std::memory_order_acquire); }

private:
    mutable QMutex m_mutex;
    link::RunState m_state;
    std::atomic<bool> m_paused{false};
};

class ResponseIdMemory;

} // namespace switchyard::proxy

namespace switchyard::keys {
class KeyRegistry;
}
namespace switchyard::history {
class HistoryStore;
}

namespace switchyard::proxy {

struct GatewayControl
{
    std::shared_ptr<const SharedRunState> runState;
    CommandRunner run;
    // Which node created which stored response (the Responses API), shared by every worker.
    std::shared_ptr<ResponseIdMemory> responseIds;
    // The virtual keys (keys/keyregistry.h), shared by every worker: read lock-free on each request.
    std::shared_ptr<keys::KeyRegistry> keys;
    // The lasting history (history/), or null when the config keeps none or it could not be opened. A
    // function: the store can change while workers run (another path applied).
    std::function<std::shared_ptr<history::HistoryStore>()> history;
    // Why there is no history although the config names one (the file could not be opened); empty otherwise.
    std::function<QString()> historyProblem;
};

} // namespace switchyard::proxy
