#include "httprequestparser.h"

#include "http/headerchars.h"

#include <optional>
#include <utility>

namespace switchyard::http {

namespace {

bool isTokenChar(char c)
{
    return chars::is(c, chars::Token);
}

bool parseContentLength(QByteArrayView v, qsizetype &out)
{
    if (v.isEmpty() || v.size() > 18)
        return false;
    qsizetype n = 0;
    for (char c : v) {
        if (c < '0' || c > '9')
            return false;
        n = n * 10 + (c - '0');
    }
    out = n;
    return true;
}

// The request line so far, before its head is complete: does it start like one (a method of token
// characters, then a space)? The reason when it cannot.
std::optional<QByteArray> badRequestLineStart(QByteArrayView buffer)
{
    if (buffer.isEmpty() || buffer[0] == '\r' || buffer[0] == '\n')
        return std::nullopt; // CRLFs between requests are stripped once complete
    if (buffer[0] == 0x16)
        return QByteArray("a TLS handshake on a plain-HTTP port: this gateway serves http://, not https://");
    const qsizetype n = std::min<qsizetype>(buffer.size(), 32);
    for (qsizetype i = 0; i < n; ++i) {
        if (buffer[i] == ' ')
            return std::nullopt;
        if (!isTokenChar(buffer[i]))
            return QByteArray("not an HTTP request line");
    }
    return std::nullopt;
}

// The usual methods as static strings: the request and its log record then hold the method without
// an allocation per request.
QByteArray knownMethod(QByteArrayView method)
{
    static constexpr QByteArrayView Known[] = {"GET", "POST", "DELETE", "OPTIONS", "HEAD", "PUT", "PATCH"};
    for (QByteArrayView k : Known) {
        if (method == k)
            return QByteArray::fromRawData(k.data(), k.size());
    }
    return method.toByteArray();
}

} // namespace

RequestParser::Status RequestParser::fail(int status, QByteArray message)
{
    m_state = State::Failed;
    m_error = {status, std::move(message)};
    return Status::Error;
}

Request RequestParser::takeRequest()
{
    Request r = std::move(m_request);
    m_request = Request();
    return r;
}

RequestParser::Status RequestParser::parse(QByteArray &buffer)
{
    for (;;) {
        switch (m_state) {
        case State::Failed:
            return Status::Error;
        case State::Head: {
            // Tolerate stray CRLFs between pipelined requests (RFC 9112 §2.2). Checked on every call, not
            // only at the first: a CRLF split across two reads ("\r" now, "\n" next) used to stay in front of
            // the request line and turn a valid request into a 400 (found by fuzz_requestparser). A head
            // can never start with CRLF, so stripping here is always safe.
            qsizetype lead = 0;
            while (lead + 1 < buffer.size() && buffer[lead] == '\r' && buffer[lead + 1] == '\n')
                lead += 2;
            if (lead > 0) {
                buffer.remove(0, lead);
                m_scanFrom = std::max<qsizetype>(0, m_scanFrom - lead);
            }
            const qsizetype from = std::max<qsizetype>(0, m_scanFrom - 3);
            const qsizetype end = indexOfHeadEnd(buffer, from);
            if (end < 0) {
                if (buffer.size() > m_limits.maxHeaderBytes)
                    return fail(431, "request header block exceeds the limit");
                // Not HTTP at all (a TLS handshake on the plain port, a stray protocol): said at the first
                // byte that cannot start a method, not after the header timeout — `curl https://` to an
                // http:// gateway gets its answer at once instead of hanging until its own timeout.
                if (const auto bad = badRequestLineStart(buffer))
                    return fail(400, *bad);
                m_scanFrom = buffer.size();
                return Status::NeedMore;
            }
            if (end + 4 > m_limits.maxHeaderBytes)
                return fail(431, "request header block exceeds the limit");
            m_scanFrom = 0;
            const Status s = parseHead(buffer, end);
            if (s != Status::NeedMore)
                return s;
            break;
        }
        case State::FixedBody: {
            const qsizetype take = std::min(m_bodyRemaining, buffer.size());
            m_request.body.append(buffer.constData(), take);
            buffer.remove(0, take);
            m_bodyRemaining -= take;
            if (m_bodyRemaining > 0)
                return Status::NeedMore;
            m_state = State::Head;
            return Status::Complete;
        }
        case State::ChunkedBody: {
            qsizetype consumed = 0;
            bool tooLarge = false;
            const auto r = m_chunked.feed(buffer, consumed, [&](QByteArrayView piece) {
                if (m_request.body.size() + piece.size() > m_limits.maxBodyBytes)
                    tooLarge = true;
                else
                    m_request.body.append(piece);
            });
            buffer.remove(0, consumed);
            if (tooLarge)
                return fail(413, "request body exceeds the limit");
            if (r == ChunkedDecoder::Result::Error)
                return fail(400, QByteArray("invalid chunked body: ").append(m_chunked.errorString()));
            if (r == ChunkedDecoder::Result::NeedMore)
                return Status::NeedMore;
            m_state = State::Head;
            return Status::Complete;
        }
        }
    }
}

RequestParser::Status RequestParser::parseHead(QByteArray &buffer, qsizetype headEnd)
{
    m_request = Request();
    // One copy of the head, which the header fields then point into (httptypes.h).
    m_request.head = QByteArray(buffer.constData(), headEnd);
    const QByteArrayView head(m_request.head);

    // Request line: METHOD SP target SP HTTP/1.x
    qsizetype lineEnd = indexOfCrlf(head);
    if (lineEnd < 0)
        lineEnd = head.size();
    const QByteArrayView line = head.first(lineEnd);
    const qsizetype sp1 = chars::indexOf(line, ' ');
    const qsizetype sp2 = sp1 < 0 ? -1 : chars::indexOf(line, ' ', sp1 + 1);
    if (sp1 <= 0 || sp2 < 0 || chars::indexOf(line, ' ', sp2 + 1) >= 0)
        return fail(400, "malformed request line");
    const QByteArrayView method = line.first(sp1);
    const QByteArrayView target = line.sliced(sp1 + 1, sp2 - sp1 - 1);
    const QByteArrayView version = line.sliced(sp2 + 1);
    for (char c : method) {
        if (!isTokenChar(c))
            return fail(400, "malformed request method");
    }
    if (target.isEmpty() || !chars::allAre(target, chars::FieldValue) || chars::indexOf(target, ' ') >= 0)
        return fail(400, "malformed request target");
    if (chars::equals(version, "HTTP/1.1"))
        m_request.versionMinor = 1;
    else if (chars::equals(version, "HTTP/1.0"))
        m_request.versionMinor = 0;
    else if (version.startsWith("HTTP/"))
        return fail(505, "only HTTP/1.0 and HTTP/1.1 are supported");
    else
        return fail(400, "malformed HTTP version");
    m_request.method = knownMethod(method);
    m_request.target = target.toByteArray();
    const qsizetype q = chars::indexOf(target, '?');
    m_request.path = q < 0 ? m_request.target : target.first(q).toByteArray();

    // Header fields: room for a usual client's in one allocation (growing 1, 2, 4, 8 cost four).
    m_request.headers.reserve(16);
    qsizetype pos = lineEnd + 2;
    bool haveLength = false;
    qsizetype contentLength = 0;
    bool chunked = false;
    bool haveTransferEncoding = false;
    // Connection and Expect are read as the fields go by (the first of each, as header() would find).
    QByteArrayView connection, expect;
    bool haveHost = false, haveConnection = false, haveExpect = false;
    while (pos < head.size()) {
        qsizetype e = indexOfCrlf(head, pos);
        if (e < 0)
            e = head.size();
        const QByteArrayView field = head.sliced(pos, e - pos);
        pos = e + 2;
        if (field.isEmpty())
            continue;
        if (field[0] == ' ' || field[0] == '\t')
            return fail(400, "obsolete header line folding is not accepted");
        const qsizetype colon = chars::indexOf(field, ':');
        if (colon <= 0)
            return fail(400, "malformed header field");
        // Checked and lower-cased in one pass, in place: the block is this request's own copy.
        char *namePtr = m_request.head.data() + (field.data() - head.data());
        for (qsizetype i = 0; i < colon; ++i) {
            if (!chars::is(namePtr[i], chars::Token))
                return fail(400, "malformed header field name");
            namePtr[i] = chars::toLower(namePtr[i]);
        }
        const QByteArrayView value = chars::trimmed(field.sliced(colon + 1));
        if (!chars::allAre(value, chars::FieldValue))
            return fail(400, "invalid character in header field value");
        Header h{QByteArrayView(namePtr, colon), value};

        if (chars::equals(h.name, "content-length")) {
            qsizetype n = 0;
            if (!parseContentLength(h.value, n))
                return fail(400, "invalid Content-Length");
            if (haveLength && n != contentLength)
                return fail(400, "conflicting Content-Length headers");
            haveLength = true;
            contentLength = n;
        } else if (chars::equals(h.name, "transfer-encoding")) {
            if (haveTransferEncoding)
                return fail(400, "repeated Transfer-Encoding header");
            haveTransferEncoding = true;
            if (h.value.compare("chunked", Qt::CaseInsensitive) != 0)
                return fail(h.value.toByteArray().toLower().endsWith("chunked") ? 400 : 501,
                            "only Transfer-Encoding: chunked is supported");
            chunked = true;
        } else if (chars::equals(h.name, "host")) {
            if (haveHost)
                return fail(400, "repeated Host header");
            haveHost = true;
        } else if (chars::equals(h.name, "connection")) {
            if (!std::exchange(haveConnection, true))
                connection = h.value;
        } else if (chars::equals(h.name, "expect")) {
            if (!std::exchange(haveExpect, true))
                expect = h.value;
        }
        m_request.headers.push_back(h);
    }
    if (haveTransferEncoding && haveLength)
        return fail(400, "Content-Length together with Transfer-Encoding is not accepted");
    if (m_request.versionMinor == 1 && !haveHost)
        return fail(400, "missing Host header");

    if (m_request.versionMinor == 1)
        m_request.keepAlive = !headerListContains(connection, "close");
    else
        m_request.keepAlive = headerListContains(connection, "keep-alive");
    m_request.expectContinue = expect.compare("100-continue", Qt::CaseInsensitive) == 0;

    buffer.remove(0, headEnd + 4);

    if (chunked) {
        m_chunked.reset();
        m_state = State::ChunkedBody;
        return Status::NeedMore; // the caller's loop continues into the body
    }
    if (contentLength > m_limits.maxBodyBytes)
        return fail(413, "request body exceeds the limit");
    if (contentLength > 0) {
        // Reserve only a little up front: a client announcing 32 MiB must send it before we hold it.
        m_request.body.reserve(std::min<qsizetype>(contentLength, 256 * 1024));
        m_bodyRemaining = contentLength;
        m_bodyLength = contentLength;
        m_state = State::FixedBody;
        return Status::NeedMore;
    }
    return Status::Complete;
}

} // namespace switchyard::http
