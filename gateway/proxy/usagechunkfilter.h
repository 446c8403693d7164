#pragma once

// Takes back out of a stream what the gateway asked for in the client's stead (proxy/usagerequest):
// the final usage-only chunk (`"choices":[]` with a usage object) and the `"usage":null` or usage
// member a node then puts in its other chunks, so the client receives exactly the stream it would
// have received without the gateway. The gateway's usage sniffer reads the node's bytes before this.
//
// It works on whole SSE events (lines end in LF, CR or CRLF; a blank line ends an event) and passes
// every byte of an event it leaves alone as it came, without a copy when a read holds whole events and
// nothing in them changes. An event is held only until its end arrives (nodes write one event per
// write, so in practice nothing waits); one longer than MaxHeldEventBytes cannot be a usage chunk and
// is passed through as it comes, so what is held stays bounded whatever the node sends.

#include <QByteArray>
#include <QByteArrayView>

namespace switchyard::proxy {

class UsageChunkFilter final
{
public:
    static constexpr qsizetype MaxHeldEventBytes = 64 * 1024;

    // The bytes for the client from the node's next read: a view of data itself, or of the filter's
    // own buffer, valid until the next call.
    QByteArrayView feed(QByteArrayView data);
    // The held bytes of an event the stream ended in the middle of (what the client would have got).
    QByteArray takeHeld();

    // Usage-only chunks removed so far.
    int removedChunks() const { return m_removed; }

private:
    enum class Verdict { Keep, Drop, Cut };
    Verdict judge(QByteArrayView event, qsizetype *cutBegin, qsizetype *cutEnd) const;

    QByteArray m_held;      // the current event's bytes so far
    QByteArray m_out;       // the client's bytes when they differ from the read
    bool m_passing = false; // the current event is too long to hold: passed through as it comes
    bool m_atLineStart = true;
    bool m_lastCr = false;  // a LF right after a CR belongs to the same line end
    int m_removed = 0;
};

} // namespace switchyard::proxy
