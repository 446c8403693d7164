// Renders the panel's Keys tab over a demo (two simulated nodes as the demo's, the gateway running): four virtual
// keys with limits, made through the gateway's registry as the management API makes them, used by real
// requests with their secrets (so their usage is what the nodes reported), one of them revoked, a few
// requests still in flight; then the "New key…" dialog filled in and accepted, and the secret shown once.
//   keys_screenshot docs/screenshots/keys.png docs/screenshots/keys-secret.png
// Runs offscreen by default, in about 15 s. LANG=zh_CN.UTF-8 renders the Chinese panel.
#include "gateway.h"
#include "keys/keydialog.h"
#include "keys/keysmodel.h"
#include "keys/keysview.h"
#include "keys/secretdialog.h"
#include "language.h"
#include "mainwindow.h"
#include "simnode/simnode.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPainter>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>

#include <cstdio>
#include <memory>
#include <vector>

using namespace switchyard;
using namespace switchyard::ui;
using namespace Qt::Literals::StringLiterals;

namespace {
void settle(int ms)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
}

template<typename Done>
bool waitFor(Done done, int ms)
{
    QElapsedTimer t;
    t.start();
    while (!done() && t.elapsed() < ms)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    return done();
}

bool save(const QPixmap &pixmap, const QString &path)
{
    if (!pixmap.save(path)) {
        std::fprintf(stderr, "cannot write %s\n", qPrintable(path));
        return false;
    }
    std::printf("wrote %s\n", qPrintable(path));
    return true;
}

