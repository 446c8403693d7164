#include "proxy/cors.h"

#include "proxy/dispatcher.h"

using namespace Qt::Literals::StringLiterals;

namespace switchyard::proxy {

namespace {

bool originAllowed(QByteArrayView origin, const config::GatewaySettings &settings)
{
    if (origin.isEmpty())
        return false;
    for (const QString &allowed : settings.corsOrigins) {
        if (allowed == u"*"_s || allowed.toUtf8().compare(origin.toByteArray(), Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}

// The origin goes back verbatim into a header: refuse anything that could break the header block.
bool safeHeaderValue(QByteArrayView v)
{
    for (char c : v) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            return false;
    }
    return true;
}

} // namespace

QByteArray corsHeaders(const http::Request &request, const config::GatewaySettings &settings)
{
    if (settings.corsOrigins.isEmpty())
        return {};
    const QByteArrayView origin = request.header("origin");
    if (!originAllowed(origin, settings) || !safeHeaderValue(origin))
        return {};
    return "Access-Control-Allow-Origin: " + origin.toByteArray() +
           "\r\nVary: Origin\r\nAccess-Control-Expose-Headers: X-Switchyard-Node, X-Switchyard-Attempts, "
           "X-Request-Id\r\n";
}

std::optional<LocalResponse> corsPreflight(const http::Request &request,
                                           const config::GatewaySettings &settings)
{
    if (request.method != "OPTIONS")
        return std::nullopt;
    if (settings.corsOrigins.isEmpty())
        return errorResponse(405,
                             u"CORS is off: list the browser origins allowed to call the gateway in "
                             "switchyard.cors_origins"_s,
                             "cors_disabled");
    if (!originAllowed(request.header("origin"), settings))
        return errorResponse(403, u"This origin is not in switchyard.cors_origins"_s,
                             "cors_origin_not_allowed");
    LocalResponse r;
    r.status = 204;
    r.headerLines = "Access-Control-Allow-Methods: GET, POST, PUT, OPTIONS\r\n"
                    "Access-Control-Allow-Headers: Authorization, Content-Type, X-Request-Id\r\n"
                    "Access-Control-Max-Age: 600\r\n";
    return r;
}

} // namespace switchyard::proxy
