#pragma once

// Weighted rendezvous (highest random weight) hashing: the order in which a session's requests try the
// nodes. Every node gets a score from a hash of (session key, node name) — score = −weight / ln(u),
// u the hash as a number in (0, 1) — and the highest score is the session's node; the rest, by
// falling score, are where it goes when that node fails, is drained or ejected.
//
// Why this and not a hash ring or "hash mod n": the score of a (session, node) pair depends on nothing
// else, so two gateways with the same config agree without talking to each other; a node that leaves
// (removed, drained, ejected) moves only the sessions it had, each to its own next-best node; a node
// that joins takes only the sessions it now wins; and weights hold over many sessions: a node of weight
// w wins a share w / Σw of them (the −w / ln u form is exactly that: an exponential race).

#include <QByteArrayView>
#include <QtGlobal>
#include <vector>

namespace switchyard::routing {

struct RendezvousNode
{
    quint64 nameHash = 0; // stableHash64 of the node's name
    double weight = 1.0;  // > 0
};

// The score of one node for a session (higher wins).
double rendezvousScore(quint64 sessionHash, const RendezvousNode &node);

// Indexes into nodes, best first. Ties (equal scores, practically never) keep the nodes' order.
std::vector<int> rendezvousOrder(QByteArrayView sessionKey, const std::vector<RendezvousNode> &nodes);

} // namespace switchyard::routing
