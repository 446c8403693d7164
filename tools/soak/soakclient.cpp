#include "soakclient.h"

#include <nlohmann/json.hpp>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::soak {

namespace {
// A client that waited this long gives up (an SDK's default is longer; nothing here should take 1 s).
constexpr int ClientTimeoutMs = 30000;
// Between two requests a client reads the answer: without a pause, an embedding (a millisecond) would
// make the soak a benchmark of embeddings and its log gigabytes an hour.
constexpr int ThinkMs = 10;

nlohmann::json parseJson(QByteArrayView b)
{
    return nlohmann::json::parse(b.begin(), b.end(), nullptr, false);
}

// "HTTP 502 upstream_error" from an OpenAI-shaped error body, or why the body is not one.
QString describeError(int status, const QByteArray &body)
{
    const auto j = parseJson(body);
    QString code = u"(no OpenAI error body)"_s;
    if (j.is_object() && j.contains("error") && j["error"].is_object()) {
        const auto &e = j["error"];
        code = e.contains("code") && e["code"].is_string() ? QString::fromStdString(e["code"].get<std::string>())
                                                           : u"(no code)"_s;
    }
    return u"HTTP "_s % QString::number(status) % u' ' % code;
}

// The error event's message without what varies between events (node names stay, numbers go).
QString shorten(const QString &message)
{
    QString s = message.left(90);
    for (QChar &c : s) {
        if (c.isDigit())
            c = u'#';
    }
    return s;
}
} // namespace

SoakClient::SoakClient(routing::Endpoint gateway, QByteArray model, std::vector<RequestKind> kinds, SoakTally *tally,
                       QObject *parent)
    : QObject(parent), m_gateway(std::move(gateway)), m_model(std::move(model)), m_kinds(std::move(kinds)),
      m_tally(tally)
{
    m_timeout.setSingleShot(true);
    connect(&m_timeout, &QTimer::timeout, this, [this] {
        if (m_connection)
            m_connection->abort();
        done(u"client timeout after "_s % QString::number(ClientTimeoutMs / 1000) % u" s"_s);
    });
}

SoakClient::~SoakClient()
{
    delete m_connection;
}

void SoakClient::start()
{
    sendNext(false);
}

void SoakClient::stop()
{
    m_stopping = true;
    if (!m_busy)
        emit idle();
}

QByteArray SoakClient::requestFor(RequestKind kind) const
{
    nlohmann::json j;
    j["model"] = m_model.toStdString();
    QByteArray path;
    switch (kind) {
    case RequestKind::Chat:
    case RequestKind::ChatStream:
        path = "/v1/chat/completions";
        j["messages"] = nlohmann::json::array({{{"role", "user"}, {"content", "How do switchyards work?"}}});
        j["max_tokens"] = kind == RequestKind::Chat ? 12 : 48;
        break;
    case RequestKind::Completion:
    case RequestKind::CompletionStream:
        path = "/v1/completions";
        j["prompt"] = "A switchyard is";
        j["max_tokens"] = kind == RequestKind::Completion ? 12 : 48;
        break;
    case RequestKind::Embedding:
        path = "/v1/embeddings";
        j["input"] = "rails, points and signals";
        break;
    }
    if (isStreamed(kind))
        j["stream"] = true;
    const QByteArray body = QByteArray::fromStdString(j.dump());
    return "POST " + path + " HTTP/1.1\r\nHost: " + m_gateway.hostHeader +
           "\r\nContent-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" +
           body;
}

void SoakClient::sendNext(bool sameAgain)
{
    if (m_stopping) {
        m_busy = false;
        emit idle();
        return;
    }
    if (!sameAgain) {
        m_kind = m_kinds[m_next++ % m_kinds.size()];
        m_resent = false;
        m_clock.start();
    }
    if (!m_connection || !m_connection->isReusable()) {
        if (m_connection)
            m_connection->deleteLater();
        m_connection = new upstream::UpstreamConnection(m_gateway, this);
    }
    m_busy = true;
    m_status = 0;
    m_body.clear();
    m_events.reset();
    m_sawDone = false;
    m_errorEvent.clear();
    m_timeout.start(ClientTimeoutMs);
    m_connection->send(requestFor(m_kind), this);
}

