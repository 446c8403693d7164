#include "simnodecli.h"

#include <QCommandLineParser>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::sim {

void addSimNodeOptions(QCommandLineParser &p)
{
    const SimNodeOptions d;
    const PerformanceParams &pd = d.performance;
    p.addOptions({
        {u"listen"_s, u"Address to listen on (default 127.0.0.1:8000; port 0 = ephemeral)."_s, u"host:port"_s},
        {u"model"_s, u"Served model name; repeat for aliases (the first labels /metrics)."_s, u"name"_s},
        {u"name"_s, u"Label for logs (default: the first model name)."_s, u"label"_s},
        {u"max-model-len"_s, u"Context length (default %1)."_s.arg(d.maxModelLen), u"tokens"_s},
        {u"api-key"_s, u"Require 'Authorization: Bearer KEY' on /v1/* (like vLLM --api-key)."_s, u"key"_s},
        {u"vllm-version"_s, u"What GET /version reports (default %1)."_s.arg(d.vllmVersion), u"x.y.z"_s},
        {u"tokens-per-second"_s, u"R1: decode speed of a single request (default %1)."_s.arg(pd.tokensPerSecond), u"rate"_s},
        {u"concurrency-exponent"_s,
         u"Alpha in total(n) = R1 * n^alpha (default %1 = ln(28/15)/ln 5)."_s.arg(pd.concurrencyExponent, 0, 'f', 4),
         u"alpha"_s},
        {u"ttft-ms"_s, u"Base time to first token (default %1)."_s.arg(pd.ttftBaseMs), u"ms"_s},
        {u"prefill-tokens-per-second"_s, u"Prompt processing speed (default %1)."_s.arg(pd.prefillTokensPerSecond), u"rate"_s},
        {u"max-num-seqs"_s, u"Sequences in the batch; more wait (default %1)."_s.arg(pd.maxNumSeqs), u"n"_s},
        {u"kv-cache-tokens"_s, u"KV cache capacity in tokens (default %1)."_s.arg(pd.kvCacheTokens), u"tokens"_s},
        {u"no-prefix-caching"_s, u"Turn the automatic prefix cache off (like vLLM --no-enable-prefix-caching)."_s},
        {u"output-tokens"_s, u"Mean natural completion length (default %1)."_s.arg(d.text.meanOutputTokens), u"tokens"_s},
        {u"seed"_s, u"Deterministic text: the same request gets the same answer."_s, u"n"_s},
        {u"reasoning-tokens"_s, u"reasoning_content tokens before each chat answer (default 0)."_s, u"n"_s},
        {u"embedding-dim"_s, u"Embedding vector size (default %1)."_s.arg(d.text.embeddingDimensions), u"n"_s},
        {u"keep-alive-timeout-ms"_s, u"Idle keep-alive timeout (default %1, uvicorn's 5 s)."_s.arg(d.keepAliveTimeoutMs), u"ms"_s},
        {u"access-log"_s, u"Log one line per request."_s},
        {u"no-stream-usage"_s, u"Never report usage in a stream, even with stream_options.include_usage."_s},
        {u"refuse-stream-options"_s, u"Answer 400 to a request with stream_options (a server that forbids unknown members)."_s},
        {u"fault"_s, u"Start in a fault mode: healthy|error500|hang|refuse|drop-stream|slow|dead|garbage."_s, u"mode"_s},
        {u"error-fraction"_s, u"error500: share of requests that fail (default 1)."_s, u"0..1"_s},
        {u"drop-after-tokens"_s, u"drop-stream: tokens sent before the cut (default 8)."_s, u"n"_s},
        {u"slow-factor"_s, u"slow: multiplier of every model duration (default 4)."_s, u"x"_s},
        {u"refuse-ms"_s, u"refuse: listen again after this long (default 0 = never)."_s, u"ms"_s},
    });
}

