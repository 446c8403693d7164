// The config controller that headless mode and the panel share, with real files in a temporary directory
// and a real gateway in front of simulated nodes: saving keeps a backup and never writes an invalid config,
// a change on disk is noticed (also when another program saves by renaming a new file over the old one)
// and applied, PUT /api/config is saved to the file before it is applied, the --listen override survives
// every apply, and a config reachable from the network without keys is flagged.

#include "common/testhttpclient.h"
#include "config/configcontroller.h"
#include "gateway/gatewayfixture.h"

#include <QDir>
#include <QFile>
#include <QSaveFile>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <atomic>
#include <nlohmann/json.hpp>

using namespace switchyard;
using namespace switchyard::testing;
using namespace Qt::Literals::StringLiterals;

namespace {

// A config text over the fixture's nodes with the given weights (0 = left out) and extra settings.
QByteArray configText(GatewayFixture &f, const std::vector<double> &weights, const QString &listen,
                      const std::string &extraSettings = {})
{
    nlohmann::ordered_json providers = nlohmann::ordered_json::object();
    for (size_t i = 0; i < f.nodes.size() && i < weights.size(); ++i) {
        if (weights[i] == 0)
            continue;
        const std::string name = f.nodes[i]->options().name.toStdString();
        providers[name] = {
            {"keys",
             {{{"name", name + "-key"}, {"value", "dummy"}, {"models", {"m1"}}, {"weight", weights[i]}}}},
            {"network_config", {{"base_url", f.nodes[i]->baseUrl().toStdString()}}},
            {"custom_provider_config", {{"base_provider_type", "openai"}}},
        };
    }
    nlohmann::ordered_json doc = {{"providers", providers}};
    doc["switchyard"] = nlohmann::ordered_json::parse("{\"listen\": \"" + listen.toStdString() +
                                                      "\", \"worker_threads\": 2" + extraSettings + "}");
    const std::string text = doc.dump(2);
    return QByteArray(text.data(), qsizetype(text.size()));
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeInPlace(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

// As careful editors save: a new file renamed over the old one.
bool writeByRename(const QString &path, const QByteArray &bytes)
{
    QSaveFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size() && f.commit();
}

// PUT from another thread: the gateway applies on this (the test's) thread, whose event loop must run.
TestResponse putConfig(quint16 port, const QByteArray &text)
{
    TestResponse r;
    std::atomic<bool> done{false};
    QThread *client = QThread::create([&] {
        r = request(port, "PUT", "/api/config", text, 15000, {{"Content-Type", "application/json"}});
        done = true;
    });
    client->start();
    const bool answered = QTest::qWaitFor([&] { return done.load(); }, 20000);
    client->wait();
    delete client;
    if (!answered)
        r.error = u"no answer"_s;
    return r;
}

// Which node answered each of n requests.
QMap<QString, int> spread(quint16 port, int n)
{
    QMap<QString, int> by;
    for (int i = 0; i < n; ++i) {
        const TestResponse r = request(port, "POST", "/v1/chat/completions", chatBody("m1"));
        by[r.status == 200 ? QString::fromUtf8(r.node()) : QString::number(r.status)] += 1;
    }
    return by;
}

} // namespace

class TestConfigController final : public QObject
{
    Q_OBJECT

private slots:
    void saveKeepsABackupAndNeverWritesAnInvalidConfig()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"config.json"_s);
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s, u"b"_s}));
        config::ConfigController controller(&f.gateway);
        const QByteArray first = configText(f, {1, 1}, u"127.0.0.1:0"_s);
        const QByteArray second = configText(f, {1, 3}, u"127.0.0.1:0"_s);

        auto saved = controller.saveAs(path, first);
        QVERIFY(saved);
        QVERIFY(saved->backupPath.isEmpty()); // nothing to keep yet
        QCOMPARE(controller.filePath(), path);
        saved = controller.saveAs(path, second);
        QVERIFY(saved);
        QCOMPARE(saved->backupPath, path + u".bak"_s);
        QCOMPARE(readAll(path), second);
        QCOMPARE(readAll(path + u".bak"_s), first);

        // Invalid: refused with every problem, the file and its backup untouched.
        QByteArray bad = second;
        bad.replace("\"weight\": 3", "\"weight\": -3");
        const auto refused = controller.saveAs(path, bad);
        QVERIFY(!refused);
        QCOMPARE(refused.error().kind, config::FileError::Kind::Invalid);
        QCOMPARE(refused.error().problems.size(), 1);
        QCOMPARE(refused.error().problems.front().path, u"providers.b.keys[0].weight"_s);
        QCOMPARE(readAll(path), second);
        QCOMPARE(readAll(path + u".bak"_s), first);
        // The same bytes again: nothing written, and the backup still holds the version before.
        QVERIFY(controller.saveAs(path, second));
        QCOMPARE(readAll(path + u".bak"_s), first);
        // No temporary files left behind.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden),
                 QStringList({u"config.json"_s, u"config.json.bak"_s}));
    }

    void aChangeOnDiskIsNoticedAndApplied()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"config.json"_s);
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s, u"b"_s}, {1, 0}));
        QVERIFY(writeInPlace(path, configText(f, {1, 0}, u"127.0.0.1:0"_s)));
        config::ConfigController controller(&f.gateway);
        const auto opened = controller.openConfigFile(path);
        QVERIFY(opened);
        controller.apply(*opened, path);
        controller.setReloadOnChange(true);
        QSignalSpy reloaded(&controller, &config::ConfigController::reloaded);
        QSignalSpy rejected(&controller, &config::ConfigController::reloadRejected);

        // Another program moves all traffic to b, saving by rename: the watch follows the new file.
        QVERIFY(writeByRename(path, configText(f, {0, 1}, u"127.0.0.1:0"_s)));
        QTRY_COMPARE_WITH_TIMEOUT(reloaded.size(), 1, 10000);
        QCOMPARE(spread(f.port, 4), (QMap<QString, int>{{u"b"_s, 4}}));

        // A second change, written in place: noticed too. An invalid one is refused and b keeps serving.
        QVERIFY(writeInPlace(path, configText(f, {0, -1}, u"127.0.0.1:0"_s)));
        QTRY_COMPARE_WITH_TIMEOUT(rejected.size(), 1, 10000);
        QCOMPARE(rejected.front().at(1).value<config::ConfigProblems>().front().path,
                 u"providers.b.keys[0].weight"_s);
        QCOMPARE(reloaded.size(), 1);
        QCOMPARE(spread(f.port, 2), (QMap<QString, int>{{u"b"_s, 2}}));

        // As the panel runs it: reported, not applied.
        controller.setReloadOnChange(false);
        QSignalSpy changed(&controller, &config::ConfigController::fileChanged);
        QVERIFY(writeByRename(path, configText(f, {1, 0}, u"127.0.0.1:0"_s)));
        QTRY_COMPARE_WITH_TIMEOUT(changed.size(), 1, 10000);
        QCOMPARE(changed.front().at(0).toString(), path);
        QCOMPARE(reloaded.size(), 1);
        QCOMPARE(spread(f.port, 2), (QMap<QString, int>{{u"b"_s, 2}}));
        // SIGHUP applies it.
        controller.reload(u"SIGHUP"_s);
        QCOMPARE(reloaded.size(), 2);
        QCOMPARE(spread(f.port, 2), (QMap<QString, int>{{u"a"_s, 2}}));
    }

    void aConfigOverTheApiIsSavedThenApplied()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"config.json"_s);
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s, u"b"_s}, {1, 0}));
        const QString listen = u"127.0.0.1:0"_s; // as the gateway runs: no rebind
        const QByteArray before = configText(f, {1, 0}, listen);
        QVERIFY(writeInPlace(path, before));
        config::ConfigController controller(&f.gateway);
        QVERIFY(controller.openConfigFile(path));
        controller.setReloadOnChange(true);
        QSignalSpy applied(&controller, &config::ConfigController::apiConfigApplied);
        QSignalSpy changed(&controller, &config::ConfigController::fileChanged);
        QSignalSpy reloaded(&controller, &config::ConfigController::reloaded);

        const QByteArray sent = configText(f, {0, 2}, listen);
        const TestResponse r = putConfig(f.port, sent);
        QCOMPARE(r.status, 200);
        const auto body = nlohmann::json::parse(r.body.toStdString());
        QCOMPARE(QString::fromStdString(body["saved_to"].get<std::string>()), path);
        QCOMPARE(applied.size(), 1);
        QCOMPARE(readAll(path), sent);
        QCOMPARE(readAll(path + u".bak"_s), before);
        QCOMPARE(spread(f.port, 2), (QMap<QString, int>{{u"b"_s, 2}}));
        // Its own save shows up on disk, but it is what already runs: not applied a second time.
        QTRY_COMPARE_WITH_TIMEOUT(changed.size(), 1, 10000);
        QCOMPARE(reloaded.size(), 0);

        // A config with problems is answered 422 with each of them; the file stays as it was.
        QByteArray bad = sent;
        bad.replace("\"weight\": 2.0", "\"weight\": -2.0");
        bad.replace("\"weight\": 2", "\"weight\": -2");
        const TestResponse refused = putConfig(f.port, bad);
        QCOMPARE(refused.status, 422);
        const auto problems = nlohmann::json::parse(refused.body.toStdString())["problems"];
        QCOMPARE(problems.size(), size_t(1));
        QCOMPARE(problems[0]["path"].get<std::string>(), std::string("providers.b.keys[0].weight"));
        QCOMPARE(readAll(path), sent);
    }

    void theListenOverrideSurvivesEveryApply()
    {
        // The file asks for an address that is taken; --listen says where the gateway listens (any free
        // port on loopback, as it started).
        QTcpServer taken;
        QVERIFY(taken.listen(QHostAddress::LocalHost, 0));
        const QString fileListen = u"127.0.0.1:"_s + QString::number(taken.serverPort());
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s}));
        const QString url = f.gateway.listenUrl();
        config::ConfigController controller(&f.gateway);
        QVERIFY(controller.setListenOverride(u"127.0.0.1:0"_s));
        QVERIFY(!controller.setListenOverride(u"127.0.0.1:notaport"_s)); // refused, the override stays
        QCOMPARE(controller.listenOverride(), u"127.0.0.1:0"_s);

        for (double weight : {1.0, 2.0}) {
            const auto applied = controller.applyText(configText(f, {weight}, fileListen), u"test"_s);
            QVERIFY(applied);
            QVERIFY2(applied->listenError.isEmpty(), qPrintable(applied->listenError));
            QVERIFY(!applied->changes.listenChanged);
            QCOMPARE(f.gateway.listenUrl(), url);
            QCOMPARE(request(f.port, "POST", "/v1/chat/completions", chatBody("m1")).status, 200);
        }
        QCOMPARE(f.gateway.config().provider(u"a"_s)->keys.front().weight, 2.0);

        // Without the override the file's address is tried, and the gateway keeps the one it has.
        QVERIFY(controller.setListenOverride(QString()));
        const auto unpinned = controller.applyText(configText(f, {1}, fileListen), u"test"_s);
        QVERIFY(unpinned);
        QVERIFY(unpinned->changes.listenChanged);
        QVERIFY(!unpinned->listenError.isEmpty());
        QCOMPARE(f.gateway.listenUrl(), url);
    }

    void aGatewayReachableWithoutKeysIsFlagged()
    {
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s}));
        f.gateway.stopNow(); // only what it would listen on matters, not that it does
        config::ConfigController controller(&f.gateway);
        QSignalSpy applied(&controller, &config::ConfigController::applied);

        QVERIFY(controller.applyText(configText(f, {1}, u"127.0.0.1:0"_s), u"loopback"_s));
        QVERIFY(!controller.exposedHost());
        QVERIFY(controller.exposureWarning().isEmpty());

        QVERIFY(controller.applyText(
            configText(f, {1}, u"0.0.0.0:0"_s, ", \"allow_unauthenticated_network_access\": true"),
            u"open"_s));
        QCOMPARE(controller.exposedHost(), std::optional<QString>(u"0.0.0.0"_s));
        QVERIFY(controller.exposureWarning().contains(u"without API keys"_s));
        QCOMPARE(applied.size(), 2);
        QCOMPARE(applied.last().at(1).toString(), u"open"_s);

        QVERIFY(controller.applyText(configText(f, {1}, u"0.0.0.0:0"_s, ", \"api_keys\": [\"s3cret\"]"),
                                     u"with keys"_s));
        QVERIFY(!controller.exposedHost());
    }

    void validationOffTheOwnerThreadFindsTheSameProblems()
    {
        const QByteArray bad = "{\"providers\": {\"a\": {\"keys\": [{\"name\": \"k\", \"weight\": -2}]}}}";
        const config::ConfigValidation here = config::ConfigController::validate(bad);
        QFuture<config::ConfigValidation> there =
            config::ConfigController::validateInBackground(bad, config::processEnvironment());
        there.waitForFinished();
        QVERIFY(!here.config);
        QVERIFY(here.problems.size() >= 2);
        QCOMPARE(there.result().problems, here.problems);
    }
};

QTEST_GUILESS_MAIN(TestConfigController)
#include "tst_configcontroller.moc"
