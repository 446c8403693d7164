#include "headless.h"

#include "config/configcontroller.h"
#include "config/configloader.h"
#include "demofleet.h"
#include "gateway.h"
#include "signalwatcher.h"

#include <QCoreApplication>
#include <QFile>
#include <QMutex>
#include <QTimer>
#include <cstdio>
#include <ctime>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::app {

namespace {

void printProblems(const config::ConfigProblems &problems, const QString &source)
{
    std::fprintf(stderr, "%s: %lld problem%s\n", qPrintable(source), static_cast<long long>(problems.size()),
                 problems.size() == 1 ? "" : "s");
    for (const config::ConfigProblem &p : problems)
        std::fprintf(stderr, "  %s\n", qPrintable(p.toString()));
}

// "2026-12-02T16:18:20.123Z", as QDateTime's ISODateWithMs in UTC, without its time-zone machinery or
// printf: this runs once per request. The date and time up to the second are kept per thread and
// converted (gmtime_r, most of the cost) only when the second changes.
void appendTimestamp(QByteArray &out)
{
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    thread_local time_t keptSecond = -1;
    thread_local char buf[24];
    auto put = [](int at, int value, int digits) {
        for (int i = digits - 1; i >= 0; --i, value /= 10)
            buf[at + i] = char('0' + value % 10);
    };
    if (ts.tv_sec != keptSecond) {
        tm t{};
        gmtime_r(&ts.tv_sec, &t);
        put(0, t.tm_year + 1900, 4);
        buf[4] = '-';
        put(5, t.tm_mon + 1, 2);
        buf[7] = '-';
        put(8, t.tm_mday, 2);
        buf[10] = 'T';
        put(11, t.tm_hour, 2);
        buf[13] = ':';
        put(14, t.tm_min, 2);
        buf[16] = ':';
        put(17, t.tm_sec, 2);
        buf[19] = '.';
        buf[23] = 'Z';
        keptSecond = ts.tv_sec;
    }
    put(20, int(ts.tv_nsec / 1000000), 3);
    out.append(buf, 24);
}

// Request log lines are batched: worker threads append under a short lock, and the batch is written
// with one write(2) every FlushIntervalMs (the main thread's timer) or as soon as it passes
// FlushBytes — one system call per request was a tenth of the gateway's CPU under load.
constexpr int FlushIntervalMs = 50;
constexpr qsizetype FlushBytes = 16 * 1024;
QMutex g_pendingMutex;
QByteArray g_pending;
QMutex g_writeMutex; // keeps batches in order when two threads flush at once

void flushLog()
{
    QMutexLocker writing(&g_writeMutex);
    QByteArray batch;
    {
        QMutexLocker lock(&g_pendingMutex);
        batch.swap(g_pending);
    }
    if (batch.isEmpty())
        return;
    std::fwrite(batch.constData(), 1, size_t(batch.size()), stderr);
    std::fflush(stderr);
}

// Lifecycle lines (start, reload, signals) are written at once, after whatever requests are pending.
void logLine(const QString &text)
{
    QByteArray line;
    appendTimestamp(line);
    line.append(' ');
    line.append(text.toUtf8());
    line.append('\n');
    {
        QMutexLocker lock(&g_pendingMutex);
        g_pending.append(line);
    }
    flushLog();
}

// One request's line, formatted into a per-thread buffer (no allocation once warm), then batched.
void appendRequestLog(const stats::RequestRecord &r)
{
    thread_local QByteArray line;
    line.resize(0); // keeps the capacity (clear() would free it)
    appendTimestamp(line);
    line.append(' ');
    r.appendLogLine(line);
    line.append('\n');
    bool full = false;
    {
        QMutexLocker lock(&g_pendingMutex);
        g_pending.append(line);
        full = g_pending.size() >= FlushBytes;
    }
    if (full)
        flushLog();
}

} // namespace

int checkConfig(const QString &path)
{
    const auto cfg = config::loadConfigFile(path);
    if (!cfg) {
        printProblems(cfg.error(), path);
        return 2;
    }
    std::printf("OK\n");
    return 0;
}

int exportBifrost(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "%s: %s\n", qPrintable(path), qPrintable(f.errorString()));
        return 2;
    }
    const auto out = config::exportBifrostConfig(f.readAll());
    if (!out) {
        printProblems(out.error(), path);
        return 2;
    }
    std::fwrite(out->constData(), 1, size_t(out->size()), stdout);
    std::printf("\n");
    return 0;
}

