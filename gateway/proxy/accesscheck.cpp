#include "proxy/accesscheck.h"

#include "proxy/dispatcher.h"

using namespace Qt::Literals::StringLiterals;

namespace switchyard::proxy {

namespace {

// RetiredKey: a virtual key that was revoked or has expired. Its holder is told so, whatever else is open.
enum class Caller { NoKey, WrongKey, RetiredKey, Client, Admin };

// What the keys configured and made say about a request.
struct Keys
{
    const config::GatewaySettings &settings;
    const keys::KeySet *virtualKeys = nullptr;
    qint64 nowMs = 0;

    bool anyClientKey() const
    {
        return !settings.apiKeys.isEmpty() || (virtualKeys && virtualKeys->anyActive(nowMs));
    }
    bool anyKey() const { return anyClientKey() || !settings.adminKeys.isEmpty(); }
};

// Which kind of key the request carries. Every configured key is compared, whatever matched before,
// so the time taken says nothing about which keys exist.
// Anthropic's clients send their key as x-api-key: it is taken like a bearer token when there is no
// Authorization header.
Caller identify(const http::Request &request, const Keys &k, std::shared_ptr<const keys::KeyEntry> *virtualKey,
                QString *retiredKeyId)
{
    const config::GatewaySettings &settings = k.settings;
    QByteArrayView auth = request.header("authorization");
    if (auth.isEmpty()) {
        auth = request.header("x-api-key").trimmed();
        if (auth.isEmpty())
            return Caller::NoKey;
    } else if (!auth.startsWith("Bearer ") && !auth.startsWith("bearer ")) {
        return Caller::WrongKey;
    } else {
        auth = auth.sliced(7).trimmed();
    }
    bool admin = false;
    bool client = false;
    for (const QString &key : settings.adminKeys)
        admin |= constantTimeEquals(auth, key.toUtf8());
    for (const QString &key : settings.apiKeys)
        client |= constantTimeEquals(auth, key.toUtf8());
    if (admin || client)
        return admin ? Caller::Admin : Caller::Client;
    // A virtual key is found by the SHA-256 of what was sent: the time taken depends on that hash, not on
    // how much of any secret matched.
    if (k.virtualKeys && virtualKey) {
        if (auto entry = k.virtualKeys->find(auth)) {
            if (!entry->key.isActive(k.nowMs)) {
                *retiredKeyId = entry->key.id;
                return Caller::RetiredKey;
            }
            *virtualKey = std::move(entry);
            return Caller::Client;
        }
    }
    return Caller::WrongKey;
}

LocalResponse missingKey()
{
    return errorResponse(401, u"Missing or invalid API key: send Authorization: Bearer <key> (or x-api-key: <key>)"_s,
                         "invalid_api_key");
}

// The key's holder had the secret, so naming the key tells nothing to anyone who did not.
LocalResponse retiredKey(const QString &id)
{
    return errorResponse(401, u"The key %1 was revoked or has expired: ask the gateway's operator for a new one"_s.arg(id),
                         "invalid_api_key");
}

std::optional<LocalResponse> clientRefusal(Caller caller, const QString &retiredKeyId, const Keys &k)
{
    if (caller == Caller::RetiredKey)
        return retiredKey(retiredKeyId);
    // No keys at all: the OpenAI endpoints are open (beyond loopback only when the operator said so).
    if (!k.anyKey())
        return std::nullopt;
    if (caller == Caller::Client || caller == Caller::Admin)
        return std::nullopt;
    return missingKey();
}

std::optional<LocalResponse> managementRefusal(Caller caller, const QString &retiredKeyId,
                                               const http::Request &request, const Keys &k)
{
    const config::GatewaySettings &settings = k.settings;
    if (caller == Caller::RetiredKey)
        return retiredKey(retiredKeyId);
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
    // Loopback with no keys configured: the operator on this machine, as before roles existed (virtual
    // keys do not count here: they open nothing of the management API).
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

namespace {

AccessVerdict check(Access access, const http::Request &request, const Keys &k)
{
    AccessVerdict v;
    QString retired;
    switch (access) {
    case Access::Public:
        return v;
    case Access::Client:
        v.refusal = clientRefusal(identify(request, k, &v.key, &retired), retired, k);
        break;
    case Access::Management:
        v.refusal = managementRefusal(identify(request, k, &v.key, &retired), retired, request, k);
        break;
    }
    if (v.refusal)
        v.key.reset();
    return v;
}

} // namespace

std::optional<LocalResponse> accessRefusal(Access access, const http::Request &request,
                                           const config::GatewaySettings &settings)
{
    return check(access, request, Keys{settings}).refusal;
}

std::optional<LocalResponse> accessRefusal(const Route &route, const http::Request &request,
                                           const config::GatewaySettings &settings)
{
    return checkAccess(route, request, settings, nullptr, 0).refusal;
}

AccessVerdict checkAccess(const Route &route, const http::Request &request, const config::GatewaySettings &settings,
                          const keys::KeySet *keys, qint64 nowMs)
{
    // A trusted Prometheus scrapes without a key when the operator opened /metrics explicitly.
    if (settings.metricsWithoutKey && route.path == "/metrics")
        return {};
    return check(route.access, request, Keys{settings, keys, nowMs});
}

} // namespace switchyard::proxy
