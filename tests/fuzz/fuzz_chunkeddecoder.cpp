// libFuzzer target: the chunked transfer-coding decoder (gateway/http/chunkeddecoder.h), shared by the
// request parser and the upstream response parser.
//
// Properties: the decoded payload and the outcome do not depend on how the input is cut into reads;
// consumed never exceeds what was offered; after Done the decoder stays done.

#include "fuzzsplit.h"
#include "http/chunkeddecoder.h"

#include <QByteArray>
#include <cstdio>
#include <cstdlib>

using namespace switchyard;

namespace {

struct Outcome
{
    QByteArray payload;
    int result = 0; // 0 need more, 1 done, 2 error
    qsizetype leftover = 0;
    bool operator==(const Outcome &) const = default;
};

Outcome run(const fuzz::SplitInput &in)
{
    Outcome out;
    http::ChunkedDecoder decoder;
    QByteArray buffer;
    bool stopped = false;
    fuzz::forEachPiece(in, [&](QByteArrayView piece) {
        buffer.append(piece);
        if (stopped)
            return;
        qsizetype consumed = -1;
        const auto r = decoder.feed(buffer, consumed, [&](QByteArrayView p) {
            FUZZ_ASSERT(p.size() > 0);
            out.payload.append(p);
        });
        FUZZ_ASSERT(consumed >= 0 && consumed <= buffer.size());
        if (r == http::ChunkedDecoder::Result::Error) {
            out.result = 2;
            stopped = true;
            return;
        }
        buffer.remove(0, consumed);
        if (r == http::ChunkedDecoder::Result::Done) {
            FUZZ_ASSERT(decoder.isDone());
            out.result = 1;
            stopped = true;
        }
    });
    if (out.result == 1)
        out.leftover = buffer.size(); // bytes after the message: a pipelined next one
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const fuzz::SplitInput in = fuzz::splitInput(data, size);
    const Outcome pieces = run(in);
    if (in.step != 0) {
        const Outcome whole = run({0, in.payload});
        // An error may be seen earlier or later, but what was decoded before it and a success must agree.
        if (whole.result != 2 && pieces.result != 2)
            FUZZ_ASSERT(whole == pieces);
        else
            FUZZ_ASSERT(whole.result == pieces.result);
    }
    return 0;
}
