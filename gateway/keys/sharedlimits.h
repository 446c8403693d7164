#pragma once

// Virtual keys and their limits shared by gateway replicas through Redis (switchyard.redis_url,
// docs/KEYS.md "Several gateways"). Two gateways behind one address then know the same keys and
// enforce one limit per key between them: 100 requests per minute means 100 for the fleet, not 100
// on each.
//
// How: a thread of its own, a few times a second (every intervalMs), adds what this gateway counted
// since the last round to per-window hashes in Redis (HINCRBY), reads back what every replica counted
// (HGETALL), and gives each key's usage the others' share (KeyUsage::setOthers). Requests never wait
// for Redis: they are admitted against the counts as they stand here, so between two rounds the
// fleet can exceed a limit by what the other replicas admitted in that fraction of a second. Keys
// made, changed or revoked on one replica are written to a Redis hash and picked up by the others
// within a round or two; a revocation is never undone by an older copy.
//
// Redis unreachable, slow or restarted: the gateway serves on with its own counts (each replica then
// allows the whole limit), says so in /api/status (redis_problem) and tries again, 1 s, 2 s … up to
// 10 s apart. Requests in flight (max_concurrent) are always counted per gateway.

#include "keys/keyregistry.h"
#include "redis/redisconnection.h"

#include <QHash>
#include <QString>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

namespace switchyard::keys {

class SharedLimits final
{
    Q_DISABLE_COPY_MOVE(SharedLimits)

public:
    struct Options
    {
        int intervalMs = 200;        // one round: push the own counts, read everyone's
        int timeoutMs = 500;         // connect, and each round's replies
        QByteArray prefix = "switchyard"; // Redis keys: <prefix>:keys, <prefix>:usage:m:<minute>, …
    };
    struct State
    {
        bool shared = false; // the last round reached Redis
        QString problem;     // why not, in words for the operator (empty while shared)
        qint64 rounds = 0;   // rounds that reached Redis since the start (tests wait on it)
    };

    // onStateChanged: called on the sharing thread whenever state() changed (it must only take note).
    SharedLimits(std::shared_ptr<KeyRegistry> keys, redis::RedisAddress address, Options options,
                 std::function<void()> onStateChanged = {});
    ~SharedLimits(); // stops the thread (within one Redis timeout)

    State state() const;
    const redis::RedisAddress &address() const { return m_address; }

private:
    struct Pushed
    {
        qint64 minute = -1, day = -1;
        qint64 requests = 0, tokensMinute = 0, tokensDay = 0; // what this gateway has added in those windows
    };

    void run();
    bool round(redis::RedisConnection &redis);
    bool announceOwnKeys(redis::RedisConnection &redis);
    bool syncKeys(redis::RedisConnection &redis);
    bool syncCounts(redis::RedisConnection &redis);
    void setState(bool shared, const QString &problem);
    QByteArray name(const QByteArray &suffix) const { return m_options.prefix + ':' + suffix; }

    std::shared_ptr<KeyRegistry> m_keys;
    redis::RedisAddress m_address;
    Options m_options;
    std::function<void()> m_onStateChanged;

    mutable std::mutex m_mutex; // guards everything below up to the thread's own state
    std::condition_variable m_wake;
    bool m_stop = false;
    State m_state;
    QHash<QString, VirtualKey> m_changedHere; // keys made or changed here, not yet written to Redis

    // The sharing thread's own.
    QHash<QString, Pushed> m_pushed;
    qint64 m_keysVersionSeen = -1;
    bool m_ownKeysAnnounced = false;

    std::thread m_thread; // last: started once everything above is set
};

} // namespace switchyard::keys
