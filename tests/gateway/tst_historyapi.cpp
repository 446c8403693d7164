// The lasting history through a real gateway (switchyard.history, docs/HISTORY.md), as an operator sees
// it: requests are found by /api/history/requests after the gateway restarts, with their key, node and
// status; the per-bucket sums agree with what the node served; virtual keys and a day's token limit
// survive the restart; a history file that cannot be opened leaves the gateway serving and says why.

#include "common/testhttpclient.h"
#include "gateway/gatewayfixture.h"
#include "history/historystore.h"
#include "stats/requestcsv.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QHash>
#include <QTest>
#include <QThread>
#include <atomic>
#include <nlohmann/json.hpp>

using namespace Qt::Literals::StringLiterals;
using namespace switchyard;
using namespace switchyard::testing;
using nlohmann::json;

namespace {

json bodyOf(const TestResponse &r)
{
    return json::parse(r.body.toStdString(), nullptr, false);
}

QString str(const json &v)
{
    return v.is_string() ? QString::fromStdString(v.get<std::string>()) : QString();
}

TestResponse chat(quint16 port, const std::string &secret = {}, int maxTokens = 4)
{
    return request(port, "POST", "/v1/chat/completions", chatBody("m1", maxTokens), 10000,
                   secret.empty() ? QList<QPair<QByteArray, QByteArray>>{}
                                  : QList<QPair<QByteArray, QByteArray>>{{"Authorization", "Bearer " + QByteArray::fromStdString(secret)}});
}

// The records /api/history/requests finds for this query (a null json when it did not answer 200).
json found(quint16 port, const QByteArray &query = {})
{
    const TestResponse r = request(port, "GET", "/api/history/requests" + (query.isEmpty() ? QByteArray() : "?" + query));
    return r.status == 200 ? bodyOf(r)["data"] : json();
}

qsizetype countFound(quint16 port, const QByteArray &query = {})
{
    const json d = found(port, query);
    return d.is_array() ? qsizetype(d.size()) : -1;
}

// PUT from another thread: the gateway applies on this (the test's) thread, whose event loop must run.
TestResponse putConfig(quint16 port, const QByteArray &text, const QByteArray &ifMatch = {})
{
    TestResponse out;
    std::atomic<bool> done{false};
    QThread *t = QThread::create([&] {
        QList<QPair<QByteArray, QByteArray>> headers{{"Content-Type", "application/json"}};
        if (!ifMatch.isEmpty())
            headers.append({"If-Match", ifMatch});
        out = request(port, "PUT", "/api/config", text, 15000, headers);
        done = true;
    });
    t->start();
    (void)QTest::qWaitFor([&] { return done.load(); }, 20000);
    t->wait();
    delete t;
    return out;
}

std::function<void(config::GatewayConfig &)> withHistory(const QString &path)
{
    return [path](config::GatewayConfig &c) { c.settings.history.path = path; };
}

} // namespace

class TestHistoryApi final : public QObject
{
    Q_OBJECT

private slots:
    void requestsAndKeysOutliveARestart()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(u"state/history.db"_s); // its directory is made too
        std::string secret, keyId;
        {
            GatewayFixture f;
            QVERIFY(f.start({u"a"_s}, {}, {}, withHistory(path)));
            QVERIFY(f.gateway.history());
            const TestResponse made = request(f.port, "POST", "/api/keys", R"({"name": "ci", "tokens_per_day": 1000000})");
            QCOMPARE(made.status, 201);
            secret = bodyOf(made).value("secret", "");
            keyId = bodyOf(made).value("id", "");
            for (int i = 0; i < 3; ++i)
                QCOMPARE(chat(f.port, secret).status, 200);
            f.node(0).setFault(sim::FaultMode::Error500);
            QCOMPARE(chat(f.port, secret).status, 502);
            f.node(0).setFault(sim::FaultMode::Healthy);
            QTRY_COMPARE(countFound(f.port), 4);
        } // the gateway stops; its history is written and closed

