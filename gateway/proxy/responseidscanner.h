#pragma once

// Finds the id of a response the node just created in its answer's first bytes: the `id` of a
// non-streamed Responses object, or of the response in a stream's first event (response.created).
// Both put the response's own id before any other "id" member (vLLM serialises the response object
// with `id` first, and response.created carries nothing else with an id). Only the first
// MaxScanBytes of a body are looked at, held until the id is complete, so what it keeps is bounded.

#include <QByteArray>
#include <QByteArrayView>
#include <optional>

namespace switchyard::proxy {

class ResponseIdScanner final
{
public:
    static constexpr qsizetype MaxScanBytes = 8 * 1024;

    // The id, once, as soon as the bytes so far hold it whole; nullopt before and after.
    std::optional<QByteArray> feed(QByteArrayView data);

private:
    QByteArray m_head;
    bool m_done = false;
};

} // namespace switchyard::proxy
