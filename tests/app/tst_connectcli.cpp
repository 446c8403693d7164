// `SWITCHYARD_ADMIN_KEY=… switchyard --connect URL`, as an operator types it on a workstation: the real
// program, in English and in Chinese, against a real `switchyard --headless` process in front of two simulated nodes.
// Through a counting proxy the test sees what the panel does on the wire: it polls the gateway's status
// with the admin key, keeps polling, finds the gateway again after it was restarted, and never prints
// the key.

#include "common/countingproxy.h"
#include "common/testprocesses.h"

#include <QFile>
#include <QProcess>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>

using namespace Qt::Literals::StringLiterals;
using namespace switchyard;

namespace {
const QByteArray AdminKey = "adm1n-c0nnect-key";
}

class TestConnectCli final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString writeConfig(quint16 nodeA, quint16 nodeB)
    {
        nlohmann::ordered_json providers = nlohmann::ordered_json::object();
        const std::pair<const char *, quint16> nodes[] = {{"a", nodeA}, {"b", nodeB}};
        for (const auto &[name, port] : nodes) {
            providers[name] = {
                {"keys", {{{"name", std::string(name) + "-key"}, {"value", "dummy"}, {"models", {"m1"}}, {"weight", 1}}}},
                {"network_config", {{"base_url", "http://127.0.0.1:" + std::to_string(port)}}},
                {"custom_provider_config", {{"base_provider_type", "openai"}}},
            };
        }
        const nlohmann::ordered_json doc = {
            {"providers", providers},
            {"switchyard", {{"worker_threads", 1}, {"admin_keys", {AdminKey.toStdString()}}}}};
        const QString path = m_dir.filePath(u"gateway.json"_s);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return {};
        f.write(QByteArray::fromStdString(doc.dump(2)));
        return path;
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void connectPollsTheGatewayAndFindsItAgainAfterARestart_data()
    {
        QTest::addColumn<QString>("lang");
        QTest::addColumn<QString>("language");
        QTest::newRow("English") << u"en_US.UTF-8"_s << u"en"_s;
        QTest::newRow("Chinese") << u"zh_CN.UTF-8"_s << u"zh_CN"_s;
    }

    void connectPollsTheGatewayAndFindsItAgainAfterARestart()
    {
        QFETCH(QString, lang);
        QFETCH(QString, language);
        testing::TestProcesses processes(m_dir.path());
        const quint16 a = processes.startSimNode(QStringLiteral(SWITCHYARD_SIMNODE_BIN), u"a"_s);
        const quint16 b = processes.startSimNode(QStringLiteral(SWITCHYARD_SIMNODE_BIN), u"b"_s);
        QVERIFY2(a && b, "switchyard-simnode did not start");
        const QString config = writeConfig(a, b);
        QProcess *gateway = nullptr;
        const quint16 port = processes.startHeadless(QStringLiteral(SWITCHYARD_BIN), config, 0, &gateway);
        QVERIFY2(port != 0, "switchyard --headless did not start");

        testing::CountingProxy proxy(port);
        QVERIFY(proxy.listen());

        // The workstation: its own settings, no secret service (the key comes from the environment), no
        // display, the interface in English or in Chinese.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"SWITCHYARD_ADMIN_KEY"_s, QString::fromLatin1(AdminKey));
        env.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
        env.insert(u"HOME"_s, m_dir.filePath(u"home"_s));
        env.insert(u"XDG_CONFIG_HOME"_s, m_dir.filePath(u"home/.config"_s));
        env.insert(u"XDG_DATA_HOME"_s, m_dir.filePath(u"home/.local/share"_s));
        env.insert(u"XDG_CACHE_HOME"_s, m_dir.filePath(u"home/.cache"_s));
        env.insert(u"DBUS_SESSION_BUS_ADDRESS"_s, u"unix:path=/nonexistent/switchyard-test-bus"_s);
        env.insert(u"LANG"_s, lang);
        env.insert(u"LANGUAGE"_s, language);
        QProcess panel;
        panel.setProcessEnvironment(env);
        panel.setProgram(QStringLiteral(SWITCHYARD_BIN));
        panel.setArguments({u"--connect"_s, proxy.url().toString()});
        panel.setProcessChannelMode(QProcess::MergedChannels);
        panel.start();
        QVERIFY(panel.waitForStarted(10000));
        auto stopPanel = qScopeGuard([&panel] { testing::TestProcesses::stop(&panel); });

        // It polls, with the admin key, and reads the request log and history the views show.
        QTRY_VERIFY_WITH_TIMEOUT(proxy.requests("GET /api/status") >= 3, 20000);
        QVERIFY(proxy.sawHeader("authorization: Bearer " + AdminKey));
        QTRY_VERIFY_WITH_TIMEOUT(proxy.requests("GET /api/requests") >= 1, 10000);
        QCOMPARE(panel.state(), QProcess::Running);

        // The gateway goes away and comes back on the same port: the panel finds it again by itself.
        testing::TestProcesses::stop(gateway);
        const int beforeRestart = proxy.requests("GET /api/status");
        const quint16 again = processes.startHeadless(QStringLiteral(SWITCHYARD_BIN), config, port, &gateway);
        QCOMPARE(again, port);
        QTRY_VERIFY_WITH_TIMEOUT(proxy.requests("GET /api/status") >= beforeRestart + 2, 30000);
        QCOMPARE(panel.state(), QProcess::Running);

        stopPanel.dismiss();
        testing::TestProcesses::stop(&panel);
        const QByteArray said = panel.readAll();
        QVERIFY2(!said.contains(AdminKey), "the admin key was printed");
    }
};

QTEST_GUILESS_MAIN(TestConnectCli)
#include "tst_connectcli.moc"
