// switchyard-soak: an operator's bad day, compressed. A headless `switchyard` in front of simulated vLLM
// nodes (separate processes), 8 concurrent clients (6 non-streamed: chat, completions, embeddings; 2
// streamed), while the nodes are faulted in turn — every fault mode the simulated node has, a node
// stopped (connection refused) and killed, each restarted on its port — and the config is re-applied
// with other weights through PUT /api/config, reloaded by SIGHUP and by an edit of its file.
//   switchyard-soak --duration 40 --switchyard build/app/switchyard --simnode build/app/switchyard-simnode
// Prints what clients saw (docs/SECURITY.md, "Soak"); exits 1 when a non-streamed request failed or a
// stream broke without an error event.

#include "routing/routingtable.h"
#include "soakclient.h"
#include "soakfleet.h"
#include "soaktally.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>
#include <functional>
#include <memory>

using namespace Qt::Literals::StringLiterals;
using namespace switchyard;
using namespace switchyard::soak;

namespace {

// One fault of the cycle: what the node is told (or done to it), then it is healed.
struct Fault
{
    const char *name;
    QByteArray json; // POST /control/fault body; empty for stop/kill
    bool stop = false;
    bool kill = false;
};

const std::vector<Fault> &faultCycle()
{
    static const std::vector<Fault> cycle = {
        {"error500", R"({"mode":"error500","error_fraction":1})"},
        {"hang", R"({"mode":"hang"})"},
        {"drop-stream", R"({"mode":"drop-stream","drop_after_tokens":3})"},
        {"stop+restart", {}, true, false},
        {"slow", R"({"mode":"slow","slow_factor":4})"},
        {"dead", R"({"mode":"dead"})"},
        {"refuse", {}}, // listens again by itself after the fault's time (refuse_ms)
        {"garbage", R"({"mode":"garbage"})"},
        {"kill -9+restart", {}, false, true},
    };
    return cycle;
}

QString fmtMs(qint64 v)
{
    return v < 0 ? u"–"_s : QString::number(v) % u" ms"_s;
}

void printMap(const char *title, const QMap<QString, int> &m)
{
    if (m.isEmpty())
        return;
    std::printf("\n%s:\n", title);
    for (auto it = m.begin(); it != m.end(); ++it)
        std::printf("  %6d  %s\n", it.value(), qPrintable(it.key()));
}

struct SoakOptions
{
    QString switchyardBin;
    QString simnodeBin;
    int seconds = 40;
    int faultMs = 3000;
    int gapMs = 1500;
    int nodeCount = 2;
    int restartEveryS = 0;
};

SoakOptions parseOptions(const QCoreApplication &app)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(u"Soak test of the gateway under faults, reloads and restarts."_s);
    parser.addHelpOption();
    const QString here = QCoreApplication::applicationDirPath();
    QCommandLineOption duration(u"duration"_s, u"Seconds of traffic (default 40)."_s, u"s"_s, u"40"_s);
    QCommandLineOption switchyardBin(u"switchyard"_s, u"The switchyard binary."_s, u"path"_s,
                                     here + u"/../../app/switchyard"_s);
    QCommandLineOption simnodeBin(u"simnode"_s, u"The switchyard-simnode binary."_s, u"path"_s,
                                  here + u"/../../app/switchyard-simnode"_s);
    QCommandLineOption nodesOpt(u"nodes"_s, u"Simulated nodes (default 2)."_s, u"n"_s, u"2"_s);
    QCommandLineOption faultMsOpt(u"fault-ms"_s, u"How long each fault lasts (default 3000)."_s, u"ms"_s,
                                  u"3000"_s);
    QCommandLineOption gapMsOpt(u"gap-ms"_s, u"Healthy time between two faults (default 1500)."_s, u"ms"_s,
                                u"1500"_s);
    QCommandLineOption restartOpt(
        u"restart-gateway-every"_s,
        u"Restart the gateway (SIGTERM, then start it again on its port, as systemctl "
        u"restart does) every s seconds; the clients retry refused connections. 0: never "
        u"(default)."_s,
        u"s"_s, u"0"_s);
    parser.addOptions({duration, switchyardBin, simnodeBin, nodesOpt, faultMsOpt, gapMsOpt, restartOpt});
    parser.process(app);
    SoakOptions o;
    o.switchyardBin = parser.value(switchyardBin);
    o.simnodeBin = parser.value(simnodeBin);
    o.seconds = std::max(5, parser.value(duration).toInt());
    o.faultMs = std::max(500, parser.value(faultMsOpt).toInt());
    o.gapMs = std::max(0, parser.value(gapMsOpt).toInt());
    o.nodeCount = std::clamp(parser.value(nodesOpt).toInt(), 2, 8);
    o.restartEveryS = std::max(0, parser.value(restartOpt).toInt());
    return o;
}

