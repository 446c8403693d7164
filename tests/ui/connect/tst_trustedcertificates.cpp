// The certificates the operator chose to trust (ui/connect/trustedcertificates): one per gateway however
// its address was typed, kept across runs of the panel (settings in a temporary file), replaced when the
// operator trusts another, and garbage in the file read as nothing trusted.
#include "connect/trustedcertificates.h"

#include <QCryptographicHash>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace switchyard::ui;
using namespace Qt::Literals::StringLiterals;

namespace {
QByteArray sha(const char *what)
{
    return QCryptographicHash::hash(what, QCryptographicHash::Sha256);
}
} // namespace

class TestTrustedCertificates final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString settingsFile() const { return m_dir.filePath(u"trusted.ini"_s); }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
    }

    void init() { QFile::remove(settingsFile()); }

    void rememberedAcrossRunsPerGateway()
    {
        {
            QSettings s(settingsFile(), QSettings::IniFormat);
            TrustedCertificates trusted(&s);
            QVERIFY(trusted.pinFor(u"https://gw1.lan:8443"_s).isEmpty());
            trusted.trust(u"https://GW1.lan:8443/"_s, sha("first"));
            trusted.trust(u"https://gw2.lan"_s, sha("other"));
        }
        QSettings s(settingsFile(), QSettings::IniFormat); // the panel started again
        TrustedCertificates trusted(&s);
        QCOMPARE(trusted.pinFor(u"gw1.lan:8443"_s.prepend(u"https://"_s)), sha("first"));
        QCOMPARE(trusted.pinFor(u"https://gw2.lan:443"_s), sha("other"));
        QVERIFY(trusted.pinFor(u"https://gw1.lan:9443"_s).isEmpty()); // another port is another gateway

        // The gateway got a new certificate and the operator trusted it: the old one is no longer trusted.
        trusted.trust(u"https://gw1.lan:8443"_s, sha("second"));
        QCOMPARE(trusted.pinFor(u"https://gw1.lan:8443"_s), sha("second"));
        trusted.forget(u"https://gw1.lan:8443"_s);
        QVERIFY(trusted.pinFor(u"https://gw1.lan:8443"_s).isEmpty());
    }

    void badInputIsIgnored()
    {
        QSettings s(settingsFile(), QSettings::IniFormat);
        TrustedCertificates trusted(&s);
        trusted.trust(u"not a url at all"_s, sha("x"));
        trusted.trust(u"https://gw.lan:8443"_s, "too short");
        QVERIFY(trusted.pinFor(u"https://gw.lan:8443"_s).isEmpty());
        // Edited by hand into something that is no fingerprint: nothing is trusted.
        s.setValue(u"connect/trustedCertificates/"_s + QString::fromLatin1(QUrl::toPercentEncoding(u"https://gw.lan:8443"_s)),
                   u"zz:not-hex"_s);
        QVERIFY(trusted.pinFor(u"https://gw.lan:8443"_s).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestTrustedCertificates)
#include "tst_trustedcertificates.moc"
