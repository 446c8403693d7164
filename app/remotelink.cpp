#include "remotelink.h"

#include "remote/remotegatewaylink.h"

#include <QCoreApplication>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::app {

namespace {
struct RemoteLink
{
    Q_DECLARE_TR_FUNCTIONS(switchyard::app::RemoteLink)
};
} // namespace

Expected<std::unique_ptr<link::GatewayLink>, QString> makeRemoteLink(const QUrl &url, const QString &adminKey,
                                                                      QObject *parent)
{
    if (!url.isValid() || url.host().isEmpty() || (url.scheme() != u"http"_s && url.scheme() != u"https"_s))
        return unexpected(RemoteLink::tr("%1 is not a gateway address (http://HOST:PORT or https://HOST:PORT)")
                              .arg(url.toString()));
    client::RemoteLinkOptions options;
    options.url = url;
    options.adminKey = adminKey;
    return std::unique_ptr<link::GatewayLink>(new client::RemoteGatewayLink(std::move(options), parent));
}

} // namespace switchyard::app