// What the config controller does, in the log: reloads, configs over the API, and what the operator must
// know about the running config.
void logConfigEvents(config::ConfigController &controller, Gateway &gateway)
{
    auto logListen = [&gateway](const Gateway::ApplyResult &r) {
        if (!r.listenError.isEmpty())
            logLine(u"  "_s % r.listenError % u"; still listening on "_s % gateway.listenUrl());
    };
    QObject::connect(&controller, &config::ConfigController::applied, &controller, [&controller] {
        if (const QString warning = controller.exposureWarning(); !warning.isEmpty())
            logLine(warning);
    });
    QObject::connect(&controller, &config::ConfigController::apiConfigApplied, &controller,
                     [logListen](const Gateway::ApplyResult &r, const QString &savedTo) {
                         logLine(u"config applied from the API: "_s % r.changes.summary()
                                 % (savedTo.isEmpty() ? QString() : u"; saved to "_s % savedTo));
                         logListen(r);
                     });
    QObject::connect(&controller, &config::ConfigController::apiConfigRefused, &controller,
                     [](const QString &error) { logLine(u"config from the API not applied: "_s % error); });
    QObject::connect(&controller, &config::ConfigController::reloaded, &controller,
                     [logListen, &gateway](const QString &why, const Gateway::ApplyResult &r) {
                         logLine(u"config reloaded ("_s % why % u"): "_s % r.changes.summary());
                         logListen(r);
                         if (r.listenError.isEmpty() && r.changes.listenChanged)
                             logLine(u"listening on "_s % gateway.listenUrl());
                     });
    QObject::connect(&controller, &config::ConfigController::reloadRejected, &controller,
                     [](const QString &why, const config::ConfigProblems &problems) {
                         logLine(u"config reload ("_s % why % u") rejected; the running config stays:"_s);
                         for (const config::ConfigProblem &p : problems)
                             logLine(u"  "_s % p.toString());
                     });
}

int runHeadless(const Options &options)
{
    // Declared first, so it runs last: after the gateway's destructor has logged what it cut.
    struct FlushAtExit
    {
        ~FlushAtExit() { flushLog(); }
    } flushAtExit;
    DemoFleet demo;
    Gateway gateway;
    // PUT /api/config, reloads on SIGHUP and on a change of the file (an invalid file is reported and the
    // running config stays), the --listen override: all the controller's.
    config::ConfigController controller(&gateway);
    if (const auto listen = controller.setListenOverride(options.listen); !listen) {
        std::fprintf(stderr, "switchyard: --listen %s: %s\n", qPrintable(options.listen), qPrintable(listen.error()));
        return 2;
    }
    logConfigEvents(controller, gateway);
    if (options.demo) {
        const auto json = demo.start();
        if (!json) {
            std::fprintf(stderr, "switchyard: %s\n", qPrintable(json.error()));
            return 1;
        }
        if (const auto applied = controller.applyText(*json, u"demo config"_s); !applied) {
            printProblems(applied.error(), u"demo config"_s);
            return 1;
        }
    } else if (!options.configPath.isEmpty()) {
        const auto parsed = controller.openConfigFile(options.configPath);
        if (!parsed) {
            printProblems(parsed.error(), options.configPath);
            return 2;
        }
        controller.apply(*parsed, options.configPath);
    } else {
        std::fprintf(stderr, "switchyard: --headless needs --config FILE or --demo\n");
        return 2;
    }
    controller.setReloadOnChange(true);

    gateway.setRequestLogger([](const stats::RequestRecord &r) { appendRequestLog(r); });
    QTimer logFlush;
    QObject::connect(&logFlush, &QTimer::timeout, &logFlush, [] { flushLog(); });
    logFlush.start(FlushIntervalMs);
    const auto url = gateway.start();
    if (!url) {
        std::fprintf(stderr, "switchyard: %s\n", qPrintable(url.error()));
        return 1;
    }
    std::printf("listening on %s\n", qPrintable(*url));
    std::fflush(stdout);
    if (options.demo) {
        for (sim::SimNode *n : demo.nodes())
            logLine(u"demo node "_s % n->options().name % u" at "_s % n->baseUrl());
    }

    SignalWatcher signalWatcher;
    QObject::connect(&signalWatcher, &SignalWatcher::reloadRequested, &controller,
                     [&controller] { controller.reload(u"SIGHUP"_s); });
    int terminations = 0;
    QObject::connect(&signalWatcher, &SignalWatcher::terminateRequested, &gateway, [&](int sig) {
        if (++terminations == 1) {
            logLine(u"signal "_s % QString::number(sig) %
                    u": stopping; in-flight requests may finish (up to "_s %
                    QString::number(gateway.config().settings.drainTimeoutMs) % u" ms)"_s);
            gateway.stop();
        } else {
            logLine(u"second signal: stopping now"_s);
            gateway.stopNow();
        }
    });
    QObject::connect(&gateway, &Gateway::stopped, qApp, [] { QCoreApplication::exit(0); });
    return QCoreApplication::exec();
}

} // namespace switchyard::app
