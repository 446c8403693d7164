#pragma once

// The built-in demo: two simulated vLLM nodes named as in the article (vllm-server1 and
// vllm-server2 serving nemotron-3-super, weights 1:1) and the article's Bifrost config pointing at them.
// Lets a new user see the whole panel working before pointing it at real nodes.

#include "common/expected.h"
#include "config/config.h"
#include "simnode/simnode.h"

#include <memory>
#include <vector>

namespace switchyard::app {

class DemoFleet final
{
    Q_DISABLE_COPY_MOVE(DemoFleet)

public:
    DemoFleet() = default;
    ~DemoFleet();

    // Starts the nodes on ephemeral loopback ports and returns the config JSON for the gateway.
    Expected<QByteArray, QString> start();
    void stop();

    std::vector<sim::SimNode *> nodes() const;
    sim::SimNode *node(const QString &name) const;

private:
    std::vector<std::unique_ptr<sim::SimNode>> m_nodes;
};

} // namespace switchyard::app
