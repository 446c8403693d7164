#include "remotelink.h"

#include <QCoreApplication>

// STUB until RemoteGatewayLink (client/remote/, written in parallel) is on main: without its header
// this factory says so instead of linking. With it, it builds the real link.
#if __has_include("remote/remotegatewaylink.h")
#include "remote/remotegatewaylink.h"
#define SWITCHYARD_HAVE_REMOTE_LINK 1
#endif

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
#ifdef SWITCHYARD_HAVE_REMOTE_LINK
    client::RemoteLinkOptions options;
    options.url = url;
    options.adminKey = adminKey;
    return std::unique_ptr<link::GatewayLink>(new client::RemoteGatewayLink(std::move(options), parent));
#else
    Q_UNUSED(adminKey);
    Q_UNUSED(parent);
    return unexpected(RemoteLink::tr("this build has no remote gateway link yet (client/remote/remotegatewaylink.h)"));
#endif
}

} // namespace switchyard::app
