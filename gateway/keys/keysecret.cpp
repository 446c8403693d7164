#include "keys/keysecret.h"

#include <QCryptographicHash>
#include <QRandomGenerator>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::keys {

QString newSecret()
{
    static constexpr char Alphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    QString out = QString::fromLatin1(SecretPrefix);
    QRandomGenerator *random = QRandomGenerator::system(); // the operating system's CSPRNG
    for (int i = 0; i < 40; ++i)
        out += QLatin1Char(Alphabet[random->bounded(62)]);
    return out;
}

QString newKeyId()
{
    const quint64 v = QRandomGenerator::system()->generate64();
    return u"vk_"_s + QString::number(v, 16).rightJustified(16, u'0');
}

QByteArray secretHash(QByteArrayView secret)
{
    return QCryptographicHash::hash(secret, QCryptographicHash::Sha256);
}

QString secretHint(const QString &secret)
{
    if (secret.size() < 16)
        return u"…"_s;
    return secret.left(7) + u"…"_s + secret.right(4);
}

} // namespace switchyard::keys
