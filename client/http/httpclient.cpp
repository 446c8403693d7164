#include "http/httpclient.h"

#include "routing/routingtable.h"
#include "upstream/upstreamconnection.h"

#include <QTimer>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::client {

namespace {

// A kept-alive connection unused this long is closed rather than reused: the server has most likely
// dropped it already, and a fresh one is cheaper than a failed first try.
constexpr qint64 MaxIdleReuseMs = 30'000;

// Connections are shared only by requests that trust the same certificates: one made under a pin must
// not carry a request without it (or with another one).
QString poolKeyOf(const routing::Endpoint &endpoint)
{
    const QString key = endpoint.poolKey();
    return endpoint.pinnedSha256.isEmpty() ? key : key % u"#pin="_s % QString::fromLatin1(endpoint.pinnedSha256.toHex());
}

QUrl originOf(const QUrl &url)
{
    return url.adjusted(QUrl::RemovePath | QUrl::RemoveQuery | QUrl::RemoveFragment | QUrl::RemoveUserInfo);
}

QByteArray requestBytes(const HttpRequest &r, const routing::Endpoint &endpoint)
{
    QByteArray target = r.url.path(QUrl::FullyEncoded).toLatin1();
    if (target.isEmpty())
        target = "/";
    if (r.url.hasQuery())
        target += '?' + r.url.query(QUrl::FullyEncoded).toLatin1();
    QByteArray out;
    out.reserve(256 + r.body.size());
    out += r.method + ' ' + target + " HTTP/1.1\r\nHost: " + endpoint.hostHeader + "\r\n";
    for (const auto &[name, value] : r.headers)
        out += name + ": " + value + "\r\n";
    if (!r.body.isEmpty() || r.method == "POST" || r.method == "PUT")
        out += "Content-Length: " + QByteArray::number(r.body.size()) + "\r\n";
    out += "\r\n";
    out += r.body;
    return out;
}

HttpErrorKind kindOf(upstream::UpstreamErrorKind kind)
{
    switch (kind) {
    case upstream::UpstreamErrorKind::ConnectRefused: return HttpErrorKind::Refused;
    case upstream::UpstreamErrorKind::ConnectFailed: return HttpErrorKind::ConnectFailed;
    case upstream::UpstreamErrorKind::Closed: return HttpErrorKind::Closed;
    case upstream::UpstreamErrorKind::BadResponse: return HttpErrorKind::BadResponse;
    }
    return HttpErrorKind::Closed;
}

} // namespace

QString httpErrorKindName(HttpErrorKind kind)
{
    switch (kind) {
    case HttpErrorKind::InvalidUrl: return u"invalid URL"_s;
    case HttpErrorKind::Refused: return u"connection refused"_s;
    case HttpErrorKind::ConnectFailed: return u"connect failed"_s;
    case HttpErrorKind::ConnectTimeout: return u"connect timeout"_s;
    case HttpErrorKind::Timeout: return u"timeout"_s;
    case HttpErrorKind::Closed: return u"connection lost"_s;
    case HttpErrorKind::BadResponse: return u"bad response"_s;
    case HttpErrorKind::TooLarge: return u"response too large"_s;
    case HttpErrorKind::QueueFull: return u"too many requests queued"_s;
    case HttpErrorKind::Untrusted: return u"untrusted certificate"_s;
    }
    return u"error"_s;
}

// One request from send() to its result: waiting for a connection, then on one. Its timers bound the
// connect and the whole exchange; its listener methods collect the response within the size cap.
class HttpClient::Exchange final : public QObject, public upstream::UpstreamListener
{
    Q_DISABLE_COPY_MOVE(Exchange)

public:
    Exchange(HttpClient *client, quint64 id, HttpRequest request, routing::Endpoint endpoint, Callback done)
        : QObject(client), m_client(client), m_id(id), m_request(std::move(request)),
          m_endpoint(std::move(endpoint)), m_hostKey(m_endpoint.poolKey()),
          m_poolKey(poolKeyOf(m_endpoint)), m_done(std::move(done))
    {
        m_bytes = requestBytes(m_request, m_endpoint);
        m_total.setSingleShot(true);
        m_connect.setSingleShot(true);
        m_idle.setSingleShot(true);
        connect(&m_idle, &QTimer::timeout, this, [this] {
            m_client->finish(this,
                             unexpected(HttpError{HttpErrorKind::Timeout,
                                                  u"%1 sent nothing for %2 ms"_s.arg(m_hostKey).arg(m_request.idleTimeoutMs)}),
                             false);
        });
        connect(&m_total, &QTimer::timeout, this, [this] {
            m_client->finish(this,
                             unexpected(HttpError{HttpErrorKind::Timeout,
                                                  u"no complete answer from %1 within %2 ms"_s.arg(m_hostKey).arg(
                                                      m_request.timeoutMs)}),
                             false);
        });
        connect(&m_connect, &QTimer::timeout, this, [this] {
            m_client->finish(this,
                             unexpected(HttpError{HttpErrorKind::ConnectTimeout,
                                                  (m_endpoint.tls ? u"no TLS connection (TCP and handshake) to %1 within %2 ms"_s
                                                                  : u"no connection to %1 within %2 ms"_s)
                                                      .arg(m_hostKey)
                                                      .arg(
                                                      m_request.connectTimeoutMs)}),
                             false);
        });
        if (m_request.timeoutMs > 0)
            m_total.start(m_request.timeoutMs);
    }

