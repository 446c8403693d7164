#include "keys/sharedlimits.h"

#include "keys/keyjson.h"

#include <QDebug>
#include <QSet>
#include <algorithm>
#include <chrono>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::keys {

namespace {

using redis::RedisReply;

constexpr qint64 MinuteMs = 60'000;
constexpr qint64 DayMs = 86'400'000;
constexpr int RetryFirstMs = 1000;
constexpr int RetryMaxMs = 10'000;

bool limitsWindows(const VirtualKey &k)
{
    return k.limits.requestsPerMinute > 0 || k.limits.tokensPerMinute > 0 || k.limits.tokensPerDay > 0;
}

// HGETALL's flat [field, value, field, value, …] as numbers by field.
QHash<QByteArray, qint64> countsOf(const RedisReply &reply)
{
    QHash<QByteArray, qint64> out;
    if (reply.kind != RedisReply::Kind::Array)
        return out;
    for (qsizetype i = 0; i + 1 < reply.elements.size(); i += 2)
        out.insert(reply.elements[i].string, reply.elements[i + 1].string.toLongLong());
    return out;
}

bool anyError(const QList<RedisReply> &replies, QString *why)
{
    for (const RedisReply &r : replies) {
        if (r.isError()) {
            *why = QString::fromUtf8(r.string.left(200));
            return true;
        }
    }
    return false;
}

} // namespace

SharedLimits::SharedLimits(std::shared_ptr<KeyRegistry> keys, redis::RedisAddress address, Options options,
                           std::function<void()> onStateChanged)
    : m_keys(std::move(keys)), m_address(std::move(address)), m_options(std::move(options)),
      m_onStateChanged(std::move(onStateChanged))
{
    m_keys->setChangeListener([this](const VirtualKey &key) {
        const std::lock_guard lock(m_mutex);
        m_changedHere.insert(key.id, key);
    });
    m_thread = std::thread([this] { run(); });
}

