#include "http/sseparser.h"

namespace switchyard::http {

QList<SseEvent> SseParser::feed(QByteArrayView bytes)
{
    QList<SseEvent> out;
    qsizetype pos = 0;
    if (m_skipLf && !bytes.isEmpty()) {
        if (bytes.front() == '\n')
            pos = 1;
        m_skipLf = false;
    }
    while (pos < bytes.size()) {
        qsizetype end = pos;
        while (end < bytes.size() && bytes[end] != '\n' && bytes[end] != '\r')
            ++end;
        if (end == bytes.size()) {
            // No line end yet: keep the piece for the next read.
            m_buffer.append(bytes.sliced(pos));
            break;
        }
        const QByteArrayView piece = bytes.sliced(pos, end - pos);
        if (m_buffer.isEmpty()) {
            processLine(piece, out);
        } else {
            m_buffer.append(piece);
            processLine(m_buffer, out);
            m_buffer.clear();
        }
        if (bytes[end] == '\r') {
            if (end + 1 < bytes.size()) {
                if (bytes[end + 1] == '\n')
                    ++end;
            } else {
                m_skipLf = true; // the LF of this CRLF may come in the next read
            }
        }
        pos = end + 1;
    }
    return out;
}

void SseParser::processLine(QByteArrayView line, QList<SseEvent> &out)
{
    if (line.isEmpty()) {
        // Dispatch. An event without data lines is not dispatched (the spec's rule).
        if (m_hasData)
            out.append({m_event, m_data});
        m_event.clear();
        m_data.clear();
        m_hasData = false;
        return;
    }
    if (line.front() == ':')
        return; // a comment, e.g. a keep-alive ": ping"
    QByteArrayView field = line;
    QByteArrayView value;
    const qsizetype colon = line.indexOf(':');
    if (colon >= 0) {
        field = line.first(colon);
        value = line.sliced(colon + 1);
        if (value.startsWith(' '))
            value = value.sliced(1);
    }
    if (field == "data") {
        if (m_hasData)
            m_data.append('\n');
        m_data.append(value);
        m_hasData = true;
    } else if (field == "event") {
        m_event = value.toByteArray();
    }
    // "id" and "retry" mean nothing to a one-shot completion stream.
}

void SseParser::reset()
{
    m_buffer.clear();
    m_event.clear();
    m_data.clear();
    m_hasData = false;
    m_skipLf = false;
}

} // namespace switchyard::http
