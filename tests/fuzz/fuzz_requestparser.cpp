// libFuzzer target: the client-side HTTP/1.1 request parser (gateway/http/httprequestparser).
//
// Properties checked besides "no crash, no sanitizer report":
// - whatever the cut into reads, the parser produces the same requests and the same final outcome as
//   when given the whole input at once (a difference would be a framing disagreement: smuggling material);
// - a completed request never has a body over the limit, and errors carry a 4xx/5xx status.
// Small limits so the fuzzer reaches the 431/413 paths without megabyte inputs.

#include "fuzzsplit.h"
#include "http/httprequestparser.h"

#include <QList>
#include <cstdio>
#include <cstdlib>

using namespace switchyard;

namespace {

struct Outcome
{
    QList<QByteArray> requests; // method, target, body, keep-alive joined: what the proxy acts on
    int errorStatus = 0;
    bool operator==(const Outcome &) const = default;
};

constexpr http::RequestParser::Limits Limits{.maxHeaderBytes = 2048, .maxBodyBytes = 8192};

Outcome run(const fuzz::SplitInput &in)
{
    Outcome out;
    http::RequestParser parser(Limits);
    QByteArray buffer;
    bool stopped = false;
    fuzz::forEachPiece(in, [&](QByteArrayView piece) {
        if (stopped)
            return;
        buffer.append(piece);
        for (int guard = 0; guard < 10000; ++guard) {
            const auto s = parser.parse(buffer);
            if (s == http::RequestParser::Status::NeedMore)
                return;
            if (s == http::RequestParser::Status::Error) {
                out.errorStatus = parser.error().status;
                FUZZ_ASSERT(out.errorStatus >= 400 && out.errorStatus < 600);
                stopped = true;
                return;
            }
            http::Request r = parser.takeRequest();
            FUZZ_ASSERT(r.body.size() <= Limits.maxBodyBytes);
            FUZZ_ASSERT(!r.method.isEmpty() && !r.target.isEmpty());
            out.requests.append(r.method + ' ' + r.target + ' ' + QByteArray::number(r.keepAlive) + '\n' +
                                r.body);
        }
        FUZZ_ASSERT(false && "parser loops without consuming input");
    });
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const fuzz::SplitInput in = fuzz::splitInput(data, size);
    const Outcome pieces = run(in);
    if (in.step != 0) {
        const Outcome whole = run({0, in.payload});
        FUZZ_ASSERT(whole == pieces);
    }
    return 0;
}
