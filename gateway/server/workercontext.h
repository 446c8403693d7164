#pragma once

// What every client connection of one worker thread shares: the current routing table, the upstream
// pool of the thread and its request timeouts, the statistics, the log callback, and the Gateway's run state and commands (paused
// is read there on every proxied request). Lives in the worker's thread.

#include "config/config.h"
#include "proxy/gatewaycontrol.h"
#include "routing/routingtable.h"
#include "stats/gatewaystats.h"

#include <functional>
#include <memory>

namespace switchyard {
class Deadlines;
}
namespace switchyard::upstream {
class UpstreamPool;
}

namespace switchyard::server {

struct WorkerContext
{
    std::shared_ptr<const routing::RoutingTable> table;
    upstream::UpstreamPool *pool = nullptr;
    Deadlines *deadlines = nullptr; // the thread's request timeouts (common/deadlines), made with pool
    stats::GatewayStats *stats = nullptr;
    std::function<void(const stats::RequestRecord &)> requestLogger; // may be called from any worker thread
    proxy::GatewayControl control; // run state (shared with the Gateway) and commands to its thread
    bool draining = false; // stop taking new requests: finish the current one, then close

    const config::GatewaySettings &settings() const { return table->config().settings; }
};

} // namespace switchyard::server
