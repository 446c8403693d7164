// Not a test: renders the Nodes view's "Cache hits" column and the Charts view's prefix-cache chart
// from the demo with multi-turn traffic through the gateway (the nodes' own prefix-cache counters, as
// the gateway reads them). Writes <out>-nodes.png and <out>-charts.png.
//
//   QT_QPA_PLATFORM=offscreen prefixcache_screenshot /tmp/prefix
#include "bench/multiturnrunner.h"
#include "bench/benchtargets.h"
#include "chartsview.h"
#include "config/configloader.h"
#include "demofleet.h"
#include "gateway.h"
#include "link/localgatewaylink.h"
#include "nodesview.h"

#include <QApplication>
#include <QEventLoop>
#include <QTimer>
#include <cstdio>

using namespace switchyard;
using namespace Qt::Literals::StringLiterals;

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    const QString out = app.arguments().value(1, u"prefixcache"_s);
    app::DemoFleet demo;
    const auto json = demo.start();
    auto cfg = json ? config::parseConfig(*json) : decltype(config::parseConfig({}))(unexpected(config::ConfigProblems{}));
    if (!cfg)
        return 1;
    cfg->settings.listenPort = 0;
    cfg->settings.healthCheckIntervalMs = 1000;
    Gateway gateway;
    gateway.applyConfig(*cfg);
    if (!gateway.start())
        return 1;
    link::LocalGatewayLink link(&gateway);
    ui::NodesView nodes;
    ui::ChartsView charts;
    QObject::connect(&link, &link::GatewayLink::statusChanged, &nodes, &ui::NodesView::setStatus);
    charts.setLink(&link);
    link.start();
    nodes.resize(1400, 420);
    charts.resize(1400, 640);
    nodes.show();
    charts.show();

    bench::MultiTurnPlan plan;
    plan.target = *bench::poolTarget(*cfg, gateway.listenUrl());
    plan.conversations = 6;
    plan.turns = 4;
    plan.concurrency = 3;
    plan.maxTokens = 24;
    QEventLoop loop;
    bench::MultiTurnRunner runner;
    QObject::connect(&runner, &bench::MultiTurnRunner::finished, &loop, &QEventLoop::quit);
    if (!runner.start(plan))
        return 1;
    loop.exec();
    QEventLoop settle;
    QTimer::singleShot(2500, &settle, &QEventLoop::quit); // a health check after the last request
    settle.exec();
    charts.refreshNow();
    const bool ok = nodes.grab().save(out + u"-nodes.png"_s) && charts.grab().save(out + u"-charts.png"_s);
    gateway.stopNow();
    return ok ? 0 : 1;
}
