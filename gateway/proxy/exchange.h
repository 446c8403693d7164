#pragma once

// One client request that is answered asynchronously: a proxied request (ProxyExchange) or a
// management action that has to wait for another thread (ConfigUpdateExchange). The client connection
// owns it, starts it, tells it when output drained or the client left, and is told through
// ResponseSink::exchangeFinished when it is over.

#include <QObject>

namespace switchyard::proxy {

class Exchange : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Exchange)

public:
    using QObject::QObject;
    ~Exchange() override = default;

    virtual void start() = 0;
    // A request dispatched at its head (http::Request::bodyArriving): the next bytes of its body, and
    // whether they are the last. Called after start(); once the exchange has finished, the connection
    // reads the rest of the body and drops it.
    virtual void requestBodyArrived(QByteArrayView piece, bool complete)
    {
        Q_UNUSED(piece);
        Q_UNUSED(complete);
    }
    // The client disconnected: stop everything now, including retries and waits.
    virtual void clientGone() = 0;
    // The client's socket took some output; continue if we had paused.
    virtual void outputDrained() {}
    // The gateway stops now (drain deadline, stopNow): end the response as clearly as is still possible,
    // then stop everything as clientGone() does. The connection is closed right after.
    virtual void gatewayStopping() { clientGone(); }
};

} // namespace switchyard::proxy
