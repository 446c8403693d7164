#include "config/tlsfiles.h"

#include <QFile>
#include <QFileInfo>

#include <optional>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::config {

namespace {

Unexpected<QString> failure(QString why)
{
    return unexpected(std::move(why));
}

Expected<QByteArray, QString> readSmallFile(const QString &path)
{
    const QFileInfo info(path);
    if (!info.exists())
        return failure(u"no such file: "_s + path);
    if (info.isDir())
        return failure(path + u" is a directory, not a PEM file"_s);
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return failure(u"cannot read "_s + path + u": "_s + f.errorString());
    if (f.size() > kMaxTlsFileBytes)
        return failure(path + u" is "_s + QString::number(f.size()) + u" bytes: too big for a PEM file"_s);
    QByteArray data = f.read(kMaxTlsFileBytes + 1);
    if (f.error() != QFileDevice::NoError)
        return failure(u"cannot read "_s + path + u": "_s + f.errorString());
    return data;
}

// A DER element: its tag and where its content lies.
struct Der
{
    quint8 tag = 0;
    qsizetype contentStart = 0;
    qsizetype contentSize = 0;
    qsizetype end() const { return contentStart + contentSize; }
};

std::optional<Der> readDer(const QByteArray &d, qsizetype at, qsizetype limit)
{
    if (at + 2 > limit)
        return std::nullopt;
    Der e;
    e.tag = quint8(d[at]);
    qsizetype pos = at + 1;
    const quint8 first = quint8(d[pos++]);
    qsizetype size = 0;
    if (first < 0x80) {
        size = first;
    } else {
        const int bytes = first & 0x7f;
        if (bytes == 0 || bytes > 4 || pos + bytes > limit)
            return std::nullopt;
        for (int i = 0; i < bytes; ++i)
            size = (size << 8) | quint8(d[pos++]);
    }
    if (pos + size > limit)
        return std::nullopt;
    e.contentStart = pos;
    e.contentSize = size;
    return e;
}

// The key material of a SubjectPublicKeyInfo that also appears, byte for byte, in the private key's
// DER: an RSA key's modulus and exponent (RSAPublicKey's content; RSAPrivateKey holds them in the same
// order) or an EC key's public point (SEC1 keys carry it).
std::optional<QByteArray> publicKeyMaterial(const QByteArray &spki, QSsl::KeyAlgorithm algorithm)
{
    const auto outer = readDer(spki, 0, spki.size());
    if (!outer || outer->tag != 0x30)
        return std::nullopt;
    const auto algorithmId = readDer(spki, outer->contentStart, outer->end());
    if (!algorithmId)
        return std::nullopt;
    const auto bits = readDer(spki, algorithmId->end(), outer->end());
    if (!bits || bits->tag != 0x03 || bits->contentSize < 2)
        return std::nullopt;
    const qsizetype keyStart = bits->contentStart + 1; // past the unused-bits byte
    if (algorithm == QSsl::Ec)
        return spki.mid(keyStart, bits->end() - keyStart);
    if (algorithm == QSsl::Rsa) {
        const auto rsa = readDer(spki, keyStart, bits->end());
        if (!rsa || rsa->tag != 0x30)
            return std::nullopt;
        return spki.mid(rsa->contentStart, rsa->contentSize);
    }
    return std::nullopt;
}

} // namespace

Expected<QList<QSslCertificate>, QString> readCertificateChain(const QString &path)
{
    const auto data = readSmallFile(path);
    if (!data)
        return failure(data.error());
    QList<QSslCertificate> chain = QSslCertificate::fromData(*data, QSsl::Pem);
    if (chain.isEmpty()) {
        if (data->contains("PRIVATE KEY"))
            return failure(path + u" holds a private key, not a certificate: is it key_file?"_s);
        return failure(path + u" holds no PEM certificate (\"-----BEGIN CERTIFICATE-----\")"_s);
    }
    return chain;
}

Expected<QSslKey, QString> readPrivateKey(const QString &path)
{
    const auto data = readSmallFile(path);
    if (!data)
        return failure(data.error());
    if (data->contains("ENCRYPTED"))
        return failure(path + u" is encrypted with a passphrase; the gateway starts unattended, so it needs "
                                 "the key without one (openssl pkey -in KEY -out KEY.plain)"_s);
    for (const QSsl::KeyAlgorithm algorithm : {QSsl::Rsa, QSsl::Ec}) {
        QSslKey key(*data, algorithm, QSsl::Pem, QSsl::PrivateKey);
        if (!key.isNull())
            return key;
    }
    if (data->contains("BEGIN CERTIFICATE"))
        return failure(path + u" holds a certificate, not a private key: is it cert_file?"_s);
    return failure(path + u" holds no private key that can be read (PEM, RSA or EC, without passphrase)"_s);
}

bool keyMatchesCertificate(const QSslKey &key, const QSslCertificate &certificate)
{
    const QSslKey publicKey = certificate.publicKey();
    if (publicKey.isNull() || key.isNull())
        return true; // nothing to compare: the handshake will tell
    if (publicKey.algorithm() != key.algorithm())
        return false;
    const auto material = publicKeyMaterial(publicKey.toDer(), publicKey.algorithm());
    if (!material || material->isEmpty())
        return true;
    return key.toDer().contains(*material);
}

} // namespace switchyard::config
