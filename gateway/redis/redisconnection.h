#pragma once

// One connection to a Redis server, for the thread that shares the virtual keys' limits between gateway
// replicas (keys/sharedlimits.h): the one unit that speaks hiredis. Every call is blocking and bounded
// (connect and each reply within the timeout), and is made on that thread only, never on a worker, so
// a slow or dead Redis can delay the sharing but never a request.
//
// Addresses are written as URLs: "redis://host:6379", "redis://:password@host:6379/2" (database 2),
// "redis://user:password@host" (Redis 6 ACL user). TLS (rediss://) is refused: Debian 12's hiredis has
// no TLS; a Redis beyond the host is reached through a tunnel or a private network (docs/KEYS.md).

#include "common/expected.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <optional>

struct redisContext;

namespace switchyard::redis {

struct RedisAddress
{
    QString host = QStringLiteral("127.0.0.1");
    quint16 port = 6379;
    int database = 0;
    QString user;     // empty: the default user
    QString password; // empty: no AUTH

    // "redis://host:port" without the password, for messages and logs.
    QString display() const;
    friend bool operator==(const RedisAddress &, const RedisAddress &) = default;
};

// The address a URL names, or why it names none (said so a config problem can quote it).
Expected<RedisAddress, QString> parseRedisUrl(const QString &url);

// A reply, as far as the sharing needs one: an integer, a string (bulk or status), nil, an error, or an
// array of those (HGETALL).
struct RedisReply
{
    enum class Kind { Nil, Integer, String, Error, Array };
    Kind kind = Kind::Nil;
    qint64 integer = 0;
    QByteArray string; // String and Error
    QList<RedisReply> elements;

    bool isError() const { return kind == Kind::Error; }
};

class RedisConnection final
{
    Q_DISABLE_COPY_MOVE(RedisConnection)

public:
    explicit RedisConnection(RedisAddress address, int timeoutMs = 500);
    ~RedisConnection();

    const RedisAddress &address() const { return m_address; }
    bool isConnected() const { return m_context != nullptr; }

    // Connects, authenticates and selects the database; false with lastError() when it could not.
    bool connect();
    void disconnect();

    // Sends every command at once (a pipeline) and reads their replies in order. On a broken connection
    // or a timeout: no replies, lastError() says why, and the connection is closed (connect() again).
    // An error reply of Redis itself (e.g. a wrong type) is a reply, not a broken connection.
    std::optional<QList<RedisReply>> pipeline(const QList<QList<QByteArray>> &commands);
    // One command.
    std::optional<RedisReply> command(const QList<QByteArray> &args);

    QString lastError() const { return m_lastError; }

private:
    void fail(const QString &why);

    RedisAddress m_address;
    int m_timeoutMs;
    redisContext *m_context = nullptr;
    QString m_lastError;
};

} // namespace switchyard::redis
