// libFuzzer target: what the gateway does to a node's stream for token counts — the usage sniffer's
// per-chunk estimate (gateway/stats/usagesniffer) and the filter that takes back out the usage the
// gateway asked for (gateway/proxy/usagechunkfilter).
//
// Properties: neither depends on how the stream is cut into reads (for events within the filter's
// hold bound, which fuzz inputs are); the filter's output never has more bytes than its input, and
// what it leaves out is whole usage chunks or usage members. The same bytes read as a whole reply
// (setWholeReply, each dialect) give figures that do not depend on the cut either, and are the figures
// the stream's scan reads.

#include "fuzzsplit.h"
#include "proxy/usagechunkfilter.h"
#include "stats/usagesniffer.h"

#include <QByteArray>
#include <array>
#include <cstdio>
#include <cstdlib>

using namespace switchyard;

namespace {

struct Outcome
{
    QByteArray forClient;
    qint64 counted = 0;
    int removed = 0;
    std::array<qint64, 6> wholeFigures{}; // prompt, completion for each dialect, read as a whole reply
    bool operator==(const Outcome &) const = default;
};

Outcome run(const fuzz::SplitInput &in)
{
    Outcome out;
    stats::UsageSniffer sniffer;
    proxy::UsageChunkFilter filter;
    constexpr std::array dialects{stats::UsageDialect::Completions, stats::UsageDialect::Responses,
                                  stats::UsageDialect::Messages};
    std::array<stats::UsageSniffer, 3> streamed, whole;
    for (size_t i = 0; i < dialects.size(); ++i) {
        streamed[i] = stats::UsageSniffer(dialects[i]);
        whole[i] = stats::UsageSniffer(dialects[i]);
        whole[i].setWholeReply(true);
    }
    fuzz::forEachPiece(in, [&](QByteArrayView piece) {
        sniffer.feed(piece);
        out.forClient.append(filter.feed(piece));
        for (size_t i = 0; i < dialects.size(); ++i) {
            streamed[i].feed(piece);
            whole[i].feed(piece);
        }
    });
    for (size_t i = 0; i < dialects.size(); ++i) {
        out.wholeFigures[2 * i] = whole[i].promptTokens();
        out.wholeFigures[2 * i + 1] = whole[i].completionTokens();
        FUZZ_ASSERT(whole[i].promptTokens() == streamed[i].promptTokens());
        if (streamed[i].usageReported())
            FUZZ_ASSERT(whole[i].completionTokens() == streamed[i].completionTokens());
    }
    out.forClient.append(filter.takeHeld());
    out.counted = sniffer.countedChunks();
    out.removed = filter.removedChunks();
    FUZZ_ASSERT(out.forClient.size() <= in.payload.size());
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const fuzz::SplitInput in = fuzz::splitInput(data, size);
    if (in.payload.size() > proxy::UsageChunkFilter::MaxHeldEventBytes)
        return 0;
    const Outcome pieces = run(in);
    if (in.step != 0)
        FUZZ_ASSERT(run({0, in.payload}) == pieces);
    return 0;
}
