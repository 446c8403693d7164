#include "proxy/accesscheck.h"

#include "proxy/dispatcher.h"

using namespace Qt::Literals::StringLiterals;

namespace switchyard::proxy {

namespace {

bool authorised(const http::Request &request, const config::GatewaySettings &settings)
{
    if (settings.apiKeys.isEmpty())
        return true;
    QByteArrayView auth = request.header("authorization");
    if (!auth.startsWith("Bearer ") && !auth.startsWith("bearer "))
        return false;
    auth = auth.sliced(7).trimmed();
    bool ok = false;
    for (const QString &key : settings.apiKeys)
        ok |= constantTimeEquals(auth, key.toUtf8());
    return ok;
}

LocalResponse missingKey()
{
    return errorResponse(401, u"Missing or invalid API key: send Authorization: Bearer <key>"_s, "invalid_api_key");
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
        if (!authorised(request, settings))
            return missingKey();
        return std::nullopt;
    case Access::Management:
        // Loopback clients, or any client with a gateway API key when keys are set.
        if (settings.apiKeys.isEmpty() && !request.fromLoopback) {
            return errorResponse(403, u"The management API answers loopback clients only unless "
                                      "switchyard.api_keys is set"_s, "forbidden");
        }
        if (!authorised(request, settings))
            return missingKey();
        return std::nullopt;
    }
    return missingKey();
}

} // namespace switchyard::proxy
