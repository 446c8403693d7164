#include "configdiff.h"

using namespace Qt::Literals::StringLiterals;

namespace switchyard::config {

namespace {

double totalWeight(const ProviderConfig &p)
{
    double w = 0;
    for (const KeyConfig &k : p.keys) {
        if (k.enabled)
            w += k.weight;
    }
    return w;
}

bool sameKeys(const ProviderConfig &a, const ProviderConfig &b)
{
    if (a.keys.size() != b.keys.size())
        return false;
    for (size_t i = 0; i < a.keys.size(); ++i) {
        const KeyConfig &x = a.keys[i], &y = b.keys[i];
        if (x.name != y.name || x.value != y.value || x.models != y.models || x.enabled != y.enabled)
            return false;
    }
    return true;
}

bool sameNetwork(const NetworkConfig &a, const NetworkConfig &b)
{
    return a.baseUrl == b.baseUrl && a.requestTimeoutSeconds == b.requestTimeoutSeconds && a.maxRetries == b.maxRetries
           && a.retryBackoffInitialMs == b.retryBackoffInitialMs && a.retryBackoffMaxMs == b.retryBackoffMaxMs
           && a.streamIdleTimeoutSeconds == b.streamIdleTimeoutSeconds && a.extraHeaders == b.extraHeaders;
}

bool sameAllowed(const AllowedRequests &a, const AllowedRequests &b)
{
    return a.chatCompletion == b.chatCompletion && a.chatCompletionStream == b.chatCompletionStream
           && a.textCompletion == b.textCompletion && a.textCompletionStream == b.textCompletionStream
           && a.embedding == b.embedding && a.listModels == b.listModels
           && a.responses == b.responses && a.responsesStream == b.responsesStream // Responses and Messages APIs
           && a.countTokens == b.countTokens
           // vLLM's own endpoints and audio uploads
           && a.transcription == b.transcription && a.transcriptionStream == b.transcriptionStream
           && a.translation == b.translation && a.translationStream == b.translationStream && a.rerank == b.rerank
           && a.tokenize == b.tokenize && a.score == b.score && a.pooling == b.pooling && a.classify == b.classify;
}

// The files and what they held: a certificate renewed in place (same path) is a change too.
bool sameTls(const TlsSettings &a, const TlsSettings &b)
{
    return a.certFile == b.certFile && a.keyFile == b.keyFile && a.handshakeTimeoutMs == b.handshakeTimeoutMs
           && a.certificateChain == b.certificateChain && a.privateKey == b.privateKey;
}

bool sameSettings(const GatewaySettings &a, const GatewaySettings &b)
{
    return a.listenHost == b.listenHost && a.listenPort == b.listenPort && a.workerThreads == b.workerThreads
           && a.maxConnections == b.maxConnections && a.maxRequestBodyBytes == b.maxRequestBodyBytes
           && a.headerTimeoutMs == b.headerTimeoutMs && a.idleTimeoutMs == b.idleTimeoutMs
           && a.connectTimeoutMs == b.connectTimeoutMs && a.responseHeaderTimeoutMs == b.responseHeaderTimeoutMs
           && a.drainTimeoutMs == b.drainTimeoutMs && a.healthCheckIntervalMs == b.healthCheckIntervalMs
           && a.ejectionConsecutiveFailures == b.ejectionConsecutiveFailures
           && a.ejectionCooldownMs == b.ejectionCooldownMs && a.ejectionCooldownMaxMs == b.ejectionCooldownMaxMs
           && a.ejectionErrorRate == b.ejectionErrorRate && a.ejectionErrorRateMinRequests == b.ejectionErrorRateMinRequests
           && a.ejectionErrorRateWindowMs == b.ejectionErrorRateWindowMs
           && a.defaultStrategy == b.defaultStrategy && a.strategyByModel == b.strategyByModel
           && a.affinity == b.affinity
           && a.apiKeys == b.apiKeys && a.adminKeys == b.adminKeys && a.metricsWithoutKey == b.metricsWithoutKey && a.allowUnauthenticatedNetworkAccess == b.allowUnauthenticatedNetworkAccess
           && a.corsOrigins == b.corsOrigins && sameTls(a.tls, b.tls) && a.history == b.history
           && a.redisUrl == b.redisUrl;
}

// From → to for the provider settings an operator most often changes by hand.
QString networkDetails(const NetworkConfig &a, const NetworkConfig &b)
{
    QStringList parts;
    if (a.baseUrl != b.baseUrl)
        parts << u"base URL: "_s % a.baseUrl % u" → "_s % b.baseUrl;
    if (a.requestTimeoutSeconds != b.requestTimeoutSeconds)
        parts << u"timeout: "_s % QString::number(a.requestTimeoutSeconds) % u" s → "_s
                     % QString::number(b.requestTimeoutSeconds) % u" s"_s;
    if (a.maxRetries != b.maxRetries)
        parts << u"retries: "_s % QString::number(a.maxRetries) % u" → "_s % QString::number(b.maxRetries);
    return parts.join(u"; "_s);
}

// The address as an operator types it; the scheme only when TLS is on, since that is what changes for
// clients then.
QString listenText(const GatewaySettings &s)
{
    const QString host = s.listenHost.contains(u':') ? u'[' % s.listenHost % u']' : s.listenHost;
    const QString address = host % u':' % QString::number(s.listenPort);
    return s.tls.enabled() ? u"https://"_s % address : address;
}

} // namespace

ConfigChanges diffConfigs(const GatewayConfig &before, const GatewayConfig &after)
{
    ConfigChanges c;
    for (const ProviderConfig &p : after.providers) {
        const ProviderConfig *old = before.provider(p.name);
        if (!old) {
            c.added << p.name;
            continue;
        }
        const double w0 = totalWeight(*old), w1 = totalWeight(p);
        if (w0 != w1)
            c.reweighted << p.name % u": "_s % QString::number(w0) % u" → "_s % QString::number(w1);
        bool keysDiffer = !sameKeys(*old, p);
        if (keysDiffer && w0 != w1) {
            // Re-weighting alone is already said; other key changes are worth saying too.
            ProviderConfig reweightedOld = *old;
            for (size_t i = 0; i < reweightedOld.keys.size() && i < p.keys.size(); ++i)
                reweightedOld.keys[i].weight = p.keys[i].weight;
            keysDiffer = !sameKeys(reweightedOld, p);
        }
        if (keysDiffer || !sameNetwork(old->network, p.network) || !sameAllowed(old->allowed, p.allowed)
            || old->streamUsage != p.streamUsage || old->concurrency != p.concurrency || old->bufferSize != p.bufferSize) {
            c.changed << p.name;
            c.changedDetails << networkDetails(old->network, p.network);
        }
    }
    for (const ProviderConfig &p : before.providers) {
        if (!after.provider(p.name))
            c.removed << p.name;
    }
    c.settingsChanged = !sameSettings(before.settings, after.settings);
    c.listenChanged = before.settings.listenHost != after.settings.listenHost
                      || before.settings.listenPort != after.settings.listenPort
                      || !sameTls(before.settings.tls, after.settings.tls); // http ↔ https, or another certificate
    if (c.listenChanged) {
        c.listenBefore = listenText(before.settings);
        c.listenAfter = listenText(after.settings);
    }
    return c;
}

QString ConfigChanges::summary() const
{
    QStringList parts;
    if (!added.isEmpty())
        parts << u"added "_s % added.join(u", "_s);
    if (!removed.isEmpty())
        parts << u"removed "_s % removed.join(u", "_s);
    if (!reweighted.isEmpty())
        parts << u"re-weighted "_s % reweighted.join(u", "_s);
    if (!changed.isEmpty()) {
        QStringList named;
        for (qsizetype i = 0; i < changed.size(); ++i) {
            const QString detail = changedDetails.value(i);
            named << (detail.isEmpty() ? changed[i] : changed[i] % u" ("_s % detail % u')');
        }
        parts << u"changed "_s % named.join(u", "_s);
    }
    if (listenChanged && listenBefore == listenAfter)
        parts << u"TLS certificate or key changed ("_s % listenAfter % u')'; // same address, renewed files
    else if (listenChanged)
        parts << u"listen address: "_s % listenBefore % u" → "_s % listenAfter;
    else if (settingsChanged)
        parts << u"gateway settings changed"_s;
    return parts.isEmpty() ? u"no changes"_s : parts.join(u"; "_s);
}

} // namespace switchyard::config