        GatewayFixture f;
        QVERIFY(f.start({u"b"_s}, {}, {}, withHistory(path)));
        const json all = found(f.port);
        QCOMPARE(qsizetype(all.size()), 4);
        QCOMPARE(str(all[0]["node"]), u"a"_s); // newest first: the failed one
        QCOMPARE(all[0]["status"].get<int>(), 502);
        QCOMPARE(str(all[0]["key"]), QString::fromStdString(keyId));
        QVERIFY(!all[0]["tried"].empty());
        QCOMPARE(countFound(f.port, "status=failed"), 1);
        QCOMPARE(countFound(f.port, "status=ok"), 3);
        QCOMPARE(countFound(f.port, "key=" + QByteArray::fromStdString(keyId)), 4);
        QCOMPARE(countFound(f.port, "key=vk_0000000000000000"), 0);
        QCOMPARE(countFound(f.port, "node=b"), 0);

        // Paging: two pages of two, no gap, no repeat.
        const TestResponse first = request(f.port, "GET", "/api/history/requests?limit=2");
        const json p1 = bodyOf(first);
        QCOMPARE(p1["data"].size(), size_t(2));
        const qint64 next = p1["next_before"].get<qint64>();
        const json p2 = bodyOf(request(f.port, "GET", "/api/history/requests?limit=2&before=" + QByteArray::number(next)));
        QCOMPARE(p2["data"].size(), size_t(2));
        QVERIFY(p2["data"][0]["id"].get<qint64>() != p1["data"][1]["id"].get<qint64>());

        // The same search as a spreadsheet: the panel's export columns, newest first, the next page's
        // cursor in a header.
        const TestResponse csv = request(f.port, "GET", "/api/history/requests?format=csv&limit=3");
        QCOMPARE(csv.status, 200);
        QVERIFY(csv.header("content-type").startsWith("text/csv"));
        const QList<QByteArray> lines = csv.body.split('\n');
        QCOMPARE(lines.size(), 5); // header, three rows, and the empty rest after the last "\r\n"
        QCOMPARE(lines[0] + '\n', stats::requestsCsvHeader());
        QVERIFY2(lines[1].contains(",a,") && lines[1].contains(",502,"), lines[1].constData());
        QVERIFY(lines[1].contains(QByteArray::fromStdString(keyId)));
        QVERIFY(!csv.header("x-next-before").isEmpty());
        QCOMPARE(request(f.port, "GET", "/api/history/requests?format=xml").status, 400);

        // The key came back with the history: the same secret works, and it is listed.
        QCOMPARE(chat(f.port, secret).status, 200);
        QCOMPARE(chat(f.port).status, 401); // a key is active again: the endpoints need one
        const json keys = bodyOf(request(f.port, "GET", "/api/keys"))["data"];
        QCOMPARE(keys.size(), size_t(1));
        QCOMPARE(str(keys[0]["id"]), QString::fromStdString(keyId));