// What the run saw of the gateway besides the clients' tally: its resources and what was done to it.
struct SoakRecord
{
    struct TimedSample
    {
        qint64 second;
        ProcessResources r;
    };
    ProcessResources first, last, peak;
    std::vector<TimedSample> overTime; // ten samples spread over the run (flat after warm-up, or a leak)
    QStringList faultsDone;
    int sighups = 0;
    int fileEdits = 0;
    qint64 elapsedS = 0;
};

// Prints the report's table and details; true when the gateway passed.
bool printReport(const SoakOptions &options, const SoakTally &tally, const SoakFleet &fleet,
                 const SoakRecord &run)
{
    const int nodeCount = options.nodeCount;
    const int restartEveryS = options.restartEveryS;
    const qint64 elapsedS = run.elapsedS;
    const ProcessResources &first = run.first, &last = run.last, &peak = run.peak;
    const QStringList &faultsDone = run.faultsDone;
    const int sighups = run.sighups, fileEdits = run.fileEdits;
    const int failedNonStreamed = SoakTally::sum(tally.failedNonStreamed);
    const int failedStreamed = SoakTally::sum(tally.failedStreamed);
    const int broken = SoakTally::sum(tally.brokenStreams);
    QStringList perKind;
    for (auto it = tally.requests.begin(); it != tally.requests.end(); ++it)
        perKind << it.key() % u' ' % QString::number(it.value());
    std::printf("\n| soak (%lld s, %d nodes, 8 clients) | result |\n| --- | --- |\n", elapsedS, nodeCount);
    std::printf("| requests | %d (%s) |\n", tally.total(), qPrintable(perKind.join(u", "_s)));
    std::printf("| failed non-streamed requests | %d |\n", failedNonStreamed);
    std::printf("| failed streamed requests (error status before the stream) | %d |\n", failedStreamed);
    std::printf("| streams ended by an error event (their node failed mid-stream) | %d |\n",
                SoakTally::sum(tally.streamErrorEvents));
    std::printf("| streams broken without an error event | %d |\n", broken);
    std::printf("| latency non-streamed p50 / p95 / p99 | %s / %s / %s |\n",
                qPrintable(fmtMs(percentile(tally.latencyNonStreamedMs, 50))),
                qPrintable(fmtMs(percentile(tally.latencyNonStreamedMs, 95))),
                qPrintable(fmtMs(percentile(tally.latencyNonStreamedMs, 99))));
    std::printf("| latency streamed (whole stream) p50 / p95 / p99 | %s / %s / %s |\n",
                qPrintable(fmtMs(percentile(tally.latencyStreamedMs, 50))),
                qPrintable(fmtMs(percentile(tally.latencyStreamedMs, 95))),
                qPrintable(fmtMs(percentile(tally.latencyStreamedMs, 99))));
    std::printf("| gateway RSS start → end (peak) | %lld → %lld KiB (%lld) |\n", first.rssKiB, last.rssKiB,
                peak.rssKiB);
    std::printf("| gateway open fds start → end (peak) | %d → %d (%d) |\n", first.openFds, last.openFds,
                peak.openFds);
    std::printf("| faults | %lld: %s |\n", qint64(faultsDone.size()), qPrintable(faultsDone.join(u", "_s)));
    std::printf(
        "| config reloads | %d PUT /api/config applied (%d refused, %d skipped while restarting), %d SIGHUP, "
        "%d file edits |\n",
        fleet.configPutsOk, fleet.configPutsFailed, fleet.configPutsSkipped, sighups, fileEdits);
    std::printf("| gateway at the end | %s |\n", qPrintable(fleet.gatewayExit));
    std::printf("| client resends (gateway closed an idle keep-alive) | %d |\n",
                tally.resentOnFreshConnection);
    if (restartEveryS > 0) {
        std::printf("| gateway restarts (SIGTERM, start again) | %d, %d not clean%s |\n",
                    fleet.gatewayRestarts, fleet.gatewayRestartsUnclean,
                    fleet.gatewayRestartProblems.isEmpty()
                        ? ""
                        : qPrintable(u": "_s % fleet.gatewayRestartProblems.join(u", "_s)));
        std::printf("| client retries on a refused connection (gateway restarting) | %d |\n",
                    tally.retriedWhileRefused);
    }
    std::printf("\ngateway RSS / open fds over time:");
    for (const SoakRecord::TimedSample &t : run.overTime)
        std::printf(" %llds %lld KiB/%d", qint64(t.second), t.r.rssKiB, t.r.openFds);
    std::printf("\n");
    printMap("failed non-streamed requests", tally.failedNonStreamed);
    printMap("failed streamed requests", tally.failedStreamed);
    printMap("streams ended by an error event", tally.streamErrorEvents);
    printMap("streams broken without an error event", tally.brokenStreams);
    if (fleet.controlFailures > 0)
        std::printf("\n(%d control requests to the nodes failed)\n", fleet.controlFailures);
    const bool ok = failedNonStreamed == 0 && broken == 0 && fleet.configPutsFailed == 0 &&
                    fleet.gatewayExitedCleanly && fleet.gatewayRestartsUnclean == 0 &&
                    fleet.gatewayRestartProblems.isEmpty();
    if (!ok)
        std::printf("\nthe gateway's log, last lines:\n%s\n", qPrintable(fleet.gatewayLogTail(30)));
    return ok;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const SoakOptions options = parseOptions(app);
    const int seconds = options.seconds, faultMs = options.faultMs, gapMs = options.gapMs;
    const int nodeCount = options.nodeCount, restartEveryS = options.restartEveryS;

    QTemporaryDir work;
    if (!work.isValid()) {
        std::fprintf(stderr, "soak: no temporary directory\n");
        return 2;
    }
    SoakFleet fleet(options.switchyardBin, options.simnodeBin, work.path(), nodeCount);
    if (!fleet.start())
        return 2;
    const qint64 pid = fleet.gatewayPid();
    std::printf("soak: gateway pid %lld on 127.0.0.1:%u, %d nodes, %d s\n", pid, fleet.gatewayPort(),
                nodeCount, seconds);
    std::fflush(stdout);

    SoakTally tally;
    const auto endpoint = routing::parseEndpoint(u"http://127.0.0.1:%1"_s.arg(fleet.gatewayPort()));
    std::vector<std::unique_ptr<SoakClient>> clients;
    using K = RequestKind;
    // 6 non-streamed clients (every kind, in different orders) and 2 streamed ones.
    const std::vector<std::vector<K>> mixes = {{K::Chat, K::Completion, K::Embedding},
                                               {K::Completion, K::Embedding, K::Chat},
                                               {K::Embedding, K::Chat, K::Completion},
                                               {K::Chat},
                                               {K::Completion},
                                               {K::Chat, K::Embedding},
                                               {K::ChatStream, K::CompletionStream},
                                               {K::CompletionStream, K::ChatStream}};
    for (const auto &mix : mixes) {
        clients.push_back(std::make_unique<SoakClient>(*endpoint, QByteArray(SoakFleet::Model), mix, &tally));
        clients.back()->setRetryRefused(restartEveryS > 0);
    }

    // Resources at start: after the clients' connections are open and a second of traffic went through.
    SoakRecord run;
    ProcessResources &first = run.first, &last = run.last, &peak = run.peak;
    auto sample = [&] {
        const ProcessResources r = resourcesOf(fleet.gatewayPid()); // a restarted gateway has a new pid
        peak.rssKiB = std::max(peak.rssKiB, r.rssKiB);
        peak.openFds = std::max(peak.openFds, r.openFds);
        return r;
    };

    QStringList &faultsDone = run.faultsDone;
    int &sighups = run.sighups, &fileEdits = run.fileEdits;
    size_t faultIndex = 0;
    bool running = true;
    auto randomWeights = [&] {
        std::vector<int> w;
        for (int i = 0; i < nodeCount; ++i)
            w.push_back(1 + int(QRandomGenerator::global()->bounded(4)));
        return w;
    };

    // The fault cycle: node i % n gets fault i for faultMs, then is healed, then gapMs of calm.
    QTimer faultTimer;
    faultTimer.setSingleShot(true);
    std::function<void()> nextFault = [&] {
        if (!running)
            return;
        const Fault &f = faultCycle()[faultIndex % faultCycle().size()];
        const int node = int(faultIndex % size_t(nodeCount));
        ++faultIndex;
        faultsDone << (QString::fromLatin1(f.name) % u" on "_s % fleet.nodeName(node));
        const bool refuse = QByteArray(f.name) == "refuse";
        if (f.stop || f.kill)
            fleet.stopNode(node, f.kill);
        else if (refuse)
            fleet.setFault(node, R"({"mode":"refuse","refuse_ms":)" + QByteArray::number(faultMs) + '}');
        else
            fleet.setFault(node, f.json);
        QTimer::singleShot(faultMs, &app, [&, node, f, refuse] {
            if (f.stop || f.kill)
                fleet.restartNode(node);
            else if (!refuse) // a refusing node has no control port; it heals itself on time
                fleet.setFault(node, R"({"mode":"healthy"})");
            if (running)
                faultTimer.start(gapMs);
        });
    };
    QObject::connect(&faultTimer, &QTimer::timeout, &app, [&] { nextFault(); });

    QTimer putTimer, hupTimer, editTimer, sampleTimer, restartTimer;
    QObject::connect(&restartTimer, &QTimer::timeout, &app, [&] { fleet.restartGateway(); });
    QObject::connect(&putTimer, &QTimer::timeout, &app, [&] { fleet.putConfig(randomWeights()); });
    QObject::connect(&hupTimer, &QTimer::timeout, &app, [&] {
        fleet.sighup();
        ++sighups;
    });
    QObject::connect(&editTimer, &QTimer::timeout, &app, [&] {
        fleet.writeConfigFile(randomWeights());
        ++fileEdits;
    });
    // Over time: ten samples spread over the run, for the table (flat after warm-up, or a leak).
    auto &overTime = run.overTime;
    const qint64 everyS = std::max(1, seconds / 10);
    QElapsedTimer sinceStart;
    sinceStart.start();
    QObject::connect(&sampleTimer, &QTimer::timeout, &app, [&] {
        const ProcessResources r = sample();
        const qint64 s = sinceStart.elapsed() / 1000;
        if (overTime.empty() || s - overTime.back().second >= everyS)
            overTime.push_back({s, r});
    });

    QElapsedTimer clock;
    clock.start();
    for (auto &c : clients)
        c->start();
    QTimer::singleShot(1000, &app, [&] {
        first = sample();
        faultTimer.start(0);
        putTimer.start(7000);
        hupTimer.start(11000);
        editTimer.start(13000);
        sampleTimer.start(1000);
        if (restartEveryS > 0)
            restartTimer.start(restartEveryS * 1000);
    });

    // The end: no new faults, every node healed, the clients finish what they have in flight.
    QTimer::singleShot(seconds * 1000, &app, [&] {
        running = false;
        faultTimer.stop();
        putTimer.stop();
        hupTimer.stop();
        editTimer.stop();
        restartTimer.stop();
        for (auto &c : clients)
            c->stop();
    });
    int idle = 0;
    for (auto &c : clients) {
        QObject::connect(c.get(), &SoakClient::idle, &app, [&] {
            if (++idle == int(clients.size())) {
                // The clients' keep-alive connections close with them; give the gateway a moment to see it.
                clients.clear();
                QTimer::singleShot(1500, &app, [&] {
                    last = sample();
                    QCoreApplication::quit();
                });
            }
        });
    }
    app.exec();
    sampleTimer.stop();
    run.elapsedS = clock.elapsed() / 1000;
    fleet.stopAll();

    const bool ok = printReport(options, tally, fleet, run);
    std::printf("\n%s\n", ok ? "soak: PASS" : "soak: FAIL");
    return ok ? 0 : 1;
}
