// The panel's link to the gateway of its own process, against a real gateway in front of simulated
// nodes: every answer arrives by signal (never inside the call that asked), the request log follows a
// cursor, a drain shows in the next status, and a config put over a stale hash changes nothing.

#include "common/testhttpclient.h"
#include "gateway/gatewayfixture.h"
#include "link/localgatewaylink.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>

using namespace switchyard;
using namespace Qt::Literals::StringLiterals;
using namespace switchyard::testing;
using link::ConfigPutResult;
using link::GatewayStatus;
using link::LocalGatewayLink;

namespace {

const QString A = QStringLiteral("a");
const QString B = QStringLiteral("b");

std::optional<link::NodeStatus> nodeIn(const GatewayStatus &s, const QString &name)
{
    for (const link::NodeStatus &n : s.nodes) {
        if (n.name == name)
            return n;
    }
    return std::nullopt;
}

} // namespace

class TestLocalGatewayLink final : public QObject
{
    Q_OBJECT

private slots:
    void statusArrivesOnceStarted()
    {
        GatewayFixture f;
        QVERIFY(f.start({A, B}));
        LocalGatewayLink link(&f.gateway);
        QVERIFY(!link.isRemote());
        QVERIFY(!link.status());
        QSignalSpy linkSpy(&link, &link::GatewayLink::linkStatusChanged);
        QSignalSpy statusSpy(&link, &link::GatewayLink::statusChanged);
        link.start();
        QCOMPARE(statusSpy.count(), 0); // not from inside start()
        QVERIFY(statusSpy.wait());
        QVERIFY(linkSpy.count() >= 1);
        QCOMPARE(linkSpy.first().first().value<link::LinkStatus>().state, link::LinkState::Connected);
        const GatewayStatus s = statusSpy.last().first().value<GatewayStatus>();
        QVERIFY(s.running && s.accepting);
        QCOMPARE(s.listenUrl, f.gateway.listenUrl());
        QCOMPARE(s.nodes.size(), 2);
        QCOMPARE(s.configHash, link::configHash(f.gateway.config()));
        QVERIFY(link.status() == s);
        QCOMPARE(link.apiUrl(), QUrl(f.gateway.listenUrl()));
        // It keeps polling by itself.
        QVERIFY(statusSpy.wait());
        link.stop();
    }

    void pauseShowsInTheNextStatus()
    {
        GatewayFixture f;
        QVERIFY(f.start({A}));
        LocalGatewayLink link(&f.gateway);
        QSignalSpy statusSpy(&link, &link::GatewayLink::statusChanged);
        link.start();
        QVERIFY(statusSpy.wait());
        f.gateway.setPaused(true); // as POST /api/gateway/pause does
        QVERIFY(statusSpy.wait());
        GatewayStatus s = statusSpy.last().first().value<GatewayStatus>();
        QVERIFY(s.running && s.paused && !s.accepting);
        f.gateway.setPaused(false);
        QVERIFY(statusSpy.wait());
        s = statusSpy.last().first().value<GatewayStatus>();
        QVERIFY(s.running && !s.paused && s.accepting);
        link.stop();
    }

    void requestsFollowACursor()
    {
        GatewayFixture f;
        QVERIFY(f.start({A, B}));
        LocalGatewayLink link(&f.gateway);
        for (int i = 0; i < 3; ++i)
            QCOMPARE(request(f.port, "POST", "/v1/chat/completions", chatBody("m1")).status, 200);
        // A request is logged just after its answer went out.
        QTRY_COMPARE(f.gateway.recentRequests().size(), 3);
        QSignalSpy spy(&link, &link::GatewayLink::requestsFetched);
        link.fetchRequests(0, 100);
        QCOMPARE(spy.count(), 0);
        QVERIFY(spy.wait());
        auto records = spy.last().at(0).value<QList<stats::RequestRecord>>();
        const quint64 cursor = spy.last().at(1).value<quint64>();
        QCOMPARE(records.size(), 3);
        QCOMPARE(records.first().status, 200);
        QCOMPARE(spy.last().at(2).value<qint64>(), 0);

        QCOMPARE(request(f.port, "POST", "/v1/chat/completions", chatBody("m1")).status, 200);
        QTRY_COMPARE(f.gateway.recentRequests().size(), 4);
        link.fetchRequests(cursor, 100);
        QVERIFY(spy.wait());
        records = spy.last().at(0).value<QList<stats::RequestRecord>>();
        QCOMPARE(records.size(), 1);
        QVERIFY(spy.last().at(1).value<quint64>() > cursor);

        QSignalSpy history(&link, &link::GatewayLink::historyFetched);
        QTRY_VERIFY_WITH_TIMEOUT(!f.gateway.history(stats::SecondsHistory::GatewaySeries, 60).isEmpty(), 5000);
        link.fetchHistory(stats::SecondsHistory::GatewaySeries, 60);
        QVERIFY(history.wait());
        QCOMPARE(history.last().at(0).toString(), stats::SecondsHistory::GatewaySeries);
        QVERIFY(!history.last().at(1).value<QList<stats::SecondSample>>().isEmpty());
    }

