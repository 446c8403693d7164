#pragma once

// The one place the panel makes the link to a remote gateway (switchyard --connect URL): the rest of
// the panel only knows link::GatewayLink.

#include "common/expected.h"
#include "link/gatewaylink.h"

#include <QObject>
#include <QString>
#include <QUrl>
#include <memory>

namespace switchyard::app {

// A link to the gateway at url (http:// or https://), sending adminKey on every management call
// (client::RemoteGatewayLink). The error says why none can be made (a URL that is no gateway address).
Expected<std::unique_ptr<link::GatewayLink>, QString> makeRemoteLink(const QUrl &url, const QString &adminKey,
                                                                      QObject *parent = nullptr);

} // namespace switchyard::app
