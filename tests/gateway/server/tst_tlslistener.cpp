// The gateway serving HTTPS (switchyard.tls) with a self-signed certificate made at run time, and its
// clients' trust: refused without a pin (saying which certificate it was), accepted with the pin, for
// a plain and a streamed chat completion on one kept-alive connection. Also what a client that speaks
// plain HTTP to the port, or never finishes its handshake, gets; and the config's problems with the
// certificate files.
#include "chat/chatclient.h"
#include "common/testhttpclient.h"
#include "config/configdiff.h"
#include "config/configloader.h"
#include "gateway/gatewayfixture.h"
#include "link/gatewaystatus.h"
#include "upstream/pinnedcertificate.h"
#include "upstream/upstreamconnection.h"

#include <QProcess>
#include <QSslSocket>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>
#include <optional>

using namespace switchyard;
using namespace switchyard::testing;
using namespace Qt::StringLiterals;

namespace {

// Collects one response of an UpstreamConnection.
struct Collector final : upstream::UpstreamListener
{
    int status = 0;
    QByteArray body;
    bool finished = false;
    std::optional<upstream::UpstreamError> failure;

    void upstreamHead(const http::ResponseParser &response) override { status = response.status(); }
    void upstreamBody(QByteArrayView data) override { body.append(data.constData(), data.size()); }
    void upstreamFinished() override { finished = true; }
    void upstreamFailed(const upstream::UpstreamError &error) override { failure = error; }
    bool done() const { return finished || failure.has_value(); }
};

QByteArray chatRequest(const routing::Endpoint &e, bool stream)
{
    const QByteArray body = chatBody("m1", 8, stream);
    return "POST /v1/chat/completions HTTP/1.1\r\nHost: " + e.hostHeader +
           "\r\nContent-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" +
           body;
}

} // namespace

class TestTlsListener final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_cert, m_key, m_otherKey;
    QString m_rsaCert, m_rsaKey, m_otherRsaKey;
    QString m_opensslFingerprint; // as `openssl x509 -fingerprint -sha256` prints it
    std::unique_ptr<GatewayFixture> m_fx;

    bool openssl(const QStringList &args, QByteArray *out = nullptr)
    {
        QProcess p;
        p.start(u"openssl"_s, args);
        if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
            qWarning() << "openssl" << args << "failed:" << p.readAllStandardError();
            return false;
        }
        if (out)
            *out = p.readAllStandardOutput();
        return true;
    }

    QString path(const QString &name) const { return m_dir.filePath(name); }

    QByteArray configJson(const QString &cert, const QString &key, int handshakeTimeoutMs = 10000) const
    {
        nlohmann::json j = {
            {"providers",
             {{"n1",
               {{"keys", {{{"name", "k"}, {"value", "dummy"}, {"models", {"m1"}}, {"weight", 1}}}},
                {"network_config", {{"base_url", "http://127.0.0.1:9"}}},
                {"custom_provider_config", {{"base_provider_type", "openai"}}}}}}},
            {"switchyard",
             {{"tls",
               {{"cert_file", cert.toStdString()},
                {"key_file", key.toStdString()},
                {"handshake_timeout_ms", handshakeTimeoutMs}}}}}};
        return QByteArray::fromStdString(j.dump());
    }

    // The gateway's TLS settings as the config reader makes them from files.
    config::TlsSettings tlsSettings(int handshakeTimeoutMs)
    {
        const auto cfg = config::parseConfig(configJson(m_cert, m_key, handshakeTimeoutMs));
        if (!cfg) {
            qWarning() << "config refused:" << cfg.error().first().path << cfg.error().first().message;
            return {};
        }
        return cfg->settings.tls;
    }

    routing::Endpoint gatewayEndpoint(bool pinned) const
    {
        auto e = routing::parseEndpoint(u"https://127.0.0.1:"_s + QString::number(m_fx->port));
        if (pinned)
            e->pinnedSha256 = *upstream::parseFingerprint(m_opensslFingerprint);
        return *e;
    }

