#pragma once

// A virtual key: one person's or one service's key to the gateway's OpenAI endpoints, made and revoked
// with an admin key (POST/PATCH/DELETE /api/keys), with its own limits and usage. The gateway keeps only
// the SHA-256 of its secret; the secret itself is shown once, when the key is made. The static
// `switchyard.api_keys` of the config keep working beside them, without limits.

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace switchyard::keys {

struct KeyLimits
{
    // 0 = no limit.
    qint64 requestsPerMinute = 0;
    qint64 tokensPerMinute = 0; // prompt + completion tokens
    qint64 tokensPerDay = 0;
    qint64 maxConcurrent = 0; // requests in flight at once

    friend bool operator==(const KeyLimits &, const KeyLimits &) = default;
};

struct VirtualKey
{
    QString id;                // "vk_" and 16 hex digits: public, names the key in URLs, logs and history
    QString name;              // who or what it is for, e.g. "ci-pipeline"
    QByteArray secretSha256;   // 32 bytes: SHA-256 of the secret as the client sends it
    QString secretHint;        // the secret's first 7 characters and its last 4 ("sy-a1b2…9f0e"), to recognise it
    QStringList models;        // models it may use; empty = every model
    QStringList providers;     // providers (nodes) it may reach; empty = every provider
    KeyLimits limits;
    qint64 createdMs = 0;      // ms since the epoch
    qint64 expiresMs = 0;      // 0 = never
    qint64 revokedMs = 0;      // 0 = not revoked; a revoked key is refused from the next request on

    bool isActive(qint64 nowMs) const { return revokedMs == 0 && (expiresMs == 0 || nowMs < expiresMs); }
    friend bool operator==(const VirtualKey &, const VirtualKey &) = default;
};

} // namespace switchyard::keys
