#include "simoptions.h"

using namespace Qt::Literals::StringLiterals;

namespace switchyard::sim {

QString faultModeName(FaultMode mode)
{
    switch (mode) {
    case FaultMode::Healthy: return u"healthy"_s;
    case FaultMode::Error500: return u"error500"_s;
    case FaultMode::Hang: return u"hang"_s;
    case FaultMode::Refuse: return u"refuse"_s;
    case FaultMode::DropStream: return u"drop-stream"_s;
    case FaultMode::Slow: return u"slow"_s;
    case FaultMode::EngineDead: return u"dead"_s;
    case FaultMode::Garbage: return u"garbage"_s;
    }
    return u"healthy"_s;
}

std::optional<FaultMode> parseFaultMode(QStringView name)
{
    QString n = name.trimmed().toString().toLower();
    n.replace(u'_', u'-');
    if (n == u"engine-dead")
        return FaultMode::EngineDead;
    if (n == u"error-500" || n == u"error")
        return FaultMode::Error500;
    for (FaultMode m : {FaultMode::Healthy, FaultMode::Error500, FaultMode::Hang, FaultMode::Refuse,
                        FaultMode::DropStream, FaultMode::Slow, FaultMode::EngineDead, FaultMode::Garbage}) {
        if (n == faultModeName(m))
            return m;
    }
    return std::nullopt;
}

QString validateOptions(const SimNodeOptions &o)
{
    if (o.models.isEmpty())
        return u"at least one served model name is required"_s;
    for (const QString &m : o.models) {
        if (m.trimmed().isEmpty())
            return u"served model names must not be empty"_s;
    }
    if (o.maxModelLen < 16)
        return u"max model length must be at least 16"_s;
    const PerformanceParams &p = o.performance;
    if (!(p.tokensPerSecond > 0) || !(p.prefillTokensPerSecond > 0))
        return u"token rates must be positive"_s;
    if (!(p.concurrencyExponent > 0) || p.concurrencyExponent > 1)
        return u"the concurrency exponent must be in (0, 1]"_s;
    if (p.ttftBaseMs < 0)
        return u"the base time to first token must not be negative"_s;
    if (p.maxNumSeqs < 1)
        return u"max-num-seqs must be at least 1"_s;
    // vLLM refuses to start when one full-length sequence cannot fit the KV cache; so do we, which also
    // guarantees the scheduler can always admit the head of the queue.
    if (p.kvCacheTokens < o.maxModelLen)
        return u"the KV cache (%1 tokens) must hold at least one max-length sequence (%2 tokens)"_s
            .arg(p.kvCacheTokens)
            .arg(o.maxModelLen);
    if (o.text.meanOutputTokens < 1 || o.text.reasoningTokens < 0 || o.text.embeddingDimensions < 1)
        return u"text options out of range"_s;
    if (o.keepAliveTimeoutMs < 1)
        return u"the keep-alive timeout must be positive"_s;
    const FaultParams &f = o.faultParams;
    if (f.errorFraction < 0 || f.errorFraction > 1)
        return u"the error fraction must be in [0, 1]"_s;
    if (f.dropAfterTokens < 0 || !(f.slowFactor > 0) || f.refuseMs < 0)
        return u"fault parameters out of range"_s;
    return {};
}

} // namespace switchyard::sim