private slots:
    void initTestCase()
    {
        if (QStandardPaths::findExecutable(u"openssl"_s).isEmpty())
            QSKIP("the openssl command is not installed: it makes this test's self-signed certificate");
        if (!QSslSocket::supportsSsl())
            QSKIP("Qt has no TLS backend here (QSslSocket::supportsSsl() is false)");
        QVERIFY(m_dir.isValid());
        m_cert = path(u"cert.pem"_s);
        m_key = path(u"key.pem"_s);
        m_otherKey = path(u"other-key.pem"_s);
        QVERIFY(openssl({u"req"_s, u"-x509"_s, u"-newkey"_s, u"ec"_s, u"-pkeyopt"_s, u"ec_paramgen_curve:prime256v1"_s,
                         u"-nodes"_s, u"-keyout"_s, m_key, u"-out"_s, m_cert, u"-days"_s, u"2"_s, u"-subj"_s,
                         u"/CN=switchyard-test"_s, u"-addext"_s, u"subjectAltName=IP:127.0.0.1"_s}));
        QVERIFY(openssl({u"genpkey"_s, u"-algorithm"_s, u"EC"_s, u"-pkeyopt"_s, u"ec_paramgen_curve:P-256"_s,
                         u"-out"_s, m_otherKey}));
        m_rsaCert = path(u"rsa-cert.pem"_s);
        m_rsaKey = path(u"rsa-key.pem"_s);
        m_otherRsaKey = path(u"other-rsa-key.pem"_s);
        QVERIFY(openssl({u"req"_s, u"-x509"_s, u"-newkey"_s, u"rsa:2048"_s, u"-nodes"_s, u"-keyout"_s, m_rsaKey,
                         u"-out"_s, m_rsaCert, u"-days"_s, u"2"_s, u"-subj"_s, u"/CN=switchyard-rsa"_s}));
        QVERIFY(openssl({u"genrsa"_s, u"-traditional"_s, u"-out"_s, m_otherRsaKey, u"2048"_s}));
        QByteArray fp;
        QVERIFY(openssl({u"x509"_s, u"-in"_s, m_cert, u"-noout"_s, u"-fingerprint"_s, u"-sha256"_s}, &fp));
        m_opensslFingerprint = QString::fromLatin1(fp.mid(fp.indexOf('=') + 1).trimmed());
        QCOMPARE(m_opensslFingerprint.size(), 32 * 3 - 1);

        const config::TlsSettings tls = tlsSettings(300); // short, so the silent client's test is quick
        QVERIFY(tls.enabled());
        m_fx = std::make_unique<GatewayFixture>();
        QVERIFY(m_fx->start({u"n1"_s}, {}, {}, [&](config::GatewayConfig &c) { c.settings.tls = tls; }));
    }

    void cleanupTestCase()
    {
        m_fx.reset();
    }

    void theListenUrlIsHttps()
    {
        QCOMPARE(m_fx->gateway.listenUrl(), u"https://127.0.0.1:"_s + QString::number(m_fx->port));
    }

    void anUntrustedCertificateIsRefusedAndNamed()
    {
        upstream::UpstreamConnection c(gatewayEndpoint(false));
        Collector r;
        c.send(chatRequest(gatewayEndpoint(false), false), &r);
        QTRY_VERIFY_WITH_TIMEOUT(r.done(), 10000);
        QVERIFY(r.failure);
        QCOMPARE(r.failure->kind, upstream::UpstreamErrorKind::ConnectFailed);
        QCOMPARE(r.failure->untrusted.sha256, m_opensslFingerprint);
        QVERIFY2(r.failure->untrusted.subject.contains(u"CN=switchyard-test"_s), qPrintable(r.failure->untrusted.subject));
        QVERIFY2(r.failure->message.contains(m_opensslFingerprint), qPrintable(r.failure->message));
        QCOMPARE(r.status, 0); // nothing was sent: no request reached a node
    }

    void thePinnedCertificateServesChatOnOneKeptAliveConnection()
    {
        const routing::Endpoint e = gatewayEndpoint(true);
        upstream::UpstreamConnection c(e);
        Collector first;
        c.send(chatRequest(e, false), &first);
        QTRY_VERIFY_WITH_TIMEOUT(first.done(), 10000);
        QVERIFY2(!first.failure, first.failure ? qPrintable(first.failure->message) : "");
        QCOMPARE(first.status, 200);
        const auto j = nlohmann::json::parse(first.body.toStdString(), nullptr, false);
        QVERIFY2(j.is_object() && j.contains("choices"), first.body.constData());

        // Keep-alive: the second request goes on the same TLS connection, no second handshake.
        QVERIFY(c.isReusable());
        Collector second;
        c.send(chatRequest(e, true), &second);
        QTRY_VERIFY_WITH_TIMEOUT(second.done(), 10000);
        QVERIFY2(!second.failure, second.failure ? qPrintable(second.failure->message) : "");
        QCOMPARE(second.status, 200);
        QVERIFY(c.isReused());
        // Streamed: several events, then [DONE].
        QVERIFY2(second.body.count("data: ") > 2, second.body.constData());
        QVERIFY2(second.body.contains("data: [DONE]"), second.body.constData());
        QTRY_COMPARE_WITH_TIMEOUT(m_fx->gateway.stats().openConnections.load(), 1, 5000); // this one connection
    }

    void theChatConsoleClientTrustsThePinOnly()
    {
        const QUrl base(m_fx->gateway.listenUrl());
        client::ChatRequest req;
        req.baseUrl = base;
        req.model = u"m1"_s;
        req.maxTokens = 8;
        req.messages = nlohmann::ordered_json::array({{{"role", "user"}, {"content", "Hello"}}});

        client::ChatClient refused;
        std::optional<client::ChatOutcome> no;
        connect(&refused, &client::ChatClient::finished, this, [&](const client::ChatOutcome &o) { no = o; });
        QVERIFY(refused.send(req));
        QTRY_VERIFY_WITH_TIMEOUT(no.has_value(), 10000);
        QCOMPARE(no->end, client::ChatOutcome::End::Failed);
        QCOMPARE(no->untrusted.sha256, m_opensslFingerprint);
        QVERIFY2(no->error.contains(m_opensslFingerprint), qPrintable(no->error));

        client::ChatClient pinned;
        pinned.setPinnedSha256(*upstream::parseFingerprint(m_opensslFingerprint));
        std::optional<client::ChatOutcome> yes;
        QString text;
        connect(&pinned, &client::ChatClient::finished, this, [&](const client::ChatOutcome &o) { yes = o; });
        connect(&pinned, &client::ChatClient::contentReceived, this, [&](const QString &t) { text += t; });
        QVERIFY(pinned.send(req));
        QTRY_VERIFY_WITH_TIMEOUT(yes.has_value(), 10000);
        QVERIFY2(yes->end == client::ChatOutcome::End::Completed, qPrintable(yes->error));
        QVERIFY(yes->untrusted.isNull());
        QVERIFY(!text.isEmpty());
    }

    void plainHttpToTheTlsPortIsToldAndClosed()
    {
        TestClient plain(m_fx->port);
        QVERIFY(plain.isConnected());
        plain.send("GET", "/health");
        const TestResponse r = plain.read(5000);
        QCOMPARE(r.status, 400);
        QVERIFY2(r.body.contains("https://"), r.body.constData());
        QVERIFY(plain.waitForClose(5000));
    }

    void aClientThatNeverHandshakesIsDropped()
    {
        QTRY_COMPARE_WITH_TIMEOUT(m_fx->gateway.stats().openConnections.load(), 0, 10000);
        TestClient silent(m_fx->port);
        QVERIFY(silent.isConnected());
        QTRY_COMPARE_WITH_TIMEOUT(m_fx->gateway.stats().openConnections.load(), 1, 5000);
        // handshake_timeout_ms is 300 here; the sweep runs every 250 ms.
        QVERIFY(silent.waitForClose(5000));
        QTRY_COMPARE_WITH_TIMEOUT(m_fx->gateway.stats().openConnections.load(), 0, 5000);
    }

    void aClientThatStopsMidHandshakeIsDropped()
    {
        TestClient stalled(m_fx->port);
        stalled.sendRaw(QByteArray::fromHex("16030100")); // the start of a TLS record, then nothing
        QVERIFY(stalled.waitForClose(5000));
    }

    void theConfigNamesWhatIsWrongWithTheFiles_data()
    {
        QTest::addColumn<QString>("cert");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("words");
        QTest::newRow("missing key file") << m_cert << path(u"nope.pem"_s) << u"switchyard.tls.key_file"_s << u"no such file"_s;
        QTest::newRow("missing cert file") << path(u"nope.pem"_s) << m_key << u"switchyard.tls.cert_file"_s << u"no such file"_s;
        QTest::newRow("key of another certificate") << m_cert << m_otherKey << u"switchyard.tls.key_file"_s << u"not the key"_s;
        QTest::newRow("RSA key of another certificate") << m_rsaCert << m_otherRsaKey << u"switchyard.tls.key_file"_s << u"not the key"_s;
        QTest::newRow("EC key for an RSA certificate") << m_rsaCert << m_key << u"switchyard.tls.key_file"_s << u"not the key"_s;
        QTest::newRow("files swapped") << m_key << m_cert << u"switchyard.tls.cert_file"_s << u"private key"_s;
        QTest::newRow("relative path") << u"cert.pem"_s << m_key << u"switchyard.tls.cert_file"_s << u"absolute"_s;
        QTest::newRow("a directory") << m_dir.path() << m_key << u"switchyard.tls.cert_file"_s << u"directory"_s;
    }
    void theConfigNamesWhatIsWrongWithTheFiles()
    {
        QFETCH(QString, cert);
        QFETCH(QString, key);
        QFETCH(QString, field);
        QFETCH(QString, words);
        const auto cfg = config::parseConfig(configJson(cert, key));
        QVERIFY(!cfg);
        QString all;
        bool found = false;
        for (const config::ConfigProblem &p : cfg.error()) {
            all += p.path + u": "_s + p.message + u"\n"_s;
            found = found || (p.path == field && p.message.contains(words));
        }
        QVERIFY2(found, qPrintable(all));
    }

    void matchingPairsAreAccepted()
    {
        QVERIFY(config::parseConfig(configJson(m_cert, m_key)));
        const auto rsa = config::parseConfig(configJson(m_rsaCert, m_rsaKey));
        QVERIFY2(rsa, rsa ? "" : qPrintable(rsa.error().first().message));
    }

    void turningTlsOnKeepsThePortAndChangesTheScheme()
    {
        GatewayFixture fx;
        QVERIFY(fx.start({u"p1"_s}));
        QVERIFY(fx.gateway.listenUrl().startsWith(u"http://"_s));
        QCOMPARE(request(fx.port, "GET", "/v1/models").status, 200);

        config::GatewayConfig withTls = fx.gateway.config();
        withTls.settings.tls = tlsSettings(10000);
        const Gateway::ApplyResult applied = fx.gateway.applyConfig(withTls);
        QVERIFY(applied.changes.listenChanged);
        QVERIFY2(applied.listenError.isEmpty(), qPrintable(applied.listenError));
        QCOMPARE(fx.gateway.port(), fx.port);
        QCOMPARE(fx.gateway.listenUrl(), u"https://127.0.0.1:"_s + QString::number(fx.port));

        auto e = *routing::parseEndpoint(fx.gateway.listenUrl());
        e.pinnedSha256 = *upstream::parseFingerprint(m_opensslFingerprint);
        upstream::UpstreamConnection c(e);
        Collector r;
        c.send(chatRequest(e, false), &r);
        QTRY_VERIFY_WITH_TIMEOUT(r.done(), 10000);
        QVERIFY2(!r.failure, r.failure ? qPrintable(r.failure->message) : "");
        QCOMPARE(r.status, 200);

        config::GatewayConfig plain = fx.gateway.config();
        plain.settings.tls = {};
        fx.gateway.applyConfig(plain);
        QVERIFY(fx.gateway.listenUrl().startsWith(u"http://"_s));
        QCOMPARE(request(fx.port, "GET", "/v1/models").status, 200);
    }

    void theConfigShowsThePathsAndATlsChangeIsAListenChange()
    {
        const auto cfg = config::parseConfig(configJson(m_cert, m_key));
        QVERIFY(cfg);
        const nlohmann::json j = link::configToJson(*cfg, true);
        QCOMPARE(QString::fromStdString(j["switchyard"]["tls"]["cert_file"].get<std::string>()), m_cert);
        QCOMPARE(QString::fromStdString(j["switchyard"]["tls"]["key_file"].get<std::string>()), m_key);
        QVERIFY(!QByteArray::fromStdString(j.dump()).contains("BEGIN")); // paths, never the key itself
        // What configToJson writes reads back as the same config.
        const auto again = config::parseConfig(QByteArray::fromStdString(j.dump()));
        QVERIFY(again);
        QVERIFY(!config::diffConfigs(*cfg, *again).listenChanged);

        config::GatewayConfig plain = *cfg;
        plain.settings.tls = {};
        QVERIFY(config::diffConfigs(plain, *cfg).listenChanged);
        QVERIFY(config::diffConfigs(*cfg, plain).listenChanged);
    }
};

QTEST_GUILESS_MAIN(TestTlsListener)
#include "tst_tlslistener.moc"