SharedLimits::~SharedLimits()
{
    m_keys->setChangeListener({});
    {
        const std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    m_thread.join();
}

SharedLimits::State SharedLimits::state() const
{
    const std::lock_guard lock(m_mutex);
    return m_state;
}

void SharedLimits::setState(bool shared, const QString &problem)
{
    bool changed = false;
    {
        const std::lock_guard lock(m_mutex);
        changed = m_state.shared != shared || m_state.problem != problem;
        m_state.shared = shared;
        m_state.problem = problem;
        if (shared)
            ++m_state.rounds;
    }
    if (!changed)
        return;
    // Once per change, not per round: a Redis that stays away does not fill the log.
    if (shared)
        qInfo().noquote() << "switchyard: limits of virtual keys shared through" << m_address.display();
    else
        qWarning().noquote() << "switchyard:" << problem;
    if (m_onStateChanged)
        m_onStateChanged();
}

void SharedLimits::run()
{
    redis::RedisConnection redis(m_address, m_options.timeoutMs);
    int retryMs = RetryFirstMs;
    for (;;) {
        int waitMs = m_options.intervalMs;
        if (!redis.isConnected()) {
            if (redis.connect()) {
                // A Redis that was away may have lost everything: tell it this gateway's keys again, and
                // read all of them back.
                m_ownKeysAnnounced = false;
                m_keysVersionSeen = -1;
                retryMs = RetryFirstMs;
            } else {
                waitMs = retryMs;
                retryMs = std::min(retryMs * 2, RetryMaxMs);
            }
        }
        if (redis.isConnected()) {
            if (round(redis)) {
                setState(true, {});
            } else {
                waitMs = RetryFirstMs;
            }
        }
        if (!redis.isConnected()) {
            setState(false, u"Redis at %1 cannot be reached (%2): each gateway counts the keys' limits on its "
                             "own until it is back"_s
                                .arg(m_address.display(), redis.lastError()));
        }
        std::unique_lock lock(m_mutex);
        if (m_wake.wait_for(lock, std::chrono::milliseconds(waitMs), [this] { return m_stop; }))
            return;
    }
}

bool SharedLimits::round(redis::RedisConnection &redis)
{
    if (!m_ownKeysAnnounced && !announceOwnKeys(redis))
        return false;
    return syncKeys(redis) && syncCounts(redis);
}

bool SharedLimits::announceOwnKeys(redis::RedisConnection &redis)
{
    // Keys this gateway knows that Redis may not (made before Redis was set, or while it was away).
    // A copy already there is newer or the same, so it stays, except that a revocation made here wins.
    QList<QList<QByteArray>> commands;
    for (const auto &[key, usage] : m_keys->entries()) {
        Q_UNUSED(usage);
        commands.append({key.revokedMs != 0 ? "HSET" : "HSETNX", name("keys"), key.id.toUtf8(), keyRecordToJson(key)});
    }
    if (!commands.isEmpty())
        commands.append({"INCR", name("keys:version")});
    if (!commands.isEmpty()) {
        const auto replies = redis.pipeline(commands);
        if (!replies)
            return false;
        QString why;
        if (anyError(*replies, &why)) {
            setState(false, u"Redis at %1 refused the keys: %2"_s.arg(m_address.display(), why));
            return false;
        }
    }
    m_ownKeysAnnounced = true;
    return true;
}

bool SharedLimits::syncKeys(redis::RedisConnection &redis)
{
    QHash<QString, VirtualKey> changed;
    {
        const std::lock_guard lock(m_mutex);
        changed.swap(m_changedHere);
    }
    QList<QList<QByteArray>> commands;
    for (const VirtualKey &key : std::as_const(changed))
        commands.append({"HSET", name("keys"), key.id.toUtf8(), keyRecordToJson(key)});
    if (!commands.isEmpty())
        commands.append({"INCR", name("keys:version")});
    commands.append({"GET", name("keys:version")});
    const auto keepForNextRound = [&] {
        const std::lock_guard lock(m_mutex);
        for (auto it = changed.cbegin(); it != changed.cend(); ++it) {
            if (!m_changedHere.contains(it.key())) // changed again since: the newer copy goes
                m_changedHere.insert(it.key(), it.value());
        }
    };
    const auto replies = redis.pipeline(commands);
    if (!replies) {
        keepForNextRound();
        return false;
    }
    QString why;
    if (anyError(*replies, &why)) {
        setState(false, u"Redis at %1 refused the keys: %2"_s.arg(m_address.display(), why));
        keepForNextRound();
        return false;
    }
    const qint64 version = replies->last().string.toLongLong();
    if (version == m_keysVersionSeen)
        return true;
    const auto all = redis.command({"HGETALL", name("keys")});
    if (!all)
        return false;
    if (all->kind != RedisReply::Kind::Array)
        return true;
    QSet<QString> changedSince;
    {
        const std::lock_guard lock(m_mutex);
        for (auto it = m_changedHere.cbegin(); it != m_changedHere.cend(); ++it)
            changedSince.insert(it.key());
    }
    int taken = 0;
    for (qsizetype i = 0; i + 1 < all->elements.size() && taken < KeyRegistry::MaxKeys; i += 2) {
        const auto key = keyRecordFromJson(all->elements[i + 1].string);
        // A key changed here since this round began is written next round; its copy here is newer.
        if (!key || changedSince.contains(key->id))
            continue;
        m_keys->mergeShared(*key);
        ++taken;
    }
    m_keysVersionSeen = version;
    return true;
}

bool SharedLimits::syncCounts(redis::RedisConnection &redis)
{
    const qint64 now = m_keys->nowMs();
    const qint64 minute = now / MinuteMs;
    const qint64 day = now / DayMs;
    const QByteArray minuteHash = name("usage:m:" + QByteArray::number(minute));
    const QByteArray dayHash = name("usage:d:" + QByteArray::number(day));

    struct Shared
    {
        QString id;
        std::shared_ptr<KeyUsage> usage;
        KeyUsage::WindowCounts own;
    };
    std::vector<Shared> shared;
    QList<QList<QByteArray>> commands;
    for (auto &[key, usage] : m_keys->entries()) {
        if (!limitsWindows(key) || !key.isActive(now))
            continue;
        Shared s{key.id, usage, usage->ownCounts(now)};
        s.own.minute = minute; // the round's windows, whatever the clock said a moment later
        s.own.day = day;
        Pushed &p = m_pushed[key.id];
        if (p.minute != minute) {
            p.minute = minute;
            p.requests = p.tokensMinute = 0;
        }
        if (p.day != day) {
            p.day = day;
            p.tokensDay = 0;
        }
        const QByteArray id = key.id.toUtf8();
        if (const qint64 d = s.own.requestsThisMinute - p.requests; d > 0)
            commands.append({"HINCRBY", minuteHash, id + ":r", QByteArray::number(d)});
        if (const qint64 d = s.own.tokensThisMinute - p.tokensMinute; d > 0)
            commands.append({"HINCRBY", minuteHash, id + ":t", QByteArray::number(d)});
        if (const qint64 d = s.own.tokensToday - p.tokensDay; d > 0)
            commands.append({"HINCRBY", dayHash, id, QByteArray::number(d)});
        shared.push_back(std::move(s));
    }
    if (shared.empty()) {
        m_pushed.clear();
        return true;
    }
    // The windows' hashes outlive their window a little (a late round still finds them), then go.
    commands.append({"PEXPIRE", minuteHash, QByteArray::number(3 * MinuteMs)});
    commands.append({"PEXPIRE", dayHash, QByteArray::number(2 * DayMs)});
    commands.append({"HGETALL", minuteHash});
    commands.append({"HGETALL", dayHash});
    const auto replies = redis.pipeline(commands);
    if (!replies)
        return false; // what was added may or may not have landed: it is added again (a limit errs on the safe side)
    QString why;
    if (anyError(*replies, &why)) {
        setState(false, u"Redis at %1 refused the counts: %2"_s.arg(m_address.display(), why));
        return false;
    }
    const QHash<QByteArray, qint64> minuteCounts = countsOf(replies->at(replies->size() - 2));
    const QHash<QByteArray, qint64> dayCounts = countsOf(replies->last());
    QHash<QString, Pushed> kept;
    for (const Shared &s : shared) {
        Pushed p = m_pushed.value(s.id);
        p.requests = std::max(p.requests, s.own.requestsThisMinute);
        p.tokensMinute = std::max(p.tokensMinute, s.own.tokensThisMinute);
        p.tokensDay = std::max(p.tokensDay, s.own.tokensToday);
        kept.insert(s.id, p);
        const QByteArray id = s.id.toUtf8();
        KeyUsage::WindowCounts others;
        others.minute = minute;
        others.day = day;
        // Redis holds everyone's; what this gateway added is counted here already.
        others.requestsThisMinute = std::max<qint64>(0, minuteCounts.value(id + ":r") - p.requests);
        others.tokensThisMinute = std::max<qint64>(0, minuteCounts.value(id + ":t") - p.tokensMinute);
        others.tokensToday = std::max<qint64>(0, dayCounts.value(id) - p.tokensDay);
        s.usage->setOthers(others);
    }
    m_pushed.swap(kept); // keys revoked, expired or without limits are forgotten
    return true;
}

} // namespace switchyard::keys
