#pragma once

// A management command that changes the gateway (PUT /api/config, POST /api/nodes/{name}/probe,
// POST /api/gateway/pause | resume): what can be checked on the worker is checked here (a config is
// validated: the loader is a pure function, and an invalid config is answered 422 without ever
// reaching the gateway), then the command goes to the Gateway's thread and its answer comes back
// through a future. The worker's event loop keeps serving meanwhile.

#include "proxy/exchange.h"
#include "proxy/gatewaycontrol.h"

#include <QFutureWatcher>

namespace switchyard::proxy {

class ResponseSink;

class GatewayCommandExchange final : public Exchange
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(GatewayCommandExchange)

public:
    // control may be null (a dispatcher without a Gateway): answered 503.
    GatewayCommandExchange(const GatewayControl *control, GatewayCommand command, ResponseSink *sink,
                           QObject *parent = nullptr);
    ~GatewayCommandExchange() override;

    void start() override;
    void clientGone() override;

private:
    void respond(const LocalResponse &response);

    const GatewayControl *m_control;
    GatewayCommand m_command;
    ResponseSink *m_sink;
    QFutureWatcher<LocalResponse> m_watcher;
    bool m_done = false;
};

} // namespace switchyard::proxy
