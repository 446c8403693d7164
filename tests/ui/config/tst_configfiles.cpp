// The config editor's files, offscreen: atomic save with a backup, secrets masked in the JSON view and kept
// on save, Save As and Bifrost export, import, changes on disk noticed, unsaved edits never dropped without
// asking, and a broken file shown in the editor.
#include "common/testhttpclient.h"
#include "config/codeeditor.h"
#include "config/configeditor.h"
#include "config/configform.h"
#include "config/jsonedit.h"
#include "config/jsontextindex.h"
#include "configeditortesting.h"
#include "gateway/gatewayfixture.h"
#include "mainwindow.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSaveFile>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace switchyard;
using namespace switchyard::testing;
using namespace switchyard::ui;
using namespace Qt::Literals::StringLiterals;

class TestConfigFiles final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    // --- files ---

    void saveIsAtomicAndKeepsABackup()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"switchyard.json"_s);
        const QString seed = seedText();
        QVERIFY(writeText(path, seed));
        QVERIFY(QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner));
        auto e = newConfigEditor();
        QVERIFY(e->openFile(path));
        QCOMPARE(e->unmaskedText(), seed);
        QVERIFY(!e->isModified());

        e->showForm();
        e->refreshForm();
        QVERIFY(e->form()->providers()->setData(e->form()->providers()->index(1, ProvidersModel::Weight), 2.0,
                                                Qt::EditRole));
        const QString edited = e->unmaskedText();
        QVERIFY(e->save());
        QVERIFY(!e->isModified());
        QCOMPARE(readText(path), edited);
        QCOMPARE(readText(path + u".bak"_s), seed);
        // Secrets stay private: the file keeps its permissions, the backup gets them.
        const QFile::Permissions others = QFile::ReadGroup | QFile::WriteGroup | QFile::ExeGroup |
                                          QFile::ReadOther | QFile::WriteOther | QFile::ExeOther;
        QVERIFY(QFile::permissions(path).testFlags(QFile::ReadOwner | QFile::WriteOwner));
        QCOMPARE(QFile::permissions(path) & others, QFile::Permissions());
        QCOMPARE(QFile::permissions(path + u".bak"_s), QFile::permissions(path));
        // Nothing left behind by the atomic writes.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden),
                 QStringList({u"switchyard.json"_s, u"switchyard.json.bak"_s}));

        // An invalid config is never written: refused, with the reason, file and backup untouched.
        QTextCursor c(e->textEdit()->document());
        c.setPosition(e->text().indexOf(u"\"weight\": 2"_s) + 10);
        c.insertText(u"-"_s);
        QVERIFY(!e->save());
        QVERIFY2(e->lastMessage().contains(u"Not saved"_s), qPrintable(e->lastMessage()));
        QCOMPARE(readText(path), edited);
        QCOMPARE(readText(path + u".bak"_s), seed);
        QVERIFY(e->isModified());

        // An unset env variable does not block saving (it is resolved where the file is used).
        e->undo();
        QTextCursor c2(e->textEdit()->document());
        const qsizetype at = e->text().indexOf(u"\"value\": \"********\""_s); // "dummy", shown masked
        c2.setPosition(int(at) + 10);
        c2.setPosition(int(at) + 18, QTextCursor::KeepAnchor);
        c2.insertText(u"env.ELSEWHERE"_s);
        e->validateNow();
        QVERIFY(!e->isValid());
        QVERIFY(e->save());
        QCOMPARE(readText(path + u".bak"_s), edited);
    }

    void jsonViewMasksSecretsAndSaveKeepsThem()
    {
        // A file with literal secrets (a node key with an escape in it, a client key) and an env reference.
        QString seed = seedText();
        seed.replace(u"\"s1-key\", \"value\": \"dummy\""_s,
                     u"\"s1-key\", \"value\": \"sk-n0de\\u0031-secret\""_s);
        seed.replace(u"\"s2-key\", \"value\": \"dummy\""_s, u"\"s2-key\", \"value\": \"env.S1_KEY\""_s);
        seed.replace(
            u"\n  }\n}"_s,
            u"\n  },\n  \"switchyard\": {\"listen\": \"127.0.0.1:0\", \"api_keys\": [\"client-k3y\"]}\n}"_s);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"config.json"_s);
        QVERIFY(writeText(path, seed));
        auto e = newConfigEditor();
        QVERIFY(e->openFile(path));
        QVERIFY2(e->isValid(),
                 qPrintable(e->problemList()->count() ? e->problemList()->item(0)->text() : QString()));

        // What the JSON view shows: masks where literals are, the reference as written.
        const QString shown = e->textEdit()->toPlainText();
        QVERIFY(!shown.contains(u"n0de"_s));
        QVERIFY(!shown.contains(u"client-k3y"_s));
        QCOMPARE(shown.count(u"\"********\""_s), 2);
        QVERIFY(shown.contains(u"\"value\": \"env.S1_KEY\""_s));
        QVERIFY(!e->isModified());

        // Applying gives the gateway the real key.
        std::optional<config::GatewayConfig> applied;
        e->setApplier([&](const config::GatewayConfig &cfg, const QString &) {
            applied = cfg;
            return Gateway::ApplyResult{};
        });
        QVERIFY(e->apply());
        QVERIFY(applied);
        QCOMPARE(applied->providers[0].keys[0].value, u"sk-n0de1-secret"_s);
        QCOMPARE(applied->settings.apiKeys, QStringList{u"client-k3y"_s});

        // An unrelated edit, saved: the file has the secrets as they were written, the layout untouched.
        QVERIFY(
            e->applyEdits({JsonEdit::set(*parseJsonPath(u"providers.vllm-server2.keys[0].weight"), u"3"_s)}));
        QVERIFY(e->save());
        QString expected = seed;
        expected.replace(u"\"env.S1_KEY\", \"models\": [\"nemotron-3-super\"], \"weight\": 1"_s,
                         u"\"env.S1_KEY\", \"models\": [\"nemotron-3-super\"], \"weight\": 3"_s);
        QCOMPARE(readText(path), expected);
        QVERIFY(!readText(path).contains(u"********"_s));
        QVERIFY(!e->textEdit()->toPlainText().contains(u"n0de"_s)); // still masked after saving

        // A value typed over the mask is the new value.
        QTextCursor c(e->textEdit()->document());
        const int at = int(e->text().indexOf(u"\"********\""_s));
        c.setPosition(at);
        c.setPosition(at + 10, QTextCursor::KeepAnchor);
        c.insertText(u"\"typed-new-key\""_s);
        QVERIFY(e->save());
        QVERIFY(readText(path).contains(u"\"typed-new-key\""_s));
        QVERIFY(!readText(path).contains(u"n0de"_s));
        QVERIFY(readText(path).contains(u"client-k3y"_s));

        if (const QByteArray shots = qgetenv("SWITCHYARD_SCREENSHOT_DIR"); !shots.isEmpty()) {
            e->undo();
            e->showText();
            e->resize(1280, 740);
            e->show();
            QVERIFY(QTest::qWaitForWindowExposed(e.get()));
            e->grab().save(QDir(QString::fromLocal8Bit(shots)).filePath(u"config-json-masked.png"_s));
        }
    }

    void aRedisUrlIsMaskedWhenItHoldsAPassword()
    {
        // A Redis URL with a password is a secret; one without is an address the operator should read.
        QString seed = seedText();
        seed.replace(
            u"\n  }\n}"_s,
            u"\n  },\n  \"switchyard\": {\"listen\": \"127.0.0.1:0\", \"redis_url\": \"redis://:r3dis-pw@10.0.0.9:6379\"}\n}"_s);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"config.json"_s);
        QVERIFY(writeText(path, seed));
        auto e = newConfigEditor();
        QVERIFY(e->openFile(path));
        QVERIFY2(e->isValid(),
                 qPrintable(e->problemList()->count() ? e->problemList()->item(0)->text() : QString()));
        QVERIFY(!e->textEdit()->toPlainText().contains(u"r3dis-pw"_s));
        QVERIFY(e->textEdit()->toPlainText().contains(u"\"redis_url\": \"********\""_s));
        std::optional<config::GatewayConfig> applied;
        e->setApplier([&](const config::GatewayConfig &cfg, const QString &) {
            applied = cfg;
            return Gateway::ApplyResult{};
        });
        QVERIFY(e->apply());
        QCOMPARE(applied->settings.redisUrl, u"redis://:r3dis-pw@10.0.0.9:6379"_s);

        seed.replace(u"redis://:r3dis-pw@10.0.0.9:6379"_s, u"redis://10.0.0.9:6379"_s);
        QVERIFY(writeText(path, seed));
        auto plain = newConfigEditor();
        QVERIFY(plain->openFile(path));
        QVERIFY(plain->textEdit()->toPlainText().contains(u"\"redis_url\": \"redis://10.0.0.9:6379\""_s));
    }

    void secretsAfterASyntaxErrorAreMaskedToo()
    {
        // A file opened with a mistake above its secrets (a missing comma): the JSON view still shows
        // none of them, and once the comma is typed back, saving writes them as they were.
        QString seed = seedText();
        seed.replace(u"\"s1-key\", \"value\": \"dummy\""_s, u"\"s1-key\", \"value\": \"sk-0ne\""_s);
        seed.replace(u"{\"name\": \"s2-key\", \"value\": \"dummy\""_s,
                     u"{\"value\": \"sk-tw0\", \"name\": \"s2-key\""_s);
        seed.replace(
            u"\"base_url\": \"http://192.168.200.102:8030\","_s,
            u"\"base_url\": \"http://192.168.200.102:8030\", \"extra_headers\": {\"X-Token\": \"hdr-s3cret\"},"_s);
        seed.replace(u"\n  }\n}"_s,
                     u"\n  },\n  \"switchyard\": {\"api_keys\": [\"env.S1_KEY\", \"client-k3y\"]}\n}"_s);
        QVERIFY(seed.contains(u"client-k3y"_s) && seed.contains(u"hdr-s3cret"_s) &&
                seed.contains(u"sk-tw0"_s));
        QString broken = seed;
        const QString withComma = u"\"default_request_timeout_in_seconds\": 120,\n"_s;
        broken.replace(broken.indexOf(withComma), withComma.size(),
                       u"\"default_request_timeout_in_seconds\": 120\n"_s);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"config.json"_s);
        QVERIFY(writeText(path, broken));
        auto e = newConfigEditor();
        QVERIFY(e->openFile(path));
        QVERIFY(!e->isValid());

        const QString shown = e->textEdit()->toPlainText();
        for (const QString &secret : {u"sk-0ne"_s, u"sk-tw0"_s, u"hdr-s3cret"_s, u"client-k3y"_s})
            QVERIFY2(!shown.contains(secret), qPrintable(secret));
        QCOMPARE(shown.count(u"\"********\""_s), 4);
        QVERIFY(shown.contains(u"\"env.S1_KEY\""_s)); // a reference is no secret

        // Not saved while broken: the file keeps its secrets.
        QVERIFY(!e->save());
        QCOMPARE(readText(path), broken);

        // The comma typed back: the secrets go back where the masks stand.
        QTextCursor c(e->textEdit()->document());
        const QString line = u"\"default_request_timeout_in_seconds\": 120\n"_s;
        c.setPosition(int(e->text().indexOf(line)) + int(line.size()) - 1);
        c.insertText(u","_s);
        e->validateNow();
        QVERIFY2(e->isValid(),
                 qPrintable(e->problemList()->count() ? e->problemList()->item(0)->text() : QString()));
        QCOMPARE(e->unmaskedText(), seed);
        QVERIFY(e->save());
        QCOMPARE(readText(path), seed);
    }

    void aMaskWithoutASecretIsAProblem()
    {
        // Pasted from GET /api/config of another gateway: nothing here knows what the stars stand for.
        QString text = seedText();
        text.replace(u"\"s1-key\", \"value\": \"dummy\""_s, u"\"s1-key\", \"value\": \"********\""_s);
        auto e = newConfigEditor(text);
        QVERIFY(!e->isValid());
        QCOMPARE(e->problems().size(), 1);
        QCOMPARE(e->problems().front().problem.path, u"providers.vllm-server1.keys[0].value"_s);
        QVERIFY(e->problems().front().text().contains(u"type the value"_s));
    }

    void untitledSavesAsAndExportsForBifrost()
    {
        QTemporaryDir dir;
        auto e = newConfigEditor(
            configFor({{u"a"_s, u"http://127.0.0.1:9"_s}}, u",\n  \"switchyard\": {\"listen\": \":0\"}"_s));
        QVERIFY(e->isUntitled());
        const QString target = dir.filePath(u"from-demo.json"_s);
        QList<ConfigEditor::FileRole> asked;
        e->setFileChooser([&](ConfigEditor::FileRole role, const QString &) {
            asked << role;
            return role == ConfigEditor::FileRole::ExportBifrost ? dir.filePath(u"bifrost.json"_s) : target;
        });
        QVERIFY(e->save()); // untitled: Save is Save As
        QCOMPARE(asked, QList<ConfigEditor::FileRole>{ConfigEditor::FileRole::SaveAs});
        QCOMPARE(e->filePath(), target);
        QCOMPARE(readText(target), e->unmaskedText());
        QVERIFY(!QFile::exists(target + u".bak"_s)); // nothing to back up

        QVERIFY(e->exportInteractive());
        const QString exported = readText(dir.filePath(u"bifrost.json"_s));
        QVERIFY(!exported.contains(u"switchyard"_s));
        const auto back = config::parseConfig(exported.toUtf8());
        QVERIFY(back);
        QCOMPARE(back->providers.size(), size_t(1));
        QCOMPARE(back->providers[0].network.baseUrl, u"http://127.0.0.1:9"_s);
    }

    void importsTheSeedBifrostConfigAsItIs()
    {
        QTemporaryDir dir;
        // Bifrost sections Switchyard does not use stay in the text.
        QString bifrost = seedText();
        bifrost.replace(u"{\n  \"providers\""_s,
                        u"{\n  \"client\": {\"drop_excess_requests\": false},\n  \"providers\""_s);
        const QString path = dir.filePath(u"config.json"_s);
        QVERIFY(writeText(path, bifrost));
        auto e = newConfigEditor();
        e->setFileChooser([&](ConfigEditor::FileRole role, const QString &) {
            return role == ConfigEditor::FileRole::Import ? path : QString();
        });
        QVERIFY(e->importInteractive());
        QCOMPARE(e->unmaskedText(), bifrost);
        QVERIFY(e->isValid());
        QVERIFY(e->isUntitled()); // Save never writes over the Bifrost deployment's file
        QVERIFY(e->isModified());
        QVERIFY2(e->lastMessage().contains(u"providers: 2"_s), qPrintable(e->lastMessage()));
        e->refreshForm();
        QCOMPARE(e->form()->providers()->rowCount(), 2);
    }

    void changesOnDiskAreNoticed()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"switchyard.json"_s);
        const QString seed = seedText();
        QVERIFY(writeText(path, seed));
        auto e = newConfigEditor();
        QVERIFY(e->openFile(path));
        QSignalSpy changed(e.get(), &ConfigEditor::externalChangeDetected);

        // Another program saves the way careful programs do: a new file renamed over the old one.
        QString v2 = seed;
        v2.replace(u"\"max_retries\": 2"_s, u"\"max_retries\": 4"_s);
        {
            QSaveFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(v2.toUtf8());
            QVERIFY(f.commit());
        }
        QTRY_COMPARE_WITH_TIMEOUT(changed.size(), 1, 10000);
        QVERIFY(e->externalChangePending());
        QVERIFY(e->externalChangeText().contains(u"changed by another program"_s));
        QCOMPARE(e->unmaskedText(), seed); // offered, not forced
        QVERIFY(e->reload());              // nothing unsaved: no question
        QCOMPARE(e->unmaskedText(), v2);
        QVERIFY(!e->externalChangePending());
        e->undo(); // a reload is one step of Undo
        QCOMPARE(e->unmaskedText(), seed);
        e->redo();

        // The watch survived the rename: a second change, written in place this time, is noticed too.
        QString v3 = v2;
        v3.replace(u"\"max_retries\": 4"_s, u"\"max_retries\": 5"_s);
        QVERIFY(writeText(path, v3));
        QTRY_COMPARE_WITH_TIMEOUT(changed.size(), 2, 10000);

        // Keep my version: the text now differs from the file, so it counts as unsaved.
        e->findChild<QPushButton *>(u"externalKeep"_s)->click();
        QVERIFY(!e->externalChangePending());
        QVERIFY(e->isModified());

        // The editor's own save is not reported as a change by another program. Its look at the disk is
        // debounced: a file appearing beside it makes it look again, and that look, once it has run,
        // must find the file as saved (a positive end to the wait instead of sleeping past the debounce).
        QTimer *diskCheck = nullptr;
        for (QTimer *t : e->findChildren<QTimer *>()) {
            if (t->isSingleShot() && t->interval() == 200)
                diskCheck = t;
        }
        QVERIFY2(diskCheck, "the editor's debounce of changes on disk (single-shot, 200 ms)");
        QVERIFY(e->save());
        QSignalSpy looked(diskCheck, &QTimer::timeout);
        QVERIFY(writeText(dir.filePath(u"unrelated.txt"_s), u"x"_s));
        QTRY_VERIFY_WITH_TIMEOUT(!looked.isEmpty(), 10000);
        QCOMPARE(changed.size(), 2);
        QVERIFY(!e->externalChangePending());
        QCOMPARE(readText(path + u".bak"_s), v3); // what the other program wrote is kept
    }

    void unsavedEditsAreNeverDroppedSilently()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"switchyard.json"_s);
        const QString seed = seedText();
        QVERIFY(writeText(path, seed));
        auto e = newConfigEditor();
        QVERIFY(e->openFile(path));
        PromptLog log;
        e->setUnsavedPrompt(log.prompt());
        QVERIFY(e->maybeDiscard(ConfigEditor::Reason::Close)); // nothing unsaved: no question
        QVERIFY(log.reasons.isEmpty());

        QTextCursor c(e->textEdit()->document());
        c.setPosition(e->text().indexOf(u"120"_s));
        c.insertText(u"1"_s); // 1120
        const QString edited = e->unmaskedText();

        // Reload: asked; Cancel keeps the edits.
        log.answer = ConfigEditor::Choice::Cancel;
        QVERIFY(!e->reload());
        QCOMPARE(log.reasons, QList<ConfigEditor::Reason>{ConfigEditor::Reason::Reload});
        QCOMPARE(e->unmaskedText(), edited);
        // Close: asked; Save writes them.
        log.answer = ConfigEditor::Choice::Save;
        QVERIFY(e->maybeDiscard(ConfigEditor::Reason::Close));
        QCOMPARE(log.reasons.last(), ConfigEditor::Reason::Close);
        QCOMPARE(readText(path), edited);
        QVERIFY(!e->isModified());

        // Through the window: closing and opening another file ask, and Cancel stops them.
        Gateway gateway;
        MainWindow window(&gateway);
        ConfigEditor *we = window.configEditor();
        QVERIFY(we);
        we->setUnsavedPrompt(log.prompt());
        QVERIFY(window.openConfigFile(path));
        QCOMPARE(we->filePath(), QFileInfo(path).absoluteFilePath());
        QCOMPARE(gateway.config().providers.size(), size_t(2));
        QVERIFY(we->statusText().contains(u"the gateway runs this config"_s));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTextCursor wc(we->textEdit()->document());
        wc.insertText(u" "_s);
        QVERIFY(window.isWindowModified());

        log.reasons.clear();
        log.answer = ConfigEditor::Choice::Cancel;
        QSignalSpy quit(&window, &MainWindow::quitFinished);
        window.close(); // the window's close goes through requestQuit
        QCOMPARE(log.reasons, QList<ConfigEditor::Reason>{ConfigEditor::Reason::Close});
        QVERIFY(window.isVisible());
        QCOMPARE(quit.size(), 0);
        QCOMPARE(window.currentView(), MainWindow::View::Config);

        const QString other = dir.filePath(u"other.json"_s);
        QVERIFY(writeText(other, configFor({{u"x"_s, u"http://127.0.0.1:9"_s}})));
        QVERIFY(!window.openConfigFile(other));
        QCOMPARE(log.reasons.last(), ConfigEditor::Reason::Open);
        QCOMPARE(we->filePath(), QFileInfo(path).absoluteFilePath());
        QVERIFY(we->isModified());

        log.answer = ConfigEditor::Choice::Discard;
        QVERIFY(window.openConfigFile(other));
        QCOMPARE(we->filePath(), QFileInfo(other).absoluteFilePath());
        QCOMPARE(gateway.config().providers.front().name, u"x"_s);

        // Apply from the editor goes through the window: the editor says what changed, as a success (not
        // in the window's warning banner).
        window.hideBanner();
        QVERIFY(we->applyEdits({JsonEdit::set(*parseJsonPath(u"providers.x.keys[0].weight"), u"2"_s)}));
        QVERIFY(we->apply());
        QVERIFY2(we->lastMessage().contains(u"re-weighted x: 1 → 2"_s), qPrintable(we->lastMessage()));
        QVERIFY(!we->lastMessageIsError());
        QVERIFY2(window.bannerText().isEmpty(), qPrintable(window.bannerText()));
        QCOMPARE(gateway.config().providers.front().keys.front().weight, 2.0);

        log.reasons.clear();
        log.answer = ConfigEditor::Choice::Discard;
        window.close();
        QCOMPARE(log.reasons, QList<ConfigEditor::Reason>{ConfigEditor::Reason::Close});
        QTRY_COMPARE(quit.size(), 1);
    }

    void openingABrokenFileShowsItInTheEditor()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"broken.json"_s);
        QVERIFY(
            writeText(path, u"{\"providers\": {\"a\": {\"keys\": [{\"name\": \"k\", \"weight\": -2}]}}}"_s));
        Gateway gateway;
        MainWindow window(&gateway);
        QVERIFY(!window.openConfigFile(path));
        QVERIFY(window.bannerText().contains(u"cannot be used"_s));
        QCOMPARE(window.currentView(), MainWindow::View::Config);
        ConfigEditor *e = window.configEditor();
        QCOMPARE(e->filePath(), QFileInfo(path).absoluteFilePath());
        QVERIFY(!e->isValid());
        QVERIFY(e->problems().size() >= 2);
        window.showConfigText(configFor({{u"d"_s, u"http://127.0.0.1:9"_s}}), u"built-in demo"_s);
        QVERIFY(e->isUntitled());
        QVERIFY(e->isValid());
        QCOMPARE(e->documentName(), u"built-in demo"_s);
    }
};

QTEST_MAIN(TestConfigFiles)
#include "tst_configfiles.moc"
