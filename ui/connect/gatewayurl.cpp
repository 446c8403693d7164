#include "connect/gatewayurl.h"

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

Expected<QUrl, QString> GatewayUrl::parse(const QString &text)
{
    QString t = text.trimmed();
    if (t.isEmpty())
        return unexpected(tr("Enter the gateway's address, like https://gateway.example:8080."));
    // A bare "host:port" is what operators type most; it means plain HTTP like the gateway's default.
    if (!t.contains(u"://"_s))
        t.prepend(u"http://"_s);
    const QUrl url(t, QUrl::StrictMode);
    if (!url.isValid())
        return unexpected(tr("This is not a valid address: %1").arg(url.errorString()));
    const QString scheme = url.scheme().toLower();
    if (scheme != u"http"_s && scheme != u"https"_s)
        return unexpected(tr("The address must start with http:// or https://, not %1://.").arg(scheme));
    if (url.host().isEmpty())
        return unexpected(tr("The address has no host name."));
    if (!url.userInfo().isEmpty())
        return unexpected(tr("Put the admin key in the key field, not in the address."));
    if (url.port() == 0)
        return unexpected(tr("The port must be between 1 and 65535."));
    if (!url.path().isEmpty() && url.path() != u"/"_s)
        return unexpected(tr("Give the gateway's address without a path (the panel adds /api/…)."));
    if (url.hasQuery() || url.hasFragment())
        return unexpected(tr("Give the gateway's address without a query or fragment."));

    QUrl clean;
    clean.setScheme(scheme);
    clean.setHost(url.host().toLower());
    clean.setPort(url.port(scheme == u"https"_s ? 443 : 80));
    return clean;
}

QString GatewayUrl::canonical(const QUrl &url)
{
    const QString scheme = url.scheme().toLower();
    QUrl clean;
    clean.setScheme(scheme);
    clean.setHost(url.host().toLower());
    clean.setPort(url.port(scheme == u"https"_s ? 443 : 80));
    return clean.toString(QUrl::FullyEncoded);
}

} // namespace switchyard::ui
