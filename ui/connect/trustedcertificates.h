#pragma once

// The certificates the operator chose to trust, one per gateway: the answer to the untrusted-certificate
// question (CertificateQuestion), so a panel restarted tomorrow does not ask again about a certificate it
// was told to trust today. Kept in the panel's QSettings (`connect/trustedCertificates`) as the
// certificate's SHA-256 fingerprint per canonical gateway URL: a fingerprint is public (any client of
// the gateway sees the certificate), so it needs no secret store. A gateway that shows another
// certificate is asked about again, and the new answer replaces the old one.

#include <QByteArray>
#include <QString>

class QSettings;

namespace switchyard::ui {

class TrustedCertificates final
{
    Q_DISABLE_COPY_MOVE(TrustedCertificates)

public:
    // settings: where the list lives (tests pass their own); null = the panel's QSettings.
    explicit TrustedCertificates(QSettings *settings = nullptr);
    ~TrustedCertificates();

    // The SHA-256 (32 bytes) trusted for this gateway; empty when none (or what is stored is no
    // fingerprint: the file is read as untrusted input).
    QByteArray pinFor(const QString &gatewayUrl) const;
    // sha256: 32 bytes; anything else, or an address that is no gateway URL, is ignored.
    void trust(const QString &gatewayUrl, const QByteArray &sha256);
    void forget(const QString &gatewayUrl);

private:
    QString keyFor(const QString &gatewayUrl) const;

    QSettings *m_settings;
    bool m_ownsSettings;
};

} // namespace switchyard::ui
