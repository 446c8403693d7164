// libFuzzer target: a node's response as the upstream client reads it (gateway/http/httpresponseparser)
// with the body passed through the SSE/JSON usage scanner (gateway/stats/usagesniffer) the proxy runs on
// every response body, streamed or not.
//
// Properties: head-then-body handling never loops or reads outside the buffer; the body bytes seen do not
// depend on how the input is cut (Length / chunked / until-close framing), nor do the usage numbers found.

#include "fuzzsplit.h"
#include "http/httpresponseparser.h"
#include "stats/usagesniffer.h"

#include <QByteArray>
#include <cstdio>
#include <cstdlib>

using namespace switchyard;

namespace {

struct Outcome
{
    int status = 0;
    QByteArray body;
    int result = 0; // 0 need more, 1 body complete, 2 error
    qint64 prompt = -1;
    qint64 completion = -1;
    bool operator==(const Outcome &) const = default;
};

Outcome run(const fuzz::SplitInput &in, bool headRequest)
{
    Outcome out;
    http::ResponseParser parser;
    parser.reset(headRequest);
    stats::UsageSniffer sniffer;
    QByteArray buffer;
    bool inBody = false;
    bool stopped = false;
    fuzz::forEachPiece(in, [&](QByteArrayView piece) {
        if (stopped)
            return;
        buffer.append(piece);
        if (!inBody) {
            const auto s = parser.parseHead(buffer);
            if (s == http::ResponseParser::Status::NeedMore)
                return;
            if (s == http::ResponseParser::Status::Error) {
                out.result = 2;
                stopped = true;
                return;
            }
            out.status = parser.status();
            FUZZ_ASSERT(out.status >= 200 && out.status <= 599);
            if (s == http::ResponseParser::Status::BodyComplete) {
                out.result = 1;
                stopped = true;
                return;
            }
            inBody = true;
        }
        qsizetype consumed = -1;
        const auto s = parser.feedBody(buffer, consumed, [&](QByteArrayView p) {
            out.body.append(p);
            sniffer.feed(p);
        });
        if (s == http::ResponseParser::Status::Error) {
            out.result = 2;
            stopped = true;
            return;
        }
        FUZZ_ASSERT(consumed >= 0 && consumed <= buffer.size());
        buffer.remove(0, consumed);
        if (s == http::ResponseParser::Status::BodyComplete) {
            out.result = 1;
            stopped = true;
        }
    });
    out.prompt = sniffer.promptTokens();
    out.completion = sniffer.completionTokens();
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const fuzz::SplitInput in = fuzz::splitInput(data, size);
    const bool headRequest = size > 0 && (data[0] & 0x80);
    const Outcome pieces = run(in, headRequest);
    if (in.step != 0) {
        const Outcome whole = run({0, in.payload}, headRequest);
        FUZZ_ASSERT(whole.result == pieces.result && whole.status == pieces.status);
        if (whole.result != 2)
            FUZZ_ASSERT(whole.body == pieces.body);
    }
    return 0;
}
