// Changing the config of a running gateway: PUT /api/config (validated on the worker, applied on the
// gateway's thread, answered with the changes or the problems), the atomic config file save with its
// backup, and the promise behind both: a steady stream of requests sees no failure while the config
// changes under it.

#include "common/testhttpclient.h"
#include "config/configfile.h"
#include "config/configloader.h"
#include "gateway/gatewayfixture.h"

#include <QDir>
#include <QFile>
#include <QMutex>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <atomic>
#include <nlohmann/json.hpp>

using namespace switchyard;
using namespace switchyard::testing;

namespace {

// A Bifrost-style config text over the fixture's nodes, with the given weights (0 = left out).
QByteArray configText(GatewayFixture &f, const std::vector<double> &weights,
                      const QByteArray &extraSettings = {})
{
    nlohmann::ordered_json providers = nlohmann::ordered_json::object();
    for (size_t i = 0; i < f.nodes.size() && i < weights.size(); ++i) {
        if (weights[i] <= 0)
            continue;
        const std::string name = f.nodes[i]->options().name.toStdString();
        providers[name] = {
            {"keys",
             {{{"name", name + "-key"}, {"value", "dummy"}, {"models", {"m1"}}, {"weight", weights[i]}}}},
            {"network_config",
             {{"base_url", f.nodes[i]->baseUrl().toStdString()}, {"default_request_timeout_in_seconds", 10}}},
            {"custom_provider_config", {{"base_provider_type", "openai"}}},
        };
    }
    nlohmann::ordered_json doc = {{"providers", providers}};
    const std::string settings =
        "{\"listen\": \"127.0.0.1:" + std::to_string(f.port) + "\", \"worker_threads\": 2" +
        (extraSettings.isEmpty() ? std::string() : ", " + extraSettings.toStdString()) + "}";
    doc["switchyard"] = nlohmann::ordered_json::parse(settings);
    const std::string text = doc.dump(2);
    return QByteArray(text.data(), qsizetype(text.size()));
}

// PUT from another thread: the gateway applies on this (the test's) thread, whose event loop must run.
TestResponse putConfig(quint16 port, const QByteArray &text)
{
    TestResponse out;
    std::atomic<bool> done{false};
    QThread *t = QThread::create([&] {
        out = request(port, "PUT", "/api/config", text, 15000, {{"Content-Type", "application/json"}});
        done = true;
    });
    t->start();
    (void)QTest::qWaitFor([&] { return done.load(); }, 20000);
    t->wait();
    delete t;
    return out;
}

nlohmann::json parse(const QByteArray &body)
{
    return nlohmann::json::parse(body.toStdString(), nullptr, false);
}

} // namespace

