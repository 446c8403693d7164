// The panel's HTTP client (client/http/httpclient) against a real gateway and simulated nodes on
// loopback: answers with status, headers and body, keep-alive, PUT with a body, and every bound a remote
// gateway needs: a node that hangs times out, a body over the cap is refused, nothing listening is
// "refused", a few connections per host and the rest queued, a kept-alive connection the server closed is
// replaced without the caller noticing.

#include "common/testhttpclient.h"
#include "config/configloader.h"
#include "gateway/gatewayfixture.h"
#include "http/httpclient.h"
#include "upstream/pinnedcertificate.h"

#include <QProcess>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
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

// openssl's output (or "ok" when it printed nothing); empty when it failed.
QByteArray openssl(const QStringList &args)
{
    QProcess p;
    p.start(u"openssl"_s, args);
    if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        qWarning() << "openssl" << args << "failed:" << p.readAllStandardError();
        return {};
    }
    const QByteArray out = p.readAllStandardOutput();
    return out.isEmpty() ? QByteArray("ok") : out;
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

    void aStreamArrivesInPiecesAsItIsSent()
    {
        // A chat stream at 20 tokens/s: the head comes first, then pieces while the node still
        // generates (not all at the end), and the result's body stays empty: the receiver kept them.
        sim::SimNodeOptions o = fastNodeOptions(u"s"_s);
        o.performance.tokensPerSecond = 20;
        sim::SimNode node(o);
        QVERIFY(node.start());
        HttpClient client;
        HttpRequest r = get(node.baseUrl() + u"/v1/chat/completions"_s);
        r.method = "POST";
        r.addHeader("Content-Type", "application/json");
        r.body = R"({"model":"m1","stream":true,"max_tokens":10,"ignore_eos":true,"messages":[{"role":"user","content":"hi"}]})";
        r.timeoutMs = 0;
        r.idleTimeoutMs = 5000;
        r.maxResponseBytes = 16; // does not apply to a stream: its receiver bounds what it keeps
        int status = 0, pieces = 0, piecesWhileRunning = 0;
        QByteArray received;
        r.onHead = [&](const HttpResponse &head) { status = head.status; };
        r.onBody = [&](QByteArrayView piece) {
            ++pieces;
            received += piece;
            if (node.counters().running > 0)
                ++piecesWhileRunning;
        };
        const auto result = run(client, r);
        QVERIFY(result.has_value());
        QVERIFY2(result->hasValue(), qPrintable(result->hasValue() ? QString() : result->error().message));
        QCOMPARE(status, 200);
        QVERIFY((*result)->body.isEmpty());
        QVERIFY(received.endsWith("data: [DONE]\n\n"));
        QVERIFY2(piecesWhileRunning >= 3, qPrintable(QString::number(piecesWhileRunning)));
        QVERIFY(pieces > 1);
    }

    void aStreamThatFallsSilentTimesOut()
    {
        // No limit on the whole exchange (a reply may stream for minutes), but one on the silence.
        sim::SimNode node(fastNodeOptions(u"h"_s));
        QVERIFY(node.start());
        node.setFault(sim::FaultMode::Hang);
        HttpClient client;
        HttpRequest r = get(node.baseUrl() + u"/health"_s);
        r.timeoutMs = 0;
        r.idleTimeoutMs = 300;
        r.onBody = [](QByteArrayView) {};
        const auto result = run(client, r);
        QVERIFY(result.has_value() && !result->hasValue());
        QCOMPARE(result->error().kind, HttpErrorKind::Timeout);
        QVERIFY2(result->error().message.contains(u"sent nothing for 300 ms"_s), qPrintable(result->error().message));
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
        QVERIFY2(result->error().kind == HttpErrorKind::ConnectFailed, qPrintable(result->error().message));
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
        // The node refuses the handshake's first bytes as no HTTP: a connect failure that says TLS, at
        // once rather than after the connect timeout.
        QVERIFY2(result->error().kind == HttpErrorKind::ConnectFailed, qPrintable(result->error().message));
        QVERIFY2(result->error().message.contains(u"TLS handshake failed"_s), qPrintable(result->error().message));
        QVERIFY(result->error().message.contains(HttpClient::hostKeyOf(QUrl(url))));
    }

    // A gateway serving HTTPS with a self-signed certificate made here: refused and named as openssl names
    // it, answered with its pin, refused with another certificate's pin.
    void aSelfSignedCertificateIsRefusedUnlessPinned()
    {
        if (QStandardPaths::findExecutable(u"openssl"_s).isEmpty())
            QSKIP("the openssl command is not installed: it makes this test's self-signed certificate");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString cert = dir.filePath(u"cert.pem"_s), key = dir.filePath(u"key.pem"_s);
        QVERIFY(!openssl({u"req"_s, u"-x509"_s, u"-newkey"_s, u"ec"_s, u"-pkeyopt"_s, u"ec_paramgen_curve:prime256v1"_s,
                          u"-nodes"_s, u"-keyout"_s, key, u"-out"_s, cert, u"-days"_s, u"2"_s, u"-subj"_s,
                          u"/CN=switchyard-client-test"_s})
                     .isEmpty());
        const QByteArray printed = openssl({u"x509"_s, u"-in"_s, cert, u"-noout"_s, u"-fingerprint"_s, u"-sha256"_s});
        const QString fingerprint = QString::fromLatin1(printed.mid(printed.indexOf('=') + 1).trimmed());
        QCOMPARE(fingerprint.size(), 32 * 3 - 1);
        const nlohmann::json doc = {
            {"providers",
             {{"n1",
               {{"keys", {{{"name", "k"}, {"value", "dummy"}, {"models", {"m1"}}, {"weight", 1}}}},
                {"network_config", {{"base_url", "http://127.0.0.1:9"}}},
                {"custom_provider_config", {{"base_provider_type", "openai"}}}}}}},
            {"switchyard", {{"tls", {{"cert_file", cert.toStdString()}, {"key_file", key.toStdString()}}}}}};
        const auto parsed = config::parseConfig(QByteArray::fromStdString(doc.dump()));
        QVERIFY(parsed.hasValue());
        const config::TlsSettings tls = parsed->settings.tls;
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s}, {}, {}, [&](config::GatewayConfig &c) { c.settings.tls = tls; }));
        const QString url = u"https://127.0.0.1:%1/v1/models"_s.arg(f.port);
        HttpClient client;

        const auto refused = run(client, get(url));
        QVERIFY(refused.has_value());
        QVERIFY(!refused->hasValue());
        QCOMPARE(refused->error().kind, HttpErrorKind::Untrusted);
        QCOMPARE(refused->error().untrusted.sha256, fingerprint);
        QVERIFY2(refused->error().untrusted.subject.contains(u"CN=switchyard-client-test"_s),
                 qPrintable(refused->error().untrusted.subject));
        QVERIFY2(refused->error().message.contains(fingerprint), qPrintable(refused->error().message));

        HttpRequest pinned = get(url);
        pinned.pinnedSha256 = *upstream::parseFingerprint(fingerprint);
        const auto answered = run(client, pinned);
        QVERIFY(answered.has_value());
        QVERIFY2(answered->hasValue(), qPrintable(answered->hasValue() ? QString() : answered->error().message));
        QCOMPARE((*answered)->status, 200);
        QVERIFY((*answered)->body.contains("\"m1\""));

        // The pinned connection kept alive is not lent to a request without the pin (or with another).
        const auto again = run(client, get(url));
        QVERIFY(again.has_value() && !again->hasValue());
        QCOMPARE(again->error().kind, HttpErrorKind::Untrusted);
        HttpRequest wrong = get(url);
        wrong.pinnedSha256 = QByteArray(32, '\x5a');
        const auto refusedAgain = run(client, wrong);
        QVERIFY(refusedAgain.has_value() && !refusedAgain->hasValue());
        QCOMPARE(refusedAgain->error().kind, HttpErrorKind::Untrusted);
        QCOMPARE(refusedAgain->error().untrusted.sha256, fingerprint);
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
