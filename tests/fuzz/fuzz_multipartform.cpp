// libFuzzer target: multipart/form-data (gateway/http/multipartform), which every audio upload goes
// through before routing. Input: a Content-Type line, then the body. Properties: value spans lie inside
// the body, in order and without overlap; every part has a name; the parts stay within MaxParts;
// splicing a new `model` value into the body, as pins do, parses back to the same parts with that value;
// and read as it arrives (parseMultipartPrefix), a prefix is refused only when the whole body is, and the
// parts it read are the whole body's first ones.

#include "fuzzsplit.h"
#include "http/multipartform.h"

#include <cstdio>
#include <cstdlib>

using namespace switchyard;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QByteArrayView input(reinterpret_cast<const char *>(data), qsizetype(size));
    const qsizetype newline = input.indexOf('\n');
    if (newline < 0)
        return 0;
    const QByteArrayView contentType = input.first(newline);
    const QByteArrayView body = input.sliced(newline + 1);
    const std::optional<QByteArray> boundary = http::multipartBoundary(contentType);
    if (!boundary)
        return 0;
    FUZZ_ASSERT(!boundary->isEmpty() && boundary->size() <= 70);
    http::MultipartError error;
    const std::optional<http::MultipartForm> form = http::parseMultipartForm(body, *boundary, &error);
    for (int k = 1; k <= 8; ++k) {
        const qsizetype cut = body.size() * k / 8;
        const std::optional<http::MultipartForm> prefix = http::parseMultipartPrefix(body.first(cut), *boundary);
        if (!prefix) {
            FUZZ_ASSERT(!form); // what a prefix refuses, no further byte can mend
            continue;
        }
        FUZZ_ASSERT(!prefix->complete || (form && prefix->parts.size() == form->parts.size()));
        if (form) {
            FUZZ_ASSERT(prefix->parts.size() <= form->parts.size());
            for (size_t i = 0; i < prefix->parts.size(); ++i)
                FUZZ_ASSERT(prefix->parts[i].value.begin == form->parts[i].value.begin &&
                            prefix->parts[i].value.end == form->parts[i].value.end);
        }
    }
    if (!form) {
        FUZZ_ASSERT(!error.message.isEmpty());
        return 0;
    }
    FUZZ_ASSERT(form->parts.size() <= size_t(http::MaxParts));
    qsizetype last = 0;
    for (const http::MultipartPart &p : form->parts) {
        FUZZ_ASSERT(!p.name.isEmpty());
        FUZZ_ASSERT(p.value.begin >= last && p.value.begin <= p.value.end && p.value.end <= body.size());
        last = p.value.end;
    }
    if (const http::MultipartPart *model = form->part("model")) {
        const QByteArray spliced = body.first(model->value.begin).toByteArray() + "bare-model" +
                                   body.sliced(model->value.end).toByteArray();
        const std::optional<http::MultipartForm> again = http::parseMultipartForm(spliced, *boundary);
        FUZZ_ASSERT(again && again->parts.size() == form->parts.size());
        const http::MultipartPart *m = again->part("model");
        FUZZ_ASSERT(m && spliced.sliced(m->value.begin, m->value.end - m->value.begin) == "bare-model");
    }
    return 0;
}
