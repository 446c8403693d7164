// The config editor's text, offscreen: the index of loader paths, edits that keep the rest of the text,
// validation messages placed in the text, and Apply changing a real gateway's routing (traffic over
// loopback to simulated nodes). The form is tst_configform, files and secrets tst_configfiles.
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

class TestConfigEditor final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    // --- the text index and edits (pure) ---

    void indexFindsLoaderPaths()
    {
        const QString text =
            u"{\"providers\": {\"my.provider\": {\"keys\": [{\"name\": \"k\", \"weight\": -1}]},"
            " \"p\": {\"keys\": []}}, \"x\": [1, true, null, \"s\\u00e9\"]}"_s;
        const JsonTextIndex index = JsonTextIndex::build(text);
        QVERIFY(index.isComplete());
        const int w = index.find(u"providers[\"my.provider\"].keys[0].weight");
        QVERIFY(w >= 0);
        QCOMPARE(QStringView(text).sliced(index.node(w).start, index.node(w).end - index.node(w).start),
                 u"-1");
        QCOMPARE(index.node(w).number, -1.0);
        QCOMPARE(formatJsonPath(index.pathOf(w)), u"providers[\"my.provider\"].keys[0].weight"_s);
        QCOMPARE(index.node(index.find(u"x[3]")).string, u"s\u00e9"_s);
        int matched = 0;
        const int near = index.findNearest(*parseJsonPath(u"providers.p.network_config.base_url"), &matched);
        QCOMPARE(matched, 2);
        QCOMPARE(index.node(near).key, u"p"_s);
        QVERIFY(!parseJsonPath(u"/etc/switchyard.json")); // a file name is not a path

        const JsonTextIndex broken = JsonTextIndex::build(u"{\n  \"a\": [1,\n  \"b\": 2\n}"_s);
        QVERIFY(!broken.isComplete());
        QVERIFY(broken.find(u"a[0]") >= 0); // what was read before the mistake is still there
    }

    void editsKeepTheRestOfTheText()
    {
        const QString seed = seedText();
        // Set an existing value: only that value changes.
        auto set = applyEdits(
            seed, {JsonEdit::set(*parseJsonPath(u"providers.vllm-server1.keys[0].weight"), u"3"_s)});
        QVERIFY(set);
        QCOMPARE(set->size(), seed.size());
        QCOMPARE(set->count(u"\"weight\": 3"_s), 1);
        QCOMPARE(QString(*set).replace(u"\"weight\": 3"_s, u"\"weight\": 1"_s), seed);

        // Set a missing member with missing objects on the way: added in the neighbours' indentation.
        auto routing = applyEdits(seed, {JsonEdit::set(*parseJsonPath(u"switchyard.routing.default_strategy"),
                                                       u"\"load_aware\""_s)});
        QVERIFY(routing);
        QVERIFY2(routing->contains(
                     u"  },\n  \"switchyard\": {\"routing\": {\"default_strategy\": \"load_aware\"}}\n}"_s),
                 qPrintable(*routing));
        auto parsed = config::parseConfig(routing->toUtf8());
        QVERIFY(parsed);
        QCOMPARE(parsed->settings.defaultStrategy, config::RoutingStrategy::LoadAware);

        // Remove, rename and append.
        auto removed = applyEdits(seed, {JsonEdit::remove(*parseJsonPath(u"providers.vllm-server1"))});
        QVERIFY(removed);
        parsed = config::parseConfig(removed->toUtf8());
        QVERIFY(parsed);
        QCOMPARE(parsed->providers.size(), size_t(1));
        QCOMPARE(parsed->providers[0].name, u"vllm-server2"_s);
        auto renamed =
            applyEdits(seed, {JsonEdit::rename(*parseJsonPath(u"providers.vllm-server2"), u"gpu-b"_s)});
        QVERIFY(renamed && config::parseConfig(renamed->toUtf8())->provider(u"gpu-b"_s));
        auto appended = applyEdits(seed, {JsonEdit::append(*parseJsonPath(u"providers.vllm-server1.keys"),
                                                           u"{\"name\": \"k2\", \"weight\": 2}"_s)});
        QVERIFY(appended);
        parsed = config::parseConfig(appended->toUtf8());
        QVERIFY(parsed);
        QCOMPARE(parsed->provider(u"vllm-server1"_s)->keys.size(), size_t(2));
        QCOMPARE(parsed->provider(u"vllm-server1"_s)->keys[1].weight, 2.0);
        // A multi-line value lands indented like its neighbours.
        auto added = applyEdits(
            seed, {JsonEdit::set(*parseJsonPath(u"providers.n3"), u"{\n  \"keys\": [],\n  \"x\": 1\n}"_s)});
        QVERIFY(added);
        QVERIFY2(added->contains(u"    },\n    \"n3\": {\n      \"keys\": [],\n      \"x\": 1\n    }\n  }"_s),
                 qPrintable(*added));
        // Not JSON: no edit.
        QVERIFY(!applyEdits(u"{\"a\": "_s, {JsonEdit::set(*parseJsonPath(u"a"), u"1"_s)}));
    }

    // --- validation, as the operator sees it ---

    void missingCommaIsOnePlaceInTheListAndTheForm()
    {
        // A comma forgotten between two members: the list and the form name the same line and column,
        // the start of the member that follows, and say what would fit there.
        QString text = seedText();
        const QString before = u"\"max_retries\": 2\n      },\n      \"custom"_s;
        QVERIFY(text.contains(before));
        text.replace(before, u"\"max_retries\": 2\n      }\n      \"custom"_s);
        auto e = newConfigEditor(text);
        e->showForm();
        QVERIFY(!e->isValid());
        QCOMPARE(e->problems().size(), 1);
        const LocatedProblem &p = e->problems().front();
        const int line = lineOf(text, u"      }\n      \"custom"_s) + 1;
        QCOMPARE(p.line, line);
        QCOMPARE(p.column, 7); // the opening quote of "custom_provider_config"
        QVERIFY2(p.text().contains(u"expected ',' or '}'"_s), qPrintable(p.text()));
        QCOMPARE(e->problemList()->item(0)->text(), p.text());
        QVERIFY(!e->form()->isReadable());
        QVERIFY2(e->form()->unreadableText().contains(p.text()), qPrintable(e->form()->unreadableText()));

        if (const QByteArray shots = qgetenv("SWITCHYARD_SCREENSHOT_DIR"); !shots.isEmpty()) {
            e->resize(1280, 740);
            e->show();
            QVERIFY(QTest::qWaitForWindowExposed(e.get()));
            e->grab().save(QDir(QString::fromLocal8Bit(shots)).filePath(u"config-syntax-form.png"_s));
            e->showText();
            e->grab().save(QDir(QString::fromLocal8Bit(shots)).filePath(u"config-syntax-json.png"_s));
        }
    }

    void syntaxErrorHasLineAndColumn()
    {
        QString text = seedText();
        text.replace(u"\"max_retries\": 2\n      },\n      \"custom"_s,
                     u"\"max_retries\": 2,\n      },\n      \"custom"_s);
        auto e = newConfigEditor(text);
        QVERIFY(!e->isValid());
        QCOMPARE(e->problems().size(), 1);
        const LocatedProblem &p = e->problems().front();
        // The trailing comma: the text stops being JSON at the '}' on the next line.
        const int line = lineOf(text, u"\"max_retries\": 2,"_s) + 1;
        QCOMPARE(p.line, line);
        QCOMPARE(p.column, 7);
        QVERIFY2(p.text().startsWith(QString::number(line) + u":7  "_s), qPrintable(p.text()));
        QCOMPARE(e->problemList()->count(), 1);
        QCOMPARE(e->problemList()->item(0)->text(), p.text());
        QCOMPARE(e->textEdit()->markedLines(), QList<int>{line});
        QVERIFY(!e->applyAction()->isEnabled());
        // The form cannot read it, and says why and where.
        e->showForm();
        QVERIFY(!e->form()->isReadable());
        // The same place in the same words as the problem list.
        QVERIFY2(e->form()->unreadableText().contains(p.text()), qPrintable(e->form()->unreadableText()));

        // Clicking the problem shows the text with the cursor on the mistake.
        e->show();
        QVERIFY(QTest::qWaitForWindowExposed(e.get()));
        const QRect r = e->problemList()->visualItemRect(e->problemList()->item(0));
        QTest::mouseClick(e->problemList()->viewport(), Qt::LeftButton, {}, r.center());
        QVERIFY(!e->isFormShown());
        const QTextCursor c = e->textEdit()->textCursor();
        QCOMPARE(c.blockNumber() + 1, line);
        QCOMPARE(c.positionInBlock() + 1, 7);
    }

    void validationMessages_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>(
            "lineOf"); // the problem is placed on the line holding this (after the edit)

        QTest::newRow("unknown provider type")
            << u"\"base_provider_type\": \"openai\""_s << u"\"base_provider_type\": \"anthropic\""_s
            << u"providers.vllm-server1.custom_provider_config.base_provider_type"_s
            << u"unsupported base_provider_type \"anthropic\""_s << u"\"anthropic\""_s;
        QTest::newRow("weight below 0")
            << u"\"s1-key\", \"value\": \"dummy\", \"models\": [\"nemotron-3-super\"], \"weight\": 1"_s
            << u"\"s1-key\", \"value\": \"dummy\", \"models\": [\"nemotron-3-super\"], \"weight\": -1"_s
            << u"providers.vllm-server1.keys[0].weight"_s << u"must be 0 or more (got -1)"_s << u"-1"_s;
        QTest::newRow("missing base URL")
            << u"        \"base_url\": \"http://192.168.200.102:8030\",\n"_s << QString()
            << u"providers.vllm-server2.network_config.base_url"_s << u"is required"_s
            << u"\"network_config\": {\n        \"default_request_timeout_in_seconds\""_s;
        QTest::newRow("duplicate key names")
            << u"{\"name\": \"s2-key\", \"value\": \"dummy\", \"models\": [\"nemotron-3-super\"], \"weight\": 1}"_s
            << u"{\"name\": \"s2-key\", \"value\": \"dummy\", \"models\": [\"nemotron-3-super\"], "
               u"\"weight\": 1},\n"
               "               {\"name\": \"s2-key\", \"value\": \"other\", \"weight\": 1}"_s
            << u"providers.vllm-server2.keys[1].name"_s
            << u"duplicate key name \"s2-key\": keys[0] and keys[1]"_s << u"\"other\""_s;
        QTest::newRow("missing env variable")
            << u"\"s2-key\", \"value\": \"dummy\""_s << u"\"s2-key\", \"value\": \"env.NOT_SET_HERE\""_s
            << u"providers.vllm-server2.keys[0].value"_s << u"environment variable NOT_SET_HERE is not set"_s
            << u"env.NOT_SET_HERE"_s;
    }

    void validationMessages()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, path);
        QFETCH(QString, message);
        QFETCH(QString, lineOf);
        QString text = seedText();
        QVERIFY2(text.contains(from), qPrintable(from));
        text.replace(text.indexOf(from), from.size(), to);
        auto e = newConfigEditor(text);
        QVERIFY(!e->isValid());
        const LocatedProblem *found = nullptr;
        for (const LocatedProblem &p : e->problems()) {
            if (p.problem.path == path)
                found = &p;
        }
        QVERIFY2(found,
                 qPrintable(e->problems().isEmpty() ? u"no problems"_s : e->problems().front().text()));
        QVERIFY2(found->problem.message.contains(message), qPrintable(found->problem.message));
        // Listed as "line:column  path: message", and marked where it is.
        QVERIFY2(found->text().contains(path + u": "_s), qPrintable(found->text()));
        const int expectedLine = ::lineOf(text, lineOf);
        QCOMPARE(found->line, expectedLine);
        QVERIFY(found->text().startsWith(QString::number(expectedLine) + u':'));
        QVERIFY(e->textEdit()->markedLines().contains(expectedLine));
        QVERIFY(!e->applyAction()->isEnabled());
        QVERIFY(!e->apply()); // refused, with the reason
    }

    void validationFollowsTypingAfterAPause()
    {
        auto e = newConfigEditor(seedText());
        e->setValidationDelay(50);
        QVERIFY(e->isValid());
        e->showText();
        e->show();
        QVERIFY(QTest::qWaitForWindowExposed(e.get()));
        QTextCursor c(e->textEdit()->document());
        c.setPosition(e->text().indexOf(u"\"weight\": 1"_s) + 10);
        e->textEdit()->setTextCursor(c);
        QTest::keyClicks(e->textEdit(), u"x"_s);
        QVERIFY(e->isValidationPending()); // not on the keystroke itself
        QSignalSpy validated(e.get(), &ConfigEditor::validated);
        QTRY_VERIFY(!e->isValidationPending());
        QVERIFY(!e->isValid());
        QVERIFY(e->problems().front().line > 0);
        QTest::keyClick(e->textEdit(), Qt::Key_Backspace);
        QTRY_VERIFY(!e->isValidationPending() && e->isValid());
        QVERIFY(e->problemsHeader().contains(u"No problems"_s));
    }

    void largeConfigStaysUsable()
    {
        // 500 providers (~150 KB): validated, placed and shown; the times are printed, not asserted.
        QList<QPair<QString, QString>> providers;
        for (int i = 0; i < 500; ++i)
            providers.append({u"node-"_s + QString::number(i), u"http://10.0."_s + QString::number(i / 250) +
                                                                   u'.' + QString::number(i % 250 + 1) +
                                                                   u":8000"_s});
        QString text = configFor(providers);
        text.replace(u"\"node-499-key\", \"value\": \"dummy\", \"models\": [\"m1\"], \"weight\": 1"_s,
                     u"\"node-499-key\", \"value\": \"dummy\", \"models\": [\"m1\"], \"weight\": -1"_s);
        QElapsedTimer t;
        t.start();
        auto e = newConfigEditor(text);
        const qint64 loadMs = t.elapsed();
        QCOMPARE(e->problems().size(), 1);
        QCOMPARE(e->problems().front().line, lineOf(text, u"\"weight\": -1"_s));
        t.restart();
        e->showForm();
        e->refreshForm();
        const qint64 formMs = t.elapsed();
        QCOMPARE(e->form()->providers()->rowCount(), 500);
        t.restart();
        QVERIFY(e->applyEdits({JsonEdit::set(*parseJsonPath(u"providers.node-499.keys[0].weight"), u"1"_s)}));
        const qint64 editMs = t.elapsed();
        e->validateNow();
        QVERIFY(e->isValid());
        qInfo("500 providers, %lld bytes: validation %lld us, load+validate+place %lld ms, form %lld ms, "
              "form edit "
              "%lld ms",
              qint64(text.size()), e->lastValidationMicros(), loadMs, formMs, editMs);
    }

    // --- apply ---

    void applyChangesTheRunningGatewaysRouting()
    {
        GatewayFixture f;
        // Two nodes, but the gateway starts with only the first.
        QVERIFY(f.start({u"a"_s, u"b"_s}, {}, {}, [](config::GatewayConfig &c) { c.providers.pop_back(); }));
        QCOMPARE(f.gateway.config().providers.size(), size_t(1));
        auto e = newConfigEditor(
            configFor({{u"a"_s, f.node(0).baseUrl()}},
                      u",\n  \"switchyard\": {\"listen\": \"127.0.0.1:0\", \"worker_threads\": 2}"_s));
        QVERIFY2(e->isValid(),
                 qPrintable(e->problems().isEmpty() ? QString() : e->problems().front().text()));
        QSignalSpy applied(e.get(), &ConfigEditor::applied);
        e->setApplier(
            [&f](const config::GatewayConfig &cfg, const QString &) { return f.gateway.applyConfig(cfg); });

        // Add node b in the form, as an operator would, and apply.
        e->showForm();
        e->form()->addProvider();
        e->refreshForm();
        ProvidersModel *m = e->form()->providers();
        const int row = m->rowOf(u"b"_s) >= 0 ? m->rowOf(u"b"_s) : m->rowCount() - 1;
        QVERIFY(m->setData(m->index(row, ProvidersModel::Name), u"b"_s, Qt::EditRole));
        e->refreshForm();
        QCOMPARE(e->form()->selectedProvider(), u"b"_s); // still selected under its new name
        QVERIFY(m->setData(m->index(m->rowOf(u"b"_s), ProvidersModel::BaseUrl), f.node(1).baseUrl(),
                           Qt::EditRole));
        e->refreshForm();
        QVERIFY(m->setData(m->index(m->rowOf(u"b"_s), ProvidersModel::Weight), 3.0, Qt::EditRole));
        QVERIFY(e->apply());
        QCOMPARE(applied.size(), 1);
        QVERIFY2(e->lastApplySummary().contains(u"added b"_s), qPrintable(e->lastApplySummary()));
        QVERIFY(e->statusText().contains(u"the gateway runs this config"_s));
        QCOMPARE(f.gateway.config().providers.size(), size_t(2));
        QVERIFY(f.gateway.isRunning());

        // New requests reach the new node (weights 1:3).
        int toB = 0;
        for (int i = 0; i < 20; ++i) {
            const TestResponse r = request(f.port, "POST", "/v1/chat/completions", chatBody("m1"));
            QCOMPARE(r.status, 200);
            toB += r.node() == "b";
        }
        QVERIFY2(toB >= 10 && toB < 20, qPrintable(QString::number(toB)));
        QVERIFY(f.node(1).counters().requestsReceived >= 10);

        // An invalid edit is refused and the running config stays.
        QVERIFY(m->setData(m->index(m->rowOf(u"b"_s), ProvidersModel::BaseUrl), u"ftp://nowhere"_s,
                           Qt::EditRole));
        QVERIFY(!e->apply());
        QVERIFY(e->lastMessage().contains(u"Not applied"_s));
        QCOMPARE(applied.size(), 1);
        QCOMPARE(f.gateway.config().providers.size(), size_t(2));
        QCOMPARE(request(f.port, "POST", "/v1/chat/completions", chatBody("m1")).status, 200);
    }

    // --- the command line ---

    void listenFromTheCommandLineIsShown()
    {
        // Started with --listen: that address wins, and the form says so instead of "(default)".
        config::ConfigController controller(nullptr);
        QVERIFY(controller.setListenOverride(u"127.0.0.1:9123"_s));
        ConfigEditor e(&controller);
        e.setUntitledText(configFor({{u"a"_s, u"http://127.0.0.1:9"_s}}), u"test"_s);
        e.showForm();
        QCOMPARE(e.form()->listenEdit()->placeholderText(), u"127.0.0.1:9123 (from --listen)"_s);
        QVERIFY2(e.form()->listenNote().contains(u"--listen 127.0.0.1:9123"_s),
                 qPrintable(e.form()->listenNote()));

        ConfigEditor plain;
        plain.setUntitledText(configFor({{u"a"_s, u"http://127.0.0.1:9"_s}}), u"test"_s);
        plain.showForm();
        QCOMPARE(plain.form()->listenEdit()->placeholderText(), u"127.0.0.1:8080 (default)"_s);
        QVERIFY(plain.form()->listenNote().isEmpty());
    }
};

QTEST_MAIN(TestConfigEditor)
#include "tst_configeditor.moc"
