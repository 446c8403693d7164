// The fleet window's link (client/fleet/fleetlink) over two real `switchyard --headless` replicas in
// front of the same two `switchyard-simnode` nodes: what the operator sees and does in the fleet
// window — the nodes once each, the requests of both gateways merged and counted, a drain that reaches
// both, a config applied to both, drift refused until overwritten, a replica lost and named.

#include "common/testhttpclient.h"
#include "common/testprocesses.h"
#include "fleet/fleetlink.h"
#include "remote/remotegatewaylink.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>

using namespace Qt::Literals::StringLiterals;
using namespace switchyard;
using namespace switchyard::client;
using link::ConfigPutResult;
using link::LinkState;

namespace {

const QString AdminKey = u"adm1n-key"_s;

} // namespace

class TestFleetLink final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<testing::TestProcesses> m_processes;
    QList<quint16> m_nodePorts;
    QList<quint16> m_gatewayPorts;
    QList<QProcess *> m_gateways;

    QString writeConfig(int index, double weightOfA = 1, quint16 redisPort = 0)
    {
        nlohmann::ordered_json providers = nlohmann::ordered_json::object();
        const char *names[] = {"a", "b"};
        for (int i = 0; i < 2; ++i) {
            providers[names[i]] = {
                {"keys", {{{"name", std::string(names[i]) + "-key"}, {"value", "dummy"}, {"models", {"m1"}},
                           {"weight", i == 0 ? weightOfA : 1.0}}}},
                {"network_config", {{"base_url", "http://127.0.0.1:" + std::to_string(m_nodePorts[i])}}},
                {"custom_provider_config", {{"base_provider_type", "openai"}}},
            };
        }
        nlohmann::ordered_json doc = {
            {"providers", providers},
            {"switchyard",
             {{"worker_threads", 1}, {"health_check_interval_ms", 200}, {"admin_keys", {AdminKey.toStdString()}}}}};
        if (redisPort != 0)
            doc["switchyard"]["redis_url"] = "redis://127.0.0.1:" + std::to_string(redisPort);
        const QString path = m_dir.filePath(u"gateway-%1.json"_s.arg(index));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return {};
        f.write(QByteArray::fromStdString(doc.dump(2)));
        return path;
    }

    std::unique_ptr<FleetLink> fleet() { return fleetOf(m_gatewayPorts); }
    std::unique_ptr<FleetLink> fleetOf(const QList<quint16> &ports)
    {
        std::vector<std::unique_ptr<link::GatewayLink>> members;
        for (quint16 port : ports) {
            RemoteLinkOptions o;
            o.url = QUrl(u"http://127.0.0.1:%1"_s.arg(port));
            o.adminKey = AdminKey;
            members.push_back(std::make_unique<RemoteGatewayLink>(o));
        }
        return std::make_unique<FleetLink>(std::move(members));
    }

    int chatWithKey(quint16 port, const QByteArray &secret)
    {
        return testing::request(port, "POST", "/v1/chat/completions", testing::chatBody("m1", 4), 10000,
                                {{"Authorization", "Bearer " + secret}, {"Content-Type", "application/json"}})
            .status;
    }

    bool chat(int gateway)
    {
        return testing::request(m_gatewayPorts[gateway], "POST", "/v1/chat/completions", testing::chatBody("m1", 4), 10000,
                                {{"Authorization", "Bearer " + AdminKey.toUtf8()}, {"Content-Type", "application/json"}})
                   .status
               == 200;
    }

    static bool allConnected(const FleetLink &f)
    {
        for (int i = 0; i < f.memberCount(); ++i) {
            if (f.member(i)->linkStatus().state != LinkState::Connected)
                return false;
        }
        // The fleet's own status is coalesced from its members', so it follows them a moment later.
        return f.status().has_value() && f.linkStatus().state == LinkState::Connected && f.linkStatus().reason.isEmpty();
    }