    void sendOn(upstream::UpstreamConnection *connection)
    {
        m_connection = connection;
        m_response = HttpResponse();
        if (!connection->isConnected())
            m_connect.start(std::max(1, m_request.connectTimeoutMs));
        connection->send(m_bytes, this);
        if (connection->isConnected())
            touch(); // a kept-alive connection: no connect to wait for
    }

    void upstreamConnected() override
    {
        m_connect.stop();
        touch();
    }

    void upstreamHead(const http::ResponseParser &response) override
    {
        m_connect.stop();
        touch();
        m_response.status = response.status();
        m_response.head = response.headBlock(); // keeps the bytes the header views point into
        m_response.headers = response.headers();
        if (m_request.onBody) {
            if (m_request.onHead)
                m_request.onHead(m_response); // may cancel: nothing of this exchange is touched after it
            return;
        }
        bool ok = false;
        const qint64 length = response.header("content-length").toLongLong(&ok);
        if (ok && length > m_request.maxResponseBytes)
            tooLarge();
    }

    void upstreamBody(QByteArrayView data) override
    {
        touch();
        if (m_request.onBody) {
            m_request.onBody(data); // may cancel: nothing of this exchange is touched after it
            return;
        }
        if (m_response.body.size() + data.size() > m_request.maxResponseBytes) {
            tooLarge();
            return;
        }
        m_response.body.append(data);
    }

    void upstreamFinished() override { m_client->finish(this, std::move(m_response), true); }

    void upstreamFailed(const upstream::UpstreamError &error) override
    {
        // A kept-alive connection the server had closed while idle fails before any answer byte: the
        // request never reached it, so one more try on a fresh connection is safe.
        if (!error.responseStarted && m_connection && m_connection->isReused() && !m_retried) {
            m_retried = true;
            m_client->retryFresh(this);
            return;
        }
        if (!error.untrusted.isNull()) {
            HttpError refused{HttpErrorKind::Untrusted, m_hostKey % u": "_s % error.message, error.untrusted};
            m_client->finish(this, unexpected(std::move(refused)), false);
            return;
        }
        QString message = error.message;
        if (error.kind == upstream::UpstreamErrorKind::Closed)
            message = u"connection to %1 lost before the answer was complete"_s.arg(m_hostKey)
                      % (error.message.contains(u"closed by the node"_s) ? QString() : u" ("_s % error.message % u')');
        else if (error.kind == upstream::UpstreamErrorKind::ConnectRefused)
            message = u"connection refused by %1"_s.arg(m_hostKey);
        else
            message = m_hostKey % u": "_s % error.message;
        m_client->finish(this, unexpected(HttpError{kindOf(error.kind), message}), false);
    }

    void stopTimers()
    {
        m_total.stop();
        m_connect.stop();
        m_idle.stop();
    }

    // A byte (or the connection) arrived: the idle timeout starts over.
    void touch()
    {
        if (m_request.idleTimeoutMs > 0 && !m_finished)
            m_idle.start(m_request.idleTimeoutMs);
    }

    HttpClient *m_client;
    quint64 m_id;
    HttpRequest m_request;
    routing::Endpoint m_endpoint;
    QString m_hostKey; // in messages
    QString m_poolKey; // in m_hosts
    Callback m_done;
    QByteArray m_bytes;
    QTimer m_total;
    QTimer m_connect;
    QTimer m_idle;
    HttpResponse m_response;
    upstream::UpstreamConnection *m_connection = nullptr;
    bool m_retried = false;
    bool m_finished = false;

private:
    void tooLarge()
    {
        m_client->finish(this,
                         unexpected(HttpError{HttpErrorKind::TooLarge,
                                              u"the answer from %1 is larger than %2 bytes"_s.arg(m_hostKey).arg(
                                                  m_request.maxResponseBytes)}),
                         false);
    }
};

HttpClient::HttpClient(QObject *parent) : QObject(parent) {}

HttpClient::~HttpClient()
{
    cancelAll();
}

QString HttpClient::hostKeyOf(const QUrl &url)
{
    const auto endpoint = routing::parseEndpoint(originOf(url).toString());
    return endpoint ? endpoint->poolKey() : QString();
}

int HttpClient::openConnections(const QString &hostKey) const
{
    const auto it = m_hosts.constFind(hostKey);
    return it == m_hosts.cend() ? 0 : it->busy + int(it->idle.size());
}

