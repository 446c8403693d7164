#include "connect/trustedcertificates.h"

#include "connect/gatewayurl.h"
#include "upstream/pinnedcertificate.h"

#include <QSettings>
#include <QUrl>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

TrustedCertificates::TrustedCertificates(QSettings *settings)
    : m_settings(settings ? settings : new QSettings()), m_ownsSettings(!settings)
{
}

TrustedCertificates::~TrustedCertificates()
{
    if (m_ownsSettings)
        delete m_settings;
}

QString TrustedCertificates::keyFor(const QString &gatewayUrl) const
{
    const auto parsed = GatewayUrl::parse(gatewayUrl);
    if (!parsed)
        return {};
    // A URL's slashes and colons would be groups and separators to QSettings: percent-encoded, one key each.
    return u"connect/trustedCertificates/"_s
           % QString::fromLatin1(QUrl::toPercentEncoding(GatewayUrl::canonical(*parsed)));
}

QByteArray TrustedCertificates::pinFor(const QString &gatewayUrl) const
{
    const QString key = keyFor(gatewayUrl);
    if (key.isEmpty())
        return {};
    const auto sha = upstream::parseFingerprint(m_settings->value(key).toString());
    return sha ? *sha : QByteArray();
}

void TrustedCertificates::trust(const QString &gatewayUrl, const QByteArray &sha256)
{
    const QString key = keyFor(gatewayUrl);
    if (key.isEmpty() || sha256.size() != 32)
        return;
    m_settings->setValue(key, upstream::formatFingerprint(sha256));
}

void TrustedCertificates::forget(const QString &gatewayUrl)
{
    const QString key = keyFor(gatewayUrl);
    if (!key.isEmpty())
        m_settings->remove(key);
}

} // namespace switchyard::ui
