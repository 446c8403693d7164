#pragma once

// Trusting a gateway's (or a node's) TLS certificate: either the system trusts it, or the operator pinned
// that very certificate by its SHA-256 fingerprint. A pin is how a self-signed certificate on a private
// server becomes trusted without a certificate authority, and it trusts that one certificate only: a
// renewed certificate needs a new pin (or a certificate the system trusts).
//
// Fingerprints are the SHA-256 of the DER certificate, written as `openssl x509 -fingerprint -sha256`
// does ("AB:CD:…", 32 bytes), so an operator can compare what the panel shows with what the server says.

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QSslCertificate>
#include <QSslError>
#include <QString>
#include <QStringView>
#include <optional>

namespace switchyard::upstream {

// The certificate a peer showed and the client did not trust: what the panel shows when it asks
// "trust this certificate?", and the fingerprint that answering yes pins.
struct UntrustedCertificate
{
    QString sha256;  // "AB:CD:…"
    QString subject; // "CN=gpu1.example.net, O=…"
    QString issuer;
    QString reason;  // the first TLS error, in Qt's words ("The certificate is self-signed, and untrusted")

    bool isNull() const { return sha256.isEmpty(); }
};

// Upper-case hex pairs joined by colons.
QString formatFingerprint(QByteArrayView sha256);
QString certificateFingerprint(const QSslCertificate &certificate);
// The SHA-256 of a chain's first (the server's own) certificate, as a pin; empty for an empty chain.
// The panel pins the certificate its own gateway serves this way.
QByteArray leafSha256(const QList<QSslCertificate> &chain);

// Reads a pasted fingerprint: hex with or without colons or spaces, any case, optionally prefixed as
// openssl prints it ("sha256 Fingerprint=…", "SHA256:…"). Returns the 32 bytes, or nullopt.
std::optional<QByteArray> parseFingerprint(QStringView text);

enum class PeerVerdict {
    Trusted, // no TLS error: the system trusts the chain and it names the host
    Pinned,  // errors, but the peer's certificate is the pinned one
    Refused,
};

// Whether to go on with a handshake that reported `errors` for `peer` (the leaf certificate), given the
// pin (32 bytes, or empty for none). A pin trusts exactly that certificate, whatever the chain or the
// host name says, because that is what the operator looked at and accepted.
PeerVerdict judgePeer(const QList<QSslError> &errors, const QSslCertificate &peer, QByteArrayView pinnedSha256);

// The refused certificate, for an error message and the panel's question.
UntrustedCertificate describeUntrusted(const QSslCertificate &peer, const QList<QSslError> &errors);

// "TLS: <reason>; certificate SHA-256 AB:CD:… (CN=…): pin it to trust it": one line for a log or a view.
QString untrustedMessage(const UntrustedCertificate &certificate);

} // namespace switchyard::upstream
