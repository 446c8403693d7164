#include "proxy/accesscheck.h"

#include "proxy/dispatcher.h"

using namespace Qt::Literals::StringLiterals;

namespace switchyard::proxy {

namespace {

enum class Caller { NoKey, WrongKey, Client, Admin };

// Which kind of key the request carries. Every configured key is compared, whatever matched before,
// so the time taken says nothing about which keys exist.
Caller identify(const http::Request &request, const config::GatewaySettings &settings)
{
    QByteArrayView auth = request.header("authorization");
    if (auth.isEmpty())
        return Caller::NoKey;
    if (!auth.startsWith("Bearer ") && !auth.startsWith("bearer "))
        return Caller::WrongKey;
    auth = auth.sliced(7).trimmed();
    bool admin = false;
    bool client = false;
    for (const QString &key : settings.adminKeys)
        admin |= constantTimeEquals(auth, key.toUtf8());
    for (const QString &key : settings.apiKeys)
        client |= constantTimeEquals(auth, key.toUtf8());
    return admin ? Caller::Admin : client ? Caller::Client : Caller::WrongKey;
}

LocalResponse missingKey()
{
    return errorResponse(401, u"Missing or invalid API key: send Authorization: Bearer <key>"_s, "invalid_api_key");
}

std::optional<LocalResponse> clientRefusal(Caller caller, const config::GatewaySettings &settings)
{
    // No keys at all: the OpenAI endpoints are open (beyond loopback only when the operator said so).
    if (settings.apiKeys.isEmpty() && settings.adminKeys.isEmpty())
        return std::nullopt;
    if (caller == Caller::Client || caller == Caller::Admin)
        return std::nullopt;
    return missingKey();
}

std::optional<LocalResponse> managementRefusal(Caller caller, const http::Request &request,
                                               const config::GatewaySettings &settings)
{
    if (caller == Caller::Admin)
        return std::nullopt;
    // A client key is known and valid, so saying it may not do this tells its holder nothing new.
    if (caller == Caller::Client) {
        return errorResponse(403, u"This key may use the OpenAI endpoints only: the management API and /metrics "
                                  "need a key from switchyard.admin_keys"_s, "forbidden");
    }
    if (settings.adminKeys.isEmpty() && !request.fromLoopback) {
        return errorResponse(403, u"The management API answers loopback clients only unless "
                                  "switchyard.admin_keys is set"_s, "forbidden");
    }
    // Loopback with no keys configured: the operator on this machine, as before roles existed.
    if (settings.apiKeys.isEmpty() && settings.adminKeys.isEmpty())
        return std::nullopt;
    return missingKey();
}

} // namespace

bool constantTimeEquals(QByteArrayView a, QByteArrayView b)
{
    unsigned char diff = a.size() == b.size() ? 0 : 1;
    const qsizetype n = std::max(a.size(), b.size());
    for (qsizetype i = 0; i < n; ++i) {
        const unsigned char x = i < a.size() ? static_cast<unsigned char>(a[i]) : 0;
        const unsigned char y = i < b.size() ? static_cast<unsigned char>(b[i]) : 0;
        diff |= static_cast<unsigned char>(x ^ y);
    }
    return diff == 0;
}

std::optional<LocalResponse> accessRefusal(Access access, const http::Request &request,
                                           const config::GatewaySettings &settings)
{
    switch (access) {
    case Access::Public:
        return std::nullopt;
    case Access::Client:
        return clientRefusal(identify(request, settings), settings);
    case Access::Management:
        return managementRefusal(identify(request, settings), request, settings);
    }
    return missingKey();
}

std::optional<LocalResponse> accessRefusal(const Route &route, const http::Request &request,
                                           const config::GatewaySettings &settings)
{
    // A trusted Prometheus scrapes without a key when the operator opened /metrics explicitly.
    if (settings.metricsWithoutKey && route.path == "/metrics")
        return std::nullopt;
    return accessRefusal(route.access, request, settings);
}

} // namespace switchyard::proxy
