#include "rendezvous.h"

#include "routing/stablehash.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace switchyard::routing {

double rendezvousScore(quint64 sessionHash, const RendezvousNode &node)
{
    const double u = unitInterval(combineHashes(sessionHash, node.nameHash));
    return -std::max(node.weight, 1e-9) / std::log(u); // ln u < 0, so the score is positive
}

std::vector<int> rendezvousOrder(QByteArrayView sessionKey, const std::vector<RendezvousNode> &nodes)
{
    const quint64 session = stableHash64(sessionKey);
    std::vector<double> scores(nodes.size());
    for (size_t i = 0; i < nodes.size(); ++i)
        scores[i] = rendezvousScore(session, nodes[i]);
    std::vector<int> order(nodes.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return scores[size_t(a)] > scores[size_t(b)]; });
    return order;
}

} // namespace switchyard::routing
