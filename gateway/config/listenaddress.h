#pragma once

// Where the gateway listens, as an operator writes it: in switchyard.listen, on the command line
// (--listen) and in the panel's settings.

#include "common/expected.h"

#include <QString>

namespace switchyard::config {

// "HOST:PORT", "[::1]:8080", ":8080" (host 127.0.0.1: loopback unless asked otherwise) or "8080"
// (likewise). Port 0 asks for an ephemeral port. The error says what is wrong with the text.
struct ListenAddress
{
    QString host;
    quint16 port = 0;
};
Expected<ListenAddress, QString> parseListenAddress(const QString &text);

// True for 127.0.0.0/8, ::1 and "localhost": addresses only this machine can reach.
bool isLoopbackHost(const QString &host);

} // namespace switchyard::config
