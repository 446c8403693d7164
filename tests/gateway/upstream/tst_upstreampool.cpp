// The gateway's connections to its nodes (upstream/upstreampool, upstream/upstreamconnection), over real
// loopback sockets: a simulated vLLM node, and a node whose every move the test decides. What an operator
// would notice: requests reuse one connection instead of opening one each, connections the node closed
// are not used again, the pool keeps no more idle connections than it should for no longer than it should,
// and bodies arrive whole however the node frames them.

#include "routing/routingtable.h"
#include "simnode/simnode.h"
#include "upstream/upstreampool.h"

#include <QHash>
#include <QMutex>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <optional>

using namespace switchyard;
using namespace Qt::Literals::StringLiterals;
using upstream::UpstreamConnection;
using upstream::UpstreamErrorKind;
using upstream::UpstreamPool;

namespace {

// A node the test scripts: it answers every request with the bytes it was given, and closes its
// connections when told to. It runs on a thread of its own, as a real node does, so it can close a
// connection while the gateway's side has not yet looked at its socket.
class ScriptedNode final
{
    Q_DISABLE_COPY_MOVE(ScriptedNode)

public:
    enum class After { KeepOpen, Close };

    ScriptedNode()
    {
        m_host.moveToThread(&m_thread);
        m_thread.start();
        onNodeThread([this] {
            m_server = new QTcpServer(&m_host);
            QObject::connect(m_server, &QTcpServer::newConnection, &m_host, [this] { accept(); });
            if (m_server->listen(QHostAddress::LocalHost))
                m_port = m_server->serverPort();
        });
    }
    ~ScriptedNode()
    {
        onNodeThread([this] {
            const QList<QObject *> children = m_host.children();
            for (QObject *child : children)
                child->disconnect(); // no more callbacks while being torn down
            qDeleteAll(children);
            m_buffers.clear();
            m_host.moveToThread(QCoreApplication::instance()->thread());
        });
        m_thread.quit();
        m_thread.wait();
    }

    quint16 port() const { return m_port; }
    routing::Endpoint endpoint() const { return *routing::parseEndpoint(u"http://127.0.0.1:%1"_s.arg(m_port)); }

    // What every request from now on is answered with (nothing: no answer), and whether the node then
    // closes the connection.
    void setReply(QByteArray bytes, After after = After::KeepOpen)
    {
        QMutexLocker lock(&m_mutex);
        m_reply = std::move(bytes);
        m_closeAfterReply = after == After::Close;
    }

    // Closes every connection the node has open; returns once they are closed on its side.
    void closeConnections()
    {
        onNodeThread([this] {
            for (QTcpSocket *s : m_host.findChildren<QTcpSocket *>()) {
                s->disconnectFromHost();
                if (s->state() != QAbstractSocket::UnconnectedState)
                    s->waitForDisconnected(2000);
            }
        });
    }

    int accepted() const { return m_accepted.load(); }
    int requests() const { return m_requests.load(); }
    int openConnections() const { return m_accepted.load() - m_closed.load(); }

private:
    template <typename F>
    void onNodeThread(F f)
    {
        QMetaObject::invokeMethod(&m_host, f, Qt::BlockingQueuedConnection);
    }

    void accept()
    {
        while (QTcpSocket *s = m_server->nextPendingConnection()) {
            s->setParent(&m_host);
            ++m_accepted;
            QObject::connect(s, &QTcpSocket::readyRead, s, [this, s] {
                QByteArray &buffer = m_buffers[s];
                buffer.append(s->readAll());
                serve(s, buffer);
            });
            QObject::connect(s, &QTcpSocket::disconnected, s, [this, s] {
                ++m_closed;
                m_buffers.remove(s);
                s->deleteLater();
            });
        }
    }

    // Answers each complete request in buffer (head, then Content-Length bytes of body).
    void serve(QTcpSocket *s, QByteArray &buffer)
    {
        for (;;) {
            const qsizetype headEnd = buffer.indexOf("\r\n\r\n");
            if (headEnd < 0)
                return;
            qsizetype bodyLength = 0;
            for (const QByteArray &line : buffer.first(headEnd).split('\n')) {
                if (line.toLower().startsWith("content-length:"))
                    bodyLength = line.mid(15).trimmed().toLongLong();
            }
            if (buffer.size() < headEnd + 4 + bodyLength)
                return;
            buffer.remove(0, headEnd + 4 + bodyLength);
            ++m_requests;
            QMutexLocker lock(&m_mutex);
            if (!m_reply.isEmpty())
                s->write(m_reply);
            if (m_closeAfterReply) {
                s->disconnectFromHost();
                return;
            }
        }
    }

