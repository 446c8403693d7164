#include "common/testprocesses.h"

#include <QDir>
#include <QHostAddress>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::testing {

QProcess *TestProcesses::launch(const QString &program, const QStringList &args, QProcess **process)
{
    auto p = std::make_unique<QProcess>();
    p->setProgram(program);
    p->setArguments(args);
    p->setStandardErrorFile(QDir(m_logDir).filePath(u"stderr-%1.log"_s.arg(m_processes.size())));
    p->start();
    QProcess *started = p.get();
    m_processes.push_back(std::move(p));
    if (process)
        *process = started;
    return started->waitForStarted(10000) ? started : nullptr;
}

quint16 TestProcesses::start(const QString &program, const QStringList &args, const QByteArray &marker,
                             QProcess **process)
{
    QProcess *started = launch(program, args, process);
    if (!started)
        return 0;
    QByteArray out;
    (void)QTest::qWaitFor(
        [&] {
            out += started->readAllStandardOutput();
            return out.contains('\n') || started->state() == QProcess::NotRunning;
        },
        20000);
    const qsizetype at = out.indexOf(marker);
    if (at < 0)
        return 0;
    const QByteArray rest = out.sliced(at + marker.size());
    qsizetype end = 0;
    while (end < rest.size() && std::isdigit(static_cast<unsigned char>(rest[end])))
        ++end;
    return quint16(rest.first(end).toUInt());
}

quint16 TestProcesses::startSimNode(const QString &simnodeBin, const QString &name, const QString &model)
{
    return start(simnodeBin,
                 {u"--listen"_s, u"127.0.0.1:0"_s, u"--model"_s, model, u"--name"_s, name, u"--tokens-per-second"_s,
                  u"2000"_s, u"--ttft-ms"_s, u"5"_s, u"--seed"_s, u"1"_s},
                 "http://127.0.0.1:");
}

quint16 TestProcesses::startHeadless(const QString &switchyardBin, const QString &configPath, quint16 port,
                                     QProcess **process)
{
    return start(switchyardBin,
                 {u"--headless"_s, u"--config"_s, configPath, u"--listen"_s, u"127.0.0.1:%1"_s.arg(port)},
                 "listening on http://127.0.0.1:", process);
}

quint16 TestProcesses::startRedis(quint16 port, QProcess **process)
{
    const QString program = QStandardPaths::findExecutable(u"redis-server"_s);
    if (program.isEmpty()) {
        qWarning("redis-server is not installed; scripts/install-deps.sh --test installs it");
        return 0;
    }
    if (port == 0) {
        QTcpServer probe; // a port free now; redis-server takes it a moment later
        if (!probe.listen(QHostAddress::LocalHost, 0))
            return 0;
        port = probe.serverPort();
    }
    // Its log goes to a file of its own (redis-server logs to stdout when --logfile is empty).
    const QString log = QDir(m_logDir).filePath(u"redis-%1.log"_s.arg(m_processes.size()));
    QProcess *started = launch(program,
                               {u"--port"_s, QString::number(port), u"--bind"_s, u"127.0.0.1"_s, u"--save"_s, u""_s,
                                u"--appendonly"_s, u"no"_s, u"--daemonize"_s, u"no"_s, u"--logfile"_s, log},
                               process);
    if (!started)
        return 0;
    const bool ready = QTest::qWaitFor(
        [&] {
            if (started->state() == QProcess::NotRunning)
                return true;
            QTcpSocket s;
            s.connectToHost(QHostAddress::LocalHost, port);
            return s.waitForConnected(200);
        },
        10000);
    return ready && started->state() == QProcess::Running ? port : 0;
}

void TestProcesses::stop(QProcess *p)
{
    if (p->state() == QProcess::NotRunning)
        return;
    p->terminate();
    if (!p->waitForFinished(10000)) {
        p->kill();
        p->waitForFinished(5000);
    }
}

void TestProcesses::stopAll()
{
    for (auto &p : m_processes)
        stop(p.get());
    m_processes.clear();
}

} // namespace switchyard::testing
