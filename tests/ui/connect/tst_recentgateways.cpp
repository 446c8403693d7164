// The recent-gateways list of the Connect dialog: most recent first, one entry per gateway however it
// was typed, bounded, no keys, kept across runs of the panel (settings in a temporary file).
#include "connect/gatewayurl.h"
#include "connect/recentgateways.h"

#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace switchyard::ui;
using namespace Qt::Literals::StringLiterals;

class TestRecentGateways final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString settingsFile() const { return m_dir.filePath(u"recent.ini"_s); }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
    }

    void init() { QFile::remove(settingsFile()); }

    void addressesAreCanonical_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QString>("canonical");
        QTest::newRow("bare host:port") << u"gw1.lan:8080"_s << u"http://gw1.lan:8080"_s;
        QTest::newRow("case and slash") << u" HTTP://GW1.lan:8080/ "_s << u"http://gw1.lan:8080"_s;
        QTest::newRow("https default port") << u"https://gw.example"_s << u"https://gw.example:443"_s;
        QTest::newRow("http default port") << u"http://127.0.0.1"_s << u"http://127.0.0.1:80"_s;
        QTest::newRow("ipv6") << u"http://[::1]:8080"_s << u"http://[::1]:8080"_s;
    }
    void addressesAreCanonical()
    {
        QFETCH(QString, typed);
        QFETCH(QString, canonical);
        auto url = GatewayUrl::parse(typed);
        QVERIFY2(url.hasValue(), qPrintable(url ? QString() : url.error()));
        QCOMPARE(GatewayUrl::canonical(*url), canonical);
    }

    void badAddressesSayWhy_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QString>("says");
        QTest::newRow("empty") << u"  "_s << u"Enter the gateway's address"_s;
        QTest::newRow("ftp") << u"ftp://gw:21"_s << u"http:// or https://"_s;
        QTest::newRow("no host") << u"http://:8080"_s << u"host"_s;
        QTest::newRow("key in url") << u"http://admin:secret@gw:8080"_s << u"key field"_s;
        QTest::newRow("port 0") << u"http://gw:0"_s << u"port"_s;
        QTest::newRow("port too big") << u"http://gw:70000"_s << u"not a valid address"_s;
        QTest::newRow("path") << u"http://gw:8080/v1/chat"_s << u"without a path"_s;
        QTest::newRow("query") << u"http://gw:8080/?key=x"_s << u"query"_s;
    }
    void badAddressesSayWhy()
    {
        QFETCH(QString, typed);
        QFETCH(QString, says);
        auto url = GatewayUrl::parse(typed);
        QVERIFY(!url.hasValue());
        QVERIFY2(url.error().contains(says), qPrintable(url.error()));
    }

    void mostRecentFirstWithoutDuplicates()
    {
        QSettings settings(settingsFile(), QSettings::IniFormat);
        RecentGateways recent(&settings);
        QVERIFY(recent.urls().isEmpty());
        recent.add(u"gw1.lan:8080"_s);
        recent.add(u"https://gw2.lan:8443"_s);
        recent.add(u"HTTP://GW1.LAN:8080/"_s); // the first again, typed otherwise
        QCOMPARE(recent.urls(), (QStringList{u"http://gw1.lan:8080"_s, u"https://gw2.lan:8443"_s}));
        recent.add(u"not a url at all://"_s);
        QCOMPARE(recent.urls().size(), 2);
        recent.remove(u"gw1.lan:8080"_s);
        QCOMPARE(recent.urls(), QStringList{u"https://gw2.lan:8443"_s});
        recent.clear();
        QVERIFY(recent.urls().isEmpty());
    }

    void boundedToTheMostRecent()
    {
        QSettings settings(settingsFile(), QSettings::IniFormat);
        RecentGateways recent(&settings);
        for (int i = 1; i <= 25; ++i)
            recent.add(u"http://gw%1.lan:8080"_s.arg(i));
        const QStringList urls = recent.urls();
        QCOMPARE(urls.size(), RecentGateways::MaxEntries);
        QCOMPARE(urls.first(), u"http://gw25.lan:8080"_s);
        QCOMPARE(urls.last(), u"http://gw16.lan:8080"_s);
    }

    void keptAcrossRunsAndNeverHoldsAKey()
    {
        {
            QSettings settings(settingsFile(), QSettings::IniFormat);
            RecentGateways recent(&settings);
            recent.add(u"http://gw1.lan:8080"_s);
            recent.add(u"http://admin:sk-admin-secret@gw2.lan:8080"_s); // refused: a key in the URL
        }
        QSettings settings(settingsFile(), QSettings::IniFormat);
        RecentGateways recent(&settings);
        QCOMPARE(recent.urls(), QStringList{u"http://gw1.lan:8080"_s});
        QFile file(settingsFile());
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(!file.readAll().contains("sk-admin-secret"));
    }

    void handEditedSettingsAreReadAsUntrusted()
    {
        {
            QSettings settings(settingsFile(), QSettings::IniFormat);
            settings.setValue(u"connect/recentGateways"_s,
                              QStringList{u"javascript:alert(1)"_s, u"http://ok.lan:1"_s, u""_s, u"http://OK.lan:1"_s});
        }
        QSettings settings(settingsFile(), QSettings::IniFormat);
        RecentGateways recent(&settings);
        QCOMPARE(recent.urls(), QStringList{u"http://ok.lan:1"_s});
    }
};

QTEST_GUILESS_MAIN(TestRecentGateways)
#include "tst_recentgateways.moc"