    QThread m_thread;
    QObject m_host; // lives in m_thread; parent of the server and its connections
    QTcpServer *m_server = nullptr;
    QHash<QTcpSocket *, QByteArray> m_buffers; // what each connection sent that is not answered yet
    quint16 m_port = 0;
    QMutex m_mutex;
    QByteArray m_reply;
    bool m_closeAfterReply = false;
    std::atomic<int> m_accepted{0};
    std::atomic<int> m_closed{0};
    std::atomic<int> m_requests{0};
};

// One request's outcome as the gateway's side sees it.
class Exchange final : public upstream::UpstreamListener
{
public:
    int status = 0;
    QByteArray body;
    bool finished = false;
    std::optional<upstream::UpstreamError> error;

    bool done() const { return finished || error.has_value(); }

    void upstreamHead(const http::ResponseParser &response) override { status = response.status(); }
    void upstreamBody(QByteArrayView data) override { body += data; }
    void upstreamFinished() override { finished = true; }
    void upstreamFailed(const upstream::UpstreamError &e) override { error = e; }
};

QByteArray getRequest(const routing::Endpoint &ep, const QByteArray &path = "/health")
{
    return "GET " + path + " HTTP/1.1\r\nHost: " + ep.hostHeader + "\r\n\r\n";
}

QByteArray postRequest(const routing::Endpoint &ep, const QByteArray &path, const QByteArray &body)
{
    return "POST " + path + " HTTP/1.1\r\nHost: " + ep.hostHeader +
           "\r\nContent-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" +
           body;
}

// Sends a request on the connection and waits until the response ended or failed.
bool exchange(UpstreamConnection *c, const QByteArray &request, Exchange &x)
{
    c->send(request, &x);
    return QTest::qWaitFor([&] { return x.done(); }, 10000);
}

const QByteArray Ok = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 11\r\n\r\nhello world";

std::unique_ptr<sim::SimNode> startSimNode(int keepAliveTimeoutMs = 5000)
{
    sim::SimNodeOptions o;
    o.name = u"sim"_s;
    o.models = {u"m1"_s};
    o.performance.tokensPerSecond = 400;
    o.performance.ttftBaseMs = 5;
    o.text.seed = 7;
    o.text.meanOutputTokens = 8;
    o.keepAliveTimeoutMs = keepAliveTimeoutMs;
    auto node = std::make_unique<sim::SimNode>(o);
    if (!node->start())
        return nullptr;
    return node;
}

} // namespace

class TestUpstreamPool final : public QObject
{
    Q_OBJECT

private slots:
    // A second request to a node goes on the connection the first one used.
    void keepAliveReusesTheConnection()
    {
        const auto node = startSimNode();
        QVERIFY(node);
        const routing::Endpoint ep = *routing::parseEndpoint(node->baseUrl());
        UpstreamPool pool;

        UpstreamConnection *first = pool.acquire(ep);
        QVERIFY(!first->isReused());
        Exchange a;
        QVERIFY(exchange(first, getRequest(ep), a));
        QVERIFY(a.finished);
        QCOMPARE(a.status, 200);
        pool.release(first);
        QCOMPARE(pool.idleCount(), 1);

        UpstreamConnection *second = pool.acquire(ep);
        QCOMPARE(second, first);
        QVERIFY(second->isReused());
        QCOMPARE(pool.idleCount(), 0);
        Exchange b;
        const QByteArray chat = R"({"model":"m1","messages":[{"role":"user","content":"hi"}],"max_tokens":4})";
        QVERIFY(exchange(second, postRequest(ep, "/v1/chat/completions", chat), b));
        QVERIFY(b.finished);
        QCOMPARE(b.status, 200);
        QVERIFY(b.body.contains("\"chat.completion\""));
        pool.release(second);

        QCOMPARE(node->counters().openConnections, 1);
        QCOMPARE(pool.openCount(), 1);
    }

