#pragma once

// Plain HTTP/1.1 message types shared by the server side (client requests) and the upstream side
// (node responses). Header names are stored lower-cased so lookups need no case folding.

#include <QByteArray>
#include <QByteArrayView>
#include <vector>

namespace switchyard::http {

struct Header
{
    QByteArray name;  // lower-case
    QByteArray value; // trimmed
};

using Headers = std::vector<Header>;

// First value of a header, or an empty view when absent.
QByteArrayView headerValue(const Headers &headers, QByteArrayView lowerName);
bool hasHeader(const Headers &headers, QByteArrayView lowerName);
// True when a comma-separated header (Connection, Transfer-Encoding) lists token, case-insensitively.
bool headerListContains(QByteArrayView value, QByteArrayView token);

struct Request
{
    QByteArray method;
    QByteArray target; // as sent, e.g. "/v1/models?x=1"
    QByteArray path;   // target without the query
    int versionMinor = 1;
    Headers headers;
    QByteArray body;
    bool keepAlive = true;
    bool expectContinue = false;
    bool fromLoopback = false; // set by the server from the peer address

    QByteArrayView header(QByteArrayView lowerName) const { return headerValue(headers, lowerName); }
};

const char *reasonPhrase(int status);

// Where "\r\n" (and "\r\n\r\n") first occur at or after from, or -1: memchr for the '\r', then
// compare. QByteArrayView::indexOf with a multi-byte needle hashes the haystack, which made these
// searches a tenth of the instructions per proxied request (docs/PERFORMANCE.md).
qsizetype indexOfCrlf(QByteArrayView data, qsizetype from = 0);
qsizetype indexOfHeadEnd(QByteArrayView data, qsizetype from = 0);

} // namespace switchyard::http
