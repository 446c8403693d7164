#pragma once

// The question asked when a gateway's TLS certificate is not trusted (self-signed, another name, an
// unknown authority): who the certificate says it is and its SHA-256 fingerprint, to compare with the
// one on the server (`openssl x509 -noout -fingerprint -sha256 -in cert.pem`). Trusting pins that
// fingerprint for this gateway; Cancel, the default, does not connect.

#include <QDialog>

namespace switchyard::ui {

class CertificateQuestion final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CertificateQuestion)

public:
    // fingerprint: SHA-256 as hex, with or without colons; shown as colon-separated pairs.
    // problem: what the TLS check said (may be empty).
    CertificateQuestion(const QString &gatewayUrl, const QString &subject, const QString &fingerprint,
                        const QString &problem = {}, QWidget *parent = nullptr);
    ~CertificateQuestion() override;

    // "AB:CD:…" in upper case, 32 pairs for a SHA-256.
    static QString formatFingerprint(const QString &fingerprint);
};

} // namespace switchyard::ui
