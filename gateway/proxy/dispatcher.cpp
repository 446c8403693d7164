#include "dispatcher.h"

#include "proxy/accesscheck.h"
#include "proxy/anthropicerror.h"
#include "proxy/apifamily.h"
#include "proxy/cors.h"
#include "proxy/openaierror.h"

using namespace Qt::Literals::StringLiterals;

namespace switchyard::proxy {

namespace {

LocalResponse methodNotAllowed(const http::Request &request, const Route &route)
{
    const QByteArray allowed = allowedMethods(route);
    LocalResponse r = errorResponse(405, u"Method "_s % QString::fromLatin1(request.method) % u" is not allowed on "_s
                                             % QString::fromLatin1(request.path) % u"; use "_s
                                             % QString::fromLatin1(allowed),
                                    "method_not_allowed");
    r.headerLines += "Allow: " + allowed + "\r\n";
    return r;
}

} // namespace

LocalResponse errorResponse(int status, const QString &message, const QByteArray &code, const QByteArray &param)
{
    return {status, "Content-Type: application/json\r\n", openAiErrorBody(status, message, code, param)};
}

namespace {

Dispatch dispatchAny(const http::Request &request, const ExchangeContext &context, ResponseSink *sink)
{
    const config::GatewaySettings &settings = context.table->config().settings;
    if (auto preflight = corsPreflight(request, settings))
        return answer(std::move(*preflight));

    const Route *route = findRoute(request.path);
    if (!route) {
        return answer(errorResponse(404, u"Unknown path "_s % QString::fromLatin1(request.path)
                                             % u"; the gateway serves "_s % servedEndpoints(),
                                    "not_found"));
    }
    const bool methodAllowed = (route->methods & methodFromName(request.method)) != 0;
    const keys::KeyRegistry *registry = context.control ? context.control->keys.get() : nullptr;
    const std::shared_ptr<const keys::KeySet> virtualKeys = registry ? registry->snapshot() : nullptr;
    const qint64 nowMs = registry && !virtualKeys->isEmpty() ? registry->nowMs() : 0;
    const auto check = [&] { return checkAccess(*route, request, settings, virtualKeys.get(), nowMs); };
    // The management API checks the caller first, so it does not describe itself to callers who may
    // not use it; the OpenAI endpoints answer a wrong method before asking for a key, as OpenAI does.
    if (route->access == Access::Management) {
        if (auto verdict = check(); verdict.refusal)
            return answer(std::move(*verdict.refusal));
    }
    if (!route->handler)
        return answer(errorResponse(404, u"Unknown path "_s % QString::fromLatin1(request.path), "not_found"));
    if (!methodAllowed)
        return answer(methodNotAllowed(request, *route));
    if (route->access != Access::Management) {
        AccessVerdict verdict = check();
        if (verdict.refusal)
            return answer(std::move(*verdict.refusal));
        if (verdict.key) {
            // The handler sees which virtual key came, for its models, providers and limits.
            ExchangeContext withKey = context;
            withKey.key = std::move(verdict.key);
            return route->handler(*route, request, withKey, sink);
        }
    }
    return route->handler(*route, request, context, sink);
}

} // namespace

Dispatch dispatchRequest(const http::Request &request, const ExchangeContext &context, ResponseSink *sink)
{
    Dispatch d = dispatchAny(request, context, sink);
    // Anthropic's clients read errors in Anthropic's shape on the Messages API, whatever refused them.
    if (d.local && apiFamilyForPath(request.path) == ApiFamily::Messages)
        d.local = toAnthropicShape(std::move(*d.local));
    return d;
}

} // namespace switchyard::proxy
