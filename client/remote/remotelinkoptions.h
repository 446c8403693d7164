#pragma once

// Where a remote gateway is and how patiently the panel talks to it. The defaults are the product's:
// status twice a second, a few seconds for any answer, reconnect tries from 0.5 s doubling to 10 s.

#include <QString>
#include <QUrl>

namespace switchyard::client {

struct RemoteLinkOptions
{
    QUrl url;         // the gateway, e.g. https://gw.lan:8080
    QString adminKey; // sent as Authorization: Bearer; never logged, never in a reason
    // https: the gateway certificate's SHA-256 (32 bytes, upstream::parseFingerprint) that the operator
    // accepted, for a gateway whose certificate the system does not trust (self-signed). Empty = none.
    QByteArray pinnedSha256;
    int pollIntervalMs = 500;
    int connectTimeoutMs = 3000;
    int requestTimeoutMs = 5000;   // status, request log, commands
    int slowRequestTimeoutMs = 30000; // an hour of history, applying a config
    int backoffInitialMs = 500;
    int backoffMaxMs = 10000;
};

// The size caps of the answers the panel reads: generous for what a gateway sends, small enough that
// something else on the port cannot fill the panel's memory.
inline constexpr qsizetype MaxStatusBytes = 4 << 20;
inline constexpr qsizetype MaxRequestsBytes = 8 << 20;  // 1,000 records
inline constexpr qsizetype MaxHistoryBytes = 16 << 20;  // an hour of a node and the gateway
inline constexpr qsizetype MaxConfigBytes = 16 << 20;   // the loader's own cap
inline constexpr qsizetype MaxCommandBytes = 256 << 10; // a PUT's answer with its problems, a node action
inline constexpr qsizetype MaxKeysBytes = 16 << 20;     // 10,000 keys with their usage, about 6 MiB

} // namespace switchyard::client
