#pragma once

// The panel's small asynchronous HTTP/1.1 client: one request in, one response (status, headers, body)
// or one error value out. Built on the gateway's own keep-alive UpstreamConnection (http and https),
// not QNetworkAccessManager, so the panel and the gateway speak HTTP with the same code. Everything is
// bounded, since a remote gateway may be slow, hostile or not a gateway at all: a connect timeout and a
// timeout on the whole exchange (queueing included), a response size cap, at most a few connections
// per host and a bounded queue behind them. Lives on one thread (the remote link's worker thread);
// callbacks run on it from the event loop, never from inside send().

#include "common/expected.h"
#include "http/httptypes.h"
#include "upstream/pinnedcertificate.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QObject>
#include <QPair>
#include <QSet>
#include <QString>
#include <QUrl>
#include <deque>
#include <functional>
#include <memory>

namespace switchyard::upstream {
class UpstreamConnection;
}

namespace switchyard::client {

struct HttpResponse;

struct HttpRequest
{
    QByteArray method = "GET"; // HEAD is not supported (UpstreamConnection expects a body after a head)
    QUrl url;                  // http:// or https://, with path and query
    QList<QPair<QByteArray, QByteArray>> headers; // Host and Content-Length are added
    QByteArray body;
    int connectTimeoutMs = 5000;
    int timeoutMs = 10000;                 // from send() to the last body byte, waiting in the queue included;
                                           // 0 = none (a stream that may run for minutes: use idleTimeoutMs)
    int idleTimeoutMs = 0;                 // > 0: Timeout when no byte arrives for this long once sent
    qsizetype maxResponseBytes = 1 << 20;  // body; the head has the parser's own 64 KiB cap
    // https: the SHA-256 (32 bytes) of the one certificate trusted besides what the system trusts, so a
    // gateway with a self-signed certificate can be reached once the operator accepted it. Empty = none.
    QByteArray pinnedSha256;

    // A streamed answer (server-sent events): when onBody is set, the head goes to onHead and each body
    // piece to onBody as they arrive, on the client's thread, and the result's body stays empty (the
    // receiver bounds what it keeps; maxResponseBytes does not apply). Either may cancel() the request.
    std::function<void(const HttpResponse &head)> onHead;
    std::function<void(QByteArrayView piece)> onBody;

    void addHeader(QByteArray name, QByteArray value) { headers.append(qMakePair(std::move(name), std::move(value))); }
};

struct HttpResponse
{
    int status = 0;
    QByteArray head;       // the head's bytes: `headers` points into them (gateway/http/httptypes.h)
    http::Headers headers;
    QByteArray body;
    QByteArray header(QByteArrayView lowerName) const { return http::headerValue(headers, lowerName).toByteArray(); }
};

enum class HttpErrorKind {
    InvalidUrl,     // not http(s)://host
    Refused,        // nothing listens there
    ConnectFailed,  // host not found, unreachable, TLS handshake or certificate
    ConnectTimeout, // no connection within connectTimeoutMs
    Timeout,        // connected (or queued) but the whole answer did not come within timeoutMs
    Closed,         // the connection closed or reset before the response was complete
    BadResponse,    // not HTTP, or framing that cannot be followed
    TooLarge,       // the body passed maxResponseBytes
    QueueFull,      // too many requests already waiting for this host
    Untrusted,      // https: the server's certificate is neither trusted by the system nor pinned
};

struct HttpError
{
    HttpErrorKind kind = HttpErrorKind::Closed;
    QString message; // English, names the host; never a header value (keys travel in headers)
    // Untrusted: the certificate the server showed, for the panel's "trust this certificate?" question.
    upstream::UntrustedCertificate untrusted;
};

using HttpResult = Expected<HttpResponse, HttpError>;

class HttpClient final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HttpClient)

public:
    using Callback = std::function<void(const HttpResult &)>;
    static constexpr int DefaultMaxConnectionsPerHost = 4;
    static constexpr int MaxQueuedPerHost = 64;

    explicit HttpClient(QObject *parent = nullptr);
    ~HttpClient() override; // pending requests are dropped without callbacks

    void setMaxConnectionsPerHost(int n) { m_maxPerHost = std::max(1, n); }
    int maxConnectionsPerHost() const { return m_maxPerHost; }

    // Queues the request; `done` is called exactly once, later, from the event loop (unless cancel()
    // or the client's destruction come first). Returns an id for cancel().
    quint64 send(HttpRequest request, Callback done);
    void cancel(quint64 id);
    // Drops every pending request and closes every connection (no callbacks).
    void cancelAll();

    int pendingCount() const { return int(m_exchanges.size()); }
    // "http://host:port": busy + idle (unpinned; pinned requests to a host have connections of their own)
    int openConnections(const QString &hostKey) const;
    static QString hostKeyOf(const QUrl &url);

private:
    class Exchange;
    struct Host
    {
        int busy = 0;
        QList<upstream::UpstreamConnection *> idle;
        std::deque<Exchange *> waiting;
    };

    // fresh: a new connection even when an idle one waits (the retry after a stale one).
    void dispatch(Exchange *exchange, Host &host, bool fresh);
    void retryFresh(Exchange *exchange);
    void releaseConnection(Exchange *exchange, Host &host, bool reusable);
    void finish(Exchange *exchange, HttpResult result, bool connectionReusable);
    void pumpQueue(const QString &hostKey);
    void dropIdle(upstream::UpstreamConnection *connection);

    int m_maxPerHost = DefaultMaxConnectionsPerHost;
    quint64 m_nextId = 1;
    QHash<quint64, Exchange *> m_exchanges;
    QHash<QString, Host> m_hosts;
    QSet<quint64> m_undelivered; // finished, callback not yet run: cancel() still stops it
};

QString httpErrorKindName(HttpErrorKind kind);

} // namespace switchyard::client
