#pragma once

// Incremental decoder for HTTP/1.1 chunked transfer coding (RFC 9112 §7.1). It never copies payload:
// each decoded piece is handed to a callback as a view into the caller's buffer, so a proxy can forward
// or inspect it without an intermediate buffer. Chunk extensions are skipped, trailers are discarded.

#include "httptypes.h"

#include <QByteArrayView>
#include <cstdint>

namespace switchyard::http {

class ChunkedDecoder final
{
public:
    enum class Result { NeedMore, Done, Error };

    // Lines (chunk size, extensions, trailers) longer than this are rejected: nothing legitimate needs it.
    static constexpr qsizetype MaxLineLength = 4096;

    void reset() { *this = ChunkedDecoder(); }
    bool isDone() const { return m_state == State::Done; }
    const char *errorString() const { return m_error; }

    // Consumes bytes from the front of data (consumed is set to how many). Calls onData(QByteArrayView)
    // for each payload piece. Returns Done once the terminating chunk and trailers have been read;
    // bytes after that are left unconsumed (a pipelined next message).
    template <typename OnData>
    Result feed(QByteArrayView data, qsizetype &consumed, OnData &&onData);

private:
    enum class State { Size, Data, DataCrlf, Trailer, Done, Failed };

    Result fail(const char *why)
    {
        m_state = State::Failed;
        m_error = why;
        return Result::Error;
    }
    // Finds the end of a CRLF-terminated line starting at pos; -1 if not yet complete.
    qsizetype lineEnd(QByteArrayView data, qsizetype pos) const { return indexOfCrlf(data, pos); }

    State m_state = State::Size;
    std::uint64_t m_remaining = 0;
    const char *m_error = "";
};

template <typename OnData>
ChunkedDecoder::Result ChunkedDecoder::feed(QByteArrayView data, qsizetype &consumed, OnData &&onData)
{
    qsizetype pos = 0;
    consumed = 0;
    while (pos < data.size() || m_state == State::Done || m_state == State::Failed) {
        switch (m_state) {
        case State::Size: {
            const qsizetype end = lineEnd(data, pos);
            if (end < 0) {
                if (data.size() - pos > MaxLineLength)
                    return fail("chunk size line too long");
                consumed = pos;
                return Result::NeedMore;
            }
            // The bound holds however the line arrived: before, a line over the limit was refused when it
            // came in pieces but accepted when it arrived in one read.
            if (end - pos > MaxLineLength)
                return fail("chunk size line too long");
            std::uint64_t size = 0;
            qsizetype i = pos;
            int digits = 0;
            for (; i < end; ++i) {
                const char c = data[i];
                int v;
                if (c >= '0' && c <= '9')
                    v = c - '0';
                else if (c >= 'a' && c <= 'f')
                    v = c - 'a' + 10;
                else if (c >= 'A' && c <= 'F')
                    v = c - 'A' + 10;
                else
                    break;
                if (++digits > 15) // 2^60 bytes: far beyond any body limit, and no overflow
                    return fail("chunk size too large");
                size = size * 16 + std::uint64_t(v);
            }
            if (digits == 0)
                return fail("invalid chunk size");
            // Only an extension (";name=value") or whitespace before it may follow the size.
            if (i < end && data[i] != ';' && data[i] != ' ' && data[i] != '\t')
                return fail("invalid chunk size");
            pos = end + 2;
            if (size == 0) {
                m_state = State::Trailer;
            } else {
                m_remaining = size;
                m_state = State::Data;
            }
            break;
        }
        case State::Data: {
            const qsizetype avail = data.size() - pos;
            const qsizetype take = qsizetype(std::min<std::uint64_t>(m_remaining, std::uint64_t(avail)));
            if (take > 0)
                onData(data.sliced(pos, take));
            pos += take;
            m_remaining -= std::uint64_t(take);
            if (m_remaining == 0)
                m_state = State::DataCrlf;
            break;
        }
        case State::DataCrlf: {
            if (data.size() - pos < 2) {
                consumed = pos;
                return Result::NeedMore;
            }
            if (data[pos] != '\r' || data[pos + 1] != '\n')
                return fail("missing CRLF after chunk data");
            pos += 2;
            m_state = State::Size;
            break;
        }
        case State::Trailer: {
            const qsizetype end = lineEnd(data, pos);
            if (end < 0) {
                if (data.size() - pos > MaxLineLength)
                    return fail("trailer line too long");
                consumed = pos;
                return Result::NeedMore;
            }
            if (end - pos > MaxLineLength)
                return fail("trailer line too long");
            const bool emptyLine = end == pos;
            pos = end + 2;
            if (emptyLine)
                m_state = State::Done;
            break;
        }
        case State::Done:
            consumed = pos;
            return Result::Done;
        case State::Failed:
            consumed = pos;
            return Result::Error;
        }
    }
    consumed = pos;
    return Result::NeedMore;
}

} // namespace switchyard::http
