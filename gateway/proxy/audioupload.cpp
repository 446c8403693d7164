#include "proxy/audioupload.h"

#include "proxy/dispatcher.h"
#include "proxy/keyadmission.h"
#include "proxy/routehandlers.h"
#include "proxy/statusapi.h"
#include "proxy/uploadexchange.h"

#include <QDateTime>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::proxy {

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

LocalResponse malformedForm(const QByteArray &problem)
{
    return errorResponse(400, u"The multipart/form-data body is malformed: "_s % QString::fromUtf8(problem),
                         "invalid_multipart");
}

Dispatch routeUpload(const Route &route, const http::Request &request, const QByteArray &body,
                     const http::MultipartForm &form, qsizetype bodyToCome, qint64 startedMsSinceEpoch,
                     const ExchangeContext &context, ResponseSink *sink)
{
    const http::MultipartPart *modelPart = form.part("model");
    const QByteArray model = modelPart && !modelPart->hasFilename
                                 ? partValue(body, *modelPart).trimmed().toByteArray()
                                 : QByteArray();
    if (model.isEmpty())
        return answer(errorResponse(400, u"Missing required form field 'model'"_s, "missing_model", "model"));
    const http::MultipartPart *streamPart = form.part("stream");
    const bool stream = streamPart && formTrue(partValue(body, *streamPart));

    const config::RequestKind kind = requestKind(route, stream);
    auto primary = handlers::buildTarget(*context.table, model, kind);
    if (!primary)
        return answer(primary.error());
    std::vector<Target> targets;
    targets.push_back(std::move(*primary));
    std::optional<KeyHold> hold;
    if (auto refused = admitKey(context, model, targets, hold))
        return answer(std::move(*refused));

    stats::RequestRecord record;
    record.startedMsSinceEpoch = startedMsSinceEpoch;
    record.method = request.method;
    record.path = request.path;
    record.model = QString::fromUtf8(model);
    record.stream = stream;
    // The model's bytes are cut out; each attempt splices its own (raw: a form field is no JSON string).
    http::BodyTemplate spliced;
    spliced.before = body.first(modelPart->value.begin);
    spliced.after = body.sliced(modelPart->value.end);
    spliced.hasModel = true;
    spliced.quoteModel = false;
    auto exchange = std::make_unique<ProxyExchange>(context, sink, request.path, std::move(spliced),
                                                    std::move(targets), stream, std::move(record));
    exchange->setRequestContentType(request.header("content-type").toByteArray());
    exchange->expectMoreBody(bodyToCome);
    if (hold)
        exchange->chargeTo(std::move(*hold));
    Dispatch d;
    d.exchange = std::move(exchange);
    return d;
}

namespace handlers {

Dispatch audioUpload(const Route &route, const http::Request &request, const ExchangeContext &context,
                     ResponseSink *sink)
{
    if (context.control && context.control->runState && context.control->runState->isPaused())
        return answer(gatewayPausedResponse());
    std::optional<QByteArray> boundary = http::multipartBoundary(request.header("content-type"));
    if (!boundary) {
        return answer(errorResponse(400,
                                    u"The request body must be multipart/form-data with a boundary"
                                    u" (Content-Type: multipart/form-data; boundary=…)"_s,
                                    "invalid_content_type"));
    }
    const qint64 startedMs = QDateTime::currentMSecsSinceEpoch();
    if (request.bodyArriving > 0) {
        Dispatch d;
        d.exchange =
            std::make_unique<UploadExchange>(route, request, std::move(*boundary), startedMs, context, sink);
        return d;
    }
    http::MultipartError problem;
    const std::optional<http::MultipartForm> form =
        http::parseMultipartForm(request.body, *boundary, &problem);
    if (!form)
        return answer(malformedForm(problem.message));
    return routeUpload(route, request, request.body, *form, 0, startedMs, context, sink);
}

} // namespace handlers

} // namespace switchyard::proxy
