#pragma once

// Plain HTTP/1.1 message types shared by the server side (client requests) and the upstream side
// (node responses). Header names are stored lower-cased so lookups need no case folding.
//
// A parsed head keeps its bytes in one block (`head` below) and its header fields are views into it:
// one allocation per head instead of two per field, which the request-path profile showed costing
// more than the parsing itself. The block is never written after parsing, and a copy of a Request or
// a response shares it (implicit sharing), so the views stay valid as long as any copy lives.

#include <QByteArray>
#include <QByteArrayView>
#include <initializer_list>
#include <utility>
#include <vector>

namespace switchyard::http {

struct Header
{
    QByteArrayView name;  // lower-case; points into the head block that owns it
    QByteArrayView value; // trimmed; likewise
};

using Headers = std::vector<Header>;

// First value of a header, or an empty view when absent.
QByteArrayView headerValue(const Headers &headers, QByteArrayView lowerName);
bool hasHeader(const Headers &headers, QByteArrayView lowerName);
// True when a comma-separated header (Connection, Transfer-Encoding) lists token, case-insensitively.
bool headerListContains(QByteArrayView value, QByteArrayView token);
// A header name lower-cased where it lies in the head block (ASCII only, as field names are).
void toLowerAsciiInPlace(char *data, qsizetype size);

struct Request
{
    QByteArray method;
    QByteArray target; // as sent, e.g. "/v1/models?x=1"
    QByteArray path;   // target without the query
    int versionMinor = 1;
    QByteArray head; // the head's bytes (header names lower-cased): `headers` points into it
    Headers headers;
    QByteArray body;
    // Dispatched at its head, before its body arrived (an upload, proxy/uploadexchange): the body's
    // length; its bytes reach the exchange through Exchange::requestBodyArrived. 0 otherwise.
    qsizetype bodyArriving = 0;
    bool keepAlive = true;
    bool expectContinue = false;
    bool fromLoopback = false; // set by the server from the peer address

    QByteArrayView header(QByteArrayView lowerName) const { return headerValue(headers, lowerName); }
};

// Gives a request built in code (not parsed) its header fields: writes them into a fresh head block
// and points the views into it, so they stay valid as long as the request does.
void setHeaders(Request &request, std::initializer_list<std::pair<QByteArrayView, QByteArrayView>> fields);

const char *reasonPhrase(int status);

// Appends n in decimal: what QByteArray::number does, without the temporary array (heads are built
// once per request, and the profile showed the temporaries).
void appendDecimal(QByteArray &out, qint64 n);

// Where "\r\n" (and "\r\n\r\n") first occur at or after from, or -1: memchr for the '\r', then
// compare. QByteArrayView::indexOf with a multi-byte needle hashes the haystack, which made these
// searches a tenth of the instructions per proxied request (docs/PERFORMANCE.md).
qsizetype indexOfCrlf(QByteArrayView data, qsizetype from = 0);
qsizetype indexOfHeadEnd(QByteArrayView data, qsizetype from = 0);

} // namespace switchyard::http
