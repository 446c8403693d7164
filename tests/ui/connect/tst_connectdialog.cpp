// File ▸ Connect to gateway… as an operator uses it (offscreen, no secret store: no D-Bus session): the
// address checked as typed, the key masked until shown, "remember" switched off with the reason, a
// recent gateway filling in its address and the key kept for it this session; and the
// untrusted-certificate question showing subject and fingerprint, Cancel by default.
#include "connect/certificatequestion.h"
#include "connect/connectdialog.h"
#include "connect/credentialstore.h"
#include "connect/recentgateways.h"
#include "language.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTranslator>

using namespace switchyard::ui;
using namespace Qt::Literals::StringLiterals;

namespace {
template<typename T>
T *child(QWidget *parent, const char *name)
{
    auto *w = parent->findChild<T *>(QString::fromLatin1(name));
    if (!w)
        qWarning("no child %s", name);
    return w;
}
} // namespace

class TestConnectDialog final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/switchyard-test-bus");
        QVERIFY(m_dir.isValid());
    }

    void addressIsCheckedAsTyped()
    {
        QSettings settings(m_dir.filePath(u"a.ini"_s), QSettings::IniFormat);
        RecentGateways recent(&settings);
        CredentialStore store(u"switchyard-test"_s);
        ConnectDialog dialog(&store, &recent);
        dialog.show();
        auto *url = child<QLineEdit>(&dialog, "urlEdit");
        auto *problem = child<QLabel>(&dialog, "urlProblem");
        auto *connectButton = child<QPushButton>(&dialog, "connectButton");
        QVERIFY(url && problem && connectButton);

        // Nothing typed: nothing to connect to, and no scolding either.
        QVERIFY(!connectButton->isEnabled());
        QVERIFY(problem->isHidden());

        QTest::keyClicks(url, u"ftp://gw1.lan"_s);
        QVERIFY(!connectButton->isEnabled());
        QVERIFY(problem->isVisible());
        QVERIFY2(problem->text().contains(u"http:// or https://"_s), qPrintable(problem->text()));

        url->clear();
        QTest::keyClicks(url, u"gw1.lan:99999"_s);
        QVERIFY(!connectButton->isEnabled());
        QVERIFY(problem->isVisible());

        url->clear();
        QTest::keyClicks(url, u"https://GW1.lan:8443"_s);
        QVERIFY(connectButton->isEnabled());
        QVERIFY(problem->isHidden());

        auto *key = child<QLineEdit>(&dialog, "keyEdit");
        QTest::keyClicks(key, u" sk-admin-1 "_s);
        QTest::mouseClick(connectButton, Qt::LeftButton);
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        const ConnectRequest r = dialog.request();
        QCOMPARE(r.url, QUrl(u"https://gw1.lan:8443"_s));
        QCOMPARE(r.key, u"sk-admin-1"_s); // pasted whitespace trimmed
        QCOMPARE(r.remember, false);      // no secret store here
    }

    void keyIsMaskedUntilShown()
    {
        QSettings settings(m_dir.filePath(u"b.ini"_s), QSettings::IniFormat);
        RecentGateways recent(&settings);
        CredentialStore store(u"switchyard-test"_s);
        ConnectDialog dialog(&store, &recent);
        dialog.show();
        auto *key = child<QLineEdit>(&dialog, "keyEdit");
        auto *show = child<QToolButton>(&dialog, "showKeyButton");
        QCOMPARE(key->echoMode(), QLineEdit::Password);
        QTest::mouseClick(show, Qt::LeftButton);
        QCOMPARE(key->echoMode(), QLineEdit::Normal);
        QCOMPARE(show->text(), u"Hide"_s);
        QTest::mouseClick(show, Qt::LeftButton);
        QCOMPARE(key->echoMode(), QLineEdit::Password);
    }

    void rememberIsOffWithTheReasonWithoutASecretStore()
    {
        QSettings settings(m_dir.filePath(u"c.ini"_s), QSettings::IniFormat);
        RecentGateways recent(&settings);
        CredentialStore store(u"switchyard-test"_s);
        ConnectDialog dialog(&store, &recent);
        dialog.show();
        auto *remember = child<QCheckBox>(&dialog, "rememberCheck");
        auto *note = child<QLabel>(&dialog, "rememberNote");
        // The dialog asks the store by itself; the answer arrives without the GUI waiting for it.
        QTRY_VERIFY_WITH_TIMEOUT(!remember->isEnabled(), CredentialStore::JobTimeoutMs + 5000);
        QVERIFY(!remember->isChecked());
        QVERIFY2(note->text().contains(u"No secret store"_s), qPrintable(note->text()));
        QVERIFY(note->text().contains(u"this session only"_s));
        QCOMPARE(remember->toolTip(), note->text());
    }

    void recentGatewayFillsAddressAndSessionKey()
    {
        QSettings settings(m_dir.filePath(u"d.ini"_s), QSettings::IniFormat);
        RecentGateways recent(&settings);
        recent.add(u"http://gw1.lan:8080"_s);
        recent.add(u"http://gw2.lan:8080"_s);
        CredentialStore store(u"switchyard-test"_s);
        QSignalSpy stored(&store, &CredentialStore::keyStored);
        store.store(u"http://gw1.lan:8080"_s, u"sk-admin-gw1"_s);
        QVERIFY(stored.wait(CredentialStore::JobTimeoutMs + 5000));

        ConnectDialog dialog(&store, &recent);
        dialog.show();
        auto *list = child<QListWidget>(&dialog, "recentList");
        QCOMPARE(list->count(), 2);
        QCOMPARE(list->item(0)->text(), u"http://gw2.lan:8080"_s); // most recent first
        auto *url = child<QLineEdit>(&dialog, "urlEdit");
        auto *key = child<QLineEdit>(&dialog, "keyEdit");

        list->setCurrentRow(1);
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(list->item(1)).center());
        QCOMPARE(url->text(), u"http://gw1.lan:8080"_s);
        QTRY_COMPARE(key->text(), u"sk-admin-gw1"_s);
        QCOMPARE(key->echoMode(), QLineEdit::Password);

        // Another one without a key: the field is emptied, and says none is remembered.
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(list->item(0)).center());
        QCOMPARE(url->text(), u"http://gw2.lan:8080"_s);
        QTRY_VERIFY(key->placeholderText().contains(u"No key remembered"_s));
        QVERIFY(key->text().isEmpty());
        QCOMPARE(dialog.request().url, QUrl(u"http://gw2.lan:8080"_s));
    }

    void untrustedCertificateQuestion()
    {
        const QString fp = u"3a:7f:00:11:22:33:44:55:66:77:88:99:aa:bb:cc:dd:ee:ff:01:23:45:67:89:ab:cd:ef:10:32:54:76:98:ba"_s;
        CertificateQuestion q(u"https://gw1.lan:8443"_s, u"CN=gw1.lan, O=Example"_s, fp,
                              u"The certificate is self-signed, and untrusted"_s);
        q.show();
        QVERIFY(child<QLabel>(&q, "subjectLabel")->text().contains(u"CN=gw1.lan"_s));
        const QString shown = child<QLabel>(&q, "fingerprintLabel")->text();
        QVERIFY2(shown.startsWith(u"3A:7F:00:11"_s), qPrintable(shown));
        QVERIFY(shown.contains(u"98:BA"_s));
        QVERIFY(child<QLabel>(&q, "problemLabel")->text().contains(u"self-signed"_s));
        QCOMPARE(CertificateQuestion::formatFingerprint(u"abCD01"_s), u"AB:CD:01"_s);

        // Enter does not trust by accident: Cancel is the default.
        QTest::keyClick(&q, Qt::Key_Return);
        QCOMPARE(q.result(), int(QDialog::Rejected));

        CertificateQuestion q2(u"https://gw1.lan:8443"_s, u"CN=gw1.lan"_s, fp);
        q2.show();
        QTest::mouseClick(child<QPushButton>(&q2, "trustButton"), Qt::LeftButton);
        QCOMPARE(q2.result(), int(QDialog::Accepted));
    }
    // Last: the Chinese translation stays installed for the rest of the run.
    void speaksChinese()
    {
        const auto installed = switchyard::i18n::installTranslators(QCoreApplication::instance(),
                                                                    switchyard::i18n::Language::ChineseSimplified);
        QVERIFY(installed.switchyard);
        QSettings settings(m_dir.filePath(u"zh.ini"_s), QSettings::IniFormat);
        RecentGateways recent(&settings);
        CredentialStore store(u"switchyard-test"_s);
        ConnectDialog dialog(&store, &recent);
        QCOMPARE(dialog.windowTitle(), u"连接到网关"_s);
        QCOMPARE(child<QPushButton>(&dialog, "connectButton")->text(), u"连接(&C)"_s);
        auto *url = child<QLineEdit>(&dialog, "urlEdit");
        QTest::keyClicks(url, u"ftp://gw1.lan"_s);
        QVERIFY2(child<QLabel>(&dialog, "urlProblem")->text().startsWith(u"地址必须以"_s),
                 qPrintable(child<QLabel>(&dialog, "urlProblem")->text()));
        auto *remember = child<QCheckBox>(&dialog, "rememberCheck");
        QTRY_VERIFY_WITH_TIMEOUT(!remember->isEnabled(), CredentialStore::JobTimeoutMs + 5000);
        QVERIFY(child<QLabel>(&dialog, "rememberNote")->text().startsWith(u"没有可用的密钥库"_s));
        CertificateQuestion q(u"https://gw1.lan:8443"_s, u"CN=gw1.lan"_s, u"ab"_s);
        QCOMPARE(q.windowTitle(), u"不受信任的证书"_s);
    }
};

QTEST_MAIN(TestConnectDialog)
#include "tst_connectdialog.moc"
