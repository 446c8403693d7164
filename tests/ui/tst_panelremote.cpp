// The panel attached to a gateway that runs elsewhere, as an operator's workstation sees a server: a real
// `switchyard --headless` process in front of two `switchyard-simnode` processes, and a MainWindow on a
// RemoteGatewayLink with the admin key. What the views show is asserted: the nodes and a faulted one,
// request rows after traffic, drain and pause from the panel (and their effect on the gateway), the
// gateway killed (unreachable) and back after its restart, a config applied from the editor and refused
// when it changed meanwhile (412), two replicas in the fleet view with their drift, and a wrong key.

#include "common/testhttpclient.h"
#include "common/testprocesses.h"
#include "config/codeeditor.h"
#include "config/configeditor.h"
#include "config/remoteconfig.h"
#include "fleet/gatewaysview.h"
#include "mainwindow.h"
#include "nodesmodel.h"
#include "nodesview.h"
#include "remotesessions.h"
#include "remote/remotegatewaylink.h"
#include "requestsmodel.h"
#include "requestsview.h"
#include "statusicons.h"

#include <QAction>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QTableView>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QtConcurrent>
#include <nlohmann/json.hpp>

using namespace Qt::Literals::StringLiterals;
using namespace switchyard;
using namespace switchyard::ui;

namespace {
const QByteArray AdminKey = "adm1n-panel-remote-key";
const QList<QPair<QByteArray, QByteArray>> AdminAuth = {{"Authorization", "Bearer " + AdminKey}};
} // namespace

