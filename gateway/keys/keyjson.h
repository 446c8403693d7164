#pragma once

// The JSON of the key API (docs/KEYS.md): the bodies of POST /api/keys and PATCH /api/keys/{id} read
// into a KeyChange, with one error naming the field that is wrong, and a key with its usage written for
// GET /api/keys. Never the secret, except in the one answer that creates it.

#include "common/expected.h"
#include "keys/keyregistry.h"

#include <QByteArray>
#include <QString>
#include <nlohmann/json.hpp>

namespace switchyard::keys {

struct KeyJsonError
{
    QString message; // "requests_per_minute: must be a whole number from 0 to 1000000000 (got -1)"
    QByteArray param; // the field, for OpenAI's error.param
};

// creating: name is required. The limits go up to MaxLimit (the usage windows count to 2^32).
inline constexpr qint64 MaxLimit = 1'000'000'000;
Expected<KeyChange, KeyJsonError> parseKeyChange(QByteArrayView body, bool creating);

nlohmann::ordered_json keyToJson(const VirtualKey &key, const KeyUsage::Snapshot *usage, qint64 nowMs);

// The client's side (the panel's remote link): a change as the body of POST/PATCH, and the answers read
// back. A listing's fields the gateway did not send keep their defaults; the wrong shape is an error.
QByteArray keyChangeToJson(const KeyChange &change);
Expected<KeyListing, QString> keyListingFromJson(const nlohmann::json &value);
Expected<std::vector<KeyListing>, QString> parseKeyList(QByteArrayView body);
struct CreatedKey
{
    KeyListing listing;
    QString secret;
};
Expected<CreatedKey, QString> parseCreatedKey(QByteArrayView body);

// The whole key as gateway replicas share it through Redis (keys/sharedlimits.h): the SHA-256 of its
// secret (never the secret), times in ms. Read back: nullopt for anything that is not such a record.
QByteArray keyRecordToJson(const VirtualKey &key);
std::optional<VirtualKey> keyRecordFromJson(QByteArrayView text);

// "2026-12-04T15:30:00Z" (UTC, seconds), or nullopt for a string that is not RFC 3339.
std::optional<qint64> parseTimestamp(const QString &text);
QString formatTimestamp(qint64 ms);

} // namespace switchyard::keys
