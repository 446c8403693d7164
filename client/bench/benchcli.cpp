#include "benchcli.h"

#include "benchformat.h"
#include "benchmarkrunner.h"
#include "benchtargets.h"
#include "multiturnformat.h"
#include "multiturnrunner.h"
#include "config/configloader.h"
#include "gateway.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QEventLoop>
#include <QElapsedTimer>
#include <QFile>
#include <QUuid>
#include <QUrl>
#include <cstdio>
#include <memory>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::bench {

namespace {

struct CliOptions
{
    QList<QCommandLineOption> all;
    QCommandLineOption bench{u"bench"_s, u"Run a benchmark and print the results (this mode)."_s};
    QCommandLineOption target{u"target"_s,
                              u"What to measure: a URL (http://host:port), a provider name from the config, or "
                              "\"gateway\" for the gateway's pool. Repeatable. Default with --config/--demo: "
                              "every provider and the gateway."_s,
                              u"URL|provider"_s};
    QCommandLineOption suite{u"suite"_s,
                             u"article: the article's tables, single requests at 20/100/300 tokens and 5 parallel (default; "
                             "\"seed\" is accepted too); sweep: 1, 2, 4 … 64 parallel; full: both; multiturn: "
                             "conversations with a shared system prompt and a growing history, once per routing "
                             "strategy."_s,
                             u"article|sweep|full|multiturn"_s, u"article"_s};
    QCommandLineOption format{u"format"_s, u"Output format (default md)."_s, u"md|csv|json"_s, u"md"_s};
    QCommandLineOption config{u"config"_s, u"Bifrost-compatible config: its providers are the targets."_s, u"FILE"_s};
    QCommandLineOption demo{u"demo"_s, u"Measure the built-in demo (two simulated nodes and the gateway)."_s};
    QCommandLineOption model{u"model"_s, u"Model for URL targets (default: the first of GET /v1/models)."_s, u"NAME"_s};
    QCommandLineOption apiKey{u"api-key"_s, u"Bearer token for URL targets."_s, u"KEY"_s};
    QCommandLineOption repetitions{u"repetitions"_s, u"Requests per max_tokens value (default 3)."_s, u"N"_s};
    QCommandLineOption maxTokens{u"max-tokens"_s, u"Single-request tests (default 20,100,300)."_s, u"LIST"_s};
    QCommandLineOption concurrency{u"concurrency"_s, u"Parallel requests of the article's concurrency test (default 5)."_s,
                                   u"N"_s};
    QCommandLineOption concurrencyTokens{u"concurrency-max-tokens"_s,
                                         u"max_tokens of each parallel request (default 20, as in the article)."_s, u"N"_s};
    QCommandLineOption levels{u"levels"_s, u"Sweep levels (default 1,2,4,8,16,32,64)."_s, u"LIST"_s};
    QCommandLineOption sweepTokens{u"sweep-max-tokens"_s, u"max_tokens of each sweep request (default 32)."_s, u"N"_s};
    QCommandLineOption warmup{u"warmup"_s, u"Warm-up requests per target, not counted (default 1)."_s, u"N"_s};
    QCommandLineOption timeout{u"timeout"_s, u"Per-request timeout in seconds (default 120)."_s, u"S"_s};
    QCommandLineOption noIgnoreEos{u"no-ignore-eos"_s,
                                   u"Do not send vLLM's ignore_eos (for servers that reject unknown fields)."_s};
    QCommandLineOption api{u"api"_s,
                           u"The API the requests speak: chat (POST /v1/chat/completions, default) or responses "
                           "(POST /v1/responses, which vLLM serves; it has no ignore_eos)."_s,
                           u"chat|responses"_s, u"chat"_s};
    QCommandLineOption quiet{u"quiet"_s, u"No progress on stderr."_s};
    QCommandLineOption conversations{u"conversations"_s, u"multiturn: conversations (default 8)."_s, u"N"_s};
    QCommandLineOption turns{u"turns"_s, u"multiturn: turns per conversation (default 6)."_s, u"M"_s};
    QCommandLineOption parallel{u"parallel"_s, u"multiturn: conversations at a time (default 4)."_s, u"C"_s};
    QCommandLineOption answerTokens{u"answer-tokens"_s, u"multiturn: max_tokens of each answer (default 48)."_s,
                                    u"N"_s};
    QCommandLineOption systemTokens{u"system-prompt-tokens"_s,
                                    u"multiturn: length of the shared system prompt (default 1500)."_s, u"N"_s};
    QCommandLineOption questionTokens{u"question-tokens"_s,
                                      u"multiturn: log excerpt pasted into each question (default 120)."_s, u"N"_s};
    QCommandLineOption strategies{u"strategies"_s,
                                  u"multiturn with --config/--demo: the routing strategies to compare, each applied "
                                  "as switchyard.routing.default_strategy to a fresh in-process gateway (default "
                                  "weighted_round_robin,session_affinity,cache_aware)."_s,
                                  u"LIST"_s};

