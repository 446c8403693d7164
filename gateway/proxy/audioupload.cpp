#include "proxy/audioupload.h"

#include "http/multipartform.h"
#include "proxy/dispatcher.h"
#include "proxy/keyadmission.h"
#include "proxy/routehandlers.h"
#include "proxy/statusapi.h"

#include <QDateTime>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::proxy::handlers {

namespace {

QByteArrayView partValue(const QByteArray &body, const http::MultipartPart &part)
{
    return QByteArrayView(body).sliced(part.value.begin, part.value.end - part.value.begin);
}

// vLLM reads form fields with pydantic, which takes these spellings of true for a boolean.
bool formTrue(QByteArrayView v)
{
    const QByteArray t = v.trimmed().toByteArray().toLower();
    return t == "true" || t == "1" || t == "yes" || t == "on";
}

} // namespace

Dispatch audioUpload(const Route &route, const http::Request &request, const ExchangeContext &context, ResponseSink *sink)
{
    if (context.control && context.control->runState && context.control->runState->isPaused())
        return answer(gatewayPausedResponse());
    const std::optional<QByteArray> boundary = http::multipartBoundary(request.header("content-type"));
    if (!boundary) {
        return answer(errorResponse(400,
                                    u"The request body must be multipart/form-data with a boundary"
                                    u" (Content-Type: multipart/form-data; boundary=…)"_s,
                                    "invalid_content_type"));
    }
    http::MultipartError problem;
    const std::optional<http::MultipartForm> form =
        http::parseMultipartForm(request.body, *boundary, &problem);
    if (!form) {
        return answer(errorResponse(
            400, u"The multipart/form-data body is malformed: "_s % QString::fromUtf8(problem.message),
            "invalid_multipart"));
    }
    const http::MultipartPart *modelPart = form->part("model");
    const QByteArray model = modelPart && !modelPart->hasFilename
                                 ? partValue(request.body, *modelPart).trimmed().toByteArray()
                                 : QByteArray();
    if (model.isEmpty())
        return answer(errorResponse(400, u"Missing required form field 'model'"_s, "missing_model", "model"));
    const http::MultipartPart *streamPart = form->part("stream");
    const bool stream = streamPart && formTrue(partValue(request.body, *streamPart));

    const config::RequestKind kind = requestKind(route, stream);
    auto primary = buildTarget(*context.table, model, kind);
    if (!primary)
        return answer(primary.error());
    std::vector<Target> targets;
    targets.push_back(std::move(*primary));
    std::optional<KeyHold> hold;
    if (auto refused = admitKey(context, model, targets, hold))
        return answer(std::move(*refused));

    stats::RequestRecord record;
    record.startedMsSinceEpoch = QDateTime::currentMSecsSinceEpoch();
    record.method = request.method;
    record.path = request.path;
    record.model = QString::fromUtf8(model);
    record.stream = stream;
    // The model's bytes are cut out; each attempt splices its own (raw: a form field is no JSON string).
    http::BodyTemplate body;
    body.before = request.body.first(modelPart->value.begin);
    body.after = request.body.sliced(modelPart->value.end);
    body.hasModel = true;
    body.quoteModel = false;
    auto exchange = std::make_unique<ProxyExchange>(context, sink, request.path, std::move(body),
                                                    std::move(targets), stream, std::move(record));
    exchange->setRequestContentType(request.header("content-type").toByteArray());
    if (hold)
        exchange->chargeTo(std::move(*hold));
    Dispatch d;
    d.exchange = std::move(exchange);
    return d;
}

} // namespace switchyard::proxy::handlers
