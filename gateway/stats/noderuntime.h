#pragma once

// Everything the gateway keeps about one node at run time: the counters the workers update on the request
// path (relaxed atomics, no locks), the health verdict the prober and the workers share, and the node's
// latency histograms. One object per node name, shared by the workers, the health prober, the routing
// strategies (which read the load) and the snapshots; kept across config changes, so totals continue.
//
// It sits in a header of its own so that the routing table can hold it without pulling in the gateway's
// statistics (and they in turn the health prober's world): routing names it, only its users read it.

#include "health/nodehealth.h"
#include "stats/histogram.h"
#include "stats/tokencounter.h"

#include <atomic>

namespace switchyard::stats {

struct NodeCounters
{
    std::atomic<qint64> requests{0};      // attempts sent to the node
    std::atomic<qint64> successes{0};     // attempts answered with a response passed to the client
    std::atomic<qint64> failures{0};      // attempts that failed over or failed the request
    std::atomic<qint64> inFlight{0};
    TokenCounter promptTokens;     // never decreases (a Prometheus counter), see tokencounter.h
    TokenCounter completionTokens;
    std::atomic<qint64> latencyMsSum{0};  // end-to-end of successful attempts
    // cache_aware: of the prompts this node served, the bytes the gateway's prefix index expected it to
    // have cached, and all their indexed bytes. Their ratio is the gateway's predicted hit rate, shown
    // beside the node's own (vLLM's prefix_cache counters) by the health prober over the same window.
    std::atomic<qint64> predictedPrefixBytes{0};
    std::atomic<qint64> routedPromptBytes{0};
};

struct NodeRuntime
{
    NodeCounters counters;
    health::NodeHealth health;
    Histogram ttft;    // first response byte, successful attempts
    Histogram latency; // whole response, successful attempts
};

} // namespace switchyard::stats