    // A streamed answer comes chunked from vLLM; after its last chunk the connection serves the next request.
    void chunkedStreamFromASimulatedNode()
    {
        const auto node = startSimNode();
        QVERIFY(node);
        const routing::Endpoint ep = *routing::parseEndpoint(node->baseUrl());
        UpstreamPool pool;
        const QByteArray chat =
            R"({"model":"m1","messages":[{"role":"user","content":"hi"}],"max_tokens":6,"stream":true})";
        UpstreamConnection *c = pool.acquire(ep);
        for (int i = 0; i < 2; ++i) {
            Exchange x;
            QVERIFY(exchange(c, postRequest(ep, "/v1/chat/completions", chat), x));
            QVERIFY(x.finished);
            QCOMPARE(x.status, 200);
            QVERIFY(x.body.startsWith("data: {"));
            QVERIFY(x.body.endsWith("data: [DONE]\n\n"));
            QVERIFY(c->isReusable());
        }
        pool.release(c);
        QCOMPARE(node->counters().openConnections, 1);
    }

    // However the node frames the body, it arrives whole; only a connection whose framing leaves it
    // clean is kept for the next request.
    void bodyFraming_data()
    {
        QTest::addColumn<QByteArray>("reply");
        QTest::addColumn<bool>("closeAfter");
        QTest::addColumn<QByteArray>("expectedBody");
        QTest::addColumn<bool>("reusable");
        QTest::newRow("content-length") << Ok << false << QByteArray("hello world") << true;
        QTest::newRow("chunked") << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                                               "5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\n\r\n")
                                 << false << QByteArray("hello world") << true;
        QTest::newRow("chunked with trailer") << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                                                            "b\r\nhello world\r\n0\r\nX-Done: 1\r\n\r\n")
                                              << false << QByteArray("hello world") << true;
        QTest::newRow("empty, length 0") << QByteArray("HTTP/1.1 204 No Content\r\n\r\n") << false << QByteArray()
                                         << true;
        QTest::newRow("until close") << QByteArray("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nhello world")
                                     << true << QByteArray("hello world") << false;
        QTest::newRow("connection: close with length")
            << QByteArray("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 11\r\n\r\nhello world") << true
            << QByteArray("hello world") << false;
        QTest::newRow("bytes beyond the body") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello world")
                                               << false << QByteArray("hello") << false;
    }
    void bodyFraming()
    {
        QFETCH(QByteArray, reply);
        QFETCH(bool, closeAfter);
        QFETCH(QByteArray, expectedBody);
        QFETCH(bool, reusable);
        ScriptedNode node;
        node.setReply(reply, closeAfter ? ScriptedNode::After::Close : ScriptedNode::After::KeepOpen);
        UpstreamPool pool;
        UpstreamConnection *c = pool.acquire(node.endpoint());
        Exchange x;
        QVERIFY(exchange(c, getRequest(node.endpoint()), x));
        QVERIFY2(x.finished, x.error ? qPrintable(x.error->message) : "");
        QCOMPARE(x.body, expectedBody);
        pool.release(c);
        QCOMPARE(pool.idleCount(), reusable ? 1 : 0);
        QCOMPARE(pool.openCount(), reusable ? 1 : 0);
    }

    // A node that closes idle connections (vLLM after 5 s): the pool notices, drops the connection, and
    // the next request opens a fresh one instead of failing on the dead one.
    void nodeClosingAnIdleConnectionIsNoticed()
    {
        const auto node = startSimNode(150);
        QVERIFY(node);
        const routing::Endpoint ep = *routing::parseEndpoint(node->baseUrl());
        UpstreamPool pool;
        UpstreamConnection *c = pool.acquire(ep);
        Exchange a;
        QVERIFY(exchange(c, getRequest(ep), a));
        pool.release(c);
        QCOMPARE(pool.idleCount(), 1);

        QTRY_COMPARE_WITH_TIMEOUT(pool.idleCount(), 0, 5000);
        QCOMPARE(pool.openCount(), 0);

        UpstreamConnection *fresh = pool.acquire(ep);
        QVERIFY(!fresh->isReused());
        Exchange b;
        QVERIFY(exchange(fresh, getRequest(ep), b));
        QVERIFY(b.finished);
        QCOMPARE(b.status, 200);
        pool.release(fresh);
    }

    // From its second request on, a plain connection is read and written without Qt's socket (its
    // descriptor taken over): it goes on serving requests, and a close by the node while it is idle is
    // noticed all the same.
    void aConnectionTakenOverFromQtServesOnAndNoticesTheNodesClose()
    {
        const auto node = startSimNode(300);
        QVERIFY(node);
        const routing::Endpoint ep = *routing::parseEndpoint(node->baseUrl());
        UpstreamPool pool;
        UpstreamConnection *first = pool.acquire(ep);
        const QByteArray chat = R"({"model":"m1","messages":[{"role":"user","content":"hi"}],"max_tokens":3})";
        for (int i = 0; i < 5; ++i) {
            UpstreamConnection *c = i == 0 ? first : pool.acquire(ep);
            QCOMPARE(c, first);
            Exchange x;
            QVERIFY(exchange(c, postRequest(ep, "/v1/chat/completions", chat), x));
            QVERIFY(x.finished);
            QCOMPARE(x.status, 200);
            QVERIFY(x.body.contains("\"chat.completion\""));
            pool.release(c);
        }
        QCOMPARE(node->counters().openConnections, 1);
        QTRY_COMPARE_WITH_TIMEOUT(pool.idleCount(), 0, 5000); // the node's idle timeout closed it
        QCOMPARE(pool.openCount(), 0);
    }

    // The node closed a pooled connection just before the gateway reused it (it had not yet seen the
    // close). The request then fails as "closed" before any response byte on a reused connection: the
    // one case the gateway resends, once, on a fresh connection — which then succeeds.
    void staleConnectionFailsSoTheRequestCanBeResentFresh()
    {
        ScriptedNode node;
        node.setReply(Ok);
        const routing::Endpoint ep = node.endpoint();
        UpstreamPool pool;
        UpstreamConnection *c = pool.acquire(ep);
        Exchange a;
        QVERIFY(exchange(c, getRequest(ep), a));
        pool.release(c);

        node.closeConnections(); // no event processed here since: the pool cannot know yet
        UpstreamConnection *stale = pool.acquire(ep);
        QCOMPARE(stale, c);
        Exchange b;
        QVERIFY(exchange(stale, getRequest(ep), b));
        QVERIFY(b.error);
        QCOMPARE(b.error->kind, UpstreamErrorKind::Closed);
        QVERIFY(!b.error->responseStarted);
        QVERIFY(stale->isReused());
        pool.discard(stale);

        UpstreamConnection *fresh = pool.acquire(ep, true);
        QVERIFY(fresh != stale);
        QVERIFY(!fresh->isReused());
        Exchange resent;
        QVERIFY(exchange(fresh, getRequest(ep), resent));
        QVERIFY(resent.finished);
        QCOMPARE(resent.body, QByteArray("hello world"));
        QCOMPARE(node.requests(), 2); // the stale attempt never reached the node
        QCOMPARE(node.accepted(), 2);
        pool.release(fresh);
        QCOMPARE(pool.openCount(), 1);
    }

    // A fresh connection the node closes without answering is not "reused": the request did reach the
    // node, so it must not be sent again behind the operator's back (only failover may retry it).
    void freshConnectionClosedWithoutAnswerIsNotReused()
    {
        ScriptedNode node;
        node.setReply({}, ScriptedNode::After::Close);
        UpstreamPool pool;
        UpstreamConnection *c = pool.acquire(node.endpoint());
        Exchange x;
        QVERIFY(exchange(c, getRequest(node.endpoint()), x));
        QVERIFY(x.error);
        QCOMPARE(x.error->kind, UpstreamErrorKind::Closed);
        QVERIFY(!x.error->responseStarted);
        QVERIFY(!c->isReused());
        QCOMPARE(node.requests(), 1);
        pool.discard(c);
        QCOMPARE(pool.openCount(), 0);
    }

    // Idle connections are kept per node up to the limit; the ones beyond it are closed at release.
    void idleConnectionsAreLimitedPerNode()
    {
        ScriptedNode one;
        ScriptedNode two;
        one.setReply(Ok);
        two.setReply(Ok);
        UpstreamPool pool(UpstreamPool::Limits{2, UpstreamPool::IdleTimeoutMs});
        QList<UpstreamConnection *> toOne;
        std::vector<std::unique_ptr<Exchange>> exchanges;
        for (int i = 0; i < 3; ++i) {
            toOne.append(pool.acquire(one.endpoint()));
            exchanges.push_back(std::make_unique<Exchange>());
            toOne.last()->send(getRequest(one.endpoint()), exchanges.back().get());
        }
        UpstreamConnection *toTwo = pool.acquire(two.endpoint());
        Exchange x;
        QVERIFY(exchange(toTwo, getRequest(two.endpoint()), x));
        QTRY_VERIFY(std::all_of(exchanges.begin(), exchanges.end(), [](const auto &e) { return e->finished; }));
        QCOMPARE(one.accepted(), 3); // three at once: three connections

        for (UpstreamConnection *c : std::as_const(toOne))
            pool.release(c);
        pool.release(toTwo);
        QCOMPARE(pool.idleCount(), 3);
        QCOMPARE(pool.openCount(), 3);
        QTRY_COMPARE(one.openConnections(), 2);
        QCOMPARE(two.openConnections(), 1);

        // The most recently used connection goes first: the least likely to have been closed by the node.
        QCOMPARE(pool.acquire(one.endpoint()), toOne[1]);
        QCOMPARE(pool.acquire(one.endpoint()), toOne[0]);
    }

    // An idle connection unused for the idle timeout is closed, on both sides.
    void idleConnectionsExpire()
    {
        ScriptedNode node;
        node.setReply(Ok);
        UpstreamPool pool(UpstreamPool::Limits{UpstreamPool::MaxIdlePerEndpoint, 100});
        UpstreamConnection *c = pool.acquire(node.endpoint());
        Exchange x;
        QVERIFY(exchange(c, getRequest(node.endpoint()), x));
        pool.release(c);
        QCOMPARE(pool.idleCount(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(pool.idleCount(), 0, 5000);
        QCOMPARE(pool.openCount(), 0);
        QTRY_COMPARE(node.openConnections(), 0);
    }

    // Closing the idle connections (a config change, the gateway stopping) closes them on the node too.
    void closeIdleClosesThemOnTheNode()
    {
        ScriptedNode node;
        node.setReply(Ok);
        UpstreamPool pool;
        UpstreamConnection *c = pool.acquire(node.endpoint());
        Exchange x;
        QVERIFY(exchange(c, getRequest(node.endpoint()), x));
        pool.release(c);
        QCOMPARE(pool.idleCount(), 1);
        QCOMPARE(node.openConnections(), 1);
        pool.closeIdle();
        QCOMPARE(pool.idleCount(), 0);
        QCOMPARE(pool.openCount(), 0);
        QTRY_COMPARE(node.openConnections(), 0);
    }

    // Nothing listens: the request fails at once as "connection refused", not as a timeout.
    void refusedPort()
    {
        quint16 port = 0;
        {
            QTcpServer probe;
            QVERIFY(probe.listen(QHostAddress::LocalHost));
            port = probe.serverPort();
        }
        const routing::Endpoint ep = *routing::parseEndpoint(u"http://127.0.0.1:%1"_s.arg(port));
        UpstreamPool pool;
        UpstreamConnection *c = pool.acquire(ep);
        Exchange x;
        QVERIFY(exchange(c, getRequest(ep), x));
        QVERIFY(x.error);
        QCOMPARE(x.error->kind, UpstreamErrorKind::ConnectRefused);
        QCOMPARE(x.error->message, u"connection refused"_s);
        QVERIFY(!x.error->responseStarted);
        QVERIFY(!c->isReused());
        pool.release(c); // not reusable: released means closed
        QCOMPARE(pool.idleCount(), 0);
        QCOMPARE(pool.openCount(), 0);
    }

    // Something on the node's port that does not speak HTTP: said so, rather than "closed".
    void notHttpIsABadResponse()
    {
        ScriptedNode node;
        node.setReply("SSH-2.0-OpenSSH_9.2\r\n", ScriptedNode::After::Close);
        UpstreamPool pool;
        UpstreamConnection *c = pool.acquire(node.endpoint());
        Exchange x;
        QVERIFY(exchange(c, getRequest(node.endpoint()), x));
        QVERIFY(x.error);
        QCOMPARE(x.error->kind, UpstreamErrorKind::BadResponse);
        QVERIFY2(x.error->message.startsWith(u"malformed response"_s), qPrintable(x.error->message));
        pool.discard(c);
    }
};

QTEST_GUILESS_MAIN(TestUpstreamPool)
#include "tst_upstreampool.moc"