    CliOptions()
    {
        all = {bench,       target,      suite,       format,        config,       demo,        model,
               apiKey,      repetitions, maxTokens,   concurrency,   concurrencyTokens, levels, sweepTokens,
               warmup,      timeout,     noIgnoreEos, api,           quiet,         conversations, turns,      parallel,
               answerTokens, systemTokens, questionTokens, strategies};
    }
};

void err(const QString &text)
{
    std::fprintf(stderr, "switchyard --bench: %s\n", qPrintable(text));
}

std::optional<int> positiveInt(const QString &text)
{
    bool ok = false;
    const int v = text.trimmed().toInt(&ok);
    if (!ok || v < 0)
        return std::nullopt;
    return v;
}

std::optional<QList<int>> intList(const QString &text)
{
    QList<int> out;
    for (const QString &part : text.split(u',', Qt::SkipEmptyParts)) {
        const auto v = positiveInt(part);
        if (!v || *v == 0)
            return std::nullopt;
        out << *v;
    }
    if (out.isEmpty())
        return std::nullopt;
    return out;
}

bool anyFailure(const BenchmarkResults &r)
{
    for (const TargetResult &t : r.targets) {
        for (const SingleResult &s : t.singles) {
            if (s.succeeded < s.requests)
                return true;
        }
        if (t.concurrency && t.concurrency->succeeded < t.concurrency->requests)
            return true;
        for (const ConcurrencyResult &c : t.sweep) {
            if (c.succeeded < c.requests)
                return true;
        }
    }
    return false;
}

// What `switchyard --bench` exits with.
constexpr int ExitMeasured = 0; // every measured request succeeded
constexpr int ExitFailed = 1;   // some requests failed, or the demo or gateway could not start
constexpr int ExitUsage = 2;    // the command line is wrong

// What the options ask for, short of the targets.
struct CliRequest
{
    BenchmarkPlan plan; // its targets come later: they may need the config and a gateway
    QString format;     // md (or markdown), csv, json
};

// The suite, its numbers and the output format from the options; the exit status (after saying why)
// when one is wrong.
Expected<CliRequest, int> requestFromOptions(const QCommandLineParser &p, const CliOptions &o)
{
    CliRequest request;
    BenchmarkPlan &plan = request.plan;
    const auto suite = parseSuite(p.value(o.suite));
    if (!suite || *suite == Suite::Custom) {
        err(u"--suite must be seed, sweep or full"_s);
        return unexpected(ExitUsage);
    }
    plan.suite = *suite;
    request.format = p.value(o.format).toLower();
    if (request.format != u"md" && request.format != u"markdown" && request.format != u"csv"
        && request.format != u"json") {
        err(u"--format must be md, csv or json"_s);
        return unexpected(ExitUsage);
    }
    auto intOption = [&](const QCommandLineOption &opt, int &into, bool allowZero) {
        if (!p.isSet(opt))
            return true;
        const auto v = positiveInt(p.value(opt));
        if (!v || (!allowZero && *v == 0)) {
            err(u"--%1 needs a %2 number"_s.arg(opt.names().first(), allowZero ? u"non-negative"_s : u"positive"_s));
            return false;
        }
        into = *v;
        return true;
    };
    auto listOption = [&](const QCommandLineOption &opt, QList<int> &into) {
        if (!p.isSet(opt))
            return true;
        const auto v = intList(p.value(opt));
        if (!v) {
            err(u"--%1 needs a comma-separated list of positive numbers"_s.arg(opt.names().first()));
            return false;
        }
        into = *v;
        return true;
    };
    int timeoutSeconds = plan.requestTimeoutMs / 1000;
    if (!intOption(o.repetitions, plan.repetitions, false) || !intOption(o.concurrency, plan.concurrency, false)
        || !intOption(o.concurrencyTokens, plan.concurrencyMaxTokens, false)
        || !intOption(o.sweepTokens, plan.sweepMaxTokens, false) || !intOption(o.warmup, plan.warmupRequests, true)
        || !intOption(o.timeout, timeoutSeconds, false) || !listOption(o.maxTokens, plan.maxTokensList)
        || !listOption(o.levels, plan.sweepLevels))
        return unexpected(ExitUsage);
    plan.requestTimeoutMs = timeoutSeconds * 1000;
    plan.ignoreEos = !p.isSet(o.noIgnoreEos);
    const auto api = parseApi(p.value(o.api));
    if (!api) {
        err(u"--api must be chat or responses"_s);
        return unexpected(ExitUsage);
    }
    plan.api = *api;
    return request;
}

// Starts the demo's nodes and returns its config document.
Expected<QByteArray, int> startDemo(const BenchCliHooks &hooks)
{
    if (!hooks.startDemo) {
        err(u"--demo is not available in this build"_s);
        return unexpected(ExitUsage);
    }
    const auto json = hooks.startDemo();
    if (!json) {
        err(json.error());
        return unexpected(ExitFailed);
    }
    return *json;
}

// The config the targets come from: the demo's (started here) or --config's file; none when neither is
// given (URL targets only).
Expected<std::optional<config::GatewayConfig>, int> configFromOptions(const QCommandLineParser &p, const CliOptions &o,
                                                                      const BenchCliHooks &hooks)
{
    if (p.isSet(o.demo) && p.isSet(o.config)) {
        err(u"--demo and --config exclude each other"_s);
        return unexpected(ExitUsage);
    }
    if (p.isSet(o.demo)) {
        const auto json = startDemo(hooks);
        if (!json)
            return unexpected(json.error());
        auto parsed = config::parseConfig(*json);
        if (!parsed) {
            err(u"demo config: "_s % parsed.error().first().toString());
            return unexpected(ExitFailed);
        }
        return std::optional<config::GatewayConfig>(*parsed);
    }
    if (p.isSet(o.config)) {
        auto parsed = config::loadConfigFile(p.value(o.config));
        if (!parsed) {
            err(p.value(o.config) % u": "_s % QString::number(parsed.error().size()) % u" problem(s)"_s);
            for (const config::ConfigProblem &problem : parsed.error())
                std::fprintf(stderr, "  %s\n", qPrintable(problem.toString()));
            return unexpected(ExitUsage);
        }
        return std::optional<config::GatewayConfig>(*parsed);
    }
    return std::optional<config::GatewayConfig>();
}

// A gateway of our own over cfg, for measuring its pool: on an ephemeral loopback port, so it does not
// collide with a panel already running on the config's address.
Expected<std::unique_ptr<Gateway>, int> startGateway(const config::GatewayConfig &cfg)
{
    config::GatewayConfig gcfg = cfg;
    gcfg.settings.listenHost = u"127.0.0.1"_s;
    gcfg.settings.listenPort = 0;
    auto gateway = std::make_unique<Gateway>();
    gateway->applyConfig(gcfg);
    const auto url = gateway->start();
    if (!url) {
        err(u"cannot start the gateway: "_s % url.error());
        return unexpected(ExitFailed);
    }
    return gateway;
}

// The targets --target names (URLs, provider names, "gateway"), or, with none named, every provider of
// cfg and the pool of gateway.
Expected<QList<Target>, int> targetsFromOptions(const QCommandLineParser &p, const CliOptions &o,
                                                const std::optional<config::GatewayConfig> &cfg, const Gateway *gateway)
{
    const QStringList requested = p.values(o.target);
    if (requested.isEmpty()) {
        if (!cfg) {
            err(u"nothing to measure: give --target URL, --config FILE or --demo (see --help)"_s);
            return unexpected(ExitUsage);
        }
        return targetsFromConfig(*cfg, gateway ? gateway->listenUrl() : QString());
    }
    QList<Target> targets;
    for (const QString &t : requested) {
        if (t.startsWith(u"http://"_s, Qt::CaseInsensitive) || t.startsWith(u"https://"_s, Qt::CaseInsensitive)) {
            const QUrl url(t);
            Target target;
            target.label = url.host() % (url.port() > 0 ? u':' % QString::number(url.port()) : QString());
            target.baseUrl = t;
            target.model = p.value(o.model);
            target.apiKey = p.value(o.apiKey);
            targets << target;
        } else if (t == u"gateway" || t == u"pool") {
            if (!cfg) {
                err(u"--target gateway needs --config FILE or --demo"_s);
                return unexpected(ExitUsage);
            }
            if (auto pool = poolTarget(*cfg, gateway->listenUrl()))
                targets << *pool;
        } else {
            const config::ProviderConfig *provider = cfg ? cfg->provider(t) : nullptr;
            if (!provider) {
                err(cfg ? u"no provider named '%1' in the config"_s.arg(t)
                        : u"'%1' is not a URL; provider names need --config FILE or --demo"_s.arg(t));
                return unexpected(ExitUsage);
            }
            targets << nodeTarget(*provider);
        }
    }
    return targets;
}

// Runs the plan to its end in a local event loop, with a line on stderr per test unless quiet.
Expected<BenchmarkResults, int> runPlan(const BenchmarkPlan &plan, bool quiet)
{
    BenchmarkRunner runner;
    QEventLoop loop;
    BenchmarkResults results;
    QString lastLabel;
    QObject::connect(&runner, &BenchmarkRunner::progress, &loop, [&](int done, int total, const QString &label) {
        // One line per test rather than per request: readable in a log file as well as a terminal.
        if (quiet || label == lastLabel || label.isEmpty())
            return;
        lastLabel = label;
        std::fprintf(stderr, "[%3d/%3d] %s\n", done, total, qPrintable(label));
    });
    QObject::connect(&runner, &BenchmarkRunner::finished, &loop, [&](const BenchmarkResults &r) {
        results = r;
        loop.quit();
    });
    if (!quiet && !plan.targets.isEmpty()) {
        std::fprintf(stderr, "measuring %lld target(s), %d requests\n", static_cast<long long>(plan.targets.size()),
                     plan.totalRequests());
    }
    if (!runner.start(plan)) {
        err(runner.lastError());
        return unexpected(ExitUsage);
    }
    loop.exec();
    return results;
}

// The multi-turn plan's numbers from the options (target and strategy come later).
Expected<MultiTurnPlan, int> multiTurnPlanFromOptions(const QCommandLineParser &p, const CliOptions &o)
{
    MultiTurnPlan plan;
    int timeoutSeconds = plan.requestTimeoutMs / 1000;
    const std::pair<const QCommandLineOption *, int *> numbers[] = {
        {&o.conversations, &plan.conversations}, {&o.turns, &plan.turns},
        {&o.parallel, &plan.concurrency},        {&o.answerTokens, &plan.maxTokens},
        {&o.systemTokens, &plan.systemPromptTokens}, {&o.questionTokens, &plan.questionTokens},
        {&o.timeout, &timeoutSeconds}};
    for (const auto &[option, into] : numbers) {
        if (!p.isSet(*option))
            continue;
        const auto v = positiveInt(p.value(*option));
        if (!v || *v == 0) {
            err(u"--%1 needs a positive number"_s.arg(option->names().first()));
            return unexpected(ExitUsage);
        }
        *into = *v;
    }
    // Bounded so a typo cannot ask for hours of requests or prompts beyond any context.
    if (plan.conversations > 1000 || plan.turns > 100 || plan.concurrency > 256 || plan.systemPromptTokens > 100000
        || plan.questionTokens > 100000) {
        err(u"multiturn: at most 1000 conversations, 100 turns, 256 at a time and 100000-token prompts"_s);
        return unexpected(ExitUsage);
    }
    plan.requestTimeoutMs = timeoutSeconds * 1000;
    plan.ignoreEos = !p.isSet(o.noIgnoreEos);
    return plan;
}

// One multi-turn run to its end in a local event loop.
MultiTurnRun runMultiTurn(const MultiTurnPlan &plan, bool quiet)
{
    MultiTurnRunner runner;
    QEventLoop loop;
    MultiTurnRun run;
    run.plan = plan;
    int lastReported = -1;
    QObject::connect(&runner, &MultiTurnRunner::progress, &loop, [&](int done, int total, const QString &) {
        // A line per tenth of the run, not per request.
        const int tenth = total > 0 ? done * 10 / total : 10;
        if (quiet || tenth == lastReported)
            return;
        lastReported = tenth;
        std::fprintf(stderr, "[%3d/%3d] %s · %s\n", done, total, qPrintable(plan.strategy), qPrintable(plan.target.label));
    });
    QObject::connect(&runner, &MultiTurnRunner::finished, &loop, [&](const MultiTurnRun &r) {
        run = r;
        loop.quit();
    });
    if (!runner.start(plan)) {
        run.error = runner.lastError();
        return run;
    }
    loop.exec();
    return run;
}

// The config document the strategies are applied to: the demo's (started here) or --config's file.
Expected<QByteArray, int> configDocument(const QCommandLineParser &p, const CliOptions &o, const BenchCliHooks &hooks)
{
    if (p.isSet(o.demo) && p.isSet(o.config)) {
        err(u"--demo and --config exclude each other"_s);
        return unexpected(ExitUsage);
    }
    if (p.isSet(o.demo))
        return startDemo(hooks);
    QFile file(p.value(o.config));
    if (!file.open(QIODevice::ReadOnly)) {
        err(p.value(o.config) % u": "_s % file.errorString());
        return unexpected(ExitUsage);
    }
    return file.read(64LL * 1024 * 1024);
}

// One run per strategy, each on a fresh in-process gateway over the config with that default strategy
// (fresh routing state, nothing carried over), against its pool. The run tag makes each run's prompts
// share no prefix with the runs before it.
QList<MultiTurnRun> runStrategies(const QByteArray &document, const QStringList &strategies, const MultiTurnPlan &base,
                                  bool quiet)
{
    QList<MultiTurnRun> runs;
    const QString session = QUuid::createUuid().toString(QUuid::Id128).left(6);
    for (qsizetype i = 0; i < strategies.size(); ++i) {
        MultiTurnRun run;
        run.plan = base;
        run.plan.strategy = strategies[i];
        run.plan.runTag = u"%1-r%2"_s.arg(session).arg(i + 1);
        const QByteArray json = configWithDefaultStrategy(document, strategies[i]);
        auto cfg = config::parseConfig(json);
        if (!cfg) {
            run.error = json.isEmpty() ? u"the config is not a JSON object"_s : cfg.error().first().toString();
            err(strategies[i] % u": "_s % run.error);
            runs << run;
            continue;
        }
        auto gateway = startGateway(*cfg);
        const auto pool = gateway ? poolTarget(*cfg, (*gateway)->listenUrl()) : std::nullopt;
        if (!pool) {
            run.error = gateway ? u"the config has no pool to measure"_s : u"the gateway did not start"_s;
            runs << run;
            continue;
        }
        run.plan.target = *pool;
        runs << runMultiTurn(run.plan, quiet);
        (*gateway)->stopNow();
    }
    return runs;
}

bool anyFailure(const MultiTurnResults &r)
{
    for (const MultiTurnRun &run : r.runs) {
        if (!run.error.isEmpty() || run.succeeded < run.requests)
            return true;
    }
    return r.runs.isEmpty();
}

int runMultiTurnCli(const QCommandLineParser &p, const CliOptions &o, const BenchCliHooks &hooks)
{
    const QString format = p.value(o.format).toLower();
    if (format != u"md" && format != u"markdown" && format != u"csv" && format != u"json") {
        err(u"--format must be md, csv or json"_s);
        return ExitUsage;
    }
    auto base = multiTurnPlanFromOptions(p, o);
    if (!base)
        return base.error();
    const bool quiet = p.isSet(o.quiet);
    MultiTurnResults results;
    results.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    results.startedAt = QDateTime::currentDateTimeUtc();
    QElapsedTimer clock;
    clock.start();
    if (p.isSet(o.demo) || p.isSet(o.config)) {
        const auto document = configDocument(p, o, hooks);
        if (!document)
            return document.error();
        const QStringList strategies =
            p.value(o.strategies).isEmpty()
                ? QStringList{u"weighted_round_robin"_s, u"session_affinity"_s, u"cache_aware"_s}
                : p.value(o.strategies).split(u',', Qt::SkipEmptyParts);
        results.runs = runStrategies(*document, strategies, *base, quiet);
    } else {
        // A gateway we do not run: its routing is what it is, so the run says so.
        const QStringList urls = p.values(o.target);
        if (urls.isEmpty()) {
            err(u"multiturn needs --demo, --config FILE or --target URL"_s);
            return ExitUsage;
        }
        if (p.isSet(o.strategies))
            err(u"--strategies needs --demo or --config; measuring the target as configured"_s);
        for (const QString &url : urls) {
            MultiTurnPlan plan = *base;
            const QUrl u(url);
            plan.target.label = u.host() % (u.port() > 0 ? u':' % QString::number(u.port()) : QString());
            plan.target.baseUrl = url;
            plan.target.model = p.value(o.model);
            plan.target.apiKey = p.value(o.apiKey);
            plan.strategy = u"as configured"_s;
            plan.runTag = QUuid::createUuid().toString(QUuid::Id128).left(8);
            results.runs << runMultiTurn(plan, quiet);
        }
    }
    results.durationMs = double(clock.nsecsElapsed()) / 1e6;
    QByteArray out;
    if (format == u"csv")
        out = formatMultiTurnCsv(results);
    else if (format == u"json")
        out = formatMultiTurnJson(results).append('\n');
    else
        out = formatMultiTurnMarkdown(results).toUtf8();
    std::fwrite(out.constData(), 1, size_t(out.size()), stdout);
    std::fflush(stdout);
    return anyFailure(results) ? ExitFailed : ExitMeasured;
}

void printResults(const BenchmarkResults &results, const QString &format)
{
    QByteArray out;
    if (format == u"csv")
        out = formatCsv(results);
    else if (format == u"json")
        out = formatJson(results).append('\n');
    else
        out = formatMarkdown(results).toUtf8();
    std::fwrite(out.constData(), 1, size_t(out.size()), stdout);
    std::fflush(stdout);
}

} // namespace

