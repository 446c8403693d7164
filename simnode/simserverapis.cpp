// The simulated node's Responses and Messages APIs, the parts besides generation: turning a request
// into a generation with its writer, the stored responses, and count_tokens. Faults apply as to every
// inference request.

#include "simmessagesapi.h"
#include "simresponsesapi.h"
#include "simserver.h"

#include <QDateTime>

namespace switchyard::sim {

Expected<std::pair<GenerationRequest, std::shared_ptr<ApiWriter>>, ApiError>
SimServer::parseApiRequest(const http::Request &r, Endpoint endpoint, const std::string &id)
{
    if (endpoint == Endpoint::Messages) {
        auto parsed = parseMessagesRequest(r.body, m_options.models, m_options.maxModelLen);
        if (!parsed)
            return unexpected(parsed.error());
        auto writer = std::make_shared<MessagesWriter>(id, parsed->model);
        return std::pair(std::move(*parsed), std::shared_ptr<ApiWriter>(std::move(writer)));
    }
    auto parsed = parseResponsesRequest(r.body, m_options.models, m_options.maxModelLen);
    if (!parsed)
        return unexpected(parsed.error());
    // vLLM continues only a response it has stored itself.
    if (!parsed->previousResponseId.empty() && !m_responses.contains(parsed->previousResponseId))
        return unexpected(responseNotFound(parsed->previousResponseId));
    GenerationRequest g = parsed->generation;
    auto writer =
        std::make_shared<ResponsesWriter>(id, QDateTime::currentSecsSinceEpoch(), std::move(*parsed));
    return std::pair(std::move(g), std::shared_ptr<ApiWriter>(std::move(writer)));
}

void SimServer::handleStoredResponse(SimConnection &c, const http::Request &r)
{
    // /v1/responses/{id} (GET, DELETE) or /v1/responses/{id}/cancel (POST).
    const QByteArray rest = r.path.sliced(qsizetype(sizeof("/v1/responses/") - 1));
    const qsizetype slash = rest.indexOf('/');
    const std::string id = (slash < 0 ? rest : rest.first(slash)).toStdString();
    const QByteArray action = slash < 0 ? QByteArray() : rest.sliced(slash + 1);
    const bool cancel = action == "cancel";
    if (id.empty() || (!action.isEmpty() && !cancel)) {
        respondJson(c, r, 404, errorBody({404, "Not Found", "Not Found"}));
        return;
    }
    const QByteArray method = cancel ? "POST" : r.method;
    if ((cancel && r.method != "POST") || (!cancel && r.method != "GET" && r.method != "DELETE")) {
        respondJson(c, r, 405, errorBody({405, "Method Not Allowed", "Method Not Allowed"}),
                    cancel ? QByteArrayView("allow: POST\r\n") : QByteArrayView("allow: GET, DELETE\r\n"));
        return;
    }
    if (injectRequestFault(c, r))
        return;
    const std::optional<QByteArray> stored = m_responses.get(id);
    if (!stored) {
        respondError(c, r, responseNotFound(id));
        return;
    }
    if (cancel) // every response here ran in the foreground
        respondError(c, r, badRequest("Cannot cancel a synchronous response."));
    else if (method == "DELETE" && m_responses.remove(id))
        respondJson(c, r, 200, deletedBody(id));
    else
        respondJson(c, r, 200, *stored);
}

void SimServer::handleCountTokens(SimConnection &c, const http::Request &r)
{
    auto parsed = parseMessagesRequest(r.body, m_options.models, m_options.maxModelLen, true);
    if (!parsed) {
        respondError(c, r, parsed.error());
        return;
    }
    if (injectRequestFault(c, r))
        return;
    respondJson(c, r, 200, countTokensBody(parsed->promptTokens));
}

} // namespace switchyard::sim