// Sends `count` requests with a key, `parallel` at a time; *left counts the ones not answered yet.
void send(QNetworkAccessManager *nam, const QUrl &url, const QString &secret, int maxTokens, int count, int *left)
{
    for (int i = 0; i < count; ++i) {
        QNetworkRequest req(url);
        req.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
        req.setRawHeader("Authorization", "Bearer " + secret.toLatin1());
        const QByteArray body = R"({"model":"nemotron-3-super","max_tokens":)" + QByteArray::number(maxTokens)
                                + R"(,"messages":[{"role":"user","content":"Summarise the last build's failures."}]})";
        ++*left;
        QNetworkReply *reply = nam->post(req, body);
        QObject::connect(reply, &QNetworkReply::finished, nam, [reply, left] {
            --*left;
            reply->deleteLater();
        });
    }
}
} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true); // fresh window settings, not the user's
    QSettings().clear();
    i18n::installTranslators(&app, i18n::Language::System);
    const QString viewPng = argc > 1 ? QString::fromLocal8Bit(argv[1]) : u"keys.png"_s;
    const QString secretPng = argc > 2 ? QString::fromLocal8Bit(argv[2]) : u"keys-secret.png"_s;

    // The demo's two nodes, faster than the demo's 15 tokens/s, so the usage is there in seconds.
    std::vector<std::unique_ptr<sim::SimNode>> nodes;
    std::vector<sim::SimNode *> demoNodes;
    config::GatewayConfig cfg;
    for (int i = 1; i <= 2; ++i) {
        sim::SimNodeOptions o;
        o.name = u"vllm-server"_s + QString::number(i);
        o.models = {u"nemotron-3-super"_s};
        o.performance.tokensPerSecond = 300;
        o.text.meanOutputTokens = 500; // answers of a second or two: some are in flight when the picture is taken
        o.performance.ttftBaseMs = 30;
        o.text.seed = 10 + i;
        auto node = std::make_unique<sim::SimNode>(o);
        if (!node->start()) {
            std::fprintf(stderr, "node failed to start\n");
            return 1;
        }
        config::ProviderConfig p;
        p.name = o.name;
        config::KeyConfig k;
        k.name = u"s"_s + QString::number(i) + u"-key"_s;
        k.value = u"dummy"_s;
        k.models = {u"nemotron-3-super"_s};
        p.keys.push_back(k);
        p.network.baseUrl = node->baseUrl();
        cfg.providers.push_back(p);
        demoNodes.push_back(node.get());
        nodes.push_back(std::move(node));
    }
    cfg.settings.listenPort = 0;
    Gateway gateway;
    MainWindow window(&gateway);
    window.setDemoNodes(demoNodes);
    window.applyConfig(cfg, QObject::tr("built-in demo"));
    if (!window.startGateway()) {
        std::fprintf(stderr, "the gateway did not start\n");
        return 1;
    }
    const QUrl chat(gateway.listenUrl() + u"/v1/chat/completions"_s);

    // Four keys, as an operator would make them.
    const qint64 day = 24 * 3600 * 1000;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    struct Made
    {
        QString secret;
        QString id;
    };
    auto make = [&](const QString &name, auto tweak) -> Made {
        keys::KeyChange c;
        c.name = name;
        tweak(c);
        auto made = gateway.keys().create(c);
        if (!made)
            return {};
        return {made->secret, made->key.id};
    };
    const Made ci = make(u"ci-pipeline"_s, [&](keys::KeyChange &c) {
        c.models = QStringList{u"nemotron-3-super"_s};
        c.requestsPerMinute = 60;
        c.tokensPerDay = 200'000;
        c.maxConcurrent = 4;
        c.expiresMs = now + 90 * day;
    });
    const Made alice = make(u"notebook-alice"_s, [&](keys::KeyChange &c) {
        c.requestsPerMinute = 20;
        c.tokensPerMinute = 50'000;
    });
    const Made batch = make(u"batch-eval"_s, [&](keys::KeyChange &c) {
        c.providers = QStringList{u"vllm-server2"_s};
        c.tokensPerDay = 1'000'000;
        c.maxConcurrent = 16;
    });
    const Made old = make(u"old-dashboard"_s, [](keys::KeyChange &) {});
    if (ci.secret.isEmpty() || alice.secret.isEmpty() || batch.secret.isEmpty() || old.secret.isEmpty()) {
        std::fprintf(stderr, "keys were not made\n");
        return 1;
    }

    // Usage: answered requests for each, then the old dashboard's key revoked.
    QNetworkAccessManager nam;
    int left = 0;
    send(&nam, chat, ci.secret, 120, 12, &left);
    send(&nam, chat, alice.secret, 60, 5, &left);
    send(&nam, chat, batch.secret, 240, 8, &left);
    send(&nam, chat, old.secret, 40, 3, &left);
    if (!waitFor([&] { return left == 0; }, 60'000)) {
        std::fprintf(stderr, "requests did not finish\n");
        return 1;
    }
    gateway.keys().revoke(old.id);

    window.resize(1280, 800);
    window.show();
    window.showView(MainWindow::View::Keys);
    KeysView *view = window.keysView();
    // A few long requests in flight while the picture is taken.
    send(&nam, chat, batch.secret, 2000, 4, &left);
    send(&nam, chat, ci.secret, 1500, 1, &left);
    settle(500);
    waitFor([&] { return view->model()->rowCount() == 4; }, 10'000);
    // The next listing, with the requests in flight counted.
    waitFor([&] {
        qint64 inFlight = 0;
        for (const keys::KeyListing &l : view->model()->keys())
            inFlight += l.usage.inFlight;
        return inFlight >= 2;
    }, 10'000);
    view->table()->selectRow(0);
    view->fitColumns();
    settle(300);
    if (!save(window.grab(), viewPng))
        return 1;

    // "New key…": filled in and accepted; the secret, once.
    KeyDialog *dialog = view->openNewKeyDialog();
    dialog->nameEdit()->setText(u"support-bot"_s);
    dialog->modelsEdit()->setText(u"nemotron-3-super"_s);
    dialog->requestsPerMinuteBox()->setValue(30);
    dialog->tokensPerDayBox()->setValue(100'000);
    dialog->maxConcurrentBox()->setValue(2);
    dialog->accept();
    if (!waitFor([&] { return view->secretDialog() != nullptr; }, 5000)) {
        std::fprintf(stderr, "no secret dialog\n");
        return 1;
    }
    SecretDialog *secret = view->secretDialog();
    secret->adjustSize();
    settle(300);
    // The window with the dialog over it, as the operator sees it (offscreen, each is grabbed apart).
    QPixmap shot = window.grab();
    {
        QPainter p(&shot);
        p.fillRect(shot.rect(), QColor(0, 0, 0, 70));
        const QPixmap d = secret->grab();
        const QPoint at((shot.width() - d.width()) / 2, (shot.height() - d.height()) / 3);
        p.fillRect(QRect(at, d.size()).adjusted(-1, -1, 1, 1), QColor(90, 90, 90));
        p.drawPixmap(at, d);
    }
    if (!save(shot, secretPng))
        return 1;
    secret->copyButton()->click(); // so closing does not ask
    secret->accept();
    waitFor([&] { return left == 0; }, 30'000);
    return 0;
}
