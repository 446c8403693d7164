#include "redis/redisconnection.h"

#include <QUrl>
#include <cerrno>
#include <hiredis/hiredis.h>
#include <sys/time.h>
#include <vector>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::redis {

namespace {

timeval timevalOf(int ms)
{
    return timeval{ms / 1000, (ms % 1000) * 1000};
}

RedisReply convert(const redisReply *r)
{
    RedisReply out;
    if (!r)
        return out;
    switch (r->type) {
    case REDIS_REPLY_INTEGER:
        out.kind = RedisReply::Kind::Integer;
        out.integer = r->integer;
        break;
    case REDIS_REPLY_STRING:
    case REDIS_REPLY_STATUS:
        out.kind = RedisReply::Kind::String;
        out.string = QByteArray(r->str, qsizetype(r->len));
        break;
    case REDIS_REPLY_ERROR:
        out.kind = RedisReply::Kind::Error;
        out.string = QByteArray(r->str, qsizetype(r->len));
        break;
    case REDIS_REPLY_ARRAY:
        out.kind = RedisReply::Kind::Array;
        out.elements.reserve(qsizetype(r->elements));
        for (size_t i = 0; i < r->elements; ++i)
            out.elements.append(convert(r->element[i]));
        break;
    default:
        break;
    }
    return out;
}

} // namespace

QString RedisAddress::display() const
{
    const QString h = host.contains(u':') ? u'[' + host + u']' : host;
    return u"redis://%1:%2"_s.arg(h).arg(port) + (database ? u"/%1"_s.arg(database) : QString());
}

Expected<RedisAddress, QString> parseRedisUrl(const QString &text)
{
    const QUrl url(text, QUrl::StrictMode);
    if (!url.isValid() || url.scheme().isEmpty())
        return unexpected(u"is not a URL; write one like \"redis://127.0.0.1:6379\""_s);
    if (url.scheme() == u"rediss")
        return unexpected(u"asks for TLS (rediss://), which this build's Redis client cannot speak; reach Redis "
                          "over a private network or a tunnel and write redis://"_s);
    if (url.scheme() != u"redis")
        return unexpected(u"has the scheme \"%1\"; write redis://host:port"_s.arg(url.scheme()));
    RedisAddress a;
    if (url.host().isEmpty())
        return unexpected(u"names no host; write one like \"redis://127.0.0.1:6379\""_s);
    a.host = url.host();
    const int port = url.port(6379);
    if (port <= 0 || port > 65535)
        return unexpected(u"has no usable port"_s);
    a.port = quint16(port);
    a.user = url.userName(QUrl::FullyDecoded);
    a.password = url.password(QUrl::FullyDecoded);
    const QString path = url.path();
    if (!path.isEmpty() && path != u"/") {
        bool ok = false;
        const int db = path.mid(1).toInt(&ok);
        if (!ok || db < 0 || db > 15)
            return unexpected(u"names the database \"%1\"; write a number from 0 to 15, like redis://host:6379/0"_s
                                  .arg(path.mid(1)));
        a.database = db;
    }
    return a;
}

RedisConnection::RedisConnection(RedisAddress address, int timeoutMs)
    : m_address(std::move(address)), m_timeoutMs(timeoutMs)
{
}

RedisConnection::~RedisConnection()
{
    disconnect();
}

void RedisConnection::disconnect()
{
    if (m_context) {
        redisFree(m_context);
        m_context = nullptr;
    }
}

void RedisConnection::fail(const QString &why)
{
    m_lastError = why;
    disconnect();
}

bool RedisConnection::connect()
{
    disconnect();
    const QByteArray host = m_address.host.toUtf8();
    redisContext *c = redisConnectWithTimeout(host.constData(), m_address.port, timevalOf(m_timeoutMs));
    if (!c) {
        m_lastError = u"cannot reach %1: out of memory"_s.arg(m_address.display());
        return false;
    }
    if (c->err) {
        m_lastError = u"cannot reach %1: %2"_s.arg(m_address.display(), QString::fromLocal8Bit(c->errstr));
        redisFree(c);
        return false;
    }
    redisSetTimeout(c, timevalOf(m_timeoutMs));
    redisEnableKeepAlive(c);
    m_context = c;
    QList<QList<QByteArray>> hello;
    if (!m_address.password.isEmpty()) {
        if (m_address.user.isEmpty())
            hello.append({"AUTH", m_address.password.toUtf8()});
        else
            hello.append({"AUTH", m_address.user.toUtf8(), m_address.password.toUtf8()});
    }
    if (m_address.database != 0)
        hello.append({"SELECT", QByteArray::number(m_address.database)});
    hello.append({"PING"});
    const auto replies = pipeline(hello);
    if (!replies)
        return false;
    for (const RedisReply &r : *replies) {
        if (r.isError()) {
            // The password is never part of the message: Redis says only what went wrong.
            fail(u"%1 refused the connection: %2"_s.arg(m_address.display(), QString::fromUtf8(r.string)));
            return false;
        }
    }
    return true;
}

std::optional<QList<RedisReply>> RedisConnection::pipeline(const QList<QList<QByteArray>> &commands)
{
    if (!m_context) {
        m_lastError = u"not connected to %1"_s.arg(m_address.display());
        return std::nullopt;
    }
    std::vector<const char *> argv;
    std::vector<size_t> lengths;
    for (const QList<QByteArray> &args : commands) {
        argv.clear();
        lengths.clear();
        for (const QByteArray &a : args) {
            argv.push_back(a.constData());
            lengths.push_back(size_t(a.size()));
        }
        if (redisAppendCommandArgv(m_context, int(argv.size()), argv.data(), lengths.data()) != REDIS_OK) {
            fail(u"%1: %2"_s.arg(m_address.display(), QString::fromLocal8Bit(m_context->errstr)));
            return std::nullopt;
        }
    }
    QList<RedisReply> replies;
    replies.reserve(commands.size());
    for (qsizetype i = 0; i < commands.size(); ++i) {
        void *raw = nullptr;
        if (redisGetReply(m_context, &raw) != REDIS_OK || !raw) {
            const bool timedOut = m_context->err == REDIS_ERR_IO && (errno == EAGAIN || errno == EWOULDBLOCK);
            fail(timedOut ? u"%1 did not answer within %2 ms"_s.arg(m_address.display()).arg(m_timeoutMs)
                          : u"lost the connection to %1: %2"_s.arg(m_address.display(),
                                                                   QString::fromLocal8Bit(m_context->errstr)));
            if (raw)
                freeReplyObject(raw);
            return std::nullopt;
        }
        replies.append(convert(static_cast<redisReply *>(raw)));
        freeReplyObject(raw);
    }
    return replies;
}

std::optional<RedisReply> RedisConnection::command(const QList<QByteArray> &args)
{
    auto replies = pipeline({args});
    if (!replies || replies->isEmpty())
        return std::nullopt;
    return replies->first();
}

} // namespace switchyard::redis
