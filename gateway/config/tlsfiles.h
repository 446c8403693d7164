#pragma once

// Reading switchyard.tls's files: the certificate chain and the private key, both PEM, and checking
// that the key belongs to the certificate. Each function answers in words an operator can act on; the
// config reader files them under the member that named the file.

#include "common/expected.h"

#include <QList>
#include <QSslCertificate>
#include <QSslKey>
#include <QString>

namespace switchyard::config {

// Certificates and keys are small; anything bigger is not one (and is not read whole).
inline constexpr qint64 kMaxTlsFileBytes = 1024 * 1024;

// The certificates of a PEM file, the server's own first (as in Let's Encrypt's fullchain.pem).
Expected<QList<QSslCertificate>, QString> readCertificateChain(const QString &path);

// An unencrypted PEM private key (RSA or EC; PKCS#1, SEC1 or PKCS#8).
Expected<QSslKey, QString> readPrivateKey(const QString &path);

// Whether `key` is the private half of the certificate's public key. RSA and EC keys are compared by
// their public parts; for another kind the answer is true (the handshake then tells).
bool keyMatchesCertificate(const QSslKey &key, const QSslCertificate &certificate);

} // namespace switchyard::config
