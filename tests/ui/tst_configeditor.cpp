// The config editor, offscreen: validation messages placed in the text, the form writing into the text as
// one undoable step, Apply changing a real gateway's routing (traffic over loopback to simulated nodes),
// atomic save with a backup, changes on disk noticed, and unsaved edits never dropped without asking.
#include "common/testhttpclient.h"
#include "config/codeeditor.h"
#include "config/configeditor.h"
#include "config/configform.h"
#include "config/jsonedit.h"
#include "config/jsontextindex.h"
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
#include <QTimer>
#include <QTest>

using namespace switchyard;
using namespace switchyard::testing;
using namespace switchyard::ui;
using namespace Qt::Literals::StringLiterals;

namespace {

QString readText(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll());
}

bool writeText(const QString &path, const QString &text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(text.toUtf8()) >= 0;
}

QString seedText()
{
    return readText(QStringLiteral(SWITCHYARD_CONFIG_TESTDATA) + u"/seed-bifrost.json"_s);
}

// One provider per (name, url), the layout of the article's config.
QString configFor(const QList<QPair<QString, QString>> &providers, const QString &extra = {})
{
    QStringList parts;
    for (const auto &[name, url] : providers) {
        parts << u"    \""_s + name + u"\": {\n"_s + u"      \"keys\": [{\"name\": \""_s + name +
                     u"-key\", \"value\": \"dummy\", \"models\": [\"m1\"], \"weight\": 1}],\n"_s +
                     u"      \"network_config\": {\"base_url\": \""_s + url +
                     u"\", \"default_request_timeout_in_seconds\": 10},\n"_s +
                     u"      \"custom_provider_config\": {\"base_provider_type\": \"openai\"}\n"_s +
                     u"    }"_s;
    }
    return u"{\n  \"providers\": {\n"_s + parts.join(u",\n"_s) + u"\n  }"_s + extra + u"\n}\n"_s;
}

config::EnvLookup envWith(const QMap<QString, QString> &vars)
{
    return [vars](const QString &name) -> std::optional<QString> {
        if (!vars.contains(name))
            return std::nullopt;
        return vars.value(name);
    };
}

// The 1-based line of the first occurrence of needle.
int lineOf(const QString &text, const QString &needle)
{
    const qsizetype at = text.indexOf(needle);
    return at < 0 ? -1 : int(QStringView(text).first(at).count(u'\n')) + 1;
}

struct PromptLog
{
    QList<ConfigEditor::Reason> reasons;
    ConfigEditor::Choice answer = ConfigEditor::Choice::Cancel;
    ConfigEditor::UnsavedPrompt prompt()
    {
        return [this](ConfigEditor::Reason r, const QString &) {
            reasons << r;
            return answer;
        };
    }
};

} // namespace

