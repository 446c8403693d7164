// The config diff: the one-line change summary the panel shows after Apply, PUT /api/config answers with
// and headless reloads log. Nodes added, removed and re-weighted by name; other provider changes named
// with their base URL, timeout and retries from → to (a key's secret never appears); gateway settings as such,
// the listen address from → to.
#include "config/configdiff.h"

#include <QTest>

#include <functional>
#include <vector>

using namespace switchyard::config;
using namespace Qt::Literals::StringLiterals;

namespace {

ProviderConfig node(const QString &name, const QString &baseUrl, double weight = 1.0)
{
    ProviderConfig p;
    p.name = name;
    p.network.baseUrl = baseUrl;
    p.network.requestTimeoutSeconds = 120;
    p.network.maxRetries = 2;
    KeyConfig key;
    key.name = name + u"-key"_s;
    key.value = u"literal-secret-of-"_s + name;
    key.models = {u"nemotron-3-super"_s};
    key.weight = weight;
    p.keys.push_back(key);
    return p;
}

// The article's setup: two vLLM nodes, equal weights.
GatewayConfig twoNodes()
{
    GatewayConfig c;
    c.providers.push_back(node(u"vllm-server1"_s, u"http://192.168.200.101:8030"_s));
    c.providers.push_back(node(u"vllm-server2"_s, u"http://192.168.200.102:8030"_s));
    return c;
}

ProviderConfig &provider(GatewayConfig &c, const QString &name)
{
    for (ProviderConfig &p : c.providers) {
        if (p.name == name)
            return p;
    }
    qFatal("no provider %s", qPrintable(name));
}

// A named change to one part of a config, for the data-driven rows.
template <typename Part> struct Edit
{
    const char *name;
    std::function<void(Part &)> apply;
};

// Key changes that leave the node's share as it is. The provider has a zero-weight key "spare" last, so
// adding or removing one changes the keys, not the weights.
const std::vector<Edit<ProviderConfig>> &keyEdits()
{
    static const std::vector<Edit<ProviderConfig>> edits = {
        {"key renamed", [](ProviderConfig &p) { p.keys[0].name = u"renamed-key"_s; }},
        {"models", [](ProviderConfig &p) { p.keys[0].models = QStringList{u"*"_s}; }},
        {"key added",
         [](ProviderConfig &p) {
             p.keys.push_back(p.keys.back());
             p.keys.back().name = u"spare-2"_s;
         }},
        {"key removed", [](ProviderConfig &p) { p.keys.pop_back(); }},
    };
    return edits;
}

const std::vector<Edit<ProviderConfig>> &providerEdits()
{
    static const std::vector<Edit<ProviderConfig>> edits = {
        {"base URL", [](ProviderConfig &p) { p.network.baseUrl = u"http://192.168.200.112:8030"_s; }},
        {"timeout", [](ProviderConfig &p) { p.network.requestTimeoutSeconds = 30; }},
        {"retries", [](ProviderConfig &p) { p.network.maxRetries = 0; }},
        {"backoff", [](ProviderConfig &p) { p.network.retryBackoffMaxMs = 10'000; }},
        {"extra header",
         [](ProviderConfig &p) { p.network.extraHeaders.emplace_back("X-Team", "inference"); }},
        {"allowed requests", [](ProviderConfig &p) { p.allowed.embedding = false; }},
        {"concurrency", [](ProviderConfig &p) { p.concurrency = 8; }},
    };
    return edits;
}

const std::vector<Edit<GatewaySettings>> &settingsEdits()
{
    static const std::vector<Edit<GatewaySettings>> edits = {
        {"api key", [](GatewaySettings &s) { s.apiKeys << u"client-secret-key"_s; }},
        {"default strategy",
         [](GatewaySettings &s) { s.defaultStrategy = RoutingStrategy::LeastOutstanding; }},
        {"per-model strategy",
         [](GatewaySettings &s) {
             s.strategyByModel.insert(u"nemotron-3-super"_s, RoutingStrategy::LoadAware);
         }},
        {"cors origin", [](GatewaySettings &s) { s.corsOrigins << u"https://panel.example"_s; }},
        {"ejection", [](GatewaySettings &s) { s.ejectionConsecutiveFailures = 5; }},
        {"timeout", [](GatewaySettings &s) { s.idleTimeoutMs = 1000; }},
    };
    return edits;
}

template <typename Part> void addRows(const std::vector<Edit<Part>> &edits)
{
    QTest::addColumn<int>("edit");
    for (std::size_t i = 0; i < edits.size(); ++i)
        QTest::newRow(edits[i].name) << int(i);
}

} // namespace

class TestConfigDiff final : public QObject
{
    Q_OBJECT

private slots:
    void sameConfigIsNoChange()
    {
        const ConfigChanges c = diffConfigs(twoNodes(), twoNodes());
        QVERIFY(c.isEmpty());
        QVERIFY(!c.listenChanged);
        QCOMPARE(c.summary(), u"no changes"_s);
    }

    void providersInAnotherOrderAreNoChange()
    {
        GatewayConfig after = twoNodes();
        std::swap(after.providers[0], after.providers[1]);
        QVERIFY(diffConfigs(twoNodes(), after).isEmpty());
    }

    void addedProvider()
    {
        GatewayConfig after = twoNodes();
        after.providers.push_back(node(u"vllm-server3"_s, u"http://192.168.200.103:8030"_s));
        const ConfigChanges c = diffConfigs(twoNodes(), after);
        QCOMPARE(c.added, QStringList{u"vllm-server3"_s});
        QVERIFY(c.removed.isEmpty());
        QVERIFY(c.reweighted.isEmpty());
        QVERIFY(c.changed.isEmpty());
        QVERIFY(!c.settingsChanged);
        QCOMPARE(c.summary(), u"added vllm-server3"_s);
    }

    void removedProvider()
    {
        GatewayConfig after = twoNodes();
        after.providers.pop_back();
        const ConfigChanges c = diffConfigs(twoNodes(), after);
        QCOMPARE(c.removed, QStringList{u"vllm-server2"_s});
        QVERIFY(c.added.isEmpty());
        QCOMPARE(c.summary(), u"removed vllm-server2"_s);
    }

    void renamedProviderIsRemovedAndAdded()
    {
        // The gateway knows nodes by name: a new name is a new node (its health and stats start afresh).
        GatewayConfig after = twoNodes();
        after.providers[1].name = u"vllm-server2b"_s;
        const ConfigChanges c = diffConfigs(twoNodes(), after);
        QCOMPARE(c.added, QStringList{u"vllm-server2b"_s});
        QCOMPARE(c.removed, QStringList{u"vllm-server2"_s});
        QCOMPARE(c.summary(), u"added vllm-server2b; removed vllm-server2"_s);
    }

    void reweightedProvider()
    {
        GatewayConfig after = twoNodes();
        provider(after, u"vllm-server1"_s).keys[0].weight = 3;
        const ConfigChanges c = diffConfigs(twoNodes(), after);
        QCOMPARE(c.reweighted, QStringList{u"vllm-server1: 1 → 3"_s});
        // A new weight alone is said once, as a re-weighting, not again as "changed".
        QVERIFY(c.changed.isEmpty());
        QVERIFY(c.added.isEmpty() && c.removed.isEmpty());
        QCOMPARE(c.summary(), u"re-weighted vllm-server1: 1 → 3"_s);
    }

    void fractionalWeightsAreShownAsWritten()
    {
        GatewayConfig before = twoNodes();
        provider(before, u"vllm-server1"_s).keys[0].weight = 0.75;
        GatewayConfig after = twoNodes();
        provider(after, u"vllm-server1"_s).keys[0].weight = 0.25;
        QCOMPARE(diffConfigs(before, after).reweighted, QStringList{u"vllm-server1: 0.75 → 0.25"_s});
    }

    void weightIsTheSumOfEnabledKeys()
    {
        GatewayConfig before = twoNodes();
        ProviderConfig &p = provider(before, u"vllm-server1"_s);
        KeyConfig second = p.keys[0];
        second.name = u"vllm-server1-key-2"_s;
        second.weight = 2;
        p.keys.push_back(second);

        // Disabling a key takes its weight out of the node's share, so it is a re-weighting too.
        GatewayConfig after = before;
        provider(after, u"vllm-server1"_s).keys[1].enabled = false;
        const ConfigChanges c = diffConfigs(before, after);
        QCOMPARE(c.reweighted, QStringList{u"vllm-server1: 3 → 1"_s});
        QCOMPARE(c.changed, QStringList{u"vllm-server1"_s});
    }

    void reweightedAndOtherKeyChangeSaysBoth()
    {
        GatewayConfig after = twoNodes();
        KeyConfig &key = provider(after, u"vllm-server2"_s).keys[0];
        key.weight = 4;
        key.models << u"gpt-oss-120b"_s;
        const ConfigChanges c = diffConfigs(twoNodes(), after);
        QCOMPARE(c.reweighted, QStringList{u"vllm-server2: 1 → 4"_s});
        QCOMPARE(c.changed, QStringList{u"vllm-server2"_s});
        QCOMPARE(c.summary(), u"re-weighted vllm-server2: 1 → 4; changed vllm-server2"_s);
    }

    void changedKeyIsNamedWithoutRevealingIt()
    {
        GatewayConfig after = twoNodes();
        provider(after, u"vllm-server1"_s).keys[0].value = u"new-secret-value"_s;
        const ConfigChanges c = diffConfigs(twoNodes(), after);
        QCOMPARE(c.changed, QStringList{u"vllm-server1"_s});
        QVERIFY(c.reweighted.isEmpty());
        const QString summary = c.summary();
        QCOMPARE(summary, u"changed vllm-server1"_s);
        QVERIFY(!summary.contains(u"new-secret-value"_s));
        QVERIFY(!summary.contains(u"literal-secret-of-vllm-server1"_s));
    }

    void otherKeyChangesAreChanges_data() { addRows(keyEdits()); }

    void otherKeyChangesAreChanges()
    {
        QFETCH(int, edit);
        GatewayConfig before = twoNodes();
        ProviderConfig &old = provider(before, u"vllm-server1"_s);
        KeyConfig spare = old.keys[0];
        spare.name = u"spare"_s;
        spare.weight = 0;
        old.keys.push_back(spare);

        GatewayConfig after = before;
        keyEdits()[size_t(edit)].apply(provider(after, u"vllm-server1"_s));
        const ConfigChanges c = diffConfigs(before, after);
        QCOMPARE(c.changed, QStringList{u"vllm-server1"_s});
        QVERIFY(c.reweighted.isEmpty());
        QCOMPARE(c.summary(), u"changed vllm-server1"_s);
    }

    void providerSettingsAreChanges_data() { addRows(providerEdits()); }

    void providerSettingsAreChanges()
    {
        QFETCH(int, edit);
        GatewayConfig after = twoNodes();
        providerEdits()[size_t(edit)].apply(provider(after, u"vllm-server2"_s));
        const ConfigChanges c = diffConfigs(twoNodes(), after);
        QCOMPARE(c.changed, QStringList{u"vllm-server2"_s});
        QVERIFY(c.added.isEmpty() && c.removed.isEmpty() && c.reweighted.isEmpty());
        QVERIFY(!c.settingsChanged);
        // What the operator typed by hand is said from → to; the rest by name.
        static const QHash<QString, QString> details{
            {u"base URL"_s, u" (base URL: http://192.168.200.102:8030 → http://192.168.200.112:8030)"_s},
            {u"timeout"_s, u" (timeout: 120 s → 30 s)"_s},
            {u"retries"_s, u" (retries: 2 → 0)"_s}};
        QCOMPARE(c.summary(), u"changed vllm-server2"_s + details.value(QString::fromLatin1(QTest::currentDataTag())));
    }

    void gatewaySettingsChanged_data() { addRows(settingsEdits()); }

    void gatewaySettingsChanged()
    {
        QFETCH(int, edit);
        GatewayConfig after = twoNodes();
        settingsEdits()[size_t(edit)].apply(after.settings);
        const ConfigChanges c = diffConfigs(twoNodes(), after);
        QVERIFY(!c.isEmpty());
        QVERIFY(c.settingsChanged);
        QVERIFY(!c.listenChanged);
        QVERIFY(c.added.isEmpty() && c.removed.isEmpty() && c.reweighted.isEmpty() && c.changed.isEmpty());
        const QString summary = c.summary();
        QCOMPARE(summary, u"gateway settings changed"_s);
        QVERIFY(!summary.contains(u"client-secret-key"_s));
    }

    void listenAddressChanged()
    {
        GatewayConfig after = twoNodes();
        after.settings.listenPort = 9090;
        ConfigChanges c = diffConfigs(twoNodes(), after);
        QVERIFY(c.settingsChanged);
        QVERIFY(c.listenChanged);
        // The listen address is what an operator must act on (clients move): from where to where.
        QCOMPARE(c.summary(), u"listen address: 127.0.0.1:8080 → 127.0.0.1:9090"_s);

        after.settings.listenPort = 8080;
        after.settings.listenHost = u"0.0.0.0"_s;
        c = diffConfigs(twoNodes(), after);
        QVERIFY(c.listenChanged);
        QCOMPARE(c.summary(), u"listen address: 127.0.0.1:8080 → 0.0.0.0:8080"_s);

        after.settings.listenHost = u"::1"_s;
        c = diffConfigs(twoNodes(), after);
        QCOMPARE(c.summary(), u"listen address: 127.0.0.1:8080 → [::1]:8080"_s);
    }

    void everythingAtOnceInOneLine()
    {
        GatewayConfig after = twoNodes();
        provider(after, u"vllm-server1"_s).keys[0].weight = 2;
        provider(after, u"vllm-server1"_s).network.maxRetries = 5;
        after.providers.erase(after.providers.begin() + 1);
        after.providers.push_back(node(u"vllm-server3"_s, u"http://192.168.200.103:8030"_s));
        after.providers.push_back(node(u"vllm-server4"_s, u"http://192.168.200.104:8030"_s));
        after.settings.listenHost = u"0.0.0.0"_s;
        after.settings.apiKeys << u"client-secret-key"_s;
        const ConfigChanges c = diffConfigs(twoNodes(), after);
        QCOMPARE(c.summary(),
                 u"added vllm-server3, vllm-server4; removed vllm-server2; "
                 u"re-weighted vllm-server1: 1 → 2; changed vllm-server1 (retries: 2 → 5); listen address: 127.0.0.1:8080 → 0.0.0.0:8080"_s);
    }
};

QTEST_GUILESS_MAIN(TestConfigDiff)
#include "tst_configdiff.moc"