class TestConfigApi final : public QObject
{
    Q_OBJECT

private slots:
    void putAppliesAndAnswersWithTheChanges()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")}, {1, 1, 0}));
        QSignalSpy applied(&f.gateway, &Gateway::configUpdatedOverApi);
        // c (configured with weight 0) takes the most weight, a leaves.
        const TestResponse r = putConfig(f.port, configText(f, {0, 1, 3}));
        QCOMPARE(r.status, 200);
        const nlohmann::json j = parse(r.body);
        QCOMPARE(j["applied"].get<bool>(), true);
        QVERIFY2(j["changes"]["removed"] == nlohmann::json::array({"a"}), j.dump().c_str());
        QCOMPARE(j["changes"]["reweighted"].size(), size_t(1));
        QVERIFY2(j["summary"].get<std::string>().find("removed a") != std::string::npos, j.dump().c_str());
        QCOMPARE(applied.size(), 1);
        QVERIFY(!f.gateway.config().provider(QStringLiteral("a")));
        // The new split: 1:3 between b and c, nothing to a.
        int b = 0, c = 0;
        for (int i = 0; i < 8; ++i) {
            const TestResponse x = request(f.port, "POST", "/v1/chat/completions", chatBody("m1"));
            QCOMPARE(x.status, 200);
            b += x.node() == "b";
            c += x.node() == "c";
        }
        QCOMPARE(b, 2);
        QCOMPARE(c, 6);
    }

    void putRejectsAnInvalidConfigAndKeepsTheRunningOne()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a"), QStringLiteral("b")}));
        QByteArray bad = configText(f, {1, 1});
        bad.replace("\"weight\": 1", "\"weight\": -2");
        TestResponse r = putConfig(f.port, bad);
        QCOMPARE(r.status, 422);
        nlohmann::json j = parse(r.body);
        QCOMPARE(j["error"]["code"].get<std::string>(), std::string("invalid_config"));
        QCOMPARE(j["error"]["type"].get<std::string>(), std::string("invalid_request_error"));
        QCOMPARE(j["problems"].size(), size_t(2));
        QCOMPARE(j["problems"][0]["path"].get<std::string>(), std::string("providers.a.keys[0].weight"));

        r = putConfig(f.port, "{\"providers\": {");
        QCOMPARE(r.status, 422);
        j = parse(r.body);
        QCOMPARE(j["problems"][0]["line"].get<int>(), 1);

        // Still the old config, still serving both nodes.
        QCOMPARE(f.gateway.config().providers.size(), size_t(2));
        QCOMPARE(request(f.port, "POST", "/v1/chat/completions", chatBody("m1")).status, 200);
        QCOMPARE(request(f.port, "POST", "/api/config").status, 405);
    }

    // Roles (docs/SECURITY.md): a client key may no longer replace the config; an admin key may.
    void putNeedsAnAdminKeyWhenKeysAreSet()
    {
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}, {}, {}, [](config::GatewayConfig &c) {
            c.settings.apiKeys = {QStringLiteral("s3cret")};
            c.settings.adminKeys = {QStringLiteral("adm1n")};
        }));
        const QByteArray text = configText(f, {2}, "\"api_keys\": [\"s3cret\"], \"admin_keys\": [\"adm1n\"]");
        TestResponse r = putConfig(f.port, text);
        QCOMPARE(r.status, 401);
        r = request(f.port, "PUT", "/api/config", text, 15000, {{"Authorization", "Bearer s3cret"}});
        QCOMPARE(r.status, 403);
        std::atomic<bool> done{false};
        QThread *t = QThread::create([&] {
            r = request(f.port, "PUT", "/api/config", text, 15000, {{"Authorization", "Bearer adm1n"}});
            done = true;
        });
        t->start();
        QTRY_VERIFY_WITH_TIMEOUT(done.load(), 20000);
        t->wait();
        delete t;
        QCOMPARE(r.status, 200);
        QCOMPARE(parse(r.body)["changes"]["reweighted"].size(), size_t(1));
    }

    void saveIsAtomicWithBackupAndRefusesInvalid()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("config.json"));
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a")}));
        const QByteArray first = configText(f, {1});
        const QByteArray second = configText(f, {5});
        auto saved = config::saveConfigFile(path, first);
        QVERIFY(saved);
        QVERIFY(saved->backupPath.isEmpty()); // nothing to back up yet
        saved = config::saveConfigFile(path, second);
        QVERIFY(saved);
        QCOMPARE(saved->backupPath, path + QStringLiteral(".bak"));
        QFile now(path), bak(path + QStringLiteral(".bak"));
        QVERIFY(now.open(QIODevice::ReadOnly) && bak.open(QIODevice::ReadOnly));
        QCOMPARE(now.readAll(), second);
        QCOMPARE(bak.readAll(), first);
        now.close();
        // An invalid config never reaches the disk.
        const auto refused = config::saveConfigFile(path, "{\"providers\": {}}");
        QVERIFY(!refused);
        QVERIFY2(refused.error().contains(QStringLiteral("at least one provider")),
                 qPrintable(refused.error()));
        QVERIFY(now.open(QIODevice::ReadOnly));
        QCOMPARE(now.readAll(), second);
        // No temporary files left behind.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 2);
    }

    void steadyTrafficSeesNoFailureWhileTheConfigChanges()
    {
        // Three nodes; the config flips between splits, adds and removes nodes 20 times while two
        // clients send requests back to back (streaming and not). Every request must succeed.
        GatewayFixture f;
        QVERIFY(f.start({QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")}, {1, 1, 0}));
        std::atomic<bool> stop{false};
        std::atomic<int> ok{0}, failed{0};
        QStringList failures;
        QMutex failuresMutex;
        auto client = [&](bool stream) {
            return QThread::create([&, stream] {
                TestClient c(f.port);
                while (!stop.load()) {
                    c.send("POST", "/v1/chat/completions", chatBody("m1", 4, stream));
                    const TestResponse r = c.read(15000);
                    if (r.status == 200 && r.complete) {
                        ++ok;
                    } else {
                        ++failed;
                        QMutexLocker lock(&failuresMutex);
                        failures << QStringLiteral("%1 %2 %3")
                                        .arg(r.status)
                                        .arg(r.error, QString::fromUtf8(r.body.left(200)));
                    }
                }
            });
        };
        QThread *plain = client(false), *streaming = client(true);
        plain->start();
        streaming->start();
        const std::vector<std::vector<double>> splits = {
            {1, 1, 0}, {0, 1, 1}, {3, 0, 1}, {1, 1, 1}, {0, 0, 1}};
        // Each change lands while requests are under way: the next one waits for one more answer. (No
        // QVERIFY on the waits: returning would leave the clients running; the checks below report it.)
        const auto answered = [&] { return ok.load() + failed.load(); };
        for (int i = 0; i < 20; ++i) {
            const int before = answered();
            if (!QTest::qWaitFor([&] { return answered() > before; }, 20000))
                break;
            auto parsed = config::parseConfig(configText(f, splits[size_t(i) % splits.size()]));
            QVERIFY(parsed);
            f.gateway.applyConfig(*parsed);
        }
        // A few answers on the last config too.
        const int afterLast = answered();
        (void)QTest::qWaitFor([&] { return answered() >= afterLast + 4; }, 20000);
        stop = true;
        QVERIFY(plain->wait(20000));
        QVERIFY(streaming->wait(20000));
        delete plain;
        delete streaming;
        QVERIFY2(failed.load() == 0, qPrintable(failures.join(u'\n')));
        QVERIFY2(ok.load() > 20, qPrintable(QString::number(ok.load())));
    }
};

QTEST_GUILESS_MAIN(TestConfigApi)
#include "tst_configapi.moc"
