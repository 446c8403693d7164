// The Keys view over a real gateway of this process (simulated node "a", LocalGatewayLink): the model
// changed in place while keys are made, used, revoked and expire (QAbstractItemModelTester, and spies
// that prove a poll is no reset); a key made through the dialog whose secret, shown once, answers a
// real chat request, the table then counting it; limits changed through the same dialog (only what
// changed is sent); a key revoked through the view, its secret then refused; a link without keys to
// manage (a fleet window's) shows its reason instead of a table; one listing in flight at most, none
// while hidden; the main window's Keys tab on the window's link.
#include "keys/keydialog.h"
#include "keys/keysmodel.h"
#include "keys/keysview.h"
#include "keys/secretdialog.h"
#include "link/localgatewaylink.h"
#include "mainwindow.h"

#include "common/testhttpclient.h"
#include "gateway/gatewayfixture.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QBarSet>
#include <QCheckBox>
#include <QClipboard>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTimer>
#include <atomic>

using namespace switchyard;
using namespace switchyard::testing;
using namespace switchyard::ui;
using namespace Qt::Literals::StringLiterals;

namespace {
// A link with no keys to manage: keys are the base class's, which refuses them (as a fleet window's
// link does). Everything else answers nothing.
class NoKeysLink : public link::GatewayLink
{
public:
    using GatewayLink::GatewayLink;
    QString displayName() const override { return u"fleet of 2"_s; }
    bool isRemote() const override { return true; }
    QUrl apiUrl() const override { return {}; }
    QString clientKey() const override { return {}; }
    void start() override { }
    void stop() override { }
    link::LinkStatus linkStatus() const override { return {link::LinkState::Connected, {}, 0, 0}; }
    std::optional<link::GatewayStatus> status() const override { return std::nullopt; }
    void fetchRequests(quint64, int) override { }
    void fetchHistory(const QString &, int) override { }
    void fetchConfig() override { }
    void putConfig(const QByteArray &, const QString &) override { }
    void nodeAction(const QString &, link::NodeAction) override { }
    void setAccepting(bool) override { }
};

// A gateway that is slow to list its keys: it counts the asks and answers only when told.
class SlowLink final : public NoKeysLink
{
public:
    using NoKeysLink::NoKeysLink;
    void fetchKeys() override { ++asked; }
    void answer(const QList<keys::KeyListing> &keys) { emit keysFetched(keys); }
    int asked = 0;
};

QString cell(const QAbstractItemModel &m, int row, int column)
{
    return m.data(m.index(row, column)).toString();
}

QList<keys::KeyListing> listed(Gateway &g)
{
    QList<keys::KeyListing> out;
    for (const keys::KeyListing &l : g.keys().list())
        out.append(l);
    return out;
}

keys::KeyChange named(const QString &name)
{
    keys::KeyChange c;
    c.name = name;
    return c;
}

// Answers the next modal message box (shown with exec(), so from a timer) by clicking a button.
void answerNextMessageBox(QMessageBox::StandardButton which, bool *answered)
{
    auto *timer = new QTimer;
    timer->setInterval(20);
    QObject::connect(timer, &QTimer::timeout, timer, [timer, which, answered] {
        auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
        if (!box)
            return;
        *answered = true;
        box->button(which)->click();
        timer->deleteLater();
    });
    timer->start();
}

int chat(quint16 port, const QString &secret)
{
    return request(port, "POST", "/v1/chat/completions", chatBody("m1", 4), 10000,
                   {{"Authorization", "Bearer " + secret.toLatin1()}})
        .status;
}
} // namespace