quint64 HttpClient::send(HttpRequest request, Callback done)
{
    const quint64 id = m_nextId++;
    const auto endpoint = routing::parseEndpoint(originOf(request.url).toString());
    if (!endpoint || request.method.isEmpty() || request.method == "HEAD") {
        const HttpError error{HttpErrorKind::InvalidUrl,
                              endpoint ? u"unsupported method"_s
                                       : u"not an http(s)://host[:port] URL: "_s % originOf(request.url).toString()};
        m_undelivered.insert(id);
        QMetaObject::invokeMethod(
            this,
            [this, id, error, done = std::move(done)] {
                if (m_undelivered.remove(id))
                    done(unexpected(error));
            },
            Qt::QueuedConnection);
        return id;
    }
    routing::Endpoint pinned = *endpoint;
    pinned.pinnedSha256 = request.pinnedSha256;
    auto *exchange = new Exchange(this, id, std::move(request), std::move(pinned), std::move(done));
    m_exchanges.insert(id, exchange);
    Host &host = m_hosts[exchange->m_poolKey];
    if (host.busy < m_maxPerHost) {
        dispatch(exchange, host, false);
    } else if (host.waiting.size() >= size_t(MaxQueuedPerHost)) {
        finish(exchange,
               unexpected(HttpError{HttpErrorKind::QueueFull,
                                    u"%1 requests already wait for %2"_s.arg(MaxQueuedPerHost).arg(exchange->m_hostKey)}),
               false);
    } else {
        host.waiting.push_back(exchange);
    }
    return id;
}

void HttpClient::dispatch(Exchange *exchange, Host &host, bool fresh)
{
    ++host.busy;
    upstream::UpstreamConnection *connection = nullptr;
    while (!fresh && !host.idle.isEmpty()) {
        upstream::UpstreamConnection *c = host.idle.takeLast();
        if (c->isReusable() && c->idleMs() < MaxIdleReuseMs) {
            connection = c;
            break;
        }
        c->disconnect(this);
        c->abort();
        c->deleteLater();
    }
    if (!connection) {
        connection = new upstream::UpstreamConnection(exchange->m_endpoint, this);
        connect(connection, &upstream::UpstreamConnection::closedWhileIdle, this, &HttpClient::dropIdle);
    }
    exchange->sendOn(connection);
}

void HttpClient::retryFresh(Exchange *exchange)
{
    Host &host = m_hosts[exchange->m_poolKey];
    releaseConnection(exchange, host, false);
    // From the event loop: this runs inside the failed connection's own callback.
    QMetaObject::invokeMethod(
        this,
        [this, id = exchange->m_id] {
            Exchange *e = m_exchanges.value(id);
            if (e)
                dispatch(e, m_hosts[e->m_poolKey], true);
        },
        Qt::QueuedConnection);
}

void HttpClient::releaseConnection(Exchange *exchange, Host &host, bool reusable)
{
    upstream::UpstreamConnection *c = exchange->m_connection;
    exchange->m_connection = nullptr;
    if (!c)
        return;
    --host.busy;
    if (reusable && c->isReusable()) {
        host.idle.append(c);
        return;
    }
    c->disconnect(this);
    c->abort();
    c->deleteLater(); // may be inside its own callback
}

void HttpClient::finish(Exchange *exchange, HttpResult result, bool connectionReusable)
{
    if (exchange->m_finished)
        return;
    exchange->m_finished = true;
    exchange->stopTimers();
    m_exchanges.remove(exchange->m_id);
    Host &host = m_hosts[exchange->m_poolKey];
    if (exchange->m_connection) {
        releaseConnection(exchange, host, connectionReusable);
    } else {
        std::erase(host.waiting, exchange);
    }
    const quint64 id = exchange->m_id;
    m_undelivered.insert(id);
    QMetaObject::invokeMethod(
        this,
        [this, id, done = std::move(exchange->m_done), result = std::move(result)] {
            if (m_undelivered.remove(id))
                done(result);
        },
        Qt::QueuedConnection);
    exchange->deleteLater();
    pumpQueue(exchange->m_poolKey);
}

void HttpClient::pumpQueue(const QString &hostKey)
{
    QMetaObject::invokeMethod(
        this,
        [this, hostKey] {
            Host &host = m_hosts[hostKey];
            while (host.busy < m_maxPerHost && !host.waiting.empty()) {
                Exchange *next = host.waiting.front();
                host.waiting.pop_front();
                dispatch(next, host, false);
            }
        },
        Qt::QueuedConnection);
}

void HttpClient::dropIdle(upstream::UpstreamConnection *connection)
{
    for (Host &host : m_hosts) {
        if (host.idle.removeOne(connection)) {
            connection->disconnect(this);
            connection->deleteLater();
            return;
        }
    }
}

void HttpClient::cancel(quint64 id)
{
    m_undelivered.remove(id);
    Exchange *exchange = m_exchanges.value(id);
    if (!exchange)
        return;
    exchange->m_done = nullptr;
    finish(exchange, unexpected(HttpError{HttpErrorKind::Closed, u"cancelled"_s}), false);
    m_undelivered.remove(id);
}

void HttpClient::cancelAll()
{
    const QList<quint64> ids = m_exchanges.keys();
    for (quint64 id : ids)
        cancel(id);
    m_undelivered.clear();
    for (Host &host : m_hosts) {
        for (upstream::UpstreamConnection *c : std::as_const(host.idle)) {
            c->disconnect(this);
            c->abort();
            c->deleteLater();
        }
        host.idle.clear();
    }
}

} // namespace switchyard::client
