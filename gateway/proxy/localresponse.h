#pragma once

// A complete response the gateway writes itself (health, model list, errors, management API), and the
// hook through which PUT /api/config reaches the gateway's thread.

#include "config/config.h"

#include <QByteArray>
#include <QFuture>
#include <functional>

namespace switchyard::proxy {

struct LocalResponse
{
    int status = 200;
    QByteArray headerLines; // "Name: value\r\n"…
    QByteArray body;
};

// Applies a validated config on the gateway's thread; the future carries the complete response.
using ConfigUpdater = std::function<QFuture<LocalResponse>(config::GatewayConfig parsed, QByteArray text)>;

} // namespace switchyard::proxy