        QCOMPARE(request(f.port, "GET", "/api/history/requests?status=bad").status, 400);
        QCOMPARE(request(f.port, "GET", "/api/history/requests?limit=5000").status, 400);
    }

    void aDayLimitHoldsAcrossARestart()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"history.db"_s);
        std::string secret;
        {
            GatewayFixture f;
            QVERIFY(f.start({u"a"_s}, {}, {}, withHistory(path)));
            secret = bodyOf(request(f.port, "POST", "/api/keys", R"({"name": "small", "tokens_per_day": 10})")).value("secret", "");
            QCOMPARE(chat(f.port, secret, 8).status, 200); // crosses the limit: answered in full
            QCOMPARE(chat(f.port, secret).status, 429);
            QTRY_COMPARE(countFound(f.port), 2);
        }
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s}, {}, {}, withHistory(path)));
        const TestResponse after = chat(f.port, secret);
        QCOMPARE(after.status, 429); // the day's tokens were read back from the history
        QCOMPARE(str(bodyOf(after)["error"]["param"]), u"tokens_per_day"_s);
    }

    void rollupsAgreeWithTheNode()
    {
        QTemporaryDir dir;
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s}, {}, {}, withHistory(dir.filePath(u"history.db"_s))));
        for (int i = 0; i < 5; ++i)
            QCOMPARE(chat(f.port, {}, 3 + i).status, 200);
        QTRY_COMPARE(countFound(f.port), 5);
        const TestResponse r = request(f.port, "GET", "/api/history/rollups?bucket_minutes=60");
        QCOMPARE(r.status, 200);
        qint64 requests = 0, prompt = 0, completion = 0;
        const json sums = bodyOf(r); // held: a range-for over a temporary's member would dangle
        for (const json &p : sums["data"]) {
            requests += p["requests"].get<qint64>();
            prompt += p["prompt_tokens"].get<qint64>();
            completion += p["completion_tokens"].get<qint64>();
        }
        QCOMPARE(requests, 5);
        QCOMPARE(prompt, f.node(0).counters().promptTokens);
        QCOMPARE(completion, f.node(0).counters().generationTokens);
        QCOMPARE(sums["data"].size(), size_t(25)); // the last day, in hours (the first one begun before it)
        QCOMPARE(request(f.port, "GET", "/api/history/rollups?bucket_minutes=1&from=1").status, 400); // 1970 to now: too many buckets
    }

    void rollupsSplitByNodeAndAsCsv()
    {
        QTemporaryDir dir;
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s, u"b"_s}, {}, {}, withHistory(dir.filePath(u"history.db"_s))));
        for (int i = 0; i < 6; ++i)
            QCOMPARE(chat(f.port).status, 200);
        QTRY_COMPARE(countFound(f.port), 6);
        const json split = bodyOf(request(f.port, "GET", "/api/history/rollups?bucket_minutes=1440&split=node"));
        QCOMPARE(str(split["split"]), u"node"_s);
        QHash<QString, qint64> perNode;
        for (const json &p : split["data"])
            perNode[str(p["node"])] += p["requests"].get<qint64>();
        QCOMPARE(perNode.size(), 2);
        QCOMPARE(perNode.value(u"a"_s), f.node(0).counters().requestsReceived);
        QCOMPARE(perNode.value(u"b"_s), f.node(1).counters().requestsReceived);

        // The same sums for a spreadsheet: the node in the second column, one row per node and bucket.
        const TestResponse csv = request(f.port, "GET", "/api/history/rollups?bucket_minutes=1440&split=node&format=csv");
        QCOMPARE(csv.status, 200);
        QVERIFY(csv.header("content-type").startsWith("text/csv"));
        const QList<QByteArray> lines = csv.body.trimmed().split('\n');
        QVERIFY2(lines[0].startsWith("bucket_start_utc,node,requests,errors"), lines[0].constData());
        QCOMPARE(lines.size(), 1 + int(split["data"].size()));
        qint64 csvRequests = 0;
        for (qsizetype i = 1; i < lines.size(); ++i)
            csvRequests += lines[i].split(',')[2].toLongLong();
        QCOMPARE(csvRequests, 6);
        const TestResponse bad = request(f.port, "GET", "/api/history/rollups?split=colour");
        QCOMPARE(bad.status, 400);
        QVERIFY2(bad.body.contains("split"), bad.body.constData());
    }

    // Split by key, each series says whose it is: the key's name beside its id, in JSON and in CSV, also
    // once the key is revoked (its requests stay in the history).
    void rollupsByKeyNameTheKeys()
    {
        QTemporaryDir dir;
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s}, {}, {}, withHistory(dir.filePath(u"history.db"_s))));
        QCOMPARE(chat(f.port).status, 200); // without a key, before there was one
        const json made = bodyOf(request(f.port, "POST", "/api/keys", R"({"name": "ci-runner"})"));
        const std::string secret = made.value("secret", ""), id = made.value("id", "");
        QVERIFY(!secret.empty() && !id.empty());
        QCOMPARE(chat(f.port, secret).status, 200);
        QCOMPARE(chat(f.port, secret).status, 200);
        QTRY_COMPARE(countFound(f.port), 3);
        QCOMPARE(request(f.port, "DELETE", "/api/keys/" + QByteArray::fromStdString(id)).status, 200);

        const json byKey = bodyOf(request(f.port, "GET", "/api/history/rollups?bucket_minutes=1440&split=key"));
        QHash<QString, QString> names;
        QHash<QString, qint64> requests;
        for (const json &p : byKey["data"]) {
            names[str(p["key"])] = str(p["key_name"]);
            requests[str(p["key"])] += p["requests"].get<qint64>();
        }
        QCOMPARE(names.value(QString::fromStdString(id)), u"ci-runner"_s);
        QCOMPARE(requests.value(QString::fromStdString(id)), 2);
        QVERIFY(names.contains(QString()));
        QCOMPARE(names.value(QString()), QString()); // no key, no name
        QCOMPARE(requests.value(QString()), 1);

        const TestResponse csv = request(f.port, "GET", "/api/history/rollups?bucket_minutes=1440&split=key&format=csv");
        const QList<QByteArray> lines = csv.body.trimmed().split('\n');
        QVERIFY2(lines[0].startsWith("bucket_start_utc,key,key_name,requests,"), lines[0].constData());
        QVERIFY2(csv.body.contains(QByteArray(QByteArray::fromStdString(id) + ",ci-runner,2,")), csv.body.constData());
    }

    // A damaged file is moved aside (kept, never overwritten) and a new history starts; the gateway
    // serves throughout and says what happened.
    void aDamagedHistoryFileIsKeptAsideAndANewOneStarts()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"history.db"_s);
        QFile garbage(path);
        QVERIFY(garbage.open(QIODevice::WriteOnly));
        garbage.write(QByteArray(8192, 'x'));
        garbage.close();
        GatewayFixture f;
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"was damaged"_s));
        QVERIFY(f.start({u"a"_s}, {}, {}, withHistory(path)));
        QVERIFY(f.gateway.history());
        QVERIFY2(f.gateway.historyProblem().contains(u"history.db.damaged-"_s), qPrintable(f.gateway.historyProblem()));
        const QStringList aside = QDir(dir.path()).entryList({u"history.db.damaged-*"_s});
        QCOMPARE(aside.size(), 1);
        QFile kept(dir.filePath(aside.first()));
        QVERIFY(kept.open(QIODevice::ReadOnly));
        QCOMPARE(kept.readAll(), QByteArray(8192, 'x')); // as it was
        QCOMPARE(chat(f.port).status, 200);
        QTRY_COMPARE(countFound(f.port), 1);
        // /api/status says so, for the panel's banner (local and remote alike).
        const json status = bodyOf(request(f.port, "GET", "/api/status"));
        QVERIFY(str(status["gateway"]["history_problem"]).contains(u"damaged"_s));
    }

    // A history that cannot be opened at all (its directory cannot be made): the gateway serves without
    // one, and the API says why.
    void anUnusableHistoryLeavesTheGatewayServing()
    {
        QTemporaryDir dir;
        QFile blocker(dir.filePath(u"notadir"_s));
        QVERIFY(blocker.open(QIODevice::WriteOnly)); // a file where the directory should be
        blocker.close();
        const QString path = dir.filePath(u"notadir/history.db"_s);
        GatewayFixture f;
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"no lasting history"_s));
        QVERIFY(f.start({u"a"_s}, {}, {}, withHistory(path)));
        QVERIFY(!f.gateway.history());
        QVERIFY(f.gateway.historyProblem().contains(path));
        QCOMPARE(chat(f.port).status, 200);
        const TestResponse r = request(f.port, "GET", "/api/history/requests");
        QCOMPARE(r.status, 503);
        QVERIFY(str(bodyOf(r)["error"]["message"]).contains(path));
    }

    // The running config as GET /api/config serves it keeps switchyard.history, so the config editor's
    // round trip (GET, edit, PUT) never turns the history off; a relative path is refused, naming it.
    void theConfigDocumentKeepsTheHistory()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"history.db"_s);
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s}, {}, {}, withHistory(path)));
        const TestResponse doc = request(f.port, "GET", "/api/config");
        QCOMPARE(doc.status, 200);
        const json cfg = bodyOf(doc);
        QCOMPARE(str(cfg["switchyard"]["history"]["path"]), path);
        const TestResponse put = putConfig(f.port, doc.body, doc.header("etag"));
        QCOMPARE(put.status, 200);
        QVERIFY(f.gateway.history());
        QCOMPARE(f.gateway.history()->path(), path);

        json relative = cfg;
        relative["switchyard"]["history"]["path"] = "history.db";
        const TestResponse refused = putConfig(f.port, QByteArray::fromStdString(relative.dump()));
        QCOMPARE(refused.status, 422);
        QVERIFY2(refused.body.contains("switchyard.history.path"), refused.body.constData());
        QCOMPARE(f.gateway.history()->path(), path); // nothing applied
    }

    void withoutHistoryTheApiSaysHowToTurnItOn()
    {
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s}));
        const TestResponse r = request(f.port, "GET", "/api/history/requests");
        QCOMPARE(r.status, 503);
        QVERIFY(str(bodyOf(r)["error"]["message"]).contains(u"switchyard.history.path"_s));
    }
};

QTEST_GUILESS_MAIN(TestHistoryApi)
#include "tst_historyapi.moc"
