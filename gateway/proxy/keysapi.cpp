#include "proxy/keysapi.h"

#include "keys/keyjson.h"
#include "keys/keyregistry.h"
#include "proxy/dispatcher.h"

using namespace Qt::Literals::StringLiterals;

namespace switchyard::proxy::handlers {

namespace {

Dispatch json(int status, const nlohmann::ordered_json &body)
{
    // No cache may keep an answer that may hold a secret.
    return answer({status, "Content-Type: application/json\r\nCache-Control: no-store\r\n",
                   QByteArray::fromStdString(body.dump()) + '\n'});
}

keys::KeyRegistry *registryOf(const ExchangeContext &context)
{
    return context.control ? context.control->keys.get() : nullptr;
}

Dispatch noRegistry()
{
    return answer(errorResponse(503, u"This gateway keeps no virtual keys"_s, "keys_unavailable"));
}

Dispatch badBody(const keys::KeyJsonError &e)
{
    return answer(errorResponse(400, e.message, "invalid_request_error", e.param));
}

Dispatch notFound(const QString &id)
{
    return answer(errorResponse(404, u"No virtual key with id '"_s % id % u"'"_s, "key_not_found"));
}

} // namespace

Dispatch keyList(const Route &, const http::Request &request, const ExchangeContext &context, ResponseSink *)
{
    keys::KeyRegistry *registry = registryOf(context);
    if (!registry)
        return noRegistry();
    const qint64 now = registry->nowMs();
    if (request.method == "GET") {
        nlohmann::ordered_json list = nlohmann::ordered_json::array();
        for (const keys::KeyRegistry::Listed &k : registry->list())
            list.push_back(keys::keyToJson(k.key, &k.usage, now));
        return json(200, {{"object", "list"}, {"data", list}});
    }
    const auto change = keys::parseKeyChange(request.body, true);
    if (!change)
        return badBody(change.error());
    const auto made = registry->create(*change);
    if (!made) {
        return answer(errorResponse(409, u"There are %1 keys already (revoked ones included): revoked keys are kept for "
                                         "their history"_s.arg(keys::KeyRegistry::MaxKeys),
                                    "too_many_keys"));
    }
    nlohmann::ordered_json out = keys::keyToJson(made->key, nullptr, now);
    out["secret"] = made->secret.toStdString(); // shown this once; the gateway keeps only its hash
    return json(201, out);
}

Dispatch keyItem(const Route &, const http::Request &request, const ExchangeContext &context, ResponseSink *)
{
    keys::KeyRegistry *registry = registryOf(context);
    if (!registry)
        return noRegistry();
    const QString id = QString::fromUtf8(request.path.sliced(qsizetype(sizeof("/api/keys/") - 1)));
    if (id.isEmpty() || id.contains(u'/'))
        return notFound(id);
    const qint64 now = registry->nowMs();
    if (request.method == "GET") {
        const auto k = registry->get(id);
        return k ? json(200, keys::keyToJson(k->key, &k->usage, now)) : notFound(id);
    }
    if (request.method == "DELETE") {
        const auto k = registry->revoke(id);
        return k ? json(200, keys::keyToJson(*k, nullptr, now)) : notFound(id);
    }
    const auto change = keys::parseKeyChange(request.body, false);
    if (!change)
        return badBody(change.error());
    const auto k = registry->update(id, *change);
    if (!k && k.error() == keys::KeyRegistry::Error::Revoked)
        return answer(errorResponse(409, u"The key '"_s % id % u"' is revoked; make a new one"_s, "key_revoked"));
    return k ? json(200, keys::keyToJson(*k, nullptr, now)) : notFound(id);
}

} // namespace switchyard::proxy::handlers
