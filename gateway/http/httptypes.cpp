#include "httptypes.h"

#include "http/bytewriter.h"

#include <algorithm>
#include <cstring>

namespace switchyard::http {

QByteArrayView headerValue(const Headers &headers, QByteArrayView lowerName)
{
    for (const Header &h : headers) {
        if (h.name == lowerName)
            return h.value;
    }
    return {};
}

bool hasHeader(const Headers &headers, QByteArrayView lowerName)
{
    for (const Header &h : headers) {
        if (h.name == lowerName)
            return true;
    }
    return false;
}

void toLowerAsciiInPlace(char *data, qsizetype size)
{
    for (qsizetype i = 0; i < size; ++i) {
        if (data[i] >= 'A' && data[i] <= 'Z')
            data[i] = char(data[i] + ('a' - 'A'));
    }
}

bool headerListContains(QByteArrayView value, QByteArrayView token)
{
    qsizetype start = 0;
    while (start <= value.size()) {
        qsizetype end = value.indexOf(',', start);
        if (end < 0)
            end = value.size();
        const QByteArrayView item = value.sliced(start, end - start).trimmed();
        if (item.compare(token, Qt::CaseInsensitive) == 0)
            return true;
        start = end + 1;
    }
    return false;
}

void setHeaders(Request &request, std::initializer_list<std::pair<QByteArrayView, QByteArrayView>> fields)
{
    // Sized first: appending to the block after a view was taken could move it.
    qsizetype size = 0;
    for (const auto &[name, value] : fields)
        size += name.size() + value.size();
    QByteArray block;
    block.reserve(size);
    for (const auto &[name, value] : fields) {
        block.append(name);
        toLowerAsciiInPlace(block.data() + block.size() - name.size(), name.size());
        block.append(value);
    }
    request.headers.clear();
    const char *at = block.constData();
    for (const auto &[name, value] : fields) {
        request.headers.push_back({QByteArrayView(at, name.size()), QByteArrayView(at + name.size(), value.size())});
        at += name.size() + value.size();
    }
    request.head = std::move(block);
}

void appendDecimal(QByteArray &out, qint64 n)
{
    char digits[24];
    out.append(decimalDigits(n, digits));
}

const char *reasonPhrase(int status)
{
    switch (status) {
    case 100:
        return "Continue";
    case 200:
        return "OK";
    case 201:
        return "Created";
    case 202:
        return "Accepted";
    case 204:
        return "No Content";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 408:
        return "Request Timeout";
    case 409:
        return "Conflict";
    case 411:
        return "Length Required";
    case 413:
        return "Content Too Large";
    case 415:
        return "Unsupported Media Type";
    case 422:
        return "Unprocessable Content";
    case 429:
        return "Too Many Requests";
    case 431:
        return "Request Header Fields Too Large";
    case 500:
        return "Internal Server Error";
    case 501:
        return "Not Implemented";
    case 502:
        return "Bad Gateway";
    case 503:
        return "Service Unavailable";
    case 504:
        return "Gateway Timeout";
    case 505:
        return "HTTP Version Not Supported";
    default:
        return "Unknown";
    }
}

namespace {
qsizetype indexOfCrThen(QByteArrayView data, qsizetype from, QByteArrayView rest)
{
    const char *const begin = data.data();
    const char *const end = begin + data.size();
    for (const char *p = begin + std::max<qsizetype>(0, from); p < end; ++p) {
        p = static_cast<const char *>(std::memchr(p, '\r', size_t(end - p)));
        if (!p)
            return -1;
        if (end - p - 1 >= rest.size() && std::memcmp(p + 1, rest.data(), size_t(rest.size())) == 0)
            return p - begin;
    }
    return -1;
}
} // namespace

qsizetype indexOfCrlf(QByteArrayView data, qsizetype from)
{
    return indexOfCrThen(data, from, "\n");
}

qsizetype indexOfHeadEnd(QByteArrayView data, qsizetype from)
{
    return indexOfCrThen(data, from, "\n\r\n");
}

} // namespace switchyard::http
