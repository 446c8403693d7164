#pragma once

// Server-sent events as OpenAI-compatible servers stream them, parsed incrementally. Used by the chat
// console and the benchmark (clients of the gateway); the gateway itself passes streams through without
// parsing them into events.

#include <QByteArray>
#include <QByteArrayView>
#include <QList>

namespace switchyard::http {

struct SseEvent
{
    QByteArray event; // the "event:" field; empty means "message"
    QByteArray data;  // "data:" lines joined with '\n'
};

// An incremental text/event-stream parser (the WHATWG rules that matter here): lines end in LF, CRLF or
// CR, an event ends at a blank line, "data:" lines accumulate, comments (":…") and unknown fields are
// ignored. Bytes may arrive cut anywhere, even between the CR and LF of one line end.
class SseParser final
{
public:
    // Takes the bytes as they arrived and returns every event they completed, in order.
    QList<SseEvent> feed(QByteArrayView bytes);
    // Bytes received but not yet part of a complete event (an unfinished line or event).
    bool hasPendingData() const { return !m_buffer.isEmpty() || !m_data.isEmpty() || m_hasData; }
    void reset();

private:
    void processLine(QByteArrayView line, QList<SseEvent> &out);

    QByteArray m_buffer; // an unfinished line
    QByteArray m_event;
    QByteArray m_data;
    bool m_hasData = false;
    bool m_skipLf = false; // the previous read ended in CR: a leading LF belongs to that line end
};

} // namespace switchyard::http