void SoakClient::upstreamHead(const http::ResponseParser &response)
{
    m_status = response.status();
}

void SoakClient::upstreamBody(QByteArrayView data)
{
    if (!isStreamed(m_kind) || m_status != 200) {
        if (m_body.size() < 1024 * 1024)
            m_body.append(data);
        return;
    }
    for (const http::SseEvent &e : m_events.feed(data)) {
        if (e.data == "[DONE]") {
            m_sawDone = true;
            continue;
        }
        const auto j = parseJson(e.data);
        if (j.is_object() && j.contains("error")) {
            const auto &err = j["error"];
            m_errorEvent = err.is_object() && err.contains("message") && err["message"].is_string()
                               ? QString::fromStdString(err["message"].get<std::string>())
                               : QString::fromUtf8(e.data.left(90));
        }
    }
}

void SoakClient::upstreamFinished()
{
    if (m_status != 200) {
        done(describeError(m_status, m_body));
        return;
    }
    if (isStreamed(m_kind)) {
        if (!m_sawDone)
            done(u"stream ended without [DONE]"_s);
        else
            done({});
        return;
    }
    const auto j = parseJson(m_body);
    const bool ok = j.is_object() && (j.contains("choices") || j.contains("data"));
    done(ok ? QString() : u"200 without an answer"_s);
}

void SoakClient::upstreamFailed(const upstream::UpstreamError &error)
{
    // The gateway closed an idle keep-alive connection just as the request went out: an SDK resends
    // such a request on a new connection, and so does this client, once.
    const bool reused = m_connection && m_connection->isReused();
    if (reused && !error.responseStarted && !m_resent && error.kind == upstream::UpstreamErrorKind::Closed) {
        m_resent = true;
        ++m_tally->resentOnFreshConnection;
        m_timeout.stop();
        m_connection->deleteLater(); // we are inside its callback
        m_connection = nullptr;
        QMetaObject::invokeMethod(this, [this] { sendNext(true); }, Qt::QueuedConnection);
        return;
    }
    if (m_retryRefused && error.kind == upstream::UpstreamErrorKind::ConnectRefused
        && m_clock.elapsed() < RefusedBudgetMs) {
        ++m_tally->retriedWhileRefused;
        m_timeout.stop();
        m_connection->deleteLater();
        m_connection = nullptr;
        QTimer::singleShot(RefusedRetryMs, this, [this] { sendNext(true); });
        return;
    }
    done(u"connection: "_s % error.message);
}

void SoakClient::done(const QString &failure)
{
    m_timeout.stop();
    const qint64 ms = m_clock.elapsed();
    const QString kind = requestKindName(m_kind);
    m_tally->requests[kind] += 1;
    if (isStreamed(m_kind)) {
        m_tally->latencyStreamedMs.push_back(ms);
        if (m_status == 200) {
            // The 200 was sent: a failure now is a broken stream, allowed only as an error event + [DONE].
            if (!failure.isEmpty())
                m_tally->brokenStreams[kind % u": "_s % failure] += 1;
            else if (!m_errorEvent.isEmpty())
                m_tally->streamErrorEvents[shorten(m_errorEvent)] += 1;
        } else if (!failure.isEmpty()) {
            m_tally->failedStreamed[kind % u": "_s % failure] += 1;
        }
    } else {
        m_tally->latencyNonStreamedMs.push_back(ms);
        if (!failure.isEmpty())
            m_tally->failedNonStreamed[kind % u": "_s % failure] += 1;
    }
    if (!failure.isEmpty() && m_connection) {
        // Start the next request on a clean connection.
        m_connection->abort();
        m_connection->deleteLater();
        m_connection = nullptr;
    }
    m_busy = false;
    // Next from the event loop (a response finished inside the connection's own callback), after a pause.
    QTimer::singleShot(ThinkMs, this, [this] { sendNext(false); });
}

} // namespace switchyard::soak
