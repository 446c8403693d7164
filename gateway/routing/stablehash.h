#pragma once

// A 64-bit hash that is the same in every process, on every machine and in every build: routing
// decisions that must agree between two gateway replicas (session_affinity) or survive a restart
// (cache_aware's index keys) cannot use qHash or std::hash, whose seeds are per process and whose
// algorithm depends on the CPU (Qt picks AES-NI where it exists). Eight bytes at a time with a
// multiply-xorshift mix, finished by splitmix64's avalanche: fast on long prompts, good enough spread
// for hash tables and for a uniform number in (0, 1). Not a cryptographic hash.

#include <QByteArrayView>
#include <QtGlobal>

namespace switchyard::routing {

quint64 stableHash64(QByteArrayView bytes, quint64 seed = 0);

// Two hashes combined into one (order matters): a chain of blocks, or a key paired with a node.
quint64 combineHashes(quint64 a, quint64 b);

// A hash mapped to a double strictly between 0 and 1 (never 0, so its logarithm is finite).
double unitInterval(quint64 hash);

} // namespace switchyard::routing
