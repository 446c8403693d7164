// The gateway's one Redis connection (gateway/redis/), against a real redis-server of the test's own:
// URLs read as operators write them (and refused with a reason where they cannot be served), commands
// pipelined and answered in order, a password Redis refuses named without the password, a dead or
// silent server reported within the timeout rather than hanging the sharing thread.

#include "common/testprocesses.h"
#include "redis/redisconnection.h"

#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::Literals::StringLiterals;
using namespace switchyard;
using namespace switchyard::redis;

class TestRedisConnection final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private slots:
    void urlsAreReadAsOperatorsWriteThem()
    {
        auto a = parseRedisUrl(u"redis://10.0.0.5"_s);
        QVERIFY(a);
        QCOMPARE(a->host, u"10.0.0.5"_s);
        QCOMPARE(a->port, quint16(6379));
        QCOMPARE(a->database, 0);
        QVERIFY(a->password.isEmpty());

        a = parseRedisUrl(u"redis://:s3cr%40t@redis.internal:6380/2"_s);
        QVERIFY(a);
        QCOMPARE(a->host, u"redis.internal"_s);
        QCOMPARE(a->port, quint16(6380));
        QCOMPARE(a->database, 2);
        QCOMPARE(a->password, u"s3cr@t"_s);
        QVERIFY(a->user.isEmpty());
        // What logs and messages show never holds the password.
        QCOMPARE(a->display(), u"redis://redis.internal:6380/2"_s);

        a = parseRedisUrl(u"redis://gateway:pw@[::1]:7000"_s);
        QVERIFY(a);
        QCOMPARE(a->user, u"gateway"_s);
        QCOMPARE(a->host, u"::1"_s);
        QCOMPARE(a->display(), u"redis://[::1]:7000"_s);
    }

    void urlsItCannotServeAreRefusedWithTheReason()
    {
        QVERIFY(parseRedisUrl(u"rediss://redis.internal:6380"_s).error().contains(u"TLS"_s));
        QVERIFY(parseRedisUrl(u"http://redis.internal"_s).error().contains(u"\"http\""_s));
        QVERIFY(parseRedisUrl(u"redis://"_s).error().contains(u"no host"_s));
        QVERIFY(parseRedisUrl(u"redis://h:6379/x"_s).error().contains(u"database"_s));
        QVERIFY(parseRedisUrl(u"redis://h:6379/16"_s).error().contains(u"0 to 15"_s));
        QVERIFY(!parseRedisUrl(u"127.0.0.1:6379"_s));
    }

    void commandsArePipelinedAndAnsweredInOrder()
    {
        testing::TestProcesses processes(m_dir.path());
        const quint16 port = processes.startRedis();
        QVERIFY2(port != 0, "redis-server did not start (scripts/install-deps.sh --test installs it)");
        RedisConnection redis({u"127.0.0.1"_s, port, 3, {}, {}});
        QVERIFY2(redis.connect(), qPrintable(redis.lastError()));
        const auto replies = redis.pipeline({{"HINCRBY", "h", "a:r", "2"},
                                             {"HINCRBY", "h", "a:r", "3"},
                                             {"HINCRBY", "h", "b:t", "40"},
                                             {"HGETALL", "h"},
                                             {"GET", "missing"},
                                             {"INCR", "h"}}); // a hash is no counter: Redis's own error
        QVERIFY2(replies, qPrintable(redis.lastError()));
        QCOMPARE(replies->size(), 6);
        QCOMPARE(replies->at(0).integer, 2);
        QCOMPARE(replies->at(1).integer, 5);
        QCOMPARE(replies->at(2).integer, 40);
        QCOMPARE(replies->at(3).kind, RedisReply::Kind::Array);
        QCOMPARE(replies->at(3).elements.size(), 4);
        QCOMPARE(replies->at(4).kind, RedisReply::Kind::Nil);
        QVERIFY(replies->at(5).isError());
        QVERIFY(redis.isConnected()); // an error reply is an answer, not a broken connection

        // The database asked for is the one used: database 0 does not see the hash.
        RedisConnection other({u"127.0.0.1"_s, port, 0, {}, {}});
        QVERIFY(other.connect());
        QCOMPARE(other.command({"EXISTS", "h"})->integer, 0);
    }

    void aRefusedPasswordIsNamedWithoutThePassword()
    {
        testing::TestProcesses processes(m_dir.path());
        const quint16 port = processes.startRedis();
        QVERIFY(port != 0);
        RedisConnection setup({u"127.0.0.1"_s, port, 0, {}, {}});
        QVERIFY(setup.connect());
        QVERIFY(!setup.command({"CONFIG", "SET", "requirepass", "right-one"})->isError());

        RedisConnection wrong({u"127.0.0.1"_s, port, 0, {}, u"wr0ng-passw0rd"_s});
        QVERIFY(!wrong.connect());
        QVERIFY2(wrong.lastError().contains(u"refused"_s), qPrintable(wrong.lastError()));
        QVERIFY(!wrong.lastError().contains(u"wr0ng-passw0rd"_s));
        QVERIFY(!wrong.isConnected());

        RedisConnection right({u"127.0.0.1"_s, port, 0, {}, u"right-one"_s});
        QVERIFY2(right.connect(), qPrintable(right.lastError()));
        QCOMPARE(right.command({"PING"})->string, QByteArray("PONG"));
    }

    void aDeadServerIsReportedAndReachedAgainOnceBack()
    {
        testing::TestProcesses processes(m_dir.path());
        QProcess *server = nullptr;
        const quint16 port = processes.startRedis(0, &server);
        QVERIFY(port != 0);
        RedisConnection redis({u"127.0.0.1"_s, port, 0, {}, {}});
        QVERIFY(redis.connect());
        server->kill();
        server->waitForFinished(5000);
        QVERIFY(!redis.command({"PING"}));
        QVERIFY(!redis.isConnected());
        QVERIFY2(redis.lastError().contains(u"redis://127.0.0.1:%1"_s.arg(port)), qPrintable(redis.lastError()));
        QVERIFY(!redis.connect());
        QVERIFY2(redis.lastError().contains(u"cannot reach"_s), qPrintable(redis.lastError()));

        QVERIFY(processes.startRedis(port) == port);
        QVERIFY2(redis.connect(), qPrintable(redis.lastError()));
        QCOMPARE(redis.command({"PING"})->string, QByteArray("PONG"));
    }

    void aSilentServerEndsInTheTimeout()
    {
        // Accepts the connection and never says a word: the answer the sharing thread waits for.
        QTcpServer silent;
        QVERIFY(silent.listen(QHostAddress::LocalHost, 0));
        RedisConnection redis({u"127.0.0.1"_s, silent.serverPort(), 0, {}, {}}, 300);
        QVERIFY(!redis.connect()); // its PING goes unanswered until the timeout ends the wait
        QVERIFY2(redis.lastError().contains(u"did not answer within 300 ms"_s), qPrintable(redis.lastError()));
        QVERIFY(!redis.isConnected());
    }
};

QTEST_GUILESS_MAIN(TestRedisConnection)
#include "tst_redisconnection.moc"
