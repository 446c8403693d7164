#pragma once

// How several gateways add up to one fleet (two replicas behind one address, or the gateways of a
// site): the arithmetic of the panel's fleet window, kept apart from the link that collects the
// answers so it can be read and tested on its own.
//  - Counters, rates, tokens and requests in flight add up.
//  - A node seen by several gateways (the same base URL) is one row: its counters add up, its vLLM
//    gauges are the node's own (the highest reading, they read the same /metrics), and its state is
//    the worst any gateway sees, with each gateway's reason, so one gateway's view of a failing node is
//    never hidden by another's.
//  - Latency percentiles cannot be added: the fleet's is the worst gateway's (p95 and p99), a
//    request-weighted mean for p50. Said in the views' tooltips as "worst gateway".

#include "keys/keyregistry.h"
#include "link/gatewaystatus.h"
#include "stats/requestrecord.h"
#include "stats/secondshistory.h"

#include <QList>
#include <QString>

namespace switchyard::client {

struct FleetMember
{
    QString name; // the gateway's display name (its URL)
    link::GatewayStatus status;
};

link::GatewayStatus mergeStatuses(const QList<FleetMember> &members);

// Per-second series of several gateways, aligned by second; a second only some gateways answered for
// counts what they said.
QList<stats::SecondSample> mergeHistory(const QList<QList<stats::SecondSample>> &series);

// Records of several gateways in the order they started (stable for equal times).
QList<stats::RequestRecord> mergeByTime(QList<stats::RequestRecord> records);

// Virtual keys as replicas that share them through one Redis list them (docs/KEYS.md): one row per key
// id, in the order the first gateway lists them. The windows' counts (requests and tokens this minute,
// tokens today) are the fleet's on every replica already: the highest reading, since a replica may be a
// round behind. Requests in flight and the totals since each gateway started add up. A key revoked on
// any replica is revoked (the revocation may not have reached the others yet).
QList<keys::KeyListing> mergeKeyListings(const QList<QList<keys::KeyListing>> &lists);

// Worst first: Down, Degraded, Recovering, Draining, Unknown, Healthy.
int nodeStateSeverity(health::NodeState state);

} // namespace switchyard::client