private slots:
    void init()
    {
        QVERIFY(m_dir.isValid());
        m_processes = std::make_unique<testing::TestProcesses>(m_dir.path());
        m_nodePorts.clear();
        m_gatewayPorts.clear();
        m_gateways.clear();
        for (const QString &n : {u"a"_s, u"b"_s}) {
            const quint16 port = m_processes->startSimNode(QStringLiteral(SWITCHYARD_SIMNODE_BIN), n);
            QVERIFY2(port != 0, "switchyard-simnode did not start");
            m_nodePorts.append(port);
        }
        for (int i = 0; i < 2; ++i) {
            QProcess *p = nullptr;
            const quint16 port = m_processes->startHeadless(QStringLiteral(SWITCHYARD_BIN), writeConfig(i), 0, &p);
            QVERIFY2(port != 0, "switchyard --headless did not start");
            m_gatewayPorts.append(port);
            m_gateways.append(p);
        }
    }

    void cleanup() { m_processes.reset(); }

    void showsTheFleetSummedAndMerged()
    {
        auto f = fleet();
        QCOMPARE(f->displayName(), u"http://127.0.0.1:%1 + http://127.0.0.1:%2"_s.arg(m_gatewayPorts[0]).arg(m_gatewayPorts[1]));
        f->start();
        QTRY_VERIFY_WITH_TIMEOUT(allConnected(*f), 10000);
        QCOMPARE(f->linkStatus().state, LinkState::Connected);
        QVERIFY2(f->linkStatus().reason.isEmpty(), qPrintable(f->linkStatus().reason));
        QCOMPARE(f->status()->nodes.size(), 2); // each node once, though both gateways see it
        QVERIFY(!f->status()->configHash.isEmpty()); // the replicas run one config

        for (int i = 0; i < 3; ++i)
            QVERIFY(chat(0));
        for (int i = 0; i < 2; ++i)
            QVERIFY(chat(1));
        QTRY_COMPARE_WITH_TIMEOUT(f->status()->requestsTotal, 5, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(f->status()->nodes[0].attempts + f->status()->nodes[1].attempts, 5, 10000);

        // The request log: both gateways' records in one page, by start time, then nothing new.
        QSignalSpy pages(f.get(), &link::GatewayLink::requestsFetched);
        QList<stats::RequestRecord> seen;
        quint64 cursor = 0;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                f->fetchRequests(cursor, 100);
                if (!pages.wait(5000))
                    return false;
                const QList<QVariant> page = pages.takeLast();
                seen += page[0].value<QList<stats::RequestRecord>>();
                cursor = page[1].toULongLong();
                return seen.size() >= 5;
            }(),
            15000);
        QCOMPARE(seen.size(), 5);
        QCOMPARE(cursor, 5u);
        for (int i = 1; i < seen.size(); ++i)
            QVERIFY(seen[i - 1].startedMsSinceEpoch <= seen[i].startedMsSinceEpoch);
        f->fetchRequests(cursor, 100);
        QVERIFY(pages.wait(5000));
        QVERIFY(pages.takeLast()[0].value<QList<stats::RequestRecord>>().isEmpty());

        // The per-second history sums both gateways.
        QSignalSpy history(f.get(), &link::GatewayLink::historyFetched);
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                f->fetchHistory(stats::SecondsHistory::GatewaySeries, 120);
                if (!history.wait(5000))
                    return false;
                double requests = 0;
                for (const stats::SecondSample &s : history.takeLast()[1].value<QList<stats::SecondSample>>())
                    requests += s.requests;
                return qRound(requests) == 5;
            }(),
            15000);
    }

    void drainReachesEveryGateway()
    {
        auto f = fleet();
        f->start();
        QTRY_VERIFY_WITH_TIMEOUT(allConnected(*f), 10000);
        QSignalSpy done(f.get(), &link::GatewayLink::commandFinished);
        f->nodeAction(u"a"_s, link::NodeAction::Drain);
        QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 10000);
        QCOMPARE(done[0][0].toString(), u"drain a"_s);
        QVERIFY2(done[0][1].toBool(), qPrintable(done[0][2].toString()));
        // Both replicas stop sending to it.
        for (int g = 0; g < 2; ++g) {
            QTRY_VERIFY_WITH_TIMEOUT(f->member(g)->status()->nodes[0].draining, 10000);
        }
        QTRY_VERIFY_WITH_TIMEOUT(f->status()->nodes[0].draining, 10000);
        QCOMPARE(f->status()->nodes[0].state, health::NodeState::Draining);
    }

    void configGoesToAllOrShowsDrift()
    {
        auto f = fleet();
        f->start();
        QTRY_VERIFY_WITH_TIMEOUT(allConnected(*f), 10000);
        QSignalSpy fetched(f.get(), &link::GatewayLink::configFetched);
        f->fetchConfig();
        QVERIFY(fetched.wait(10000));
        QByteArray text = fetched[0][0].toByteArray();
        const QString hash = fetched[0][1].toString();
        QCOMPARE(hash, f->status()->configHash);

        // Applied to both: both run the new config, and still agree.
        nlohmann::json doc = nlohmann::json::parse(text.toStdString());
        doc["providers"]["a"]["keys"][0]["weight"] = 3;
        QSignalSpy put(f.get(), &link::GatewayLink::configPut);
        f->putConfig(QByteArray::fromStdString(doc.dump()), hash);
        QVERIFY(put.wait(15000));
        auto result = put.takeFirst()[0].value<ConfigPutResult>();
        QVERIFY2(result.outcome == ConfigPutResult::Outcome::Applied, qPrintable(result.reason));
        QVERIFY(result.summary.contains(u"on 2 gateways"_s));
        const QString applied = result.configHash;
        QTRY_VERIFY_WITH_TIMEOUT(f->member(0)->status()->configHash == applied
                                     && f->member(1)->status()->configHash == applied,
                                 10000);
        QTRY_COMPARE_WITH_TIMEOUT(f->status()->configHash, applied, 10000);

        // Someone changes the second replica behind the panel's back: drift.
        nlohmann::json other = doc;
        other["providers"]["b"]["keys"][0]["weight"] = 5;
        const auto direct = testing::request(m_gatewayPorts[1], "PUT", "/api/config", QByteArray::fromStdString(other.dump()),
                                             10000, {{"Authorization", "Bearer " + AdminKey.toUtf8()}});
        QCOMPARE(direct.status, 200);
        QTRY_VERIFY_WITH_TIMEOUT(f->status()->configHash.isEmpty(), 10000);

        // Applying the edited config with its hash: refused, naming the drifted replica, nothing applied.
        doc["providers"]["a"]["keys"][0]["weight"] = 2;
        f->putConfig(QByteArray::fromStdString(doc.dump()), applied);
        QVERIFY(put.wait(10000));
        result = put.takeFirst()[0].value<ConfigPutResult>();
        QVERIFY(result.outcome == ConfigPutResult::Outcome::Stale);
        QVERIFY2(result.reason.contains(u"127.0.0.1:%1"_s.arg(m_gatewayPorts[1])), qPrintable(result.reason));
        QVERIFY(!result.reason.contains(u"127.0.0.1:%1"_s.arg(m_gatewayPorts[0])));
        QCOMPARE(f->member(0)->status()->configHash, applied);

        // Overwrite: every replica gets the same config again.
        f->putConfig(QByteArray::fromStdString(doc.dump()), u"*"_s);
        QVERIFY(put.wait(15000));
        result = put.takeFirst()[0].value<ConfigPutResult>();
        QVERIFY2(result.outcome == ConfigPutResult::Outcome::Applied, qPrintable(result.reason));
        QTRY_VERIFY_WITH_TIMEOUT(!f->status()->configHash.isEmpty() && f->status()->configHash == result.configHash, 10000);
    }

    // Replicas that keep their own keys: a key made through the fleet window would work on one of them
    // only, so the window refuses and says why.
    void keysAreRefusedForGatewaysWithKeysOfTheirOwn()
    {
        auto f = fleet();
        f->start();
        QTRY_VERIFY_WITH_TIMEOUT(allConnected(*f), 10000);
        QSignalSpy done(f.get(), &link::GatewayLink::commandFinished);
        f->fetchKeys();
        QVERIFY(done.wait(5000));
        QCOMPARE(done.last()[0].toString(), u"list keys"_s);
        QVERIFY(!done.last()[1].toBool());
        QVERIFY2(done.last()[2].toString().contains(u"keep their own keys"_s), qPrintable(done.last()[2].toString()));
        keys::KeyChange spec;
        spec.name = u"ci"_s;
        f->createKey(spec);
        QVERIFY(done.wait(5000));
        QCOMPARE(done.last()[0].toString(), u"create key"_s);
        QVERIFY(!done.last()[1].toBool());
        QCOMPARE(testing::request(m_gatewayPorts[0], "GET", "/api/keys", {}, 5000,
                                  {{"Authorization", "Bearer " + AdminKey.toUtf8()}})
                     .body.count("\"id\""),
                 0); // nothing was made anywhere
    }

    // Replicas sharing their keys through one Redis are one set of keys in the fleet window: made on one
    // gateway, it works on the other; listed from both with their usage added; revoked everywhere.
    void keysSharedThroughOneRedisAreManagedAsOne()
    {
        const quint16 redisPort = m_processes->startRedis();
        QVERIFY2(redisPort != 0, "redis-server did not start (scripts/install-deps.sh --test installs it)");
        QList<quint16> ports;
        for (int i = 0; i < 2; ++i) {
            const quint16 port =
                m_processes->startHeadless(QStringLiteral(SWITCHYARD_BIN), writeConfig(10 + i, 1, redisPort));
            QVERIFY2(port != 0, "switchyard --headless did not start");
            ports.append(port);
        }
        auto f = fleetOf(ports);
        f->start();
        QTRY_VERIFY_WITH_TIMEOUT(allConnected(*f) && f->keysNotShared().isEmpty(), 10000);

        QSignalSpy made(f.get(), &link::GatewayLink::keyCreated);
        QSignalSpy done(f.get(), &link::GatewayLink::commandFinished);
        keys::KeyChange spec;
        spec.name = u"shared"_s;
        f->createKey(spec);
        QVERIFY(made.wait(5000));
        const QByteArray secret = made.first()[1].toString().toUtf8();
        const QString id = made.first()[0].value<keys::KeyListing>().key.id;
        QVERIFY(!secret.isEmpty());
        QTRY_VERIFY(!done.isEmpty());
        QCOMPARE(done.last()[0].toString(), u"create key"_s);
        QVERIFY(done.last()[1].toBool());
        // Made on the first gateway, it works on both (Redis takes it to the second within a second).
        const auto listedBy = [&](quint16 port) {
            return testing::request(port, "GET", "/api/keys", {}, 5000, {{"Authorization", "Bearer " + AdminKey.toUtf8()}})
                .body.contains(id.toUtf8());
        };
        QTRY_VERIFY_WITH_TIMEOUT(listedBy(ports[1]), 5000);
        QCOMPARE(chatWithKey(ports[1], secret), 200);
        QCOMPARE(chatWithKey(ports[0], secret), 200);
        QCOMPARE(chatWithKey(ports[0], secret), 200);

        // One row, its requests since start added over both gateways.
        QSignalSpy listed(f.get(), &link::GatewayLink::keysFetched);
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                listed.clear();
                f->fetchKeys();
                if (!listed.wait(5000))
                    return false;
                const auto keys = listed.last()[0].value<QList<keys::KeyListing>>();
                return keys.size() == 1 && keys[0].key.id == id && keys[0].usage.requests == 3;
            }(),
            10000);

        // Revoked through the fleet: refused by both.
        f->revokeKey(id);
        QTRY_VERIFY(done.last()[0].toString() == u"revoke key "_s + id);
        QVERIFY(done.last()[1].toBool());
        QTRY_COMPARE_WITH_TIMEOUT(chatWithKey(ports[1], secret), 401, 5000);
        QCOMPARE(chatWithKey(ports[0], secret), 401);
    }

    void aLostReplicaIsNamedAndTheRestStillShown()
    {
        auto f = fleet();
        f->start();
        QTRY_VERIFY_WITH_TIMEOUT(allConnected(*f), 10000);
        testing::TestProcesses::stop(m_gateways[1]);
        QTRY_VERIFY_WITH_TIMEOUT(f->linkStatus().reason.contains(u"127.0.0.1:%1"_s.arg(m_gatewayPorts[1])), 15000);
        QCOMPARE(f->linkStatus().state, LinkState::Connected); // the other replica is still seen
        QVERIFY(f->status().has_value());
        QCOMPARE(f->status()->nodes.size(), 2);
        QVERIFY(chat(0));
        QTRY_COMPARE_WITH_TIMEOUT(f->status()->requestsTotal, 1, 10000);
        // A config for the fleet is not applied to half of it.
        QSignalSpy put(f.get(), &link::GatewayLink::configPut);
        f->putConfig("{}", u"*"_s);
        QVERIFY(put.wait(5000));
        const auto result = put.takeFirst()[0].value<ConfigPutResult>();
        QVERIFY(result.outcome == ConfigPutResult::Outcome::Failed);
        QVERIFY2(result.reason.contains(u"nothing was applied"_s), qPrintable(result.reason));
    }
};

QTEST_GUILESS_MAIN(TestFleetLink)
#include "tst_fleetlink.moc"
