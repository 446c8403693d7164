#include "proxy/keyadmission.h"

#include "proxy/dispatcher.h"

#include <algorithm>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::proxy {

namespace {

// The key may use the model when it lists it, as asked or without the provider of a pin.
bool modelAllowed(const keys::VirtualKey &key, QByteArrayView model)
{
    if (key.models.isEmpty() || model.isEmpty())
        return true;
    const QString asked = QString::fromUtf8(model);
    const qsizetype slash = asked.indexOf(u'/');
    return key.models.contains(asked) || (slash > 0 && key.models.contains(asked.mid(slash + 1)));
}

// Takes the providers the key may not reach out of a target's candidates.
void narrowToProviders(const keys::VirtualKey &key, const routing::RoutingTable &table, Target &target)
{
    if (key.providers.isEmpty())
        return;
    std::erase_if(target.route.candidates, [&](const routing::PoolEntry &e) {
        return !key.providers.contains(table.nodes()[size_t(e.node)].name);
    });
}

QString keyLabel(const keys::VirtualKey &key)
{
    return u"'"_s % key.name % u"' ("_s % key.id % u')';
}

// OpenAI's x-ratelimit-* headers for the limits the key has (the SDKs read them to pace themselves).
QByteArray rateLimitHeaders(const keys::KeyUsage::Verdict &v)
{
    QByteArray h;
    if (v.requestsLimit > 0) {
        h += "x-ratelimit-limit-requests: " + QByteArray::number(v.requestsLimit) + "\r\n";
        h += "x-ratelimit-remaining-requests: " + QByteArray::number(v.requestsRemaining) + "\r\n";
        h += "x-ratelimit-reset-requests: " + resetText(v.requestsResetMs) + "\r\n";
    }
    if (v.tokensLimit > 0) {
        h += "x-ratelimit-limit-tokens: " + QByteArray::number(v.tokensLimit) + "\r\n";
        h += "x-ratelimit-remaining-tokens: " + QByteArray::number(v.tokensRemaining) + "\r\n";
        h += "x-ratelimit-reset-tokens: " + resetText(v.tokensResetMs) + "\r\n";
    }
    return h;
}

LocalResponse limitRefusal(const keys::VirtualKey &key, const keys::KeyUsage::Verdict &v)
{
    QString what;
    switch (v.refusedBy) {
    case keys::KeyUsage::Limit::RequestsPerMinute:
        what = QString::number(key.limits.requestsPerMinute) % u" requests per minute"_s;
        break;
    case keys::KeyUsage::Limit::TokensPerMinute:
        what = QString::number(key.limits.tokensPerMinute) % u" tokens per minute"_s;
        break;
    case keys::KeyUsage::Limit::TokensPerDay:
        what = QString::number(key.limits.tokensPerDay) % u" tokens per day (UTC)"_s;
        break;
    case keys::KeyUsage::Limit::Concurrency:
        what = QString::number(key.limits.maxConcurrent) % u" requests at once"_s;
        break;
    case keys::KeyUsage::Limit::None:
        break;
    }
    const qint64 retryS = std::max<qint64>(1, (v.retryAfterMs + 999) / 1000);
    LocalResponse r = errorResponse(429,
                                    u"Rate limit reached for the key "_s % keyLabel(key) % u": "_s % what %
                                        u". Try again in "_s % QString::fromLatin1(resetText(v.retryAfterMs)) % u'.',
                                    "rate_limit_exceeded", keys::limitName(v.refusedBy));
    r.headerLines += "Retry-After: " + QByteArray::number(retryS) + "\r\n" + rateLimitHeaders(v);
    return r;
}

} // namespace

QByteArray resetText(qint64 ms)
{
    if (ms < 1000)
        return QByteArray::number(std::max<qint64>(0, ms)) + "ms";
    const qint64 s = (ms + 999) / 1000;
    QByteArray out;
    if (s >= 3600)
        out += QByteArray::number(s / 3600) + 'h';
    if (s >= 60)
        out += QByteArray::number(s / 60 % 60) + 'm';
    out += QByteArray::number(s % 60) + 's';
    return out;
}

std::optional<LocalResponse> admitKey(const ExchangeContext &context, QByteArrayView model, std::vector<Target> &targets,
                                      std::optional<KeyHold> &hold)
{
    if (!context.key || !context.control || !context.control->keys)
        return std::nullopt;
    const keys::VirtualKey &key = context.key->key;
    if (!modelAllowed(key, model)) {
        return errorResponse(403, u"The key "_s % keyLabel(key) % u" may not use the model '"_s %
                                      QString::fromUtf8(model) % u"'; it may use: "_s % key.models.join(u", "_s),
                             "model_not_allowed", "model");
    }
    // Fallback models the key may not use are dropped; the model asked for must stay reachable.
    if (!targets.empty()) {
        for (Target &t : targets)
            narrowToProviders(key, *context.table, t);
        if (targets.front().route.candidates.empty()) {
            return errorResponse(403, u"The key "_s % keyLabel(key) % u" may not reach any provider serving '"_s %
                                          QString::fromUtf8(model) % u"'; it may reach: "_s % key.providers.join(u", "_s),
                                 "provider_not_allowed", "model");
        }
        std::erase_if(targets, [&key](const Target &t) {
            return t.route.candidates.empty() || !modelAllowed(key, t.label.toUtf8());
        });
    }
    const keys::KeyUsage::Verdict v = context.key->usage->admit(key.limits, context.control->keys->nowMs());
    if (!v.admitted())
        return limitRefusal(key, v);
    hold.emplace(KeyHold{keys::KeyCharge(context.key, context.control->keys), rateLimitHeaders(v)});
    return std::nullopt;
}

} // namespace switchyard::proxy
