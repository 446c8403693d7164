#pragma once

// The secret of a virtual key: made from the system's cryptographic random source, shown to the
// operator once, and kept by the gateway only as its SHA-256. 40 characters of base62 after "sy-" are
// 238 bits: far beyond guessing, so a plain hash (no salt, no slow hash) is enough, and the lookup on
// every request is one SHA-256 of the presented key.

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

namespace switchyard::keys {

inline constexpr QByteArrayView SecretPrefix = "sy-";

// "sy-" and 40 random base62 characters.
QString newSecret();
// "vk_" and 16 random hex digits: the key's public name.
QString newKeyId();
// SHA-256 of the key as the client sends it (32 bytes).
QByteArray secretHash(QByteArrayView secret);
// "sy-a1b2…9f0e": enough to recognise a key in a list, nothing to use it with.
QString secretHint(const QString &secret);

} // namespace switchyard::keys
