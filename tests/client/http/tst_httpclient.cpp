// The panel's HTTP client (client/http/httpclient) against a real gateway and simulated nodes on
// loopback: answers with status, headers and body, keep-alive, PUT with a body, and every bound a remote
// gateway needs: a node that hangs times out, a body over the cap is refused, nothing listening is
// "refused", a few connections per host and the rest queued, a kept-alive connection the server closed is
// replaced without the caller noticing.

#include "common/testhttpclient.h"
#include "gateway/gatewayfixture.h"
#include "http/httpclient.h"

#include <QTcpServer>
#include <QTest>
#include <nlohmann/json.hpp>
#include <optional>

using namespace Qt::Literals::StringLiterals;
using namespace switchyard;
using namespace switchyard::client;
using namespace switchyard::testing;

namespace {

HttpRequest get(const QString &url)
{
    HttpRequest r;
    r.url = QUrl(url);
    return r;
}

// Sends and waits for the one callback, with the event loop running (the gateway answers on it too).
std::optional<HttpResult> run(HttpClient &client, HttpRequest request, int waitMs = 15000)
{
    std::optional<HttpResult> out;
    client.send(std::move(request), [&out](const HttpResult &r) { out = r; });
    (void)QTest::qWaitFor([&] { return out.has_value(); }, waitMs);
    return out;
}

quint16 unusedPort()
{
    QTcpServer s;
    if (!s.listen(QHostAddress::LocalHost, 0))
        return 0;
    return s.serverPort(); // closed again when s goes: nothing listens there
}

} // namespace

