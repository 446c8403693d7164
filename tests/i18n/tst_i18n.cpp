// The panel in Chinese and the first run: the embedded zh_CN translation loads and translates what the
// operator sees, the system locale picks it, the Settings override wins over the system, and "Add my
// nodes" writes a config the gateway loads and the window applies.
#include "config/configloader.h"
#include "gateway.h"
#include "language.h"
#include "mainwindow.h"
#include "nodesconfig.h"
#include "settingsdialog.h"
#include "welcomedialog.h"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>
#include <QTranslator>

using namespace switchyard;
using namespace switchyard::ui;
using namespace Qt::Literals::StringLiterals;

class TestI18n final : public QObject
{
    Q_OBJECT

private:
    static void removeTranslators()
    {
        const auto translators = qApp->findChildren<QTranslator *>(Qt::FindDirectChildrenOnly);
        for (QTranslator *t : translators) {
            QCoreApplication::removeTranslator(t);
            delete t;
        }
        QLocale::setDefault(QLocale::c());
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void cleanup()
    {
        removeTranslators();
        QSettings().clear();
    }

    void embeddedChineseTranslates()
    {
        QVERIFY(i18n::translatedLocales().contains(u"zh_CN"_s));
        QTranslator t;
        QVERIFY(t.load(u":/i18n/switchyard_zh_CN.qm"_s));
        QCOMPARE(t.translate("switchyard::ui::MainWindow", "&Nodes"), u"\u8282\u70B9(&N)"_s); // 节点(&N)
        QCOMPARE(t.translate("switchyard::ui::NodeState", "Down"), u"\u5B95\u673A"_s);        // 宕机
        // Placeholders survive translation.
        const QString rates =
            t.translate("switchyard::ui::MainWindow",
                        "%1 req/s \u00b7 %2 errors/s \u00b7 %3 tokens/s \u00b7 %4 in flight");
        QVERIFY(!rates.isEmpty());
        QVERIFY(rates.contains(u"%1"_s) && rates.contains(u"%4"_s));
    }

    void systemLocaleChoosesTheLanguage()
    {
        const auto zh = i18n::installTranslators(qApp, i18n::Language::System, QLocale(u"zh_CN"_s));
        QVERIFY(zh.switchyard);
        // A window built now is in Chinese.
        SettingsDialog dialog(i18n::Language::System);
        QCOMPARE(dialog.windowTitle(), u"\u8BBE\u7F6E"_s); // 设置
        removeTranslators();

        const auto de = i18n::installTranslators(qApp, i18n::Language::System, QLocale(u"de_DE"_s));
        QVERIFY(!de.switchyard); // no German: the English source strings
        SettingsDialog english(i18n::Language::System);
        QCOMPARE(english.windowTitle(), u"Settings"_s);
    }

    void settingsOverrideTheSystem()
    {
        // Chosen English on a Chinese system: nothing is translated.
        auto en = i18n::installTranslators(qApp, i18n::Language::English, QLocale(u"zh_CN"_s));
        QVERIFY(!en.switchyard);
        QCOMPARE(QCoreApplication::translate("switchyard::ui::NodeState", "Down"), u"Down"_s);
        removeTranslators();
        // Chosen Chinese on an English system: translated.
        auto zh = i18n::installTranslators(qApp, i18n::Language::ChineseSimplified, QLocale(u"en_US"_s));
        QVERIFY(zh.switchyard);
        QCOMPARE(zh.locale.language(), QLocale::Chinese);
        QCOMPARE(QCoreApplication::translate("switchyard::ui::NodeState", "Down"), u"\u5B95\u673A"_s);
    }

    void settingsDialogStoresTheLanguage()
    {
        QCOMPARE(i18n::languageSetting(), i18n::Language::System);
        SettingsDialog dialog(i18n::Language::System);
        auto *combo = dialog.findChild<QComboBox *>(u"languageCombo"_s);
        QVERIFY(combo);
        QCOMPARE(combo->count(), 3);
        QVERIFY(!dialog.restartNeeded());
        combo->setCurrentIndex(combo->findText(u"\u7B80\u4F53\u4E2D\u6587"_s)); // 简体中文
        QVERIFY(dialog.restartNeeded());
        dialog.accept();
        QCOMPARE(QSettings().value(i18n::languageKey()).toString(), u"zh_CN"_s);
        QCOMPARE(i18n::languageSetting(), i18n::Language::ChineseSimplified);

        // Back to the system: the key goes, so a later default applies.
        SettingsDialog again(i18n::Language::ChineseSimplified);
        QCOMPARE(again.language(), i18n::Language::ChineseSimplified);
        again.setLanguage(i18n::Language::System);
        again.accept();
        QVERIFY(!QSettings().contains(i18n::languageKey()));
        // A value from a newer version is not an error.
        QSettings().setValue(i18n::languageKey(), u"tlh"_s);
        QCOMPARE(i18n::languageSetting(), i18n::Language::System);
    }

    void nodesFormMakesALoadableConfig()
    {
        const auto text = NodesConfig::make({u"http://10.0.0.1:8000/v1\nhttp://10.0.0.2:8000"_s,
                                             u" nemotron-3-super "_s, QString(), u"127.0.0.1:0"_s});
        QVERIFY2(text, text ? "" : qPrintable(text.error().join(u'\n')));
        const auto cfg = config::parseConfig(*text);
        QVERIFY(cfg);
        QCOMPARE(cfg->providers.size(), 2);
        // Addresses make poor names to pin with ("10.0.0.1/model"): numbered as in the article.
        QCOMPARE(cfg->providers[0].name, u"vllm-server1"_s);
        QCOMPARE(cfg->providers[1].name, u"vllm-server2"_s);
        QCOMPARE(cfg->providers[0].network.baseUrl, u"http://10.0.0.1:8000"_s); // "/v1" dropped
        QCOMPARE(cfg->providers[1].keys[0].models, QStringList{u"nemotron-3-super"_s});
        QCOMPARE(NodesConfig::providerNames({u"http://h:1"_s, u"http://h:2"_s}),
                 (QStringList{u"h-1"_s, u"h-2"_s}));
        QCOMPARE(NodesConfig::providerNames({u"http://dgx-a.lan:8000"_s, u"http://127.0.0.1:8001"_s,
                                             u"http://localhost:8002"_s, u"http://[::1]:8003"_s}),
                 (QStringList{u"dgx-a"_s, u"vllm-server2"_s, u"vllm-server3"_s, u"vllm-server4"_s}));

        const auto bad = NodesConfig::make({u"ftp://x\nnot-a-url"_s, QString(), QString(), QString()});
        QVERIFY(!bad);
        QCOMPARE(bad.error().size(), 3); // two URLs, no model
        const auto badListen = NodesConfig::make({u"http://h:1"_s, u"m"_s, QString(), u"h:http"_s});
        QVERIFY(!badListen);
        QVERIFY(badListen.error().join(u' ').contains(u"switchyard.listen"_s));
    }

    void addMyNodesWritesAndOpensTheConfig()
    {
        // Test mode: the per-user config dir is under ~/.qttest, start it empty.
        const QString dir = NodesConfig::userConfigDir();
        QVERIFY(dir.contains(u".qttest"_s));
        QDir(dir).removeRecursively();
        QVERIFY(WelcomeDialog::wanted());

        Gateway gateway;
        MainWindow window(&gateway);
        WelcomeDialog *dialog = window.showWelcome(WelcomeDialog::Page::Nodes);
        dialog->urlsEdit()->setPlainText(u"http://127.0.0.1:9\nhttp://127.0.0.1:10"_s);
        dialog->listenEdit()->setText(u"127.0.0.1:0"_s);
        QVERIFY(!dialog->createConfig()); // no model yet: the form says so and stays open
        QVERIFY(dialog->formError().contains(u"model"_s));
        if (const QByteArray shots = qgetenv("SWITCHYARD_SCREENSHOT_DIR"); !shots.isEmpty()) {
            QVERIFY(QTest::qWaitForWindowExposed(dialog));
            dialog->grab().save(QDir(QString::fromLocal8Bit(shots)).filePath(u"welcome-nodes-error.png"_s));
        }
        // Fixing a field takes its complaint away at once; breaking another one says so at once.
        dialog->modelEdit()->setText(u"m1"_s);
        QVERIFY2(dialog->formError().isEmpty(), qPrintable(dialog->formError()));
        dialog->urlsEdit()->setPlainText(u"http://127.0.0.1:9\nftp://127.0.0.1:10"_s);
        QVERIFY(dialog->formError().contains(u"ftp://127.0.0.1:10"_s));
        dialog->urlsEdit()->setPlainText(u"http://127.0.0.1:9\nhttp://127.0.0.1:10"_s);
        QVERIFY(dialog->formError().isEmpty());
        if (const QByteArray shots = qgetenv("SWITCHYARD_SCREENSHOT_DIR"); !shots.isEmpty())
            dialog->grab().save(QDir(QString::fromLocal8Bit(shots)).filePath(u"welcome-nodes-fixed.png"_s));
        QVERIFY(dialog->createConfig());
        const QString path = dialog->writtenPath();
        QCOMPARE(path, QDir(dir).filePath(u"config.json"_s));
        QVERIFY(QFileInfo::exists(path));
        QVERIFY(!(QFileInfo(path).permissions() & QFileDevice::ReadOther)); // may hold an API key
        QTRY_COMPARE(gateway.config().providers.size(), 2);
        QCOMPARE(gateway.config().providers[0].name, u"vllm-server1"_s); // not "127.0.0.1"
        QVERIFY(gateway.isRunning());
        QCOMPARE(MainWindow::lastConfigPath(), path);
        QVERIFY(!WelcomeDialog::wanted()); // never again once a config was opened
        // A second form writes next to it, never over it.
        QVERIFY(NodesConfig::freePath(QFileInfo(path).absolutePath()).endsWith(u"config-2.json"_s));
        gateway.stopNow();
    }
};

QTEST_MAIN(TestI18n)
#include "tst_i18n.moc"
