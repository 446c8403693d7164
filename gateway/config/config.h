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
enum class RequestKind {
    ChatCompletion, ChatCompletionStream, TextCompletion, TextCompletionStream, Embedding, ListModels,
    // The Responses and Messages APIs (docs/ENDPOINTS.md): Bifrost's own names. Bifrost serves Anthropic's
    // Messages API as a Responses request, so /v1/messages answers to responses and responses_stream too.
    Responses, ResponsesStream, CountTokens,
    // vLLM's own endpoints and audio uploads (docs/GATEWAY.md). Bifrost's keys: transcription,
    // transcription_stream, rerank; Switchyard's where Bifrost has none: translation, translation_stream,
    // tokenize (also /detokenize), score, pooling, classify.
    Transcription, TranscriptionStream, Translation, TranslationStream, Rerank, Tokenize, Score, Pooling, Classify,
};

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
    // The Responses and Messages APIs.
    bool responses = true;
    bool responsesStream = true;
    bool countTokens = true;
    // vLLM's own endpoints and audio uploads.
    bool transcription = true;
    bool transcriptionStream = true;
    bool translation = true;
    bool translationStream = true;
    bool rerank = true;
    bool tokenize = true;
    bool score = true;
    bool pooling = true;
    bool classify = true;

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
    // custom_provider_config.stream_usage (Switchyard's own): false = never add stream_options to this
    // node's streams, for a server that refuses the member; its streamed tokens are then estimated.
    bool streamUsage = true;
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

enum class RoutingStrategy { WeightedRoundRobin, LeastOutstanding, LoadAware, SessionAffinity, CacheAware };

// The config name of a strategy ("weighted_round_robin" …) and back.
const char *strategyName(RoutingStrategy strategy);

// switchyard.routing's settings of session_affinity and cache_aware (docs/ROUTING.md says why these
// defaults: SGLang's router's rules, with balance thresholds for pools of a few nodes).
struct AffinitySettings
{
    QByteArray sessionHeader = "x-session-id";          // lower case; compared with the request's headers
    RoutingStrategy fallbackStrategy = RoutingStrategy::WeightedRoundRobin; // session_affinity without a key
    double cacheThreshold = 0.5;      // share of the prompt a node must have seen for cache_aware to follow it
    int balanceAbsThreshold = 4;      // …unless the loads differ by more than this many requests
    double balanceRelThreshold = 1.5; // …and the busiest has more than this times the idlest's load
    qint64 cacheIndexMaxEntries = 200000; // blocks of 64 prompt bytes remembered, all nodes and models
    qint64 cacheIndexMaxAgeMs = 600000;   // a block not seen for this long is forgotten

    friend bool operator==(const AffinitySettings &, const AffinitySettings &) = default;
};

// Switchyard's own settings: the top-level `switchyard` object. Every field has a safe default.
// switchyard.history: every request's record and per-minute sums kept in SQLite (docs/HISTORY.md), and
// the virtual keys with them. Off (memory only, the last 1000 requests) unless a path is set.
struct HistorySettings
{
    QString path;                        // absolute; empty = off
    int maxAgeDays = 30;
    qint64 maxSizeMb = 1024;

    bool enabled() const { return !path.isEmpty(); }
    friend bool operator==(const HistorySettings &, const HistorySettings &) = default;
};

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
    AffinitySettings affinity;
    QStringList apiKeys;                 // when set, clients must send Authorization: Bearer <one of them>
    // Keys that may also use the management API and /metrics; client keys may not (docs/SECURITY.md).
    QStringList adminKeys;
    // "env.NAME" as written, by position in apiKeys / adminKeys (empty or missing: a literal key). The
    // masked config shows the reference and a masked round trip writes it back, so a key kept in the
    // environment never lands in the config file.
    QStringList apiKeyRefs;
    QStringList adminKeyRefs;
    bool metricsWithoutKey = false;      // /metrics open to anyone who reaches it (a trusted Prometheus)
    // The key the panel's own chat console and benchmark send to this gateway: a client key, else an
    // admin key (which may use the OpenAI endpoints too), else none.
    QString ownToolsKey() const { return !apiKeys.isEmpty() ? apiKeys.first() : adminKeys.value(0); }
    // Listening beyond loopback without api_keys or admin_keys is refused unless this is set.
    bool allowUnauthenticatedNetworkAccess = false;
    QStringList corsOrigins;             // browser origins allowed to call the gateway; "*" = any; empty = CORS off
    TlsSettings tls;                     // off unless switchyard.tls is set
    HistorySettings history;             // off unless switchyard.history.path is set
    // Redis that gateway replicas share the virtual keys and their limits through (keys/sharedlimits.h,
    // docs/KEYS.md); empty = each gateway on its own. redisUrlRef: "env.NAME" as written (the URL, which
    // may hold a password, then stays out of the config file), else empty.
    QString redisUrl;
    QString redisUrlRef;
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