namespace {

template <typename T>
bool readNumber(const QCommandLineParser &p, const QString &name, T &out, QString &error)
{
    if (!p.isSet(name))
        return true;
    bool ok = false;
    const QString v = p.value(name);
    if constexpr (std::is_floating_point_v<T>)
        out = T(v.toDouble(&ok));
    else if constexpr (std::is_unsigned_v<T>)
        out = T(v.toULongLong(&ok));
    else
        out = T(v.toLongLong(&ok));
    if (!ok)
        error = u"--%1: not a number: %2"_s.arg(name, v);
    return ok;
}

} // namespace

Expected<SimNodeOptions, QString> simNodeOptionsFrom(const QCommandLineParser &p)
{
    SimNodeOptions o;
    o.port = 8000;
    if (p.isSet(u"listen"_s)) {
        const QString listen = p.value(u"listen"_s);
        const qsizetype colon = listen.lastIndexOf(u':');
        bool ok = false;
        const uint port = colon < 0 ? 0 : listen.sliced(colon + 1).toUInt(&ok);
        if (colon < 0 || !ok || port > 65535)
            return unexpected(u"--listen wants HOST:PORT, got %1"_s.arg(listen));
        QString host = listen.first(colon);
        if (host.startsWith(u'[') && host.endsWith(u']'))
            host = host.sliced(1, host.size() - 2);
        o.host = host.isEmpty() ? u"0.0.0.0"_s : host;
        o.port = quint16(port);
    }
    o.models = p.values(u"model"_s);
    o.name = p.isSet(u"name"_s) ? p.value(u"name"_s) : o.models.value(0);
    if (p.isSet(u"api-key"_s))
        o.apiKey = p.value(u"api-key"_s);
    if (p.isSet(u"vllm-version"_s))
        o.vllmVersion = p.value(u"vllm-version"_s);
    o.accessLog = p.isSet(u"access-log"_s);
    o.streamUsage = !p.isSet(u"no-stream-usage"_s);
    o.refuseStreamOptions = p.isSet(u"refuse-stream-options"_s);
    o.performance.prefixCaching = !p.isSet(u"no-prefix-caching"_s);

    QString error;
    PerformanceParams &perf = o.performance;
    quint64 seed = 0;
    const bool ok = readNumber(p, u"max-model-len"_s, o.maxModelLen, error)
        && readNumber(p, u"tokens-per-second"_s, perf.tokensPerSecond, error)
        && readNumber(p, u"concurrency-exponent"_s, perf.concurrencyExponent, error)
        && readNumber(p, u"ttft-ms"_s, perf.ttftBaseMs, error)
        && readNumber(p, u"prefill-tokens-per-second"_s, perf.prefillTokensPerSecond, error)
        && readNumber(p, u"max-num-seqs"_s, perf.maxNumSeqs, error)
        && readNumber(p, u"kv-cache-tokens"_s, perf.kvCacheTokens, error)
        && readNumber(p, u"output-tokens"_s, o.text.meanOutputTokens, error)
        && readNumber(p, u"seed"_s, seed, error)
        && readNumber(p, u"reasoning-tokens"_s, o.text.reasoningTokens, error)
        && readNumber(p, u"embedding-dim"_s, o.text.embeddingDimensions, error)
        && readNumber(p, u"keep-alive-timeout-ms"_s, o.keepAliveTimeoutMs, error)
        && readNumber(p, u"error-fraction"_s, o.faultParams.errorFraction, error)
        && readNumber(p, u"drop-after-tokens"_s, o.faultParams.dropAfterTokens, error)
        && readNumber(p, u"slow-factor"_s, o.faultParams.slowFactor, error)
        && readNumber(p, u"refuse-ms"_s, o.faultParams.refuseMs, error);
    if (!ok)
        return unexpected(error);
    if (p.isSet(u"seed"_s))
        o.text.seed = seed;
    if (p.isSet(u"fault"_s)) {
        const auto mode = parseFaultMode(p.value(u"fault"_s));
        if (!mode)
            return unexpected(u"--fault: unknown mode %1"_s.arg(p.value(u"fault"_s)));
        o.fault = *mode;
    }
    if (const QString why = validateOptions(o); !why.isEmpty())
        return unexpected(why);
    return o;
}

} // namespace switchyard::sim
