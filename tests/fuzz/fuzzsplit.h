#pragma once

// Shared by the fuzz targets: the first input byte chooses how the rest is cut into reads, so one corpus
// entry exercises both the whole-buffer path and every "the network delivered it in pieces" path of the
// incremental parsers. Piece sizes cycle through 1..step so boundaries land everywhere.

#include <QByteArrayView>
#include <cstddef>
#include <cstdint>

namespace switchyard::fuzz {

struct SplitInput
{
    int step = 0; // 0 = one piece
    QByteArrayView payload;
};

inline SplitInput splitInput(const std::uint8_t *data, std::size_t size)
{
    if (size == 0)
        return {};
    return {int(data[0] % 64), QByteArrayView(reinterpret_cast<const char *>(data) + 1, qsizetype(size - 1))};
}

// Calls piece(view) for consecutive pieces of payload.
template <typename Piece> void forEachPiece(const SplitInput &in, Piece &&piece)
{
    if (in.step == 0) {
        piece(in.payload);
        return;
    }
    qsizetype pos = 0;
    int n = 0;
    while (pos < in.payload.size()) {
        const qsizetype len = std::min<qsizetype>(in.payload.size() - pos, 1 + (n++ % in.step));
        piece(in.payload.sliced(pos, len));
        pos += len;
    }
}

// A check that must hold whatever the input: abort so libFuzzer records the input.
#define FUZZ_ASSERT(cond)                                                                                    \
    do {                                                                                                     \
        if (!(cond)) {                                                                                       \
            fprintf(stderr, "FUZZ_ASSERT failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__);                  \
            abort();                                                                                         \
        }                                                                                                    \
    } while (0)

} // namespace switchyard::fuzz