QString benchCliHelp()
{
    CliOptions o;
    QCommandLineParser p;
    p.addOptions(o.all);
    return p.helpText();
}

int runBenchCli(const QStringList &arguments, const BenchCliHooks &hooks)
{
    CliOptions o;
    QCommandLineParser p;
    p.setApplicationDescription(
        u"switchyard --bench: measure nodes and the gateway as the article measured its two-node setup."_s);
    p.addHelpOption();
    p.addOptions(o.all);
    if (!p.parse(arguments)) {
        err(p.errorText());
        return ExitUsage;
    }
    if (p.isSet(u"help"_s)) {
        std::fputs(qPrintable(p.helpText()), stdout);
        return ExitMeasured;
    }
    if (!p.positionalArguments().isEmpty()) {
        err(u"unexpected argument '%1'"_s.arg(p.positionalArguments().first()));
        return ExitUsage;
    }

    if (p.value(o.suite).compare(u"multiturn"_s, Qt::CaseInsensitive) == 0)
        return runMultiTurnCli(p, o, hooks);
    auto request = requestFromOptions(p, o);
    if (!request)
        return request.error();
    const auto loaded = configFromOptions(p, o, hooks);
    if (!loaded)
        return loaded.error();
    const std::optional<config::GatewayConfig> &cfg = *loaded;

    const QStringList requested = p.values(o.target);
    const bool wantsGateway =
        cfg && (requested.isEmpty() || requested.contains(u"gateway"_s) || requested.contains(u"pool"_s));
    std::unique_ptr<Gateway> gateway;
    if (wantsGateway) {
        auto started = startGateway(*cfg);
        if (!started)
            return started.error();
        gateway = std::move(*started);
    }
    const auto targets = targetsFromOptions(p, o, cfg, gateway.get());
    if (!targets)
        return targets.error();
    request->plan.targets = *targets;

    const auto results = runPlan(request->plan, p.isSet(o.quiet));
    if (gateway)
        gateway->stopNow();
    if (!results)
        return results.error();
    printResults(*results, request->format);
    return anyFailure(*results) ? ExitFailed : ExitMeasured;
}

} // namespace switchyard::bench