class TestConfigEditor final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ConfigEditor> newEditor(const QString &text = {})
    {
        auto e = std::make_unique<ConfigEditor>();
        e->setEnvironment(envWith({{u"S1_KEY"_s, u"s3cret-from-env"_s}}));
        e->setUnsavedPrompt([](ConfigEditor::Reason, const QString &) {
            qWarning("unexpected unsaved-edits question");
            return ConfigEditor::Choice::Cancel;
        });
        e->setFileChooser([](ConfigEditor::FileRole, const QString &) {
            qWarning("unexpected file dialog");
            return QString();
        });
        e->resize(1100, 700);
        if (!text.isNull())
            e->setUntitledText(text, u"test"_s);
        return e;
    }

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
        auto e = newEditor(text);
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
        auto e = newEditor(text);
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
        auto e = newEditor(text);
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
        auto e = newEditor(seedText());
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
        auto e = newEditor(text);
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

    // --- the form ---

    void formEditIsOneUndoableTextEdit()
    {
        const QString seed = seedText();
        auto e = newEditor(seed);
        e->show();
        QVERIFY(QTest::qWaitForWindowExposed(e.get()));
        e->showForm();
        ProvidersModel *m = e->form()->providers();
        QCOMPARE(m->rowCount(), 2);
        QCOMPARE(m->index(0, ProvidersModel::Name).data().toString(), u"vllm-server1"_s);
        QCOMPARE(m->index(0, ProvidersModel::BaseUrl).data().toString(), u"http://192.168.200.101:8030"_s);
        QCOMPARE(m->index(0, ProvidersModel::Weight).data().toString(), u"1"_s);
        QCOMPARE(m->index(0, ProvidersModel::Models).data().toString(), u"nemotron-3-super"_s);
        QCOMPARE(m->index(0, ProvidersModel::Timeout).data().toString(), u"120"_s);
        QCOMPARE(m->index(0, ProvidersModel::Retries).data().toString(), u"2"_s);
        QVERIFY(m->index(0, ProvidersModel::Routing).data().toString().contains(u"weighted round robin"_s));

        // Weight 3 in the form: the text says 3 there and nothing else changed.
        QVERIFY(m->setData(m->index(0, ProvidersModel::Weight), 3.0, Qt::EditRole));
        QString expected = seed;
        expected.replace(seed.indexOf(u"\"weight\": 1"_s), 11, u"\"weight\": 3"_s);
        QCOMPARE(e->unmaskedText(), expected);
        QVERIFY(e->isModified());
        QTRY_COMPARE(m->index(0, ProvidersModel::Weight).data().toString(), u"3"_s);
        e->validateNow();
        QVERIFY(e->isValid());

        // One Undo (the action, as Ctrl+Z in the form triggers it) restores the text, and the form follows.
        QVERIFY(e->undoAction()->isEnabled());
        e->form()->providersView()->setFocus();
        e->undoAction()->trigger();
        QCOMPARE(e->unmaskedText(), seed);
        QTRY_COMPARE(m->index(0, ProvidersModel::Weight).data().toString(), u"1"_s);
        QVERIFY(!e->isModified());
        e->redoAction()->trigger();
        QCOMPARE(e->unmaskedText(), expected);

        // A text edit and a form edit share the stack: undo them in reverse order.
        QTextCursor c(e->textEdit()->document());
        c.setPosition(e->text().indexOf(u"120"_s));
        c.setPosition(e->text().indexOf(u"120"_s) + 3, QTextCursor::KeepAnchor);
        c.insertText(u"90"_s);
        e->refreshForm();
        QCOMPARE(m->index(0, ProvidersModel::Timeout).data().toString(), u"90"_s);
        QVERIFY(m->setData(m->index(1, ProvidersModel::Retries), 5, Qt::EditRole));
        QVERIFY(e->text().contains(u"\"max_retries\": 5"_s));
        e->undo();
        QVERIFY(!e->text().contains(u"\"max_retries\": 5"_s));
        QVERIFY(e->text().contains(u"\"default_request_timeout_in_seconds\": 90"_s));
        e->undo();
        QCOMPARE(e->unmaskedText(), expected);
    }

    void shortcutsWorkInBothViews()
    {
        const QString seed = seedText();
        auto e = newEditor(seed);
        int applied = 0;
        e->setApplier([&applied](const config::GatewayConfig &, const QString &) {
            ++applied;
            return Gateway::ApplyResult{};
        });
        e->show();
        QVERIFY(QTest::qWaitForWindowExposed(e.get()));
        QApplication::setActiveWindow(e.get());
        e->showForm();
        ProvidersModel *m = e->form()->providers();
        QVERIFY(m->setData(m->index(1, ProvidersModel::Weight), 4.0, Qt::EditRole));
        e->form()->providersView()->setFocus();
        QTest::keyClick(e->form()->providersView(), Qt::Key_Z, Qt::ControlModifier); // Undo, from the form
        QCOMPARE(e->unmaskedText(), seed);
        QTest::keyClick(e->form()->providersView(), Qt::Key_Z,
                        Qt::ControlModifier | Qt::ShiftModifier); // Redo
        QVERIFY(e->text().contains(u"\"weight\": 4"_s));
        QTest::keyClick(e->form()->providersView(), Qt::Key_Return, Qt::ControlModifier); // Apply
        QCOMPARE(applied, 1);
        e->showText();
        e->textEdit()->setFocus();
        QTest::keyClick(e->textEdit(), Qt::Key_Z, Qt::ControlModifier); // the same stack, from the text
        QCOMPARE(e->unmaskedText(), seed);
        QTest::keyClick(e->textEdit(), Qt::Key_Return, Qt::ControlModifier);
        QCOMPARE(applied, 2);
    }

    void formEditThroughTheCellEditor()
    {
        auto e = newEditor(seedText());
        e->show();
        QVERIFY(QTest::qWaitForWindowExposed(e.get()));
        e->showForm();
        QTableView *view = e->form()->providersView();
        const QModelIndex url = e->form()->providers()->index(1, ProvidersModel::BaseUrl);
        view->setCurrentIndex(url);
        view->edit(url);
        auto *editor = view->viewport()->findChild<QLineEdit *>();
        QVERIFY(editor);
        QApplication::setActiveWindow(e.get());
        editor->setFocus();
        QTest::keyClick(editor, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(editor, u"http://10.0.0.7:8000"_s);
        QTest::keyClick(editor, Qt::Key_Return);
        QTRY_VERIFY(e->text().contains(u"\"base_url\": \"http://10.0.0.7:8000\""_s));
        QTRY_COMPARE(e->form()->providers()->index(1, ProvidersModel::BaseUrl).data().toString(),
                     u"http://10.0.0.7:8000"_s);
    }

    void routingStrategyFromTheForm()
    {
        auto e = newEditor(seedText());
        e->showForm();
        ProvidersModel *m = e->form()->providers();
        QVERIFY(m->setData(m->index(0, ProvidersModel::Routing), u"least_outstanding"_s, Qt::EditRole));
        e->validateNow();
        QVERIFY(e->isValid());
        const auto cfg = config::parseConfig(e->unmaskedText().toUtf8());
        QVERIFY(cfg);
        QCOMPARE(cfg->settings.strategyByModel.value(u"nemotron-3-super"_s),
                 config::RoutingStrategy::LeastOutstanding);
        e->refreshForm();
        // Both providers serve the model, so both show it: the strategy is the model pool's.
        QCOMPARE(m->index(1, ProvidersModel::Routing).data().toString(),
                 strategyLabel(u"least_outstanding"_s));
        e->undo();
        QVERIFY(!e->text().contains(u"switchyard"_s));
        // The default strategy and the listen address from the gateway box.
        e->refreshForm();
        e->form()->strategyBox()->setCurrentIndex(e->form()->strategyBox()->findData(u"load_aware"_s));
        emit e->form()->strategyBox()->activated(e->form()->strategyBox()->currentIndex());
        e->form()->listenEdit()->setText(u"127.0.0.1:9090"_s);
        emit e->form()->listenEdit()->editingFinished();
        const auto cfg2 = config::parseConfig(e->unmaskedText().toUtf8());
        QVERIFY(cfg2);
        QCOMPARE(cfg2->settings.defaultStrategy, config::RoutingStrategy::LoadAware);
        QCOMPARE(cfg2->settings.listenPort, quint16(9090));
    }

    // The routing box: session_affinity's and cache_aware's settings, written as numbers, a bad
    // threshold named by its path, an emptied field back to the default.
    void routingSettingsFromTheForm()
    {
        auto e = newEditor(seedText());
        e->showForm();
        e->form()->strategyBox()->setCurrentIndex(e->form()->strategyBox()->findData(u"cache_aware"_s));
        emit e->form()->strategyBox()->activated(e->form()->strategyBox()->currentIndex());
        RoutingSettingsBox *box = e->form()->routingBox();
        box->field(u"cache_threshold"_s)->setText(u"0.7"_s);
        emit box->field(u"cache_threshold"_s)->editingFinished();
        box->field(u"session_header"_s)->setText(u"X-Conversation"_s);
        emit box->field(u"session_header"_s)->editingFinished();
        box->fallbackBox()->setCurrentIndex(box->fallbackBox()->findData(u"least_outstanding"_s));
        emit box->fallbackBox()->activated(box->fallbackBox()->currentIndex());
        e->validateNow();
        QVERIFY(e->isValid());
        const auto cfg = config::parseConfig(e->unmaskedText().toUtf8());
        QVERIFY(cfg);
        QCOMPARE(cfg->settings.defaultStrategy, config::RoutingStrategy::CacheAware);
        QCOMPARE(cfg->settings.affinity.cacheThreshold, 0.7);
        QCOMPARE(cfg->settings.affinity.sessionHeader, QByteArray("x-conversation"));
        QCOMPARE(cfg->settings.affinity.fallbackStrategy, config::RoutingStrategy::LeastOutstanding);
        QVERIFY(e->text().contains(u"\"cache_threshold\": 0.7"_s));
        e->refreshForm();
        QCOMPARE(box->field(u"cache_threshold"_s)->text(), u"0.7"_s);

        box->field(u"cache_threshold"_s)->setText(u"2"_s);
        emit box->field(u"cache_threshold"_s)->editingFinished();
        e->validateNow();
        QVERIFY(!e->isValid());
        QCOMPARE(e->problems().size(), 1);
        QVERIFY2(e->problems().front().text().contains(u"switchyard.routing.cache_threshold: must be between 0 and 1"_s),
                 qPrintable(e->problems().front().text()));

        box->field(u"cache_threshold"_s)->clear();
        emit box->field(u"cache_threshold"_s)->editingFinished();
        e->validateNow();
        QVERIFY(e->isValid());
        QVERIFY(!e->text().contains(u"cache_threshold"_s));

        if (const QByteArray shots = qgetenv("SWITCHYARD_SCREENSHOT_DIR"); !shots.isEmpty()) {
            box->field(u"cache_threshold"_s)->setText(u"0.5"_s);
            emit box->field(u"cache_threshold"_s)->editingFinished();
            e->refreshForm();
            e->resize(1280, 900);
            e->show();
            QVERIFY(e->grab().save(QString::fromLocal8Bit(shots) + u"/config-form-routing.png"_s));
        }
    }

    // The history and Redis box: switchyard.history written from its fields (a bad number named by its
    // path), an emptied file turning the history off with its other settings, a Redis URL read back.
    void storageSettingsFromTheForm()
    {
        auto e = newEditor(seedText());
        e->showForm();
        StorageSettingsBox *box = e->form()->storageBox();
        const auto type = [box](const QString &key, const QString &text) {
            box->field(key)->setText(text);
            emit box->field(key)->editingFinished();
        };
        type(u"history.path"_s, u"/var/lib/switchyard/history.db"_s);
        type(u"history.max_age_days"_s, u"7"_s);
        type(u"redis_url"_s, u"redis://10.0.0.9:6379"_s);
        e->validateNow();
        QVERIFY2(e->isValid(), qPrintable(e->problems().empty() ? QString() : e->problems().front().text()));
        const auto cfg = config::parseConfig(e->unmaskedText().toUtf8());
        QVERIFY(cfg);
        QCOMPARE(cfg->settings.history.path, u"/var/lib/switchyard/history.db"_s);
        QCOMPARE(cfg->settings.history.maxAgeDays, 7);
        QCOMPARE(cfg->settings.history.maxSizeMb, 1024); // untouched: the default
        QCOMPARE(cfg->settings.redisUrl, u"redis://10.0.0.9:6379"_s);
        e->refreshForm();
        QCOMPARE(box->field(u"history.max_age_days"_s)->text(), u"7"_s);

        type(u"history.max_size_mb"_s, u"lots"_s);
        e->validateNow();
        QVERIFY(!e->isValid());
        QVERIFY2(e->problems().front().text().contains(u"switchyard.history.max_size_mb"_s),
                 qPrintable(e->problems().front().text()));
        type(u"history.max_size_mb"_s, QString());

        // No file, no history: its days go with it, and the config stays valid.
        type(u"history.path"_s, QString());
        e->validateNow();
        QVERIFY(e->isValid());
        QVERIFY(!e->text().contains(u"history"_s));
        QVERIFY(e->text().contains(u"redis://10.0.0.9:6379"_s));
    }

    void keysAreMaskedAndReferencesNeverResolved()
    {
        QString text = seedText();
        text.replace(u"\"s1-key\", \"value\": \"dummy\""_s, u"\"s1-key\", \"value\": \"env.S1_KEY\""_s);
        text.replace(u"\"s2-key\", \"value\": \"dummy\""_s,
                     u"\"s2-key\", \"value\": \"sk-literal-secret\""_s);
        auto e = newEditor(text);
        QVERIFY(e->isValid()); // S1_KEY resolves (to s3cret-from-env) in the injected environment
        e->showForm();
        ConfigForm *form = e->form();
        for (const QString &provider : {u"vllm-server1"_s, u"vllm-server2"_s}) {
            form->selectProvider(provider);
            KeysModel *keys = form->keys();
            QCOMPARE(keys->rowCount(), 1);
            for (QAbstractItemModel *model : {static_cast<QAbstractItemModel *>(keys),
                                              static_cast<QAbstractItemModel *>(form->providers())}) {
                for (int r = 0; r < model->rowCount(); ++r) {
                    for (int c = 0; c < model->columnCount(); ++c) {
                        for (int role : {int(Qt::DisplayRole), int(Qt::EditRole), int(Qt::ToolTipRole)}) {
                            const QString shown = model->index(r, c).data(role).toString();
                            QVERIFY2(!shown.contains(u"s3cret-from-env"_s) &&
                                         !shown.contains(u"sk-literal"_s),
                                     qPrintable(shown));
                        }
                    }
                }
            }
            const QString value = keys->index(0, KeysModel::Value).data().toString();
            QCOMPARE(value, provider == u"vllm-server1"_s ? u"env.S1_KEY"_s : u"\u2022\u2022\u2022\u2022"_s);
        }
        // A new value typed into the (empty) secret editor replaces it; empty keeps it.
        form->selectProvider(u"vllm-server2"_s);
        QVERIFY(!form->keys()->setData(form->keys()->index(0, KeysModel::Value), QString(), Qt::EditRole));
        QVERIFY(
            form->keys()->setData(form->keys()->index(0, KeysModel::Value), u"env.S2_KEY"_s, Qt::EditRole));
        QVERIFY(e->text().contains(u"\"value\": \"env.S2_KEY\""_s));
    }

    void addProviderAsksForItsAddress()
    {
        auto e = newEditor(seedText());
        e->setApplier([](const config::GatewayConfig &, const QString &) { return Gateway::ApplyResult{}; });
        e->showForm();
        e->form()->addProvider();
        QVERIFY(e->text().contains(u"\"vllm-server3\": {"_s));
        e->validateNow();
        QVERIFY(!e->isValid());
        QCOMPARE(e->problems().size(), 1);
        QCOMPARE(e->problems().front().problem.path, u"providers.vllm-server3.network_config.base_url"_s);
        QVERIFY(!e->applyAction()->isEnabled());
        e->refreshForm();
        ProvidersModel *m = e->form()->providers();
        QCOMPARE(m->rowCount(), 3);
        QCOMPARE(e->form()->selectedProvider(), u"vllm-server3"_s);
        QCOMPARE(m->index(2, ProvidersModel::Models).data().toString(),
                 u"nemotron-3-super"_s);                                               // as its neighbour
        QVERIFY(!m->index(2, ProvidersModel::Name).data(Qt::DecorationRole).isNull()); // marked
        QVERIFY(
            m->setData(m->index(2, ProvidersModel::BaseUrl), u"http://192.168.200.103:8030"_s, Qt::EditRole));
        e->validateNow();
        QVERIFY(e->isValid());
        QVERIFY(e->applyAction()->isEnabled());
        // Keys: add one, remove it again.
        e->refreshForm();
        e->form()->addKey();
        e->refreshForm();
        QCOMPARE(e->form()->keys()->rowCount(), 2);
        e->form()->keysView()->setCurrentIndex(e->form()->keys()->index(1, 0));
        e->form()->removeSelectedKey();
        e->refreshForm();
        QCOMPARE(e->form()->keys()->rowCount(), 1);
        e->form()->removeSelectedProvider();
        e->validateNow();
        QCOMPARE(config::parseConfig(e->unmaskedText().toUtf8())->providers.size(), size_t(2));
    }

    // --- apply ---

    void applyChangesTheRunningGatewaysRouting()
    {
        GatewayFixture f;
        // Two nodes, but the gateway starts with only the first.
        QVERIFY(f.start({u"a"_s, u"b"_s}, {}, {}, [](config::GatewayConfig &c) { c.providers.pop_back(); }));
        QCOMPARE(f.gateway.config().providers.size(), size_t(1));
        auto e = newEditor(
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

    // --- files ---

    void saveIsAtomicAndKeepsABackup()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"switchyard.json"_s);
        const QString seed = seedText();
        QVERIFY(writeText(path, seed));
        QVERIFY(QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner));
        auto e = newEditor();
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
        seed.replace(u"\"s1-key\", \"value\": \"dummy\""_s, u"\"s1-key\", \"value\": \"sk-n0de\\u0031-secret\""_s);
        seed.replace(u"\"s2-key\", \"value\": \"dummy\""_s, u"\"s2-key\", \"value\": \"env.S1_KEY\""_s);
        seed.replace(u"\n  }\n}"_s, u"\n  },\n  \"switchyard\": {\"listen\": \"127.0.0.1:0\", \"api_keys\": [\"client-k3y\"]}\n}"_s);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"config.json"_s);
        QVERIFY(writeText(path, seed));
        auto e = newEditor();
        QVERIFY(e->openFile(path));
        QVERIFY2(e->isValid(), qPrintable(e->problemList()->count() ? e->problemList()->item(0)->text() : QString()));

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
        QVERIFY(e->applyEdits({JsonEdit::set(*parseJsonPath(u"providers.vllm-server2.keys[0].weight"), u"3"_s)}));
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
        seed.replace(u"\n  }\n}"_s,
                     u"\n  },\n  \"switchyard\": {\"listen\": \"127.0.0.1:0\", \"redis_url\": \"redis://:r3dis-pw@10.0.0.9:6379\"}\n}"_s);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"config.json"_s);
        QVERIFY(writeText(path, seed));
        auto e = newEditor();
        QVERIFY(e->openFile(path));
        QVERIFY2(e->isValid(), qPrintable(e->problemList()->count() ? e->problemList()->item(0)->text() : QString()));
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
        auto plain = newEditor();
        QVERIFY(plain->openFile(path));
        QVERIFY(plain->textEdit()->toPlainText().contains(u"\"redis_url\": \"redis://10.0.0.9:6379\""_s));
    }

    void secretsAfterASyntaxErrorAreMaskedToo()
    {
        // A file opened with a mistake above its secrets (a missing comma): the JSON view still shows
        // none of them, and once the comma is typed back, saving writes them as they were.
        QString seed = seedText();
        seed.replace(u"\"s1-key\", \"value\": \"dummy\""_s, u"\"s1-key\", \"value\": \"sk-0ne\""_s);
        seed.replace(u"{\"name\": \"s2-key\", \"value\": \"dummy\""_s, u"{\"value\": \"sk-tw0\", \"name\": \"s2-key\""_s);
        seed.replace(u"\"base_url\": \"http://192.168.200.102:8030\","_s,
                     u"\"base_url\": \"http://192.168.200.102:8030\", \"extra_headers\": {\"X-Token\": \"hdr-s3cret\"},"_s);
        seed.replace(u"\n  }\n}"_s, u"\n  },\n  \"switchyard\": {\"api_keys\": [\"env.S1_KEY\", \"client-k3y\"]}\n}"_s);
        QVERIFY(seed.contains(u"client-k3y"_s) && seed.contains(u"hdr-s3cret"_s) && seed.contains(u"sk-tw0"_s));
        QString broken = seed;
        const QString withComma = u"\"default_request_timeout_in_seconds\": 120,\n"_s;
        broken.replace(broken.indexOf(withComma), withComma.size(), u"\"default_request_timeout_in_seconds\": 120\n"_s);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"config.json"_s);
        QVERIFY(writeText(path, broken));
        auto e = newEditor();
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
        QVERIFY2(e->isValid(), qPrintable(e->problemList()->count() ? e->problemList()->item(0)->text() : QString()));
        QCOMPARE(e->unmaskedText(), seed);
        QVERIFY(e->save());
        QCOMPARE(readText(path), seed);
    }

    void aMaskWithoutASecretIsAProblem()
    {
        // Pasted from GET /api/config of another gateway: nothing here knows what the stars stand for.
        QString text = seedText();
        text.replace(u"\"s1-key\", \"value\": \"dummy\""_s, u"\"s1-key\", \"value\": \"********\""_s);
        auto e = newEditor(text);
        QVERIFY(!e->isValid());
        QCOMPARE(e->problems().size(), 1);
        QCOMPARE(e->problems().front().problem.path, u"providers.vllm-server1.keys[0].value"_s);
        QVERIFY(e->problems().front().text().contains(u"type the value"_s));
    }

    void listenFromTheCommandLineIsShown()
    {
        // Started with --listen: that address wins, and the form says so instead of "(default)".
        config::ConfigController controller(nullptr);
        QVERIFY(controller.setListenOverride(u"127.0.0.1:9123"_s));
        ConfigEditor e(&controller);
        e.setUntitledText(configFor({{u"a"_s, u"http://127.0.0.1:9"_s}}), u"test"_s);
        e.showForm();
        QCOMPARE(e.form()->listenEdit()->placeholderText(), u"127.0.0.1:9123 (from --listen)"_s);
        QVERIFY2(e.form()->listenNote().contains(u"--listen 127.0.0.1:9123"_s), qPrintable(e.form()->listenNote()));

        ConfigEditor plain;
        plain.setUntitledText(configFor({{u"a"_s, u"http://127.0.0.1:9"_s}}), u"test"_s);
        plain.showForm();
        QCOMPARE(plain.form()->listenEdit()->placeholderText(), u"127.0.0.1:8080 (default)"_s);
        QVERIFY(plain.form()->listenNote().isEmpty());
    }

    void untitledSavesAsAndExportsForBifrost()
    {
        QTemporaryDir dir;
        auto e = newEditor(
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
        auto e = newEditor();
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
        auto e = newEditor();
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
        QVERIFY(e->reload());      // nothing unsaved: no question
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
        auto e = newEditor();
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

QTEST_MAIN(TestConfigEditor)
#include "tst_configeditor.moc"
