#pragma once

// An audio upload forwarded while it arrives. Dispatched at the request's head (Route::bodyAsItArrives),
// it reads the form as its bytes come until it can route: once the `model` field has arrived and a file
// part has begun (the SDKs write their fields first, so that is before the audio), or at the end of a
// form that put its fields after the file. From then on a ProxyExchange sends the node what has arrived
// and each further piece as it comes: the node reads the audio while the client still uploads it, and
// the whole upload is kept until the answer begins, for failover. Everything the gateway can refuse
// (a malformed form, no model, a key's limit) is refused before a byte reaches a node.
//
// It stands between that exchange and the client connection, passing the answer through unchanged.

#include "http/httptypes.h"
#include "proxy/exchange.h"
#include "proxy/localresponse.h"
#include "proxy/proxyexchange.h"
#include "proxy/responsesink.h"

#include <memory>

namespace switchyard::proxy {

struct Route;

class UploadExchange final : public Exchange, private ResponseSink
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UploadExchange)

public:
    UploadExchange(const Route &route, http::Request head, QByteArray boundary, qint64 startedMsSinceEpoch,
                   ExchangeContext context, ResponseSink *sink, QObject *parent = nullptr);
    ~UploadExchange() override;

    void start() override {} // nothing to do before the form's first bytes
    void requestBodyArrived(QByteArrayView piece, bool complete) override;
    void clientGone() override;
    void outputDrained() override;
    void gatewayStopping() override;

private:
    // ResponseSink: the forwarded exchange's answer goes to the client as it is.
    void sendResponseHead(int status, const QByteArray &headerLines, qint64 contentLength) override;
    void sendResponseBody(QByteArrayView data) override;
    void endResponse() override;
    void abortResponse() override;
    qint64 outputBacklog() const override;
    void exchangeFinished(Exchange *exchange) override;

    // Whether the bytes just appended may have completed a part: a delimiter among them, or the
    // last read stopped outside a part's value. Keeps a long audio part from being rescanned per read.
    bool worthReading(qsizetype appendedFrom) const;
    void route(bool complete);
    // The gateway's own answer, before anything went to a node; the record says so.
    void answerNow(const LocalResponse &response);

    const Route &m_route;
    http::Request m_head;
    QByteArray m_delimiter; // CRLF "--" boundary
    QByteArray m_boundary;
    qint64 m_startedMs;
    ExchangeContext m_ctx;
    ResponseSink *m_sink;
    QByteArray m_body;          // what arrived before the upload could be routed
    bool m_inPartValue = false; // the last read ended inside a part's value
    std::unique_ptr<Exchange> m_forward;
    bool m_done = false;
};

} // namespace switchyard::proxy
