#pragma once

// `switchyard --bench …`: the panel's benchmark without a window, for scripts. Prints the results to
// stdout (Markdown tables like the article's, CSV or JSON) and progress to stderr.
//
//   switchyard --bench --demo                                  both demo nodes and the gateway pool
//   switchyard --bench --config bifrost.json --suite full      every provider + the pool, seed + sweep
//   switchyard --bench --target http://10.0.0.5:8000 --format csv
//   switchyard --bench --config c.json --target vllm-server1 --target gateway
//
// With --config or --demo an in-process gateway over that config is started on an ephemeral loopback
// port, so "gateway" (the weighted pool) can be measured next to the nodes it balances.
// Exit status: 0 every measured request succeeded, 1 some failed (the output says which), 2 usage error.

#include "common/expected.h"

#include <QByteArray>
#include <QStringList>
#include <functional>

namespace switchyard::bench {

struct BenchCliHooks
{
    // --demo: starts the demo's simulated nodes and returns their config JSON (app::DemoFleet::start()).
    // The nodes must keep running until runBenchCli returns. Unset: --demo is an error.
    std::function<Expected<QByteArray, QString>()> startDemo;
};

// arguments: the whole command line (QCoreApplication::arguments()); "--bench" itself is accepted and
// ignored. Needs a QCoreApplication; runs its own event loop and returns the exit status.
int runBenchCli(const QStringList &arguments, const BenchCliHooks &hooks = {});

// The options' help text (for the app's --help).
QString benchCliHelp();

} // namespace switchyard::bench
