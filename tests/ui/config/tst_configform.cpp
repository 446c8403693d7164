// The config editor's form, offscreen: a form edit is one undoable text edit, shortcuts work in both views,
// routing, storage and provider settings written from the form, keys masked and references never resolved.
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

class TestConfigForm final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    // --- the form ---

    void formEditIsOneUndoableTextEdit()
    {
        const QString seed = seedText();
        auto e = newConfigEditor(seed);
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
        auto e = newConfigEditor(seed);
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
        auto e = newConfigEditor(seedText());
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
        auto e = newConfigEditor(seedText());
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
        auto e = newConfigEditor(seedText());
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
        QVERIFY2(e->problems().front().text().contains(
                     u"switchyard.routing.cache_threshold: must be between 0 and 1"_s),
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
        auto e = newConfigEditor(seedText());
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
        auto e = newConfigEditor(text);
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
        auto e = newConfigEditor(seedText());
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
};

QTEST_MAIN(TestConfigForm)
#include "tst_configform.moc"
