#pragma once

// The simulated node's command line, shared by `switchyard-simnode` and anything else that wants to
// start nodes from flags (the panel's demo mode).

#include "common/expected.h"
#include "simoptions.h"

class QCommandLineParser;

namespace switchyard::sim {

void addSimNodeOptions(QCommandLineParser &parser);
// Reads the options registered by addSimNodeOptions after parser.process()/parse().
Expected<SimNodeOptions, QString> simNodeOptionsFrom(const QCommandLineParser &parser);

} // namespace switchyard::sim