class TestPanelRemote final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<testing::TestProcesses> m_processes;
    quint16 m_nodeA = 0;
    quint16 m_nodeB = 0;
    quint16 m_port = 0;
    QString m_config;
    QProcess *m_gateway = nullptr;

    QString writeConfig(const QString &name = u"gateway.json"_s, int weightOfA = 1)
    {
        nlohmann::ordered_json providers = nlohmann::ordered_json::object();
        const std::pair<const char *, quint16> nodes[] = {{"a", m_nodeA}, {"b", m_nodeB}};
        for (const auto &[name, port] : nodes) {
            providers[name] = {
                {"keys", {{{"name", std::string(name) + "-key"}, {"value", "dummy"}, {"models", {"m1"}}, {"weight", std::string(name) == "a" ? weightOfA : 1}}}},
                {"network_config", {{"base_url", "http://127.0.0.1:" + std::to_string(port)}}},
                {"custom_provider_config", {{"base_provider_type", "openai"}}},
            };
        }
        const nlohmann::ordered_json doc = {
            {"providers", providers},
            {"switchyard",
             {{"worker_threads", 1}, {"health_check_interval_ms", 500}, {"admin_keys", {AdminKey.toStdString()}}}}};
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return {};
        f.write(QByteArray::fromStdString(doc.dump(2)));
        return path;
    }

    client::RemoteLinkOptions options(const QByteArray &key = AdminKey) const
    {
        client::RemoteLinkOptions o;
        o.url = QUrl(u"http://127.0.0.1:%1"_s.arg(m_port));
        o.adminKey = QString::fromLatin1(key);
        return o;
    }

    static health::NodeState stateOf(NodesModel *nodes, const QString &name)
    {
        const int row = nodes->rowOf(name);
        return row < 0 ? health::NodeState::Unknown : nodes->node(row)->status.state;
    }

    int chat() const
    {
        return testing::request(m_port, "POST", "/v1/chat/completions", testing::chatBody("m1"), 30000, AdminAuth).status;
    }

    // What the gateway itself says, not the panel: the effect of the panel's commands.
    nlohmann::json gatewayStatus() const
    {
        const auto r = testing::request(m_port, "GET", "/api/status", {}, 10000, AdminAuth);
        return r.status == 200 ? nlohmann::json::parse(r.body.toStdString(), nullptr, false) : nlohmann::json();
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        m_processes = std::make_unique<testing::TestProcesses>(m_dir.path());
        m_nodeA = m_processes->startSimNode(QStringLiteral(SWITCHYARD_SIMNODE_BIN), u"a"_s);
        m_nodeB = m_processes->startSimNode(QStringLiteral(SWITCHYARD_SIMNODE_BIN), u"b"_s);
        QVERIFY2(m_nodeA && m_nodeB, "switchyard-simnode did not start");
        m_config = writeConfig();
        m_port = m_processes->startHeadless(QStringLiteral(SWITCHYARD_BIN), m_config, 0, &m_gateway);
        QVERIFY2(m_port != 0, "switchyard --headless did not start");
    }

    void cleanupTestCase() { m_processes.reset(); }

    void viewsFollowTheGatewayOnTheServer()
    {
        client::RemoteGatewayLink remote(options());
        MainWindow window(&remote, nullptr, nullptr);
        QVERIFY(window.windowTitle().contains(remote.displayName()));
        NodesModel *nodes = window.nodesView()->model();
        QTRY_COMPARE_WITH_TIMEOUT(nodes->rowCount(), 2, 15000);
        QTRY_VERIFY_WITH_TIMEOUT(stateOf(nodes, u"a"_s) == health::NodeState::Healthy
                                     && stateOf(nodes, u"b"_s) == health::NodeState::Healthy,
                                 15000);
        QTRY_COMPARE_WITH_TIMEOUT(window.indicator(), GatewayIndicator::Running, 10000);

        // Traffic through the gateway: its rows reach the remote panel's Requests view.
        auto traffic = QtConcurrent::run([this] {
            QList<int> statuses;
            for (int i = 0; i < 4; ++i)
                statuses << chat();
            return statuses;
        });
        QTRY_VERIFY_WITH_TIMEOUT(traffic.isFinished(), 60000);
        QCOMPARE(traffic.result(), QList<int>({200, 200, 200, 200}));
        RequestsModel *requests = window.requestsView()->model();
        const auto chats = [requests] {
            int n = 0;
            for (int i = 0; i < requests->rowCount(); ++i)
                n += requests->record(i)->path == "/v1/chat/completions";
            return n;
        };
        QTRY_COMPARE_WITH_TIMEOUT(chats(), 4, 15000);

        // A node that dies on the server shows as such in the panel; the other stays healthy.
        QCOMPARE(testing::request(m_nodeB, "POST", "/control/fault", R"({"mode":"dead"})").status, 200);
        QTRY_VERIFY_WITH_TIMEOUT(stateOf(nodes, u"b"_s) == health::NodeState::Down
                                     || stateOf(nodes, u"b"_s) == health::NodeState::Degraded,
                                 15000);
        QCOMPARE(stateOf(nodes, u"a"_s), health::NodeState::Healthy);
        QVERIFY(window.indicator() != GatewayIndicator::Running);
        QCOMPARE(testing::request(m_nodeB, "POST", "/control/fault", R"({"mode":"healthy"})").status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(nodes, u"b"_s), health::NodeState::Healthy, 20000);

        // Drain from the panel: the gateway drains the node, and the panel shows it.
        window.setNodeDraining(u"b"_s, true);
        QTRY_VERIFY_WITH_TIMEOUT(nodes->node(nodes->rowOf(u"b"_s))->status.draining, 10000);
        const auto drainedOnTheServer = [this] {
            const nlohmann::json s = gatewayStatus();
            if (!s.is_object() || !s.contains("nodes"))
                return false;
            for (const auto &n : s["nodes"])
                if (n.value("name", "") == "b")
                    return n.value("draining", false);
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(drainedOnTheServer(), 10000);
        window.setNodeDraining(u"b"_s, false);
        QTRY_VERIFY_WITH_TIMEOUT(!nodes->node(nodes->rowOf(u"b"_s))->status.draining, 10000);

        // The toolbar's toggle pauses the gateway on the server: new requests get 503 there.
        QTRY_VERIFY(window.gatewayToggleAction()->isEnabled());
        window.gatewayToggleAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(window.indicator(), GatewayIndicator::Paused, 10000);
        QCOMPARE(QtConcurrent::run([this] { return chat(); }).result(), 503);
        window.gatewayToggleAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(window.indicator() != GatewayIndicator::Paused, 10000);
        QCOMPARE(QtConcurrent::run([this] { return chat(); }).result(), 200);

        // The gateway is killed: the panel says it cannot see it. Restarted on its port: back by itself.
        testing::TestProcesses::stop(m_gateway);
        m_gateway = nullptr;
        QTRY_COMPARE_WITH_TIMEOUT(window.indicator(), GatewayIndicator::Unreachable, 15000);
        QVERIFY2(window.gatewayBannerText().contains(u"cannot see the gateway"_s), qPrintable(window.gatewayBannerText()));
        QVERIFY(nodes->isStale());
        QCOMPARE(m_processes->startHeadless(QStringLiteral(SWITCHYARD_BIN), m_config, m_port, &m_gateway), m_port);
        QTRY_COMPARE_WITH_TIMEOUT(window.indicator(), GatewayIndicator::Running, 30000);
        QVERIFY(window.gatewayBannerText().isEmpty());
        QVERIFY(!nodes->isStale());
        QCOMPARE(nodes->rowCount(), 2);
    }

    // Node a's weight in the config the gateway runs, as its API says (not as the panel shows it).
    int runningWeightOfA(quint16 port) const
    {
        const auto r = testing::request(port, "GET", "/api/config", {}, 10000, AdminAuth);
        const auto doc = nlohmann::json::parse(r.body.toStdString(), nullptr, false);
        if (r.status != 200 || !doc.is_object())
            return -1;
        return doc["providers"]["a"]["keys"][0].value("weight", -1);
    }

    static QString withWeightOfA(const QString &text, int weight)
    {
        // Node a is the first provider, so its key's weight is the first in the text.
        static const QRegularExpression first(uR"("weight":\s*\d+)"_s);
        QString out = text;
        const auto m = first.match(out);
        if (m.hasMatch())
            out.replace(m.capturedStart(), m.capturedLength(), u"\"weight\": %1"_s.arg(weight));
        return out;
    }

    void configIsAppliedFromTheEditorAndRefusedWhenStale()
    {
        client::RemoteGatewayLink remote(options());
        MainWindow window(&remote, nullptr, nullptr);
        ConfigEditor *editor = window.configEditor();
        QVERIFY(editor && window.remoteConfig());
        QTRY_VERIFY_WITH_TIMEOUT(editor->text().contains(u"providers"_s), 15000);
        const int before = runningWeightOfA(m_port);
        QVERIFY(before > 0);

        // An edit applied from the panel runs on the server.
        editor->textEdit()->setPlainText(withWeightOfA(editor->text(), before + 1));
        QVERIFY(editor->apply());
        QTRY_VERIFY_WITH_TIMEOUT(!editor->isApplyPending(), 15000);
        QVERIFY2(!editor->lastMessageIsError(), qPrintable(editor->lastMessage()));
        QCOMPARE(runningWeightOfA(m_port), before + 1);

        // Someone else changes the config meanwhile (another panel, a script): the panel's next apply is
        // stale. "Reload" keeps the other change and shows it; nothing of the panel's overwrites it.
        const auto current = testing::request(m_port, "GET", "/api/config", {}, 10000, AdminAuth);
        auto doc = nlohmann::json::parse(current.body.toStdString());
        doc["providers"]["a"]["keys"][0]["weight"] = 7;
        auto headers = AdminAuth;
        headers.append({"If-Match", current.header("etag")});
        QCOMPARE(testing::request(m_port, "PUT", "/api/config", QByteArray::fromStdString(doc.dump()), 10000, headers).status,
                 200);
        window.remoteConfig()->setStalePrompt([] { return RemoteConfig::StaleChoice::Reload; });
        editor->textEdit()->setPlainText(withWeightOfA(editor->text(), 3));
        QVERIFY(editor->apply());
        QTRY_VERIFY_WITH_TIMEOUT(!editor->isApplyPending(), 15000);
        QCOMPARE(runningWeightOfA(m_port), 7);
        QTRY_VERIFY_WITH_TIMEOUT(editor->text().contains(uR"("weight": 7)"_s), 15000);

        // Changed again behind the panel's back; this time the operator overwrites.
        doc["providers"]["a"]["keys"][0]["weight"] = 8;
        const auto again = testing::request(m_port, "GET", "/api/config", {}, 10000, AdminAuth);
        headers.last() = {"If-Match", again.header("etag")};
        QCOMPARE(testing::request(m_port, "PUT", "/api/config", QByteArray::fromStdString(doc.dump()), 10000, headers).status,
                 200);
        window.remoteConfig()->setStalePrompt([] { return RemoteConfig::StaleChoice::Overwrite; });
        editor->textEdit()->setPlainText(withWeightOfA(editor->text(), 5));
        QVERIFY(editor->apply());
        QTRY_VERIFY_WITH_TIMEOUT(!editor->isApplyPending(), 15000);
        QCOMPARE(runningWeightOfA(m_port), 5);
    }

    void fleetViewShowsTwoReplicasAndTheirDrift()
    {
        // A second replica in front of the same nodes, with another weight for a: the fleet drifts.
        QProcess *replica = nullptr;
        const quint16 second = m_processes->startHeadless(QStringLiteral(SWITCHYARD_BIN),
                                                         writeConfig(u"replica.json"_s, 9), 0, &replica);
        QVERIFY2(second != 0, "the second replica did not start");
        auto stopReplica = qScopeGuard([replica] { testing::TestProcesses::stop(replica); });
        // Both attached as the operator attaches them (File > Connect), then the Gateways tab's button
        // opens the fleet window, which lists both with the drift and sums their nodes.
        RemoteSessions sessions;
        const QString key = QString::fromLatin1(AdminKey);
        MainWindow *one = sessions.open(QUrl(u"http://127.0.0.1:%1"_s.arg(m_port)), key, false);
        MainWindow *two = sessions.open(QUrl(u"http://127.0.0.1:%1"_s.arg(second)), key, false);
        QVERIFY(one && two);
        QTRY_VERIFY_WITH_TIMEOUT(one->gatewaysView()->fleetWindowButton()->isEnabled(), 15000);
        one->gatewaysView()->fleetWindowButton()->click();
        MainWindow *fleet = sessions.fleetWindow();
        QVERIFY(fleet);
        fleet->showView(MainWindow::View::Gateways);
        GatewaysView *view = fleet->gatewaysView();
        QTRY_COMPARE_WITH_TIMEOUT(view->gatewaysTable()->model()->rowCount(), 2, 15000);
        QTRY_VERIFY_WITH_TIMEOUT(view->driftBanner()->isVisible(), 15000);
        QVERIFY2(view->driftBanner()->text().contains(u"different configs"_s), qPrintable(view->driftBanner()->text()));
        QTRY_COMPARE_WITH_TIMEOUT(fleet->nodesView()->model()->rowCount(), 2, 15000); // a and b, behind both

        // The replica's window is closed: the fleet lists one gateway, and the drift is gone.
        two->close();
        QTRY_COMPARE_WITH_TIMEOUT(view->gatewaysTable()->model()->rowCount(), 1, 15000);
        QTRY_VERIFY_WITH_TIMEOUT(view->driftBanner()->isHidden(), 15000);
    }

    void aWrongKeyIsShownAsSuch()
    {
        client::RemoteGatewayLink remote(options("not-the-admin-key"));
        MainWindow window(&remote, nullptr, nullptr);
        QTRY_COMPARE_WITH_TIMEOUT(window.indicator(), GatewayIndicator::Unreachable, 15000);
        QCOMPARE(remote.linkStatus().state, link::LinkState::Unauthorized);
        QVERIFY2(window.statusText().contains(u"Unauthorized"_s), qPrintable(window.statusText()));
        QVERIFY(!window.gatewayToggleAction()->isEnabled());
        QCOMPARE(window.nodesView()->model()->rowCount(), 0); // nothing of the gateway is shown
        QVERIFY2(!window.statusText().contains(u"not-the-admin-key"_s), "the key was shown");
    }
};

QTEST_MAIN(TestPanelRemote)
#include "tst_panelremote.moc"
