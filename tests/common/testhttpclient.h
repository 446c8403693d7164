#pragma once

// A small blocking HTTP/1.1 client for tests. The gateway and the simulated nodes run on their own
// threads, so a test may block its main thread on a socket while they serve. Every read is bounded.

#include "http/httpresponseparser.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QList>
#include <QTcpSocket>
#include <memory>

namespace switchyard::testing {

struct TestResponse
{
    int status = 0;
    QByteArray head;       // the head's bytes, which `headers` points into
    http::Headers headers;
    QByteArray body;
    QList<qint64> pieceTimesMs; // arrival time of each body read, since the request was sent
    bool complete = false;      // the body ended by its framing (not by a timeout or a cut)
    QString error;

    QByteArray header(QByteArrayView lowerName) const { return http::headerValue(headers, lowerName).toByteArray(); }
    QByteArray node() const { return header("x-switchyard-node"); }
    int attempts() const { return header("x-switchyard-attempts").toInt(); }
    // The `data:` payloads of an SSE body, in order.
    QList<QByteArray> sseEvents() const;
};

class TestClient final
{
public:
    explicit TestClient(quint16 port, QString host = QStringLiteral("127.0.0.1"));
    ~TestClient();

    bool isConnected() const;
    QTcpSocket &socket() { return *m_socket; }

    // Sends raw bytes (for pipelining and malformed input).
    void sendRaw(const QByteArray &bytes);
    // Sends one request; Content-Length is added for a body.
    void send(const QByteArray &method, const QByteArray &path, const QByteArray &body = {},
              const QList<QPair<QByteArray, QByteArray>> &headers = {});
    // Reads one response (head and body), waiting at most timeoutMs.
    TestResponse read(int timeoutMs = 10000) { return readRest(readHead(timeoutMs), timeoutMs); }
    // Reads only the head; the body follows with readRest.
    TestResponse readHead(int timeoutMs = 10000);
    // Reads the remainder of a response whose reading stopped early.
    TestResponse readRest(TestResponse partial, int timeoutMs = 10000);
    // True when the server closed the connection within timeoutMs.
    bool waitForClose(int timeoutMs);

private:
    bool fill(int timeoutMs);

    std::unique_ptr<QTcpSocket> m_socket;
    QByteArray m_in;
    http::ResponseParser m_parser;
    QElapsedTimer m_sent;
    bool m_inBody = false;
};

// One request on a fresh connection.
TestResponse request(quint16 port, const QByteArray &method, const QByteArray &path, const QByteArray &body = {},
                     int timeoutMs = 10000, const QList<QPair<QByteArray, QByteArray>> &headers = {});

QByteArray chatBody(const QByteArray &model, int maxTokens = 8, bool stream = false, const QByteArray &extra = {});

} // namespace switchyard::testing
