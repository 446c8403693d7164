#include "pinnedcertificate.h"

#include <QCryptographicHash>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::upstream {

namespace {

constexpr qsizetype Sha256Bytes = 32;

int hexValue(QChar c)
{
    const char16_t u = c.unicode();
    if (u >= u'0' && u <= u'9')
        return u - u'0';
    if (u >= u'a' && u <= u'f')
        return u - u'a' + 10;
    if (u >= u'A' && u <= u'F')
        return u - u'A' + 10;
    return -1;
}

QString joined(const QStringList &parts)
{
    return parts.join(u" "_s);
}

QString distinguishedName(const QSslCertificate &c, bool issuer)
{
    // The fields an operator recognises, in the order openssl prints them.
    const QList<QSslCertificate::SubjectInfo> fields = {QSslCertificate::CommonName, QSslCertificate::Organization,
                                                        QSslCertificate::OrganizationalUnitName,
                                                        QSslCertificate::CountryName};
    static const char *const names[] = {"CN", "O", "OU", "C"};
    QStringList out;
    for (qsizetype i = 0; i < fields.size(); ++i) {
        const QStringList values = issuer ? c.issuerInfo(fields[i]) : c.subjectInfo(fields[i]);
        for (const QString &v : values)
            out << QString::fromLatin1(names[i]) + u'=' + v;
    }
    return out.join(u", "_s);
}

} // namespace

QString formatFingerprint(QByteArrayView sha256)
{
    return QString::fromLatin1(sha256.toByteArray().toHex(':').toUpper());
}

QString certificateFingerprint(const QSslCertificate &certificate)
{
    if (certificate.isNull())
        return {};
    return formatFingerprint(certificate.digest(QCryptographicHash::Sha256));
}

QByteArray leafSha256(const QList<QSslCertificate> &chain)
{
    return chain.isEmpty() ? QByteArray() : chain.first().digest(QCryptographicHash::Sha256);
}

std::optional<QByteArray> parseFingerprint(QStringView text)
{
    QStringView t = text.trimmed();
    if (const qsizetype eq = t.indexOf(u'='); eq >= 0) // "sha256 Fingerprint=AB:…"
        t = t.sliced(eq + 1);
    if (t.startsWith(u"sha256:", Qt::CaseInsensitive))
        t = t.sliced(7);
    QByteArray out;
    out.reserve(Sha256Bytes);
    int high = -1;
    for (const QChar c : t) {
        if (c == u':' || c.isSpace()) {
            if (high >= 0)
                return std::nullopt; // a separator inside a byte
            continue;
        }
        const int v = hexValue(c);
        if (v < 0)
            return std::nullopt;
        if (high < 0) {
            high = v;
        } else {
            out.append(char((high << 4) | v));
            high = -1;
        }
    }
    if (high >= 0 || out.size() != Sha256Bytes)
        return std::nullopt;
    return out;
}

PeerVerdict judgePeer(const QList<QSslError> &errors, const QSslCertificate &peer, QByteArrayView pinnedSha256)
{
    if (errors.isEmpty())
        return PeerVerdict::Trusted;
    if (peer.isNull() || pinnedSha256.size() != Sha256Bytes)
        return PeerVerdict::Refused;
    return peer.digest(QCryptographicHash::Sha256) == pinnedSha256 ? PeerVerdict::Pinned : PeerVerdict::Refused;
}

UntrustedCertificate describeUntrusted(const QSslCertificate &peer, const QList<QSslError> &errors)
{
    UntrustedCertificate u;
    u.sha256 = certificateFingerprint(peer);
    u.subject = distinguishedName(peer, false);
    u.issuer = distinguishedName(peer, true);
    u.reason = errors.isEmpty() ? u"the certificate is not trusted"_s : errors.first().errorString();
    return u;
}

QString untrustedMessage(const UntrustedCertificate &c)
{
    if (c.isNull())
        return u"TLS: "_s + (c.reason.isEmpty() ? u"no certificate"_s : c.reason);
    return joined({u"TLS: "_s + c.reason + u";"_s, u"certificate SHA-256"_s, c.sha256,
                   u"("_s + (c.subject.isEmpty() ? u"no subject"_s : c.subject) + u"):"_s,
                   u"pin this fingerprint to trust it"_s});
}

} // namespace switchyard::upstream
