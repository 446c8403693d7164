// Renders the Connect dialog (a recent list, an address typed, the key masked; on a machine without a
// secret store, as here offscreen, "remember" off with the reason) and the Gateways view over two real
// gateways of this process in front of the same three simulated vLLM nodes, as two replicas of a fleet:
// the second runs another config (drift), one node is faulted, requests flow through both.
//   fleet_screenshot docs/screenshots/connect-dialog.png docs/screenshots/gateways-view.png
// Runs offscreen by default; takes about 20 s (traffic, then the gateways' health checks notice the fault).
#include "connect/connectdialog.h"
#include "connect/credentialstore.h"
#include "connect/recentgateways.h"
#include "fleet/gatewaysview.h"
#include "gateway.h"
#include "link/localgatewaylink.h"
#include "simnode/simnode.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QLineEdit>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSettings>
#include <QTableView>
#include <QTemporaryDir>

#include <cstdio>
#include <memory>
#include <vector>

using namespace switchyard;
using namespace Qt::Literals::StringLiterals;

namespace {

void spin(int ms)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
}

bool save(QWidget &w, const QString &path)
{
    if (!w.grab().save(path)) {
        std::fprintf(stderr, "could not write %s\n", qPrintable(path));
        return false;
    }
    std::printf("wrote %s\n", qPrintable(path));
    return true;
}

config::ProviderConfig provider(const QString &name, const QString &baseUrl, double weight)
{
    config::ProviderConfig p;
    p.name = name;
    config::KeyConfig k;
    k.name = name + u"-key"_s;
    k.value = u"dummy"_s;
    k.models = {u"nemotron-3-super"_s};
    k.weight = weight;
    p.keys.push_back(k);
    p.network.baseUrl = baseUrl;
    return p;
}

// Keeps a few requests in flight through a gateway, one after another.
void keepBusy(QNetworkAccessManager *nam, const QString &url, int *left)
{
    if (--*left <= 0)
        return;
    QNetworkRequest req(QUrl(url + u"/v1/chat/completions"_s));
    req.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
    QNetworkReply *reply = nam->post(
        req, QByteArray(R"({"model":"nemotron-3-super","max_tokens":24,"messages":[{"role":"user","content":"Hi"}]})"));
    QObject::connect(reply, &QNetworkReply::finished, nam, [nam, url, left, reply] {
        reply->deleteLater();
        keepBusy(nam, url, left);
    });
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const QString dialogPng = argc > 1 ? QString::fromLocal8Bit(argv[1]) : u"connect-dialog.png"_s;
    const QString viewPng = argc > 2 ? QString::fromLocal8Bit(argv[2]) : u"gateways-view.png"_s;

    // The Connect dialog, with recent gateways in settings of its own.
    QTemporaryDir dir;
    QSettings settings(dir.filePath(u"recent.ini"_s), QSettings::IniFormat);
    ui::RecentGateways recent(&settings);
    recent.add(u"http://127.0.0.1:8080"_s);
    recent.add(u"https://gw2.dgx.lan:8443"_s);
    recent.add(u"https://gw1.dgx.lan:8443"_s);
    ui::CredentialStore credentials;
    {
        ui::ConnectDialog dialog(&credentials, &recent);
        dialog.setUrl(u"https://gw1.dgx.lan:8443"_s);
        if (auto *key = dialog.findChild<QLineEdit *>(u"keyEdit"_s))
            key->setText(u"sk-admin-0123456789"_s);
        dialog.show();
        QElapsedTimer t;
        t.start();
        while (credentials.availability() == ui::CredentialStore::Availability::Unknown && t.elapsed() < 20000)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        dialog.adjustSize();
        spin(200);
        if (!save(dialog, dialogPng))
            return 1;
    }

    // Three simulated nodes; two gateways in front of them, the second weighing vllm-server1 higher.
    std::vector<std::unique_ptr<sim::SimNode>> nodes;
    for (int i = 1; i <= 3; ++i) {
        sim::SimNodeOptions o;
        o.name = u"vllm-server"_s + QString::number(i);
        o.models = {u"nemotron-3-super"_s};
        o.performance.tokensPerSecond = 300;
        o.performance.ttftBaseMs = 40;
        o.text.seed = 3 + i;
        auto node = std::make_unique<sim::SimNode>(o);
        if (!node->start()) {
            std::fprintf(stderr, "node failed to start\n");
            return 1;
        }
        nodes.push_back(std::move(node));
    }
    config::GatewayConfig cfg;
    for (int i = 0; i < 3; ++i)
        cfg.providers.push_back(provider(nodes[size_t(i)]->options().name, nodes[size_t(i)]->baseUrl(), 1));
    cfg.settings.listenPort = 0;
    cfg.settings.workerThreads = 1;
    cfg.settings.healthCheckIntervalMs = 1000;
    Gateway first, second;
    first.applyConfig(cfg);
    cfg.providers[0].keys[0].weight = 2;
    second.applyConfig(cfg);
    if (!first.start() || !second.start()) {
        std::fprintf(stderr, "gateway failed to start\n");
        return 1;
    }
    link::LocalGatewayLink firstLink(&first), secondLink(&second);
    firstLink.start();
    secondLink.start();

    ui::GatewaysView view;
    view.resize(1240, 560);
    view.addGateway(&firstLink);
    view.addGateway(&secondLink);
    view.show();

    QNetworkAccessManager nam;
    int leftFirst = 400, leftSecond = 400;
    for (int i = 0; i < 3; ++i) {
        keepBusy(&nam, first.listenUrl(), &leftFirst);
        keepBusy(&nam, second.listenUrl(), &leftSecond);
    }
    spin(6000);
    nodes[2]->setFault(sim::FaultMode::Refuse);
    spin(8000);
    spin(300);
    if (qEnvironmentVariableIsSet("FLEET_DEBUG")) {
        auto *h = view.gatewaysTable()->horizontalHeader();
        std::printf("len %d vp %d mode %d count %d stretch %d\n", h->length(), view.gatewaysTable()->viewport()->width(),
                    int(h->sectionResizeMode(1)), h->count(), h->stretchSectionCount());
    }
    const bool ok = save(view, viewPng);
    leftFirst = leftSecond = 0;
    return ok ? 0 : 1;
}
