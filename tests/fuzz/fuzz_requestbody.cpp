// libFuzzer target: the request-body JSON scanner and splicer (gateway/http/jsonbodyscanner), which every
// proxied request goes through before routing. Properties: spans lie inside the body; a valid body with a
// model, rewritten with another model, is still valid JSON that scans to the new model and no fallbacks.

#include "fuzzsplit.h"
#include "http/jsonbodyscanner.h"
#include "proxy/usagerequest.h"

#include <cstdio>
#include <cstdlib>

using namespace switchyard;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QByteArrayView body(reinterpret_cast<const char *>(data), qsizetype(size));
    const http::ScannedBody scan = http::scanRequestBody(body);
    if (!scan.valid)
        return 0;
    if (scan.modelValue.isValid())
        FUZZ_ASSERT(scan.modelValue.begin < scan.modelValue.end && scan.modelValue.end <= body.size());
    if (scan.fallbacksMember.isValid())
        FUZZ_ASSERT(scan.fallbacksMember.begin < scan.fallbacksMember.end &&
                    scan.fallbacksMember.end <= body.size());
    if (scan.isObject && scan.model) {
        const QByteArray rewritten = http::rewriteBody(body, scan, "m\"x\r\n\x01y");
        const http::ScannedBody again = http::scanRequestBody(rewritten);
        FUZZ_ASSERT(again.valid);
        FUZZ_ASSERT(again.model && *again.model == QByteArrayView("m\"x\r\n\x01y"));
        FUZZ_ASSERT(!again.fallbacksMember.isValid());
    }
    // Asking for usage in the client's stead keeps the body valid and the model and fallbacks edits
    // working on the moved spans.
    http::ScannedBody asking = scan;
    if (const std::optional<QByteArray> asked = proxy::bodyAskingForUsage(body, asking)) {
        const QByteArray sent = http::makeBodyTemplate(*asked, asking).withModel("n\"1");
        const http::ScannedBody again = http::scanRequestBody(sent);
        FUZZ_ASSERT(again.valid && again.stream && again.includeUsage);
        FUZZ_ASSERT(!again.fallbacksMember.isValid());
        FUZZ_ASSERT(!scan.model || (again.model && *again.model == QByteArrayView("n\"1")));
    }
    return 0;
}
