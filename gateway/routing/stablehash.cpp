#include "stablehash.h"

#include <QtEndian>
#include <cstring>

namespace switchyard::routing {

namespace {
constexpr quint64 K1 = 0x9E3779B97F4A7C15ULL; // 2^64 / golden ratio
constexpr quint64 K2 = 0xC2B2AE3D27D4EB4FULL; // xxHash's prime 2

quint64 avalanche(quint64 x)
{
    // splitmix64's finaliser: every input bit flips about half of the output bits.
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBULL;
    x ^= x >> 31;
    return x;
}

quint64 readLittleEndian(const char *p, qsizetype n)
{
    // Byte by byte, so the value does not depend on the machine's byte order.
    quint64 v = 0;
    for (qsizetype i = n - 1; i >= 0; --i)
        v = (v << 8) | quint64(static_cast<unsigned char>(p[i]));
    return v;
}
} // namespace

quint64 stableHash64(QByteArrayView bytes, quint64 seed)
{
    quint64 h = seed ^ (quint64(bytes.size()) * K1);
    const char *p = bytes.data();
    qsizetype left = bytes.size();
    while (left >= 8) {
        quint64 w;
        std::memcpy(&w, p, 8);
#if Q_BYTE_ORDER == Q_BIG_ENDIAN
        w = qFromLittleEndian(w);
#endif
        w *= K2;
        w ^= w >> 31;
        h = (h ^ w) * K1;
        h ^= h >> 29;
        p += 8;
        left -= 8;
    }
    if (left > 0) {
        quint64 w = readLittleEndian(p, left) * K2;
        w ^= w >> 31;
        h = (h ^ w) * K1;
    }
    return avalanche(h);
}

quint64 combineHashes(quint64 a, quint64 b)
{
    return avalanche(a * K1 + (b ^ K2));
}

double unitInterval(quint64 hash)
{
    // The top 52 bits, centred in their interval: (0.5 … 2^52 − 0.5) / 2^52, each exact in a double
    // (53 bits would round the largest to 1.0, whose logarithm is 0).
    return (double(hash >> 12) + 0.5) * (1.0 / 4503599627370496.0);
}

} // namespace switchyard::routing
