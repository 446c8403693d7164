#pragma once

// What the simulated node's test classes share: a raw HTTP/1.1 client over a real loopback socket that
// keeps each response's head, body pieces and their arrival times; request builders; a node started on a
// free port; /metrics read back as numbers.

#include "http/httpresponseparser.h"
#include "simnode/simnode.h"

#include <QElapsedTimer>
#include <QHostAddress>
#include <QMap>
#include <QRegularExpression>
#include <QTcpSocket>
#include <QTest>

#include <nlohmann/json.hpp>

#include <memory>

// QCOMPARE for JSON values: compares their serialisations, so failures print both.
#define JCOMPARE(actual, expected)                                                                           \
    QCOMPARE(QString::fromStdString(Json(actual).dump()), QString::fromStdString(Json(expected).dump()))

namespace switchyard::sim::testing {

using Json = nlohmann::json;

const QByteArray Model = "test-model";

inline SimNodeOptions fastOptions()
{
    SimNodeOptions o;
    o.name = QStringLiteral("test-node");
    o.models = {QString::fromLatin1(Model), QStringLiteral("alias-model")};
    o.performance.tokensPerSecond = 2000;
    o.performance.ttftBaseMs = 5;
    o.text.seed = 42;
    o.text.meanOutputTokens = 20;
    o.text.embeddingDimensions = 64;
    return o;
}

inline QByteArray httpRequest(const QByteArray &method, const QByteArray &path, const QByteArray &body = {},
                              const QByteArray &extraHeaders = {})
{
    QByteArray r = method + ' ' + path + " HTTP/1.1\r\nHost: node\r\n" + extraHeaders;
    if (!body.isEmpty() || method == "POST")
        r += "Content-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n";
    return r + "\r\n" + body;
}

inline QByteArray chatBody(const Json &extra = Json::object(), const std::string &content = "Hello")
{
    Json j = {{"model", Model.toStdString()}, {"messages", {{{"role", "user"}, {"content", content}}}}};
    j.update(extra);
    return QByteArray::fromStdString(j.dump());
}

struct Response
{
    int status = 0;
    QByteArray head; // the head's bytes, which `headers` points into
    http::Headers headers;
    QByteArray body;
    QList<qint64> eventTimesNs; // arrival time of each SSE event, for rate ratios

    QByteArrayView header(QByteArrayView name) const { return http::headerValue(headers, name); }
    Json json() const { return Json::parse(body.begin(), body.end(), nullptr, false); }
    // Payloads of the SSE "data: " events.
    QList<QByteArray> events() const
    {
        QList<QByteArray> out;
        for (const QByteArray &e : body.split('\n')) {
            if (e.startsWith("data: "))
                out.append(e.mid(6));
        }
        return out;
    }
};

// A raw HTTP/1.1 client on one connection, driven by the test's event loop. It parses any number of
// responses in a row (pipelining) and timestamps SSE events as they arrive.
class Client final : public QObject
{
public:
    explicit Client(quint16 port)
    {
        connect(&m_socket, &QTcpSocket::readyRead, this, [this] { onReadyRead(); });
        connect(&m_socket, &QTcpSocket::disconnected, this, [this] { closed = true; });
        connect(&m_socket, &QTcpSocket::errorOccurred, this, [this](QAbstractSocket::SocketError e) {
            if (e == QAbstractSocket::ConnectionRefusedError)
                refused = true;
            if (e != QAbstractSocket::RemoteHostClosedError)
                closed = true;
        });
        m_socket.connectToHost(QHostAddress::LocalHost, port);
        m_clock.start();
    }

    void send(const QByteArray &raw) { m_socket.write(raw); }
    void abort() { m_socket.abort(); }
    bool waitConnected() { return m_socket.waitForConnected(3000); }

    bool waitResponses(int n, int timeoutMs = 10000)
    {
        return QTest::qWaitFor([&] { return responses.size() >= n || closed; }, timeoutMs) &&
               responses.size() >= n;
    }
    bool waitEvents(int n, int timeoutMs = 10000)
    {
        return QTest::qWaitFor(
            [&] { return current.eventTimesNs.size() >= n || !responses.isEmpty() || closed; }, timeoutMs);
    }