    // The search runs off the caller's thread and answers by signal, never inside the call; a gateway
    // without a history says how to turn it on.
    void historySearchedOffTheWindowsThread()
    {
        {
            GatewayFixture f;
            QVERIFY(f.start({A}));
            LocalGatewayLink link(&f.gateway);
            QSignalSpy searched(&link, &link::GatewayLink::historySearched);
            link.searchHistory(1, {});
            QCOMPARE(searched.count(), 0);
            QVERIFY(searched.wait());
            const auto none = searched.last().at(0).value<link::HistorySearchResult>();
            QVERIFY(!none.ok);
            QVERIFY2(none.error.contains(u"switchyard.history.path"_s), qPrintable(none.error));
        }
        QTemporaryDir dir;
        GatewayFixture f;
        const QString path = dir.filePath(u"history.db"_s);
        QVERIFY(f.start({A, B}, {}, {}, [path](config::GatewayConfig &c) { c.settings.history.path = path; }));
        for (int i = 0; i < 4; ++i)
            QCOMPARE(request(f.port, "POST", "/v1/chat/completions", chatBody("m1")).status, 200);
        auto link = std::make_unique<LocalGatewayLink>(&f.gateway);
        QSignalSpy searched(link.get(), &link::GatewayLink::historySearched);
        history::HistoryQuery q;
        q.limit = 3;
        link::HistorySearchResult page;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                link->searchHistory(9, q);
                if (!searched.wait())
                    return false;
                page = searched.last().at(0).value<link::HistorySearchResult>();
                return page.ok && page.page.entries.size() == 3;
            }(),
            10000);
        QCOMPARE(page.ticket, quint64(9));
        QVERIFY(page.page.nextBeforeId != 0);
        QCOMPARE(page.page.entries[0].record.status, 200);

        // A link closed while a search is queued drops the answer rather than emitting into a dead object.
        link->searchHistory(10, q);
        link.reset(); // joins the search thread: the search ran or was dropped, and its answer went with the link
        QCoreApplication::processEvents();
    }

    void drainShowsInTheNextStatus()
    {
        GatewayFixture f;
        QVERIFY(f.start({A, B}));
        LocalGatewayLink link(&f.gateway);
        QSignalSpy statusSpy(&link, &link::GatewayLink::statusChanged);
        QSignalSpy done(&link, &link::GatewayLink::commandFinished);
        link.start();
        QVERIFY(statusSpy.wait());
        QVERIFY(!nodeIn(*link.status(), A)->draining);

        link.nodeAction(A, link::NodeAction::Drain);
        QVERIFY(done.wait());
        QVERIFY(done.last().at(1).toBool());
        QVERIFY(nodeIn(statusSpy.last().first().value<GatewayStatus>(), A)->draining);

        link.nodeAction(A, link::NodeAction::Enable);
        QVERIFY(done.wait());
        QVERIFY(!nodeIn(statusSpy.last().first().value<GatewayStatus>(), A)->draining);

        link.nodeAction(QStringLiteral("nope"), link::NodeAction::Probe);
        QVERIFY(done.wait());
        QVERIFY(!done.last().at(1).toBool());
        QVERIFY(done.last().at(2).toString().contains(QStringLiteral("nope")));
    }

    void configPutRefusesAStaleHash()
    {
        GatewayFixture f;
        QVERIFY(f.start({A, B}));
        LocalGatewayLink link(&f.gateway);
        QSignalSpy fetched(&link, &link::GatewayLink::configFetched);
        QSignalSpy put(&link, &link::GatewayLink::configPut);
        link.fetchConfig();
        QVERIFY(fetched.wait());
        const QByteArray text = fetched.last().at(0).toByteArray();
        const QString hash = fetched.last().at(1).toString();
        QCOMPARE(hash, link::configHash(f.gateway.config()));
        QVERIFY(!text.contains("dummy")); // secrets masked

        nlohmann::json doc = nlohmann::json::parse(text.toStdString());
        doc["providers"]["a"]["keys"][0]["weight"] = 3;
        const QByteArray edited = QByteArray::fromStdString(doc.dump());

        link.putConfig(edited, QStringLiteral("0000"));
        QCOMPARE(put.count(), 0);
        QVERIFY(put.wait());
        auto result = put.last().first().value<ConfigPutResult>();
        QCOMPARE(result.outcome, ConfigPutResult::Outcome::Stale);
        QVERIFY(!result.reason.isEmpty());
        QCOMPARE(link::configHash(f.gateway.config()), hash); // nothing applied

        link.putConfig("{ not json", hash);
        QVERIFY(put.wait());
        result = put.last().first().value<ConfigPutResult>();
        QCOMPARE(result.outcome, ConfigPutResult::Outcome::Invalid);
        QVERIFY(!result.problems.isEmpty());

        link.putConfig(edited, hash);
        QVERIFY(put.wait());
        result = put.last().first().value<ConfigPutResult>();
        QCOMPARE(result.outcome, ConfigPutResult::Outcome::Applied);
        QVERIFY(result.configHash != hash);
        QCOMPARE(result.configHash, link::configHash(f.gateway.config()));
        QCOMPARE(f.gateway.config().providers[0].keys[0].weight, 3.0);
        // The masked key came back as "keep the running one", as over PUT /api/config.
        QCOMPARE(f.gateway.config().providers[0].keys[0].value, QStringLiteral("dummy"));
        // The old hash is stale now.
        link.putConfig(edited, hash);
        QVERIFY(put.wait());
        QCOMPARE(put.last().first().value<ConfigPutResult>().outcome, ConfigPutResult::Outcome::Stale);
    }

    void setAcceptingStopsAndStartsTheGateway()
    {
        GatewayFixture f;
        QVERIFY(f.start({A}));
        LocalGatewayLink link(&f.gateway);
        QSignalSpy done(&link, &link::GatewayLink::commandFinished);
        link.start();
        link.setAccepting(false);
        QVERIFY(done.wait());
        QCOMPARE(done.last().at(0).toString(), QStringLiteral("stop"));
        QTRY_VERIFY(link.status() && !link.status()->running);
        link.setAccepting(true);
        QVERIFY(done.wait());
        QVERIFY(done.last().at(1).toBool());
        QTRY_VERIFY(link.status() && link.status()->running && link.status()->accepting);
    }
};

QTEST_GUILESS_MAIN(TestLocalGatewayLink)
#include "tst_localgatewaylink.moc"