class TestKeysView final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // the main window's settings stay out of the user's
    }

    void formats()
    {
        keys::KeyLimits limits;
        QCOMPARE(VirtualKeysModel::limitsText(limits), VirtualKeysModel::tr("no limits"));
        limits.requestsPerMinute = 60;
        limits.tokensPerDay = 200'000;
        limits.maxConcurrent = 4;
        QCOMPARE(VirtualKeysModel::limitsText(limits), u"60 req/min \u00b7 200k tokens/day \u00b7 4 at once"_s);
        QCOMPARE(VirtualKeysModel::compactNumber(950), u"950"_s);
        QCOMPARE(VirtualKeysModel::compactNumber(12'500), u"12.5k"_s);
        QCOMPARE(VirtualKeysModel::compactNumber(1'000'000'000), u"1B"_s);
        QCOMPARE(KeyDialog::splitList(u" m1, ,m2,m1 "_s), (QStringList{u"m1"_s, u"m2"_s}));
    }

    void modelChangesRowsInPlace()
    {
        // One clock for the gateway's keys and the model: minutes and days pass when the test says.
        std::atomic<qint64> now = QDateTime::currentMSecsSinceEpoch() / 60'000 * 60'000 + 1000;
        GatewayFixture f;
        f.gateway.keys().setWallClock([&now] { return now.load(); });
        QVERIFY(f.start({u"a"_s}));
        VirtualKeysModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setWallClock([&now] { return now.load(); });
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);

        keys::KeyChange ci = named(u"ci-pipeline"_s);
        ci.models = QStringList{u"m1"_s};
        ci.requestsPerMinute = 60;
        ci.tokensPerDay = 200'000;
        ci.maxConcurrent = 4;
        const auto made = f.gateway.keys().create(ci);
        QVERIFY(made);
        keys::KeyChange soon = named(u"notebook"_s);
        soon.expiresMs = now + 30'000; // within the same minute on the test's clock
        QVERIFY(f.gateway.keys().create(soon));
        model.setKeys(listed(f.gateway));
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(inserted.size(), 1);
        QCOMPARE(cell(model, 0, VirtualKeysModel::Name), u"ci-pipeline"_s);
        QCOMPARE(cell(model, 0, VirtualKeysModel::Status), VirtualKeysModel::tr("Active"));
        QCOMPARE(cell(model, 0, VirtualKeysModel::Models), u"m1"_s);
        QCOMPARE(cell(model, 1, VirtualKeysModel::Models), VirtualKeysModel::tr("all"));
        QCOMPARE(cell(model, 0, VirtualKeysModel::Limits), u"60 req/min \u00b7 200k tokens/day \u00b7 4 at once"_s);
        QCOMPARE(cell(model, 1, VirtualKeysModel::Limits), VirtualKeysModel::tr("no limits"));
        QCOMPARE(cell(model, 0, VirtualKeysModel::Today), VirtualKeysModel::tr("%1 of %2").arg(u"0"_s, u"200k"_s));
        QCOMPARE(cell(model, 1, VirtualKeysModel::Expires).isEmpty(), false);
        QCOMPARE(cell(model, 0, VirtualKeysModel::Expires), VirtualKeysModel::tr("never"));
        QCOMPARE(model.data(model.index(0, VirtualKeysModel::Requests), Qt::TextAlignmentRole).toInt(),
                 int(Qt::AlignRight | Qt::AlignVCenter));
        QVERIFY(model.data(model.index(0, VirtualKeysModel::Status), Qt::ToolTipRole).toString().contains(made->key.secretHint));

        // The same listing again: nothing to tell the views.
        changed.clear();
        model.setKeys(listed(f.gateway));
        QCOMPARE(changed.size(), 0);

        // The key answers a request: its row changes, in place, and only its row.
        QCOMPARE(chat(f.port, made->secret), 200);
        // (Tokens are charged as the answer ends, and the request leaves the flight just after.)
        QTRY_VERIFY(f.gateway.keys().get(made->key.id)->usage.completionTokens > 0
                    && f.gateway.keys().get(made->key.id)->usage.inFlight == 0);
        model.setKeys(listed(f.gateway));
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed.first().at(0).toModelIndex().row(), 0);
        QCOMPARE(changed.first().at(1).toModelIndex().row(), 0);
        QCOMPARE(cell(model, 0, VirtualKeysModel::Requests), u"1"_s);
        const keys::KeyUsage::Snapshot used = f.gateway.keys().get(made->key.id)->usage;
        QCOMPARE(cell(model, 0, VirtualKeysModel::Tokens), QLocale().toString(used.promptTokens + used.completionTokens));

        // A third key comes, the first is revoked: one insert, one row changed.
        QVERIFY(f.gateway.keys().create(named(u"batch"_s)));
        QVERIFY(f.gateway.keys().revoke(made->key.id));
        changed.clear();
        model.setKeys(listed(f.gateway));
        QCOMPARE(inserted.size(), 2);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(changed.size(), 1);
        QCOMPARE(cell(model, 0, VirtualKeysModel::Status), VirtualKeysModel::tr("Revoked"));
        QCOMPARE(model.status(0), VirtualKeysModel::KeyStatus::Revoked);

        // Half a minute later the second key has expired: told by the next listing, in place (the
        // minute's counts of the first stay: same minute).
        now += 30'001;
        changed.clear();
        model.setKeys(listed(f.gateway));
        QCOMPARE(changed.size(), 1);
        QCOMPARE(cell(model, 1, VirtualKeysModel::Status), VirtualKeysModel::tr("Expired"));

        // A listing without the first key (another gateway's, a restarted one): that row leaves.
        QList<keys::KeyListing> rest = listed(f.gateway);
        rest.removeFirst();
        model.setKeys(rest);
        QCOMPARE(removed.size(), 1);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(cell(model, 0, VirtualKeysModel::Name), u"notebook"_s);
        QCOMPARE(reset.size(), 0);
    }

    void viewMakesUsesChangesAndRevokesAKey()
    {
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s}));
        link::LocalGatewayLink link(&f.gateway);
        link.start();
        KeysView view;
        view.resize(1200, 700);
        view.setLink(&link);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(view.isPolling());

        // No keys: what they are, and a button to make one, not an empty grid.
        QTRY_VERIFY(view.messageLabel()->text().contains(u"No virtual keys yet"_s));
        QVERIFY(!view.isShowingTable());
        QVERIFY(view.findChild<QPushButton *>(u"emptyNewKeyButton"_s)->isVisible());

        // Through the dialog: OK only once there is a name.
        KeyDialog *dialog = view.openNewKeyDialog();
        QVERIFY(dialog);
        QVERIFY(!dialog->isEditing());
        QVERIFY(!dialog->okButton()->isEnabled());
        QCOMPARE(dialog->requestsPerMinuteBox()->text(), KeyDialog::tr("no limit"));
        dialog->nameEdit()->setText(u"   "_s);
        QVERIFY(!dialog->okButton()->isEnabled());
        dialog->nameEdit()->setText(u"ci-pipeline"_s);
        QVERIFY(dialog->okButton()->isEnabled());
        dialog->modelsEdit()->setText(u"m1"_s);
        dialog->requestsPerMinuteBox()->setValue(60);
        dialog->tokensPerDayBox()->setValue(200'000);
        dialog->maxConcurrentBox()->setValue(4);
        dialog->okButton()->click();

        // The secret, once: read-only, and closing without Copy asks first.
        QTRY_VERIFY(view.secretDialog() && view.secretDialog()->isVisible());
        SecretDialog *secretDialog = view.secretDialog();
        const QString secret = secretDialog->secretEdit()->text();
        QVERIFY2(secret.startsWith(u"sy-"_s), qPrintable(secret));
        QVERIFY(secretDialog->secretEdit()->isReadOnly());
        QVERIFY(secretDialog->findChild<QLabel *>(u"secretWarning"_s)->text().contains(u"only time"_s));
        bool asked = false;
        answerNextMessageBox(QMessageBox::No, &asked);
        secretDialog->closeButton()->click();
        QVERIFY(asked);
        QVERIFY(secretDialog->isVisible()); // "Keep it open"
        secretDialog->copyButton()->click();
        QCOMPARE(QGuiApplication::clipboard()->text(), secret);
        QVERIFY(secretDialog->wasCopied());
        secretDialog->closeButton()->click(); // copied: no question
        QTRY_VERIFY(!view.secretDialog());
        // The secret is nowhere in the table.
        QTRY_VERIFY(view.isShowingTable());
        QCOMPARE(view.model()->rowCount(), 1);
        for (int c = 0; c < VirtualKeysModel::ColumnCount; ++c) {
            for (int role : {int(Qt::DisplayRole), int(Qt::ToolTipRole)})
                QVERIFY(!view.model()->data(view.model()->index(0, c), role).toString().contains(secret));
        }
        QVERIFY(view.statusLabel()->text().contains(u"ci-pipeline"_s));
        QVERIFY(!view.statusLabel()->property("failed").toBool());

        // The secret works for a real request; the next poll counts it.
        QCOMPARE(chat(f.port, secret), 200);
        QCOMPARE(chat(f.port, u"sy-not-a-key"_s), 401); // a key is active: the endpoints need one now
        QTRY_COMPARE_WITH_TIMEOUT(cell(*view.model(), 0, VirtualKeysModel::Requests), u"1"_s, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(cell(*view.model(), 0, VirtualKeysModel::Tokens) != u"0"_s, 10000);
        QCOMPARE(cell(*view.model(), 0, VirtualKeysModel::Models), u"m1"_s);
        // The chart has its bar: the key's prompt and completion tokens.
        QTRY_COMPARE(view.tokenSeries()->barSets().at(0)->count(), 1);
        QVERIFY(view.tokenSeries()->barSets().at(0)->at(0) > 0);
        QVERIFY(view.tokenSeries()->barSets().at(1)->at(0) > 0);

        // Selected, the row stays selected across polls (in place, not reset).
        view.table()->selectRow(0);
        const QString id = view.selectedKeyId();
        QVERIFY(id.startsWith(u"vk_"_s));
        QSignalSpy listedAgain(&link, &link::GatewayLink::keysFetched);
        QVERIFY(listedAgain.wait(5000));
        QCOMPARE(view.selectedKeyId(), id);

        // Edit limits: prefilled, and only what changed is sent.
        KeyDialog *edit = view.openEditDialog();
        QVERIFY(edit);
        QVERIFY(edit->isEditing());
        QCOMPARE(edit->nameEdit()->text(), u"ci-pipeline"_s);
        QCOMPARE(edit->requestsPerMinuteBox()->value(), 60);
        QCOMPARE(edit->maxConcurrentBox()->value(), 4);
        QVERIFY(!edit->expiresBox()->isChecked());
        edit->maxConcurrentBox()->setValue(8);
        const keys::KeyChange change = edit->change();
        QVERIFY(change.maxConcurrent && *change.maxConcurrent == 8);
        QVERIFY(!change.name && !change.models && !change.providers && !change.requestsPerMinute
                && !change.tokensPerMinute && !change.tokensPerDay && !change.expiresMs);
        edit->okButton()->click();
        QTRY_COMPARE(f.gateway.keys().get(id)->key.limits.maxConcurrent, 8);
        QCOMPARE(f.gateway.keys().get(id)->key.limits.requestsPerMinute, 60);
        QTRY_VERIFY(cell(*view.model(), 0, VirtualKeysModel::Limits).contains(u"8 at once"_s));
        QVERIFY(view.statusLabel()->text().contains(u"changed"_s));

        // Revoke: asked first, naming the key; then the row says so and the secret is refused.
        view.revokeSelected();
        auto *question = view.findChild<QMessageBox *>(u"revokeQuestion"_s);
        QVERIFY(question);
        QVERIFY(question->text().contains(u"ci-pipeline"_s));
        question->findChild<QPushButton *>(u"revokeButton"_s)->click();
        QTRY_COMPARE(cell(*view.model(), 0, VirtualKeysModel::Status), VirtualKeysModel::tr("Revoked"));
        QCOMPARE(chat(f.port, secret), 401);
        QVERIFY(view.statusLabel()->text().contains(u"revoked"_s));
        QVERIFY(!view.findChild<QPushButton *>(u"revokeKeyButton"_s)->isEnabled());
        QVERIFY(!view.openEditDialog()); // a revoked key cannot be changed

        // Hidden, the view stops asking.
        view.hide();
        QVERIFY(!view.isPolling());
    }

    void linkWithoutKeysShowsWhy()
    {
        NoKeysLink fleet;
        KeysView view;
        view.resize(900, 600);
        view.setLink(&fleet);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTRY_VERIFY(view.messageLabel()->text().contains(u"one gateway at a time"_s));
        QVERIFY(!view.isShowingTable());
        QVERIFY(view.statusLabel()->property("failed").toBool());
        QVERIFY(view.statusLabel()->text().contains(u"one gateway at a time"_s));
        QVERIFY(!view.findChild<QPushButton *>(u"newKeyButton"_s)->isEnabled());
        QVERIFY(!view.findChild<QPushButton *>(u"emptyNewKeyButton"_s)->isVisible());

        // Another link: the reason goes, the keys come; the old link is no longer heard.
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s}));
        QVERIFY(f.gateway.keys().create(named(u"svc"_s)));
        link::LocalGatewayLink local(&f.gateway);
        view.setLink(&local);
        QTRY_VERIFY(view.isShowingTable());
        QCOMPARE(cell(*view.model(), 0, VirtualKeysModel::Name), u"svc"_s);
        QVERIFY(!view.statusLabel()->property("failed").toBool());
        QSignalSpy refused(&fleet, &link::GatewayLink::commandFinished);
        fleet.fetchKeys();
        QVERIFY(refused.wait(5000));
        QVERIFY(!view.statusLabel()->property("failed").toBool());
        QVERIFY(view.isShowingTable());
    }

    void oneListingInFlightAtMost()
    {
        SlowLink slow;
        KeysView view;
        view.setLink(&slow);
        QCOMPARE(slow.asked, 0); // not on screen: not asked
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCOMPARE(slow.asked, 1);
        auto *timer = view.findChild<QTimer *>();
        QVERIFY(timer && timer->isActive());
        QSignalSpy ticks(timer, &QTimer::timeout);
        QVERIFY(ticks.wait(5000));
        QCOMPARE(slow.asked, 1); // the first is still unanswered
        view.hide();
        QVERIFY(!view.isPolling());
        view.show();
        QCOMPARE(slow.asked, 1);
        slow.answer({});
        QTRY_VERIFY(view.messageLabel()->text().contains(u"No virtual keys yet"_s));
        QTRY_COMPARE_WITH_TIMEOUT(slow.asked, 2, 5000);
    }

    void mainWindowHasAKeysTab()
    {
        GatewayFixture f;
        QVERIFY(f.start({u"a"_s}));
        MainWindow window(&f.gateway);
        auto *tabs = window.findChild<QTabWidget *>(u"views"_s);
        QVERIFY(tabs);
        const int at = tabs->indexOf(window.keysView());
        QCOMPARE(at, int(MainWindow::View::Keys));
        QCOMPARE(tabs->tabText(at), MainWindow::tr("&Keys"));
        QCOMPARE(tabs->tabText(at - 1), MainWindow::tr("&Requests"));
        QCOMPARE(window.keysView()->gatewayLink(), window.gatewayLink());
        // Every mnemonic of the tabs is its own.
        QSet<QChar> mnemonics;
        for (int i = 0; i < tabs->count(); ++i) {
            const QString text = tabs->tabText(i);
            const qsizetype amp = text.indexOf(u'&');
            QVERIFY(amp >= 0);
            const QChar c = text.at(amp + 1).toLower();
            QVERIFY2(!mnemonics.contains(c), qPrintable(text));
            mnemonics.insert(c);
        }
        window.showView(MainWindow::View::Keys);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_VERIFY(window.keysView()->messageLabel()->text().contains(u"No virtual keys yet"_s));
        QVERIFY(window.bannerText().isEmpty());
    }
};

QTEST_MAIN(TestKeysView)
#include "tst_keysview.moc"
