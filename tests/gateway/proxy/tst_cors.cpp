// CORS: off unless origins are listed; a listed origin gets the headers a browser needs to read the
// answer, any other origin nothing; a preflight is answered by the gateway itself.

#include "http/httptypes.h"
#include "proxy/cors.h"

#include <QTest>

using namespace switchyard;

namespace {

http::Request request(const QByteArray &method, const QByteArray &origin)
{
    http::Request r;
    r.method = method;
    r.path = r.target = "/v1/chat/completions";
    if (origin.isNull())
        http::setHeaders(r, {{"access-control-request-method", "POST"}});
    else
        http::setHeaders(r, {{"origin", origin}, {"access-control-request-method", "POST"}});
    return r;
}

config::GatewaySettings withOrigins(const QStringList &origins)
{
    config::GatewaySettings s;
    s.corsOrigins = origins;
    return s;
}

} // namespace

class TestCors final : public QObject
{
    Q_OBJECT

private slots:
    void offUnlessConfigured()
    {
        const config::GatewaySettings off;
        QVERIFY(proxy::corsHeaders(request("POST", "https://chat.example"), off).isEmpty());
        const auto preflight = proxy::corsPreflight(request("OPTIONS", "https://chat.example"), off);
        QVERIFY(preflight);
        QCOMPARE(preflight->status, 405);
        QVERIFY(preflight->body.contains("cors_origins"));
    }

    void listedOriginOnly()
    {
        const auto s = withOrigins({QStringLiteral("https://chat.example")});
        const QByteArray h = proxy::corsHeaders(request("POST", "https://CHAT.example"), s);
        QVERIFY(h.contains("Access-Control-Allow-Origin: https://CHAT.example\r\n"));
        QVERIFY(h.contains("Vary: Origin\r\n"));
        QVERIFY(h.contains("X-Switchyard-Node"));
        QVERIFY(proxy::corsHeaders(request("POST", "https://other.example"), s).isEmpty());
        QVERIFY(proxy::corsHeaders(request("POST", QByteArray()), s).isEmpty());

        auto preflight = proxy::corsPreflight(request("OPTIONS", "https://chat.example"), s);
        QVERIFY(preflight);
        QCOMPARE(preflight->status, 204);
        QVERIFY(preflight->headerLines.contains("Access-Control-Allow-Methods: GET, POST, PUT, OPTIONS"));
        QVERIFY(preflight->headerLines.contains("Authorization"));
        preflight = proxy::corsPreflight(request("OPTIONS", "https://other.example"), s);
        QCOMPARE(preflight->status, 403);
        QVERIFY(preflight->body.contains("cors_origin_not_allowed"));
    }

    void anyOriginWithStar()
    {
        const auto s = withOrigins({QStringLiteral("*")});
        QVERIFY(proxy::corsHeaders(request("GET", "http://localhost:3000"), s)
                    .contains("Access-Control-Allow-Origin: http://localhost:3000\r\n"));
    }

    void originThatWouldBreakTheHeadersIsRefused()
    {
        const auto s = withOrigins({QStringLiteral("*")});
        QVERIFY(proxy::corsHeaders(request("GET", "https://a.example\r\nSet-Cookie: x=1"), s).isEmpty());
    }

    void notAPreflight()
    {
        const auto s = withOrigins({QStringLiteral("*")});
        QVERIFY(!proxy::corsPreflight(request("POST", "https://chat.example"), s));
        QVERIFY(!proxy::corsPreflight(request("GET", "https://chat.example"), s));
    }
};

QTEST_GUILESS_MAIN(TestCors)
#include "tst_cors.moc"