class TestHttpClient final : public QObject
{
    Q_OBJECT

private slots:
    void getReusesTheConnection()
    {
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s}));
        HttpClient client;
        const QString url = u"http://127.0.0.1:%1/v1/models"_s.arg(f.port);
        for (int i = 0; i < 3; ++i) {
            const auto r = run(client, get(url));
            QVERIFY(r.has_value());
            QVERIFY2(r->hasValue(), qPrintable(r->hasValue() ? QString() : r->error().message));
            QCOMPARE((*r)->status, 200);
            QVERIFY((*r)->header("content-type").startsWith("application/json"));
            QVERIFY((*r)->body.contains("\"m1\""));
        }
        QCOMPARE(client.openConnections(HttpClient::hostKeyOf(QUrl(url))), 1);
    }

    void putSendsItsBody()
    {
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s}));
        nlohmann::ordered_json doc = {
            {"providers",
             {{"a",
               {{"keys", {{{"name", "a-key"}, {"value", "dummy"}, {"models", {"m1"}}, {"weight", 3}}}},
                {"network_config", {{"base_url", f.node(0).baseUrl().toStdString()}}},
                {"custom_provider_config", {{"base_provider_type", "openai"}}}}}}},
            {"switchyard", {{"listen", "127.0.0.1:" + std::to_string(f.port)}, {"worker_threads", 2}}}};
        const std::string text = doc.dump();
        HttpClient client;
        HttpRequest put = get(u"http://127.0.0.1:%1/api/config"_s.arg(f.port));
        put.method = "PUT";
        put.addHeader("Content-Type", "application/json");
        put.body = QByteArray::fromStdString(text);
        const auto r = run(client, put);
        QVERIFY(r.has_value() && r->hasValue());
        QVERIFY2((*r)->status == 200, (*r)->body.constData());
        QVERIFY((*r)->body.contains("\"applied\""));
        QCOMPARE(f.gateway.config().providers.front().keys.front().weight, 3.0);
    }

    void aHangingNodeTimesOut()
    {
        sim::SimNode node(fastNodeOptions(u"h"_s));
        QVERIFY(node.start());
        node.setFault(sim::FaultMode::Hang);
        HttpClient client;
        HttpRequest r = get(node.baseUrl() + u"/health"_s);
        r.timeoutMs = 300;
        const auto result = run(client, r);
        QVERIFY(result.has_value());
        QVERIFY(!result->hasValue());
        QCOMPARE(result->error().kind, HttpErrorKind::Timeout);
        QVERIFY2(result->error().message.contains(HttpClient::hostKeyOf(QUrl(node.baseUrl()))),
                 qPrintable(result->error().message));
        QCOMPARE(client.pendingCount(), 0);
        // The connection it hung on is gone, the next request gets a fresh one.
        QCOMPARE(client.openConnections(HttpClient::hostKeyOf(QUrl(node.baseUrl()))), 0);
        node.setFault(sim::FaultMode::Healthy);
        const auto again = run(client, get(node.baseUrl() + u"/health"_s));
        QVERIFY(again.has_value() && again->hasValue());
        QCOMPARE((*again)->status, 200);
    }

    void aBodyOverTheCapIsRefused()
    {
        sim::SimNode node(fastNodeOptions(u"big"_s));
        QVERIFY(node.start());
        HttpClient client;
        // Content-Length over the cap: refused at the head.
        HttpRequest models = get(node.baseUrl() + u"/v1/models"_s);
        models.maxResponseBytes = 64;
        auto r = run(client, models);
        QVERIFY(r.has_value() && !r->hasValue());
        QCOMPARE(r->error().kind, HttpErrorKind::TooLarge);
        // A chunked stream passing the cap while it arrives.
        HttpRequest chat = get(node.baseUrl() + u"/v1/chat/completions"_s);
        chat.method = "POST";
        chat.addHeader("Content-Type", "application/json");
        chat.body = chatBody("m1", 200, true);
        chat.maxResponseBytes = 1000;
        r = run(client, chat);
        QVERIFY(r.has_value() && !r->hasValue());
        QCOMPARE(r->error().kind, HttpErrorKind::TooLarge);
        QVERIFY(r->error().message.contains(u"1000 bytes"_s));
        QTRY_COMPARE(node.counters().clientAborts, 1); // the node sees the panel go away
    }

    void nothingListeningIsRefused()
    {
        const quint16 port = unusedPort();
        QVERIFY(port != 0);
        HttpClient client;
        const auto r = run(client, get(u"http://127.0.0.1:%1/api/status"_s.arg(port)));
        QVERIFY(r.has_value() && !r->hasValue());
        QCOMPARE(r->error().kind, HttpErrorKind::Refused);
        QCOMPARE(r->error().message, u"connection refused by http://127.0.0.1:%1"_s.arg(port));
    }

    void anUnknownHostFails()
    {
        HttpClient client;
        HttpRequest r = get(u"http://nosuch.invalid:8080/api/status"_s);
        r.connectTimeoutMs = 3000;
        const auto result = run(client, r);
        QVERIFY(result.has_value() && !result->hasValue());
        // Where no resolver answers at all, the connect timeout speaks instead.
        QVERIFY2(result->error().kind == HttpErrorKind::ConnectFailed || result->error().kind == HttpErrorKind::ConnectTimeout,
                 qPrintable(result->error().message));
        QVERIFY2(result->error().message.contains(u"nosuch.invalid"_s), qPrintable(result->error().message));
    }

    void httpsToAPlainServerFails()
    {
        sim::SimNode node(fastNodeOptions(u"plain"_s));
        QVERIFY(node.start());
        HttpClient client;
        QString url = node.baseUrl() + u"/health"_s;
        url.replace(u"http://"_s, u"https://"_s);
        HttpRequest r = get(url);
        r.connectTimeoutMs = 1000;
        const auto result = run(client, r);
        QVERIFY(result.has_value() && !result->hasValue());
        // The node waits for the rest of what it takes for a request head: the handshake never ends,
        // and the connect timeout says so.
        QVERIFY2(result->error().kind == HttpErrorKind::ConnectFailed || result->error().kind == HttpErrorKind::ConnectTimeout,
                 qPrintable(result->error().message));
        QVERIFY(result->error().message.contains(HttpClient::hostKeyOf(QUrl(url))));
    }

    void notAUrlIsAnError()
    {
        HttpClient client;
        const auto r = run(client, get(u"ftp://127.0.0.1/x"_s));
        QVERIFY(r.has_value() && !r->hasValue());
        QCOMPARE(r->error().kind, HttpErrorKind::InvalidUrl);
    }

    void connectionsPerHostAreCapped()
    {
        sim::SimNode node(fastNodeOptions(u"c"_s));
        QVERIFY(node.start());
        HttpClient client;
        client.setMaxConnectionsPerHost(2);
        const QString host = HttpClient::hostKeyOf(QUrl(node.baseUrl()));
        int done = 0, ok = 0, maxOpen = 0;
        for (int i = 0; i < 5; ++i) {
            HttpRequest chat = get(node.baseUrl() + u"/v1/chat/completions"_s);
            chat.method = "POST";
            chat.body = chatBody("m1", 20, true);
            client.send(chat, [&](const HttpResult &r) {
                ++done;
                ok += r.hasValue() && r->status == 200 && r->body.contains("[DONE]");
                maxOpen = std::max(maxOpen, client.openConnections(host));
            });
            maxOpen = std::max(maxOpen, client.openConnections(host));
        }
        QCOMPARE(client.openConnections(host), 2); // the other three wait
        QTRY_COMPARE_WITH_TIMEOUT(done, 5, 15000);
        QCOMPARE(ok, 5);
        QCOMPARE(maxOpen, 2);
    }

    void aConnectionTheServerClosedIsReplaced()
    {
        sim::SimNodeOptions o = fastNodeOptions(u"k"_s);
        o.keepAliveTimeoutMs = 50; // closes idle connections quickly
        sim::SimNode node(o);
        QVERIFY(node.start());
        HttpClient client;
        auto r = run(client, get(node.baseUrl() + u"/v1/models"_s));
        QVERIFY(r.has_value() && r->hasValue());
        QTRY_COMPARE(node.counters().openConnections, 0);
        r = run(client, get(node.baseUrl() + u"/v1/models"_s));
        QVERIFY2(r.has_value() && r->hasValue(), r.has_value() && !r->hasValue() ? qPrintable(r->error().message) : "");
        QCOMPARE((*r)->status, 200);
    }

    void cancelledRequestsDoNotAnswer()
    {
        sim::SimNode node(fastNodeOptions(u"x"_s));
        QVERIFY(node.start());
        node.setFault(sim::FaultMode::Hang);
        HttpClient client;
        bool called = false;
        const quint64 id = client.send(get(node.baseUrl() + u"/health"_s), [&](const HttpResult &) { called = true; });
        QCOMPARE(client.pendingCount(), 1);
        client.cancel(id);
        QCOMPARE(client.pendingCount(), 0);
        // A request after it is answered; the cancelled one never is.
        node.setFault(sim::FaultMode::Healthy);
        const auto r = run(client, get(node.baseUrl() + u"/health"_s));
        QVERIFY(r.has_value() && r->hasValue());
        QVERIFY(!called);
    }
};

QTEST_GUILESS_MAIN(TestHttpClient)
#include "tst_httpclient.moc"
