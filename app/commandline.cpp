#include "commandline.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <cstdio>
#include <cstring>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::app {

namespace {
// The translation context of the options' descriptions.
struct CommandLine
{
    Q_DECLARE_TR_FUNCTIONS(switchyard::app::CommandLine)
};
} // namespace

bool wantsNoDisplay(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        for (const char *flag : {"--headless", "--check-config", "--export-bifrost", "--bench", "--help", "-h", "--version", "-v"}) {
            if (std::strcmp(argv[i], flag) == 0 || (std::strncmp(argv[i], flag, std::strlen(flag)) == 0 && argv[i][std::strlen(flag)] == '='))
                return true;
        }
    }
    return false;
}

ParsedCommandLine parseCommandLine(const QStringList &arguments)
{
    ParsedCommandLine out;
    QCommandLineParser p;
    // Translated: --help follows the language too (the man page, packaging/switchyard.1, is English).
    p.setApplicationDescription(CommandLine::tr(
        "Switchyard: a control panel with an embedded OpenAI-compatible gateway for self-hosted LLM nodes.\n"
        "Without options it opens the panel on the last config, or offers the built-in demo.\n"
        "switchyard --bench [--target URL|provider|gateway] [--suite article|sweep|full] [--format md|csv|json] "
        "[--config FILE | --demo] measures nodes and the gateway without a window (see docs/BENCHMARK.md)."));
    p.addHelpOption();
    p.addVersionOption();
    const QCommandLineOption headless(u"headless"_s,
                                      CommandLine::tr("Run the gateway without windows (for servers)."));
    const QCommandLineOption demo(
        u"demo"_s, CommandLine::tr("Start two simulated vLLM nodes (vllm-server1/2, nemotron-3-super, 1:1) "
                                   "and the gateway over them; no config needed."));
    const QCommandLineOption config(u"config"_s, CommandLine::tr("Bifrost-compatible config file (JSON)."),
                                    CommandLine::tr("FILE"));
    const QCommandLineOption listen(
        u"listen"_s, CommandLine::tr("Listen address, overriding the config (default 127.0.0.1:8080)."),
        u"HOST:PORT"_s);
    const QCommandLineOption check(
        u"check-config"_s, CommandLine::tr("Validate a config file: print OK or every problem, exit 0 or 2."),
        CommandLine::tr("FILE"));
    const QCommandLineOption exportBifrost(
        u"export-bifrost"_s,
        CommandLine::tr("Print the config FILE without Switchyard's own section, for Bifrost."),
        CommandLine::tr("FILE"));
    const QCommandLineOption connectTo(
        u"connect"_s,
        CommandLine::tr("Open the panel on a remote gateway (its management API). The admin key comes from "
                        "SWITCHYARD_ADMIN_KEY, else it is asked for."),
        u"URL"_s);
    p.addOptions({headless, demo, config, listen, check, exportBifrost, connectTo});
    if (!p.parse(arguments)) {
        std::fprintf(stderr, "switchyard: %s\nTry --help.\n", qPrintable(p.errorText()));
        out.exitCode = 2;
        return out;
    }
    if (p.isSet(u"help"_s)) {
        std::fputs(qPrintable(p.helpText()), stdout);
        out.exitCode = 0;
        return out;
    }
    if (p.isSet(u"version"_s)) {
        std::printf("switchyard %s\n", SWITCHYARD_VERSION);
        out.exitCode = 0;
        return out;
    }
    if (!p.positionalArguments().isEmpty()) {
        std::fprintf(stderr, "switchyard: unexpected argument '%s'\nTry --help.\n", qPrintable(p.positionalArguments().first()));
        out.exitCode = 2;
        return out;
    }
    Options &o = out.options;
    o.headless = p.isSet(headless);
    o.demo = p.isSet(demo);
    o.configPath = p.value(config);
    o.listen = p.value(listen);
    o.checkConfigPath = p.value(check);
    o.exportBifrostPath = p.value(exportBifrost);
    o.connectUrl = p.value(connectTo);
    if (o.demo && !o.configPath.isEmpty()) {
        std::fprintf(stderr, "switchyard: --demo and --config exclude each other\n");
        out.exitCode = 2;
    } else if (!o.connectUrl.isEmpty() && (o.headless || o.demo || !o.configPath.isEmpty() || !o.listen.isEmpty())) {
        // The remote gateway has its own config and address; this process runs no gateway.
        std::fprintf(stderr, "switchyard: --connect excludes --headless, --demo, --config and --listen\n");
        out.exitCode = 2;
    }
    return out;
}

} // namespace switchyard::app
