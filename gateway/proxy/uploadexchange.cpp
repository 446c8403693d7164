#include "proxy/uploadexchange.h"

#include "proxy/audioupload.h"
#include "proxy/dispatcher.h"
#include "proxy/openaierror.h"

#include <QDateTime>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::proxy {

UploadExchange::UploadExchange(const Route &route, http::Request head, QByteArray boundary,
                               qint64 startedMsSinceEpoch, ExchangeContext context, ResponseSink *sink,
                               QObject *parent)
    : Exchange(parent), m_route(route), m_head(std::move(head)), m_delimiter("\r\n--" + boundary),
      m_boundary(std::move(boundary)), m_startedMs(startedMsSinceEpoch), m_ctx(std::move(context)),
      m_sink(sink)
{
    // Reserve only a little: a client announcing 32 MiB must send it before we hold it.
    m_body.reserve(std::min<qsizetype>(m_head.bodyArriving, 256 * 1024));
}

UploadExchange::~UploadExchange() = default;

void UploadExchange::requestBodyArrived(QByteArrayView piece, bool complete)
{
    if (m_forward) {
        m_forward->requestBodyArrived(piece, complete);
        return;
    }
    if (m_done)
        return;
    const qsizetype appendedFrom = m_body.size();
    m_body.append(piece);
    if (complete || worthReading(appendedFrom))
        route(complete);
}

bool UploadExchange::worthReading(qsizetype appendedFrom) const
{
    if (!m_inPartValue)
        return true;
    // A delimiter split across two reads starts before the new bytes.
    const qsizetype from = std::max<qsizetype>(0, appendedFrom - (m_delimiter.size() - 1));
    return QByteArrayView(m_body).sliced(from).indexOf(m_delimiter) >= 0;
}

void UploadExchange::route(bool complete)
{
    http::MultipartError problem;
    const std::optional<http::MultipartForm> form =
        complete ? http::parseMultipartForm(m_body, m_boundary, &problem)
                 : http::parseMultipartPrefix(m_body, m_boundary, &problem);
    if (!form) {
        answerNow(malformedForm(problem.message));
        return;
    }
    if (!complete) {
        m_inPartValue = form->arriving.has_value();
        const http::MultipartPart *model = form->part("model");
        bool fileBegun = form->arriving && form->arriving->hasFilename;
        for (const http::MultipartPart &p : form->parts)
            fileBegun = fileBegun || p.hasFilename;
        if (!model || !fileBegun)
            return; // the fields may still come (after the file, for a form written that way)
    }
    Dispatch d = routeUpload(m_route, m_head, m_body, *form, m_head.bodyArriving - m_body.size(), m_startedMs,
                             m_ctx, this);
    if (d.local) {
        answerNow(*d.local);
        return;
    }
    m_body.clear(); // the exchange holds the bytes now
    m_body.squeeze();
    m_forward = std::move(d.exchange);
    m_forward->start();
}

void UploadExchange::answerNow(const LocalResponse &response)
{
    m_done = true;
    m_body.clear();
    m_body.squeeze();
    m_sink->sendResponseHead(response.status, response.headerLines, response.body.size());
    m_sink->sendResponseBody(response.body);
    m_sink->endResponse();
    stats::RequestRecord r;
    r.startedMsSinceEpoch = m_startedMs;
    r.method = m_head.method;
    r.path = m_head.path;
    r.status = response.status;
    r.durationMs = QDateTime::currentMSecsSinceEpoch() - m_startedMs;
    r.error = upstreamErrorMessage(response.body);
    if (m_ctx.onFinished)
        m_ctx.onFinished(r);
    m_sink->exchangeFinished(this);
}

void UploadExchange::clientGone()
{
    if (m_forward) {
        m_forward->clientGone();
        return;
    }
    if (m_done)
        return;
    // Gone before the upload could be routed: nothing reached a node. Recorded with 499, as any proxied
    // request whose client left, so the gateway's request counts balance.
    m_done = true;
    stats::RequestRecord r;
    r.startedMsSinceEpoch = m_startedMs;
    r.method = m_head.method;
    r.path = m_head.path;
    r.status = 499;
    r.durationMs = QDateTime::currentMSecsSinceEpoch() - m_startedMs;
    r.error = u"client closed the connection"_s;
    if (m_ctx.onFinished)
        m_ctx.onFinished(r);
}

void UploadExchange::outputDrained()
{
    if (m_forward)
        m_forward->outputDrained();
}

void UploadExchange::gatewayStopping()
{
    if (m_forward) {
        m_forward->gatewayStopping();
        return;
    }
    if (!m_done)
        answerNow(errorResponse(503, u"The gateway is shutting down; the request was cut"_s,
                                "gateway_shutting_down"));
}

void UploadExchange::sendResponseHead(int status, const QByteArray &headerLines, qint64 contentLength)
{
    m_sink->sendResponseHead(status, headerLines, contentLength);
}

void UploadExchange::sendResponseBody(QByteArrayView data)
{
    m_sink->sendResponseBody(data);
}

void UploadExchange::endResponse()
{
    m_sink->endResponse();
}

void UploadExchange::abortResponse()
{
    m_sink->abortResponse();
}

qint64 UploadExchange::outputBacklog() const
{
    return m_sink->outputBacklog();
}

void UploadExchange::exchangeFinished(Exchange *exchange)
{
    Q_UNUSED(exchange);
    m_done = true;
    m_sink->exchangeFinished(this); // the connection deletes this, and the forwarded exchange with it
}

} // namespace switchyard::proxy
