// switchyard-simnode: a simulated vLLM node for tests, demos and benchmarks without a GPU.
//   switchyard-simnode --listen 127.0.0.1:8030 --model nemotron-3-super [options]
// See docs/SIMNODE.md for the flags, the control endpoint and the performance model.

#include "simnode/simnode.h"
#include "simnode/simnodecli.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QSocketNotifier>

#include <csignal>
#include <cstdio>
#include <sys/socket.h>
#include <unistd.h>

using namespace Qt::Literals::StringLiterals;
using namespace switchyard::sim;

namespace {

int g_signalFd[2] = {-1, -1};

// Only async-signal-safe work here: wake the event loop through a socket pair.
void onSignal(int)
{
    const char c = 1;
    [[maybe_unused]] const auto n = ::write(g_signalFd[0], &c, 1);
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(u"switchyard-simnode"_s);
    QCoreApplication::setApplicationVersion(QStringLiteral(SWITCHYARD_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(u"A simulated vLLM node: OpenAI-compatible API, /metrics, continuous "
                                     u"batching timing model and fault injection (docs/SIMNODE.md)."_s);
    parser.addHelpOption();
    parser.addVersionOption();
    addSimNodeOptions(parser);
    parser.process(app);

    auto options = simNodeOptionsFrom(parser);
    if (!options) {
        std::fprintf(stderr, "switchyard-simnode: %s\n", qPrintable(options.error()));
        return 2;
    }

    SimNode node(*options);
    const auto started = node.start();
    if (!started) {
        std::fprintf(stderr, "switchyard-simnode: %s\n", qPrintable(started.error()));
        return 1;
    }
    std::printf("switchyard-simnode: serving %s on %s (fault: %s)\n", qPrintable(options->models.join(u", "_s)),
                qPrintable(node.baseUrl()), qPrintable(faultModeName(node.fault())));
    std::fflush(stdout);

    // SIGINT/SIGTERM: stop the node cleanly (connections closed, thread joined) and exit 0.
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, g_signalFd) == 0) {
        auto *notifier = new QSocketNotifier(g_signalFd[1], QSocketNotifier::Read, &app);
        QObject::connect(notifier, &QSocketNotifier::activated, &app, [] {
            char c;
            [[maybe_unused]] const auto n = ::read(g_signalFd[1], &c, 1);
            QCoreApplication::quit();
        });
        std::signal(SIGINT, onSignal);
        std::signal(SIGTERM, onSignal);
    }
    const int rc = app.exec();
    node.stop();
    return rc;
}
