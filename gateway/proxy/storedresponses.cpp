#include "proxy/storedresponses.h"

#include "common/clock.h"
#include "http/jsonmembers.h"
#include "proxy/dispatcher.h"
#include "proxy/keyadmission.h"
#include "proxy/responseidmemory.h"
#include "proxy/routehandlers.h"
#include "proxy/statusapi.h"

#include <QDateTime>
#include <cstring>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::proxy {

namespace {

constexpr QByteArrayView Prefix = "/v1/responses/";

struct StoredPath
{
    QByteArray id;
    QByteArray action; // "" or "cancel"
};

// /v1/responses/{id} or /v1/responses/{id}/cancel; nullopt for anything else under the prefix.
std::optional<StoredPath> parseStoredPath(QByteArrayView path)
{
    const QByteArrayView rest = path.sliced(Prefix.size());
    const qsizetype slash = rest.indexOf('/');
    StoredPath p;
    p.id = (slash < 0 ? rest : rest.first(slash)).toByteArray();
    if (slash >= 0)
        p.action = rest.sliced(slash + 1).toByteArray();
    if (p.id.isEmpty() || (!p.action.isEmpty() && p.action != "cancel"))
        return std::nullopt;
    return p;
}

// The first enabled key of the node: any of them reaches the same server.
int keyFor(const routing::Node &node)
{
    for (size_t i = 0; i < node.provider.keys.size(); ++i) {
        if (node.provider.keys[i].enabled)
            return int(i);
    }
    return node.authorization.empty() ? -1 : 0;
}

// previous_response_id as written, if the body has it as a string.
QByteArray previousResponseId(QByteArrayView body)
{
    QByteArray id;
    http::forEachJsonMember(body, [&](const http::JsonMember &m) {
        if (m.key != "previous_response_id")
            return true;
        const QByteArrayView v = body.sliced(m.value.begin, m.value.end - m.value.begin);
        id = v.size() >= 2 && v.front() == '"' && v.back() == '"' ? v.sliced(1, v.size() - 2).toByteArray()
                                                                  : QByteArray();
        return true; // a repeated key: the node reads the last one
    });
    return id;
}

} // namespace

ResponseIdMemory *responseIds(const ExchangeContext &context)
{
    return context.control ? context.control->responseIds.get() : nullptr;
}

void stickToPreviousResponse(QByteArrayView body, const ExchangeContext &context, Target &target)
{
    ResponseIdMemory *memory = responseIds(context);
    if (!memory || !body.contains("\"previous_response_id\""))
        return;
    const QByteArray id = previousResponseId(body);
    if (id.isEmpty())
        return;
    const std::optional<QString> node = memory->nodeFor(id, Clock::nowMs());
    if (!node)
        return;
    const int index = context.table->nodeIndex(*node);
    std::vector<routing::PoolEntry> &candidates = target.route.candidates;
    for (const routing::PoolEntry &e : candidates) {
        if (e.node == index) {
            candidates = {e}; // the other nodes do not have the response it continues
            return;
        }
    }
}

namespace handlers {

Dispatch storedResponse(const Route &, const http::Request &request, const ExchangeContext &context, ResponseSink *sink)
{
    if (context.control && context.control->runState && context.control->runState->isPaused())
        return answer(gatewayPausedResponse());
    const std::optional<StoredPath> stored = parseStoredPath(request.path);
    const bool cancel = stored && stored->action == "cancel";
    if (!stored || cancel != (request.method == "POST")) {
        return answer(errorResponse(404,
                                    u"Unknown path "_s % QString::fromLatin1(request.method) % u' ' %
                                        QString::fromLatin1(request.path) %
                                        u"; a stored response takes GET and DELETE /v1/responses/{id}"
                                        " and POST /v1/responses/{id}/cancel"_s,
                                    "not_found"));
    }
    ResponseIdMemory *memory = responseIds(context);
    const std::optional<QString> nodeName =
        memory ? memory->nodeFor(stored->id, Clock::nowMs()) : std::nullopt;
    const int index = nodeName ? context.table->nodeIndex(*nodeName) : -1;
    if (index < 0) {
        const QString why =
            nodeName
                ? QString(u"': the node '"_s % *nodeName % u"' that created it is no longer configured"_s)
                : QString(u"' passed through this gateway (it remembers the node of each response for "_s %
                          QString::number(ResponseIdMemory::DefaultMaxAgeMs / 3'600'000) % u" h, up to "_s %
                          QString::number(ResponseIdMemory::DefaultMaxEntries) % u" of them)"_s);
        return answer(errorResponse(404, u"No response with id '"_s % QString::fromUtf8(stored->id) % why,
                                    "response_not_found"));
    }
    const routing::Node &node = context.table->nodes()[size_t(index)];
    Target target;
    target.route.candidates = {routing::PoolEntry{index, keyFor(node)}};
    target.route.pinned = true;
    std::vector<Target> targets;
    targets.push_back(std::move(target));
    // The node is the one that created the response: a key that may not reach it may not read it either.
    std::optional<KeyHold> hold;
    if (auto refused = admitKey(context, {}, targets, hold))
        return answer(std::move(*refused));

    stats::RequestRecord record;
    record.startedMsSinceEpoch = QDateTime::currentMSecsSinceEpoch();
    record.method = request.method;
    record.path = request.path;
    // GET …?stream=true replays the response's events: a stream, with the stream's timeouts.
    const bool stream = request.method == "GET" && request.target.contains("stream=true");
    record.stream = stream;
    auto exchange = std::make_unique<ProxyExchange>(context, sink, request.target, http::BodyTemplate{},
                                                    std::move(targets), stream, std::move(record));
    exchange->setMethod(request.method);
    exchange->speak(ApiFamily::Responses);
    exchange->countNoUsage();
    if (hold)
        exchange->chargeTo(std::move(*hold));
    if (request.method == "DELETE")
        exchange->forgetOnSuccess(memory, stored->id);
    Dispatch d;
    d.exchange = std::move(exchange);
    return d;
}

} // namespace handlers

} // namespace switchyard::proxy
