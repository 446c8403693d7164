// Not a test: renders docs/screenshots/benchmark.png. Starts the demo (two simulated DGX Spark nodes at
// the article's speeds and the gateway over them), runs the Benchmark view's default suite (the article's
// tables + sweep)
// offscreen, grabs the view and prints the Markdown tables, which docs/BENCHMARK.md quotes.
//
//   QT_QPA_PLATFORM=offscreen benchmark_screenshot docs/screenshots/benchmark.png [--quick] [--compare]
//       [--history FILE] [--no-run]
// --history keeps the runs in FILE (default: a temporary file); --no-run only shows what FILE holds;
// --only LABEL measures only the targets whose label starts with LABEL; --compare shows the newest run
// compared with the one before it; --slow NODE makes that demo node twice as slow (fault "slow") first.
// --multiturn STRATEGIES runs the multi-turn page against the gateway's pool once per strategy (a
// comma-separated list, each applied to the gateway as its default strategy) and prints its Markdown.
#include "bench/benchmarkview.h"
#include "bench/benchformat.h"
#include "bench/benchtargets.h"
#include "bench/multiturnformat.h"
#include "bench/multiturnpanel.h"
#include "config/configloader.h"
#include "demofleet.h"
#include "gateway.h"

#include <QApplication>
#include <QEventLoop>
#include <QTemporaryDir>
#include <QTimer>
#include <cstdio>

using namespace switchyard;
using namespace Qt::Literals::StringLiterals;

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    const QString out = args.size() > 1 && !args[1].startsWith(u"--"_s) ? args[1] : u"benchmark.png"_s;
    const bool quick = args.contains(u"--quick"_s);
    const bool compare = args.contains(u"--compare"_s);
    const bool noRun = args.contains(u"--no-run"_s);
    const qsizetype historyArg = args.indexOf(u"--history"_s);
    const QString historyFile = historyArg > 0 && historyArg + 1 < args.size() ? args[historyArg + 1] : QString();

    app::DemoFleet demo;
    const auto json = demo.start();
    if (!json) {
        std::fprintf(stderr, "%s\n", qPrintable(json.error()));
        return 1;
    }
    auto cfg = config::parseConfig(*json);
    if (!cfg) {
        std::fprintf(stderr, "demo config rejected\n");
        return 1;
    }
    cfg->settings.listenPort = 0;
    Gateway gateway;
    gateway.applyConfig(*cfg);
    if (!gateway.start()) {
        std::fprintf(stderr, "gateway did not start\n");
        return 1;
    }

    const qsizetype slowArg = args.indexOf(u"--slow"_s);
    if (slowArg > 0 && slowArg + 1 < args.size()) {
        sim::SimNode *node = demo.node(args[slowArg + 1]);
        if (!node) {
            std::fprintf(stderr, "no demo node %s\n", qPrintable(args[slowArg + 1]));
            return 1;
        }
        sim::FaultParams params;
        params.slowFactor = 2.0;
        node->setFault(sim::FaultMode::Slow, params);
    }

    QTemporaryDir dir;
    ui::BenchmarkView view(&gateway);
    view.setHistoryPath(historyFile.isEmpty() ? dir.filePath(u"runs.json"_s) : historyFile);
    view.resize(1440, 960);
    view.show();

    auto runOnce = [&](const bench::BenchmarkPlan &plan) {
        QEventLoop loop;
        QObject::connect(&view, &ui::BenchmarkView::runFinished, &loop, &QEventLoop::quit);
        QObject::connect(&view, &ui::BenchmarkView::runCancelled, &loop, &QEventLoop::quit);
        if (!view.startRun(plan))
            return false;
        loop.exec();
        return true;
    };
    const qsizetype multiArg = args.indexOf(u"--multiturn"_s);
    if (multiArg > 0 && multiArg + 1 < args.size()) {
        view.setCheckedTargets({view.targetLabels().filter(u"gateway"_s).value(0)});
        view.showMultiTurn();
        ui::MultiTurnPanel *panel = view.multiTurnPanel();
        for (const QString &strategy : args[multiArg + 1].split(u',', Qt::SkipEmptyParts)) {
            auto withStrategy = config::parseConfig(bench::configWithDefaultStrategy(*json, strategy));
            if (!withStrategy) {
                std::fprintf(stderr, "%s: %s\n", qPrintable(strategy), qPrintable(withStrategy.error().first().toString()));
                return 1;
            }
            withStrategy->settings.listenPort = 0;
            gateway.applyConfig(*withStrategy);
            QEventLoop loop;
            QObject::connect(panel, &ui::MultiTurnPanel::runningChanged, &loop, [&](bool running) {
                if (!running)
                    loop.quit();
            });
            if (!panel->startRun())
                return 1;
            loop.exec();
        }
        QEventLoop settle;
        QTimer::singleShot(300, &settle, &QEventLoop::quit);
        settle.exec();
        if (!view.grab().save(out))
            return 1;
        const QByteArray md = panel->markdown().toUtf8();
        std::fwrite(md.constData(), 1, size_t(md.size()), stdout);
        gateway.stopNow();
        return 0;
    }
    bench::BenchmarkPlan plan = view.currentPlan();
    if (quick) {
        plan.repetitions = 1;
        plan.sweepLevels = {1, 2, 4, 8};
    }
    const qsizetype onlyArg = args.indexOf(u"--only"_s);
    if (onlyArg > 0 && onlyArg + 1 < args.size()) {
        plan.targets.removeIf([&](const bench::Target &t) { return !t.label.startsWith(args[onlyArg + 1]); });
    }
    if (!noRun && !runOnce(plan))
        return 1;
    if (compare && view.runs().size() > 1)
        view.showRun(view.runs()[0].id, view.runs()[1].id);
    QEventLoop settle;
    QTimer::singleShot(300, &settle, &QEventLoop::quit);
    settle.exec();
    if (!view.grab().save(out)) {
        std::fprintf(stderr, "cannot write %s\n", qPrintable(out));
        return 1;
    }
    const QByteArray md = view.shownMarkdown().toUtf8();
    std::fwrite(md.constData(), 1, size_t(md.size()), stdout);
    gateway.stopNow();
    return 0;
}
