#include "testhttpclient.h"

#include <QThread>

namespace switchyard::testing {

QList<QByteArray> TestResponse::sseEvents() const
{
    QList<QByteArray> out;
    for (const QByteArray &block : body.split('\n')) {
        if (block.startsWith("data: "))
            out.append(block.mid(6).trimmed());
    }
    return out;
}

TestClient::TestClient(quint16 port, QString host) : m_socket(std::make_unique<QTcpSocket>())
{
    m_socket->connectToHost(host, port);
    m_socket->waitForConnected(5000);
}

TestClient::~TestClient()
{
    m_socket->abort();
}

bool TestClient::isConnected() const
{
    return m_socket->state() == QAbstractSocket::ConnectedState;
}

void TestClient::sendRaw(const QByteArray &bytes)
{
    m_sent.start();
    m_socket->write(bytes);
    m_socket->waitForBytesWritten(5000);
}

void TestClient::send(const QByteArray &method, const QByteArray &path, const QByteArray &body,
                      const QList<QPair<QByteArray, QByteArray>> &headers)
{
    QByteArray req = method + ' ' + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    bool haveType = false;
    for (const auto &[k, v] : headers) {
        req += k + ": " + v + "\r\n";
        haveType = haveType || k.compare("content-type", Qt::CaseInsensitive) == 0;
    }
    if (!body.isEmpty() || method == "POST") {
        if (!haveType)
            req += "Content-Type: application/json\r\n";
        req += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
    }
    req += "\r\n" + body;
    sendRaw(req);
}

bool TestClient::fill(int timeoutMs)
{
    if (m_socket->bytesAvailable() == 0 && !m_socket->waitForReadyRead(timeoutMs))
        return false;
    m_in.append(m_socket->readAll());
    return true;
}

TestResponse TestClient::readHead(int timeoutMs)
{
    TestResponse r;
    m_parser.reset();
    m_inBody = false;
    QElapsedTimer t;
    t.start();
    for (;;) {
        if (!m_in.isEmpty()) {
            const auto s = m_parser.parseHead(m_in);
            if (s == http::ResponseParser::Status::Error) {
                r.error = QString::fromUtf8(m_parser.errorString());
                return r;
            }
            if (s != http::ResponseParser::Status::NeedMore) {
                r.status = m_parser.status();
                r.head = m_parser.headBlock(); // keeps the bytes the header views point into
                r.headers = m_parser.headers();
                if (s == http::ResponseParser::Status::BodyComplete) {
                    r.complete = true;
                    return r;
                }
                m_inBody = true;
                break;
            }
        }
        const int left = timeoutMs - int(t.elapsed());
        if (left <= 0 || !fill(left)) {
            r.error = isConnected() ? QStringLiteral("timeout waiting for the response head")
                                    : QStringLiteral("connection closed before the response head");
            return r;
        }
    }
    return r;
}

TestResponse TestClient::readRest(TestResponse r, int timeoutMs)
{
    if (r.complete || r.status == 0)
        return r;
    QElapsedTimer t;
    t.start();
    for (;;) {
        if (!m_in.isEmpty()) {
            qsizetype used = 0;
            const auto s = m_parser.feedBody(m_in, used, [&](QByteArrayView v) { r.body.append(v); });
            if (used > 0)
                r.pieceTimesMs.append(m_sent.elapsed());
            m_in.remove(0, used);
            if (s == http::ResponseParser::Status::Error) {
                r.error = QString::fromUtf8(m_parser.errorString());
                return r;
            }
            if (s == http::ResponseParser::Status::BodyComplete) {
                r.complete = true;
                m_inBody = false;
                return r;
            }
        }
        const int left = timeoutMs - int(t.elapsed());
        if (left <= 0) {
            r.error = QStringLiteral("timeout reading the body");
            return r;
        }
        if (!fill(left)) {
            if (!isConnected() && m_parser.finishOnClose()) {
                r.complete = true;
                return r;
            }
            if (!isConnected()) {
                r.error = QStringLiteral("connection closed mid-body");
                return r;
            }
        }
    }
}

bool TestClient::waitForClose(int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs) {
        if (m_socket->state() == QAbstractSocket::UnconnectedState)
            return true;
        if (m_socket->waitForReadyRead(std::max<int>(1, timeoutMs - int(t.elapsed()))))
            m_in.append(m_socket->readAll());
        else if (m_socket->state() != QAbstractSocket::ConnectedState)
            return true;
    }
    return m_socket->state() == QAbstractSocket::UnconnectedState;
}

TestResponse request(quint16 port, const QByteArray &method, const QByteArray &path, const QByteArray &body,
                     int timeoutMs, const QList<QPair<QByteArray, QByteArray>> &headers)
{
    TestClient c(port);
    if (!c.isConnected()) {
        TestResponse r;
        r.error = QStringLiteral("could not connect");
        return r;
    }
    c.send(method, path, body, headers);
    return c.read(timeoutMs);
}

QByteArray chatBody(const QByteArray &model, int maxTokens, bool stream, const QByteArray &extra)
{
    QByteArray b = "{\"model\":\"" + model + "\",\"messages\":[{\"role\":\"user\",\"content\":\"Hello there\"}],"
                   "\"max_tokens\":" + QByteArray::number(maxTokens);
    if (stream)
        b += ",\"stream\":true,\"stream_options\":{\"include_usage\":true}";
    b += extra + "}";
    return b;
}

} // namespace switchyard::testing