    QList<Response> responses;
    Response current; // the response being received
    bool headDone = false;
    bool closed = false;
    bool refused = false;

private:
    void onReadyRead()
    {
        m_buffer.append(m_socket.readAll());
        for (;;) {
            if (!headDone) {
                const auto s = m_parser.parseHead(m_buffer);
                if (s == http::ResponseParser::Status::NeedMore)
                    return;
                if (s == http::ResponseParser::Status::Error) {
                    closed = true;
                    return;
                }
                current.status = m_parser.status();
                current.head = m_parser.headBlock(); // keeps the bytes the header views point into
                current.headers = m_parser.headers();
                headDone = true;
                if (s == http::ResponseParser::Status::BodyComplete) {
                    finishResponse();
                    continue;
                }
            }
            qsizetype used = 0;
            const auto s = m_parser.feedBody(m_buffer, used, [&](QByteArrayView piece) {
                current.body.append(piece);
                const qint64 now = m_clock.nsecsElapsed();
                while (current.eventTimesNs.size() < current.body.count("\n\n"))
                    current.eventTimesNs.append(now);
            });
            m_buffer.remove(0, used);
            if (s != http::ResponseParser::Status::BodyComplete)
                return;
            finishResponse();
        }
    }
    void finishResponse()
    {
        responses.append(std::move(current));
        current = Response();
        headDone = false;
        m_parser.reset();
    }

    QTcpSocket m_socket;
    http::ResponseParser m_parser;
    QByteArray m_buffer;
    QElapsedTimer m_clock;
};

// One request on a fresh connection, waited for.
inline Response fetch(quint16 port, const QByteArray &raw, int timeoutMs = 10000)
{
    Client c(port);
    c.send(raw);
    if (!c.waitResponses(1, timeoutMs))
        return Response();
    return c.responses.first();
}

inline std::unique_ptr<SimNode> startNode(SimNodeOptions options)
{
    auto node = std::make_unique<SimNode>(std::move(options));
    const auto started = node->start();
    if (!started) {
        qWarning() << "node failed to start:" << started.error();
        return nullptr;
    }
    return node;
}

// Prometheus text → {"name{labels}": value}; fails the parse on any malformed line.
inline bool parsePrometheus(const QByteArray &text, QMap<QString, double> &out)
{
    static const QRegularExpression sampleLine(
        QStringLiteral(R"(^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)$)"));
    static const QRegularExpression commentLine(
        QStringLiteral(R"(^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+$)"));
    for (const QByteArray &raw : text.split('\n')) {
        const QString line = QString::fromUtf8(raw);
        if (line.isEmpty())
            continue;
        if (line.startsWith(u'#')) {
            if (!commentLine.match(line).hasMatch())
                return false;
            continue;
        }
        const auto m = sampleLine.match(line);
        if (!m.hasMatch())
            return false;
        bool ok = false;
        const double v = m.captured(3) == QStringLiteral("+Inf") ? qInf() : m.captured(3).toDouble(&ok);
        if (!ok)
            return false;
        out.insert(m.captured(1) + m.captured(2), v);
    }
    return true;
}

inline double metric(const QMap<QString, double> &m, const QString &nameAndExtraLabels)
{
    // Every vLLM series carries model_name and engine; tests name the rest.
    const qsizetype brace = nameAndExtraLabels.indexOf(u'{');
    const QString name = brace < 0 ? nameAndExtraLabels : nameAndExtraLabels.first(brace);
    QString labels = QStringLiteral("model_name=\"test-model\",engine=\"0\"");
    if (brace >= 0)
        labels += u',' + nameAndExtraLabels.sliced(brace + 1).chopped(1);
    return m.value(name + u'{' + labels + u'}', -1);
}

inline QMap<QString, double> scrape(quint16 port)
{
    const Response r = fetch(port, httpRequest("GET", "/metrics"));
    QMap<QString, double> m;
    if (r.status != 200 || !parsePrometheus(r.body, m))
        qWarning() << "unparseable /metrics:" << r.status << r.body.left(400);
    return m;
}

// Content text of a chat stream's events.
inline QString streamedContent(const Response &r)
{
    QString out;
    for (const QByteArray &e : r.events()) {
        const Json j = Json::parse(e.begin(), e.end(), nullptr, false);
        if (j.is_object() && j.contains("choices") && !j["choices"].empty()) {
            const Json &delta = j["choices"][0]["delta"];
            if (delta.contains("content") && delta["content"].is_string())
                out += QString::fromStdString(delta["content"].get<std::string>());
        }
    }
    return out;
}

} // namespace switchyard::sim::testing
