#include "httpresponseparser.h"

#include <cstring>

namespace switchyard::http {

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
        m_reason = reason == "OK" ? QByteArray::fromRawData("OK", 2) : reason.toByteArray();
        m_headers.clear();
        qsizetype pos = lineEnd + 2;
        while (pos < head.size()) {
            qsizetype e = indexOfCrlf(head, pos);
            if (e < 0)
                e = head.size();
            const QByteArrayView field = head.sliced(pos, e - pos);
            pos = e + 2;
            const qsizetype colon = field.indexOf(':');
            if (colon <= 0)
                return fail("malformed response header");
            const QByteArrayView name = field.first(colon).trimmed();
            char *namePtr = m_head.data() + (name.data() - head.data());
            toLowerAsciiInPlace(namePtr, name.size());
            m_headers.push_back({QByteArrayView(namePtr, name.size()), field.sliced(colon + 1).trimmed()});
        }
        buffer.remove(0, end + 4);
        if (status >= 100 && status < 200)
            continue; // interim response: the real one follows

        const QByteArrayView connection = header("connection");
        m_keepAlive = http10 ? headerListContains(connection, "keep-alive")
                             : !headerListContains(connection, "close");
        if (m_headRequest || status == 204 || status == 304) {
            m_framing = Framing::None;
            return Status::BodyComplete;
        }
        const QByteArrayView te = header("transfer-encoding");
        if (!te.isEmpty()) {
            if (!headerListContains(te, "chunked"))
                return fail("unsupported response Transfer-Encoding");
            m_framing = Framing::Chunked;
            return Status::HeadComplete;
        }
        const QByteArrayView cl = header("content-length");
        if (!cl.isEmpty()) {
            bool ok = false;
            const qlonglong n = cl.toLongLong(&ok);
            if (!ok || n < 0)
                return fail("invalid response Content-Length");
            m_remaining = qsizetype(n);
            m_framing = Framing::Length;
            if (n == 0) {
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
