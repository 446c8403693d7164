#include "httpresponseparser.h"

#include "http/headerchars.h"

#include <cstring>
#include <optional>
#include <utility>

namespace switchyard::http {

namespace {

// A Content-Length: decimal digits (a '+' before them tolerated, as QByteArray::toLongLong did), at
// most 18 of them; nothing when it is not one.
std::optional<qint64> parseLength(QByteArrayView v)
{
    if (v.startsWith('+'))
        v = v.sliced(1);
    if (v.isEmpty() || v.size() > 18)
        return std::nullopt;
    qint64 n = 0;
    for (char c : v) {
        if (c < '0' || c > '9')
            return std::nullopt;
        n = n * 10 + (c - '0');
    }
    return n;
}

} // namespace

ResponseParser::Status ResponseParser::parseHead(QByteArray &buffer)
{
    for (;;) {
        const qsizetype end = indexOfHeadEnd(buffer);
        if (end < 0) {
            if (buffer.size() > MaxHeaderBytes)
                return fail("response header block too large");
            return Status::NeedMore;
        }
        if (end + 4 > MaxHeaderBytes)
            return fail("response header block too large");
        // The head copied into this parser's block (reused from the last response unless someone
        // kept a copy of it; then writing detaches), and the header fields point into it.
        m_head.resize(end);
        std::memcpy(m_head.data(), buffer.constData(), size_t(end));
        const QByteArrayView head(m_head);
        qsizetype lineEnd = indexOfCrlf(head);
        if (lineEnd < 0)
            lineEnd = head.size();
        const QByteArrayView line = head.first(lineEnd);
        // HTTP/1.x SP 3DIGIT [SP reason]
        if (line.size() < 12 || !line.startsWith("HTTP/1.") || line[8] != ' ')
            return fail("malformed status line");
        int status = 0;
        for (int i = 9; i < 12; ++i) {
            if (line[i] < '0' || line[i] > '9')
                return fail("malformed status code");
            status = status * 10 + (line[i] - '0');
        }
        // 100..599 only: a node answering "HTTP/1.1 000" or "HTTP/1.1 999" would otherwise have that
        // status relayed to the client as if it meant something (found by fuzz_responseparser).
        if (status < 100 || status > 599)
            return fail("malformed status code");
        const bool http10 = line[7] == '0';
        m_status = status;
        // "OK" nearly always: a static string then, not an allocation per response.
        const QByteArrayView reason = line.size() > 13 ? line.sliced(13) : QByteArrayView();
        m_reason = chars::equals(reason, "OK") ? QByteArray::fromRawData("OK", 2) : reason.toByteArray();
        m_headers.clear();
        // The fields the framing depends on, read as they go by (the first of each, as header() finds).
        QByteArrayView connection, transferEncoding, contentLength;
        bool haveConnection = false, haveTransferEncoding = false, haveContentLength = false;
        qsizetype pos = lineEnd + 2;
        while (pos < head.size()) {
            qsizetype e = indexOfCrlf(head, pos);
            if (e < 0)
                e = head.size();
            const QByteArrayView field = head.sliced(pos, e - pos);
            pos = e + 2;
            const qsizetype colon = chars::indexOf(field, ':');
            if (colon <= 0)
                return fail("malformed response header");
            const QByteArrayView name = chars::trimmed(field.first(colon));
            char *namePtr = m_head.data() + (name.data() - head.data());
            for (qsizetype i = 0; i < name.size(); ++i)
                namePtr[i] = chars::toLower(namePtr[i]);
            const Header h{QByteArrayView(namePtr, name.size()), chars::trimmed(field.sliced(colon + 1))};
            if (chars::equals(h.name, "connection")) {
                if (!std::exchange(haveConnection, true))
                    connection = h.value;
            } else if (chars::equals(h.name, "transfer-encoding")) {
                if (!std::exchange(haveTransferEncoding, true))
                    transferEncoding = h.value;
            } else if (chars::equals(h.name, "content-length")) {
                if (!std::exchange(haveContentLength, true))
                    contentLength = h.value;
            }
            m_headers.push_back(h);
        }
        buffer.remove(0, end + 4);
        if (status >= 100 && status < 200)
            continue; // interim response: the real one follows

        m_keepAlive = http10 ? headerListContains(connection, "keep-alive")
                             : !headerListContains(connection, "close");
        if (m_headRequest || status == 204 || status == 304) {
            m_framing = Framing::None;
            return Status::BodyComplete;
        }
        if (!transferEncoding.isEmpty()) {
            if (!headerListContains(transferEncoding, "chunked"))
                return fail("unsupported response Transfer-Encoding");
            m_framing = Framing::Chunked;
            return Status::HeadComplete;
        }
        if (!contentLength.isEmpty()) {
            const std::optional<qint64> n = parseLength(contentLength);
            if (!n)
                return fail("invalid response Content-Length");
            m_remaining = m_contentLength = qsizetype(*n);
            m_framing = Framing::Length;
            if (*n == 0) {
                m_framing = Framing::None;
                return Status::BodyComplete;
            }
            return Status::HeadComplete;
        }
        m_framing = Framing::UntilClose;
        m_keepAlive = false;
        return Status::HeadComplete;
    }
}

} // namespace switchyard::http
