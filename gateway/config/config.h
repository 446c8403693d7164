#pragma once

// The gateway's configuration as plain values. It is read from a Bifrost-compatible JSON file: the
// `providers` section follows Bifrost's schema (see docs/CONFIG.md), and everything Switchyard adds lives
// in one extra top-level object, `switchyard`, so `providers` stays exportable to Bifrost unchanged.
// A GatewayConfig is immutable once loaded; the gateway swaps whole configs, never edits one in place.

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QSslCertificate>
#include <QSslKey>
#include <QString>
#include <QStringList>
#include <utility>
#include <vector>

namespace switchyard::config {

// The request types of Bifrost's `allowed_requests`, as the gateway classifies incoming requests.
enum class RequestKind { ChatCompletion, ChatCompletionStream, TextCompletion, TextCompletionStream, Embedding, ListModels };

// The `allowed_requests` flag name for a kind, e.g. "chat_completion_stream".
const char *flagName(RequestKind kind);

struct AllowedRequests
{
    // Absent `allowed_requests` allows everything; a present one allows only the flags set to true, and a
    // missing `*_stream` flag follows its non-stream flag (so the article's two-node config streams).
    bool chatCompletion = true;
    bool chatCompletionStream = true;
    bool textCompletion = true;
    bool textCompletionStream = true;
    bool embedding = true;
    bool listModels = true;

    bool allows(RequestKind kind) const;
};

struct KeyConfig
{
    QString name;
    QString value;     // resolved secret (from the environment for "env.NAME"); empty = no Authorization
    QString valueRef;  // "env.NAME" as written, or empty for a literal value
    QStringList models; // "*" = every model; empty = none
    double weight = 1.0;
    bool enabled = true;

    bool servesModel(const QString &model) const { return models.contains(model) || models.contains(QStringLiteral("*")); }
};

struct NetworkConfig
{
    QString baseUrl;                   // e.g. "http://192.168.200.101:8030" (no trailing slash)
    int requestTimeoutSeconds = 30;    // default_request_timeout_in_seconds
    int maxRetries = 0;                // max_retries
    int retryBackoffInitialMs = 500;   // retry_backoff_initial
    int retryBackoffMaxMs = 5000;      // retry_backoff_max
    int streamIdleTimeoutSeconds = 60; // stream_idle_timeout_in_seconds
    std::vector<std::pair<QByteArray, QByteArray>> extraHeaders;
};

struct ProviderConfig
{
    QString name;
    std::vector<KeyConfig> keys;
    NetworkConfig network;
    QString baseProviderType = QStringLiteral("openai");
    AllowedRequests allowed;
    int concurrency = 1000;  // concurrency_and_buffer_size.concurrency
    int bufferSize = 5000;   // concurrency_and_buffer_size.buffer_size
};

// switchyard.tls: the listener serves HTTPS with this certificate. The files are read when the config
// is, so a missing or mismatched file is a config problem, not a failed handshake later; a certificate
// renewed in place is picked up by the next reload.
struct TlsSettings
{
    QString certFile;                        // absolute path; PEM, the server's certificate first, then the chain
    QString keyFile;                         // absolute path; PEM, unencrypted RSA or EC key
    QList<QSslCertificate> certificateChain; // as read from certFile
    QSslKey privateKey;                      // as read from keyFile
    int handshakeTimeoutMs = 10000;          // a client that has not finished its handshake by then is closed

    bool enabled() const { return !certFile.isEmpty(); }
};

enum class RoutingStrategy { WeightedRoundRobin, LeastOutstanding, LoadAware };

// Switchyard's own settings: the top-level `switchyard` object. Every field has a safe default.
struct GatewaySettings
{
    QString listenHost = QStringLiteral("127.0.0.1");
    quint16 listenPort = 8080;
    int workerThreads = 0;               // 0 = one per core
    int maxConnections = 4096;           // open client connections; more are accepted and closed at once
    qint64 maxRequestBodyBytes = 32LL * 1024 * 1024;
    int headerTimeoutMs = 10000;         // a request head (or body) must arrive within this
    int idleTimeoutMs = 60000;           // keep-alive connections with no request are closed after this
    int connectTimeoutMs = 5000;         // upstream TCP (and TLS) connect
    int responseHeaderTimeoutMs = 0;     // upstream response head; 0 = the provider's request timeout
    int drainTimeoutMs = 30000;          // graceful stop: in-flight requests get this long to finish
    int healthCheckIntervalMs = 5000;
    int ejectionConsecutiveFailures = 3; // failed attempts in a row that eject a node
    int ejectionCooldownMs = 5000;       // first ejection; doubles on each failed trial…
    int ejectionCooldownMaxMs = 60000;   // …up to this
    double ejectionErrorRate = 0.5;      // share of failed attempts in the window that ejects; 0 = off
    int ejectionErrorRateMinRequests = 10;
    int ejectionErrorRateWindowMs = 10000;
    RoutingStrategy defaultStrategy = RoutingStrategy::WeightedRoundRobin;
    QMap<QString, RoutingStrategy> strategyByModel;
    QStringList apiKeys;                 // when set, clients must send Authorization: Bearer <one of them>
    // Keys that may also use the management API and /metrics; client keys may not (docs/SECURITY.md).
    QStringList adminKeys;
    bool metricsWithoutKey = false;      // /metrics open to anyone who reaches it (a trusted Prometheus)
    // The key the panel's own chat console and benchmark send to this gateway: a client key, else an
    // admin key (which may use the OpenAI endpoints too), else none.
    QString ownToolsKey() const { return !apiKeys.isEmpty() ? apiKeys.first() : adminKeys.value(0); }
    // Listening beyond loopback without api_keys or admin_keys is refused unless this is set.
    bool allowUnauthenticatedNetworkAccess = false;
    QStringList corsOrigins;             // browser origins allowed to call the gateway; "*" = any; empty = CORS off
    TlsSettings tls;                     // off unless switchyard.tls is set
};

struct GatewayConfig
{
    std::vector<ProviderConfig> providers;
    GatewaySettings settings;

    const ProviderConfig *provider(const QString &name) const
    {
        for (const ProviderConfig &p : providers) {
            if (p.name == name)
                return &p;
        }
        return nullptr;
    }
};

} // namespace switchyard::config
