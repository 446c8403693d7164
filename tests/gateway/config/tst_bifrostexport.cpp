// The export to Bifrost (config/bifrostexport): only Switchyard's own section dropped, the article's
// config round-trips, a broken provider refused rather than exported.
#include "config/configloader.h"
#include "configtesting.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace switchyard::config;
using namespace switchyard::config::testing;
using namespace Qt::Literals::StringLiterals;

class TestBifrostExport final : public QObject
{
    Q_OBJECT

private slots:
    void exportDropsOnlySwitchyard()
    {
        Json j;
        j["client"] = {{"drop_excess_requests", false}, {"initial_pool_size", 300}};
        j["providers"] = minimal()["providers"];
        j["providers"]["p1"]["keys"][0]["value"] = "env.NOT_SET_ANYWHERE";
        j["providers"]["p1"]["network_config"]["retry_backoff_max"] = "2s";
        j["providers"]["p1"]["network_config"]["extra_headers"] = {{"X-Z", "1"}, {"X-A", "2"}};
        j["providers"]["p1"]["unknown_bifrost_field"] = {1, 2.5, "x"};
        j["switchyard"] = {{"listen", "127.0.0.1:1234"}, {"routing", {{"default_strategy", "load_aware"}}}};
        j["governance"] = {{"virtual_keys", Json::array()}};
        const QByteArray original = dump(j);

        const auto exported = exportBifrostConfig(original);
        QVERIFY2(exported.hasValue(),
                 qPrintable(exported.hasValue() ? QString() : describe(exported.error())));
        const QByteArray text = *exported;
        QVERIFY(text.endsWith("}\n"));
        QVERIFY2(text.startsWith("{\n  \"client\": {\n    \"drop_excess_requests\": false"),
                 text.constData());
        QVERIFY(!text.contains("switchyard"));
        QVERIFY(!text.contains('\t'));
        QVERIFY(text.contains("env.NOT_SET_ANYWHERE")); // references stay references

        const Json back = Json::parse(text.toStdString());
        QCOMPARE(back.size(), std::size_t(3));
        std::vector<std::string> order;
        for (auto it = back.begin(); it != back.end(); ++it)
            order.push_back(it.key());
        QVERIFY((order == std::vector<std::string>{"client", "providers", "governance"}));
        QVERIFY(back["providers"] == j["providers"]);
        QCOMPARE(back["providers"].dump(), j["providers"].dump()); // same member order too
        QVERIFY(back["client"] == j["client"]);
        QVERIFY(back["governance"] == j["governance"]);

        // Both read to the same providers.
        const EnvLookup env = fakeEnv({{u"NOT_SET_ANYWHERE"_s, u"s"_s}});
        const auto a = parseConfig(original, env);
        const auto b = parseConfig(text, env);
        QVERIFY(a.hasValue() && b.hasValue());
        QCOMPARE(a->providers.size(), b->providers.size());
        for (std::size_t i = 0; i < a->providers.size(); ++i)
            QCOMPARE(describe(b->providers[i]), describe(a->providers[i]));
        QCOMPARE(b->settings.listenPort, GatewaySettings{}.listenPort);
        QCOMPARE(a->settings.listenPort, quint16(1234));
    }

    void exportSeedRoundTrips()
    {
        const QByteArray seed = readData("seed-bifrost.json");
        const auto exported = exportBifrostConfig(seed);
        QVERIFY(exported.hasValue());
        QVERIFY(Json::parse(exported->toStdString()) == Json::parse(seed.toStdString()));
        // The article's config is already 2-space indented JSON: export reproduces its providers block
        // structure.
        QVERIFY(exported->contains("\n    \"vllm-server1\": {\n      \"keys\": ["));
        const auto again = exportBifrostConfig(*exported);
        QVERIFY(again.hasValue());
        QCOMPARE(*again, *exported); // idempotent
    }

    void exportRejectsBrokenProviders()
    {
        Json j = minimal();
        j["providers"]["p1"]["keys"][0]["weight"] = -1;
        j["switchyard"] = {{"no_such_field", 1}}; // not reported: it is not exported
        const auto r = exportBifrostConfig(dump(j));
        QVERIFY(!r.hasValue());
        QVERIFY2(r.error().size() == 1, qPrintable(describe(r.error())));
        QCOMPARE(r.error()[0].path, u"providers.p1.keys[0].weight"_s);

        Json ok = minimal();
        ok["switchyard"] = {{"no_such_field", 1}};
        QVERIFY(exportBifrostConfig(dump(ok)).hasValue());

        const auto syntax = exportBifrostConfig("{\"providers\": ");
        QVERIFY(!syntax.hasValue());
        QVERIFY(syntax.error()[0].line > 0);
    }
};

QTEST_GUILESS_MAIN(TestBifrostExport)
#include "tst_bifrostexport.moc"
