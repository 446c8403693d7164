#pragma once

// Incremental parser for a node's HTTP/1.1 response, used by the upstream client. The head is parsed
// into status and headers; the body is then handed out piece by piece as views into the read buffer
// (no copy), whatever its framing: Content-Length, chunked, or delimited by the connection closing.

#include "chunkeddecoder.h"
#include "httptypes.h"

namespace switchyard::http {

class ResponseParser final
{
public:
    enum class Status { NeedMore, HeadComplete, BodyComplete, Error };
    enum class Framing { None, Length, Chunked, UntilClose };

    static constexpr qsizetype MaxHeaderBytes = 64 * 1024;

    // A response to HEAD has no body whatever its headers say.
    // The header list keeps its capacity: a keep-alive connection parses one head after another, and
    // the profile showed the list reallocated for every response otherwise. The head block likewise
    // (written anew for the next head; a copy someone kept, see headBlock(), keeps the old bytes).
    void reset(bool headRequest = false)
    {
        Headers kept = std::move(m_headers);
        kept.clear();
        QByteArray keptHead = std::move(m_head);
        *this = ResponseParser();
        m_headers = std::move(kept);
        m_head = std::move(keptHead);
        m_headRequest = headRequest;
    }

    // Parses the head from the front of buffer and removes it. Returns HeadComplete once, or
    // BodyComplete directly when the response has no body. Interim 1xx responses are skipped.
    Status parseHead(QByteArray &buffer);

    // Feeds body bytes; onData receives views into data. consumed tells how many bytes were used
    // (bytes past the end of the body belong to nobody: a well-behaved node sends none).
    template <typename OnData>
    Status feedBody(QByteArrayView data, qsizetype &consumed, OnData &&onData);

    // For UntilClose framing: the connection closed, which ends the body.
    bool finishOnClose() const { return m_framing == Framing::UntilClose; }

    int status() const { return m_status; }
    const QByteArray &reason() const { return m_reason; }
    // Views into headBlock(): whoever keeps the headers past the next head keeps a copy of both.
    const Headers &headers() const { return m_headers; }
    const QByteArray &headBlock() const { return m_head; }
    QByteArrayView header(QByteArrayView lowerName) const { return headerValue(m_headers, lowerName); }
    Framing framing() const { return m_framing; }
    // The body's length when framing() is Length (its Content-Length, read once with the head).
    qsizetype contentLength() const { return m_contentLength; }
    bool keepAlive() const { return m_keepAlive; }
    const QByteArray &errorString() const { return m_error; }

private:
    Status fail(QByteArray why)
    {
        m_error = std::move(why);
        return Status::Error;
    }

    bool m_headRequest = false;
    int m_status = 0;
    QByteArray m_reason;
    QByteArray m_head; // the last head's bytes, names lower-cased; m_headers points into it
    Headers m_headers;
    Framing m_framing = Framing::None;
    qsizetype m_remaining = 0;
    qsizetype m_contentLength = 0;
    bool m_keepAlive = true;
    ChunkedDecoder m_chunked;
    QByteArray m_error;
};

template <typename OnData>
ResponseParser::Status ResponseParser::feedBody(QByteArrayView data, qsizetype &consumed, OnData &&onData)
{
    consumed = 0;
    switch (m_framing) {
    case Framing::None:
        return Status::BodyComplete;
    case Framing::UntilClose:
        if (!data.isEmpty())
            onData(data);
        consumed = data.size();
        return Status::NeedMore;
    case Framing::Length: {
        const qsizetype take = std::min(m_remaining, data.size());
        if (take > 0)
            onData(data.first(take));
        consumed = take;
        m_remaining -= take;
        return m_remaining == 0 ? Status::BodyComplete : Status::NeedMore;
    }
    case Framing::Chunked: {
        const auto r = m_chunked.feed(data, consumed, onData);
        if (r == ChunkedDecoder::Result::Error)
            return fail(QByteArray("invalid chunked response: ").append(m_chunked.errorString()));
        return r == ChunkedDecoder::Result::Done ? Status::BodyComplete : Status::NeedMore;
    }
    }
    return Status::Error;
}

} // namespace switchyard::http
