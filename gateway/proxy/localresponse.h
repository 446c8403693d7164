#pragma once

// A complete response the gateway writes itself (health, model list, errors, management API).

#include <QByteArray>

namespace switchyard::proxy {

struct LocalResponse
{
    int status = 200;
    QByteArray headerLines; // "Name: value\r\n"…
    QByteArray body;
};

} // namespace switchyard::proxy
