#include "headless.h"

#include "config/configfile.h"
#include "config/configloader.h"
#include "demofleet.h"
#include "gateway.h"
#include "signalwatcher.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileSystemWatcher>
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

bool applyListenOverride(config::GatewayConfig &cfg, const QString &listen)
{
    if (listen.isEmpty())
        return true;
    const auto addr = config::parseListenAddress(listen);
    if (!addr) {
        std::fprintf(stderr, "switchyard: --listen %s: %s\n", qPrintable(listen), qPrintable(addr.error()));
        return false;
    }
    cfg.settings.listenHost = addr->host;
    cfg.settings.listenPort = addr->port;
    return true;
}

// "2026-12-02T16:18:20.123Z", as QDateTime's ISODateWithMs in UTC, without its time-zone machinery or
// printf: this runs once per request.
void appendTimestamp(QByteArray &out)
{
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    tm t{};
    gmtime_r(&ts.tv_sec, &t);
    char buf[24];
    auto put = [&buf](int at, int value, int digits) {
        for (int i = digits - 1; i >= 0; --i, value /= 10)
            buf[at + i] = char('0' + value % 10);
    };
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
    put(20, int(ts.tv_nsec / 1000000), 3);
    buf[23] = 'Z';
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

int runHeadless(const Options &options)
{
    // Declared first, so it runs last: after the gateway's destructor has logged what it cut.
    struct FlushAtExit
    {
        ~FlushAtExit() { flushLog(); }
    } flushAtExit;
    DemoFleet demo;
    config::GatewayConfig cfg;
    if (options.demo) {
        const auto json = demo.start();
        if (!json) {
            std::fprintf(stderr, "switchyard: %s\n", qPrintable(json.error()));
            return 1;
        }
        auto parsed = config::parseConfig(*json);
        if (!parsed) {
            printProblems(parsed.error(), u"demo config"_s);
            return 1;
        }
        cfg = *parsed;
    } else if (!options.configPath.isEmpty()) {
        auto parsed = config::loadConfigFile(options.configPath);
        if (!parsed) {
            printProblems(parsed.error(), options.configPath);
            return 2;
        }
        cfg = *parsed;
    } else {
        std::fprintf(stderr, "switchyard: --headless needs --config FILE or --demo\n");
        return 2;
    }
    if (!applyListenOverride(cfg, options.listen))
        return 2;

    Gateway gateway;
    gateway.setRequestLogger([](const stats::RequestRecord &r) { appendRequestLog(r); });
    QTimer logFlush;
    QObject::connect(&logFlush, &QTimer::timeout, &logFlush, [] { flushLog(); });
    logFlush.start(FlushIntervalMs);
    gateway.applyConfig(cfg);
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

    // PUT /api/config: the file is the truth, so a config sent over the API is saved first (atomic,
    // previous version kept as .bak), then applied. Without a file (--demo) it is applied in memory.
    QByteArray lastAppliedText;
    gateway.setConfigUpdateHandler([&](const config::GatewayConfig &parsed, const QByteArray &text) {
        Gateway::ConfigUpdate update;
        if (!options.configPath.isEmpty()) {
            const auto saved = config::saveConfigFile(options.configPath, text);
            if (!saved) {
                update.error = saved.error();
                logLine(u"config from the API not applied: "_s % update.error);
                return update;
            }
            update.savedTo = saved->path;
            lastAppliedText = text;
        }
        config::GatewayConfig next = parsed;
        applyListenOverride(next, options.listen);
        update.result = gateway.applyConfig(next);
        logLine(u"config applied from the API: "_s % update.result.changes.summary()
                % (update.savedTo.isEmpty() ? QString() : u"; saved to "_s % update.savedTo));
        if (!update.result.listenError.isEmpty())
            logLine(u"  "_s % update.result.listenError % u"; still listening on "_s % gateway.listenUrl());
        return update;
    });

    // Reload: on SIGHUP and when the file changes. An invalid file is reported and the running
    // config stays.
    auto reload = [&gateway, &options, &lastAppliedText](const QString &why) {
        if (options.configPath.isEmpty())
            return;
        if (QFile f(options.configPath); f.open(QIODevice::ReadOnly) && !lastAppliedText.isEmpty()
                                          && f.readAll() == lastAppliedText) {
            return; // our own save of a config that came over the API: already running
        }
        lastAppliedText.clear();
        auto parsed = config::loadConfigFile(options.configPath);
        if (!parsed) {
            logLine(u"config reload ("_s % why % u") rejected; the running config stays:"_s);
            for (const config::ConfigProblem &p : parsed.error())
                logLine(u"  "_s % p.toString());
            return;
        }
        config::GatewayConfig next = *parsed;
        applyListenOverride(next, options.listen);
        const Gateway::ApplyResult applied = gateway.applyConfig(next);
        logLine(u"config reloaded ("_s % why % u"): "_s % applied.changes.summary());
        if (!applied.listenError.isEmpty())
            logLine(u"  "_s % applied.listenError % u"; still listening on "_s % gateway.listenUrl());
        else if (applied.changes.listenChanged)
            logLine(u"listening on "_s % gateway.listenUrl());
    };

    SignalWatcher signalWatcher;
    QObject::connect(&signalWatcher, &SignalWatcher::reloadRequested, &gateway, [&] { reload(u"SIGHUP"_s); });
    QFileSystemWatcher watcher;
    QTimer debounce;
    debounce.setSingleShot(true);
    debounce.setInterval(300); // editors write in several steps
    if (!options.configPath.isEmpty()) {
        watcher.addPath(options.configPath);
        QObject::connect(&watcher, &QFileSystemWatcher::fileChanged, &debounce, [&] {
            // Editors that save by rename replace the watched file: watch the new one.
            if (!watcher.files().contains(options.configPath))
                watcher.addPath(options.configPath);
            debounce.start();
        });
        QObject::connect(&debounce, &QTimer::timeout, &gateway, [&] { reload(u"file changed"_s); });
    }
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
