#pragma once

// Real processes for tests that need them (`switchyard --headless`, `switchyard-simnode`): started on
// loopback with port 0, their port read from the line they print, and every one of them stopped
// (SIGTERM, then SIGKILL after 10 s) by stopAll() or the destructor, so no test leaves one behind.

#include <QList>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <memory>
#include <vector>

namespace switchyard::testing {

class TestProcesses final
{
    Q_DISABLE_COPY_MOVE(TestProcesses)

public:
    // logDir: where each process's stderr goes (stderr-N.log), for a failing test to read.
    explicit TestProcesses(QString logDir) : m_logDir(std::move(logDir)) {}
    ~TestProcesses() { stopAll(); }

    // Starts program and waits (up to 20 s) for its first line; returns the port that follows marker
    // in it, 0 when it did not start or said nothing of the kind. *process: the started one.
    quint16 start(const QString &program, const QStringList &args, const QByteArray &marker,
                  QProcess **process = nullptr);
    // A simulated vLLM node serving `model` fast (2000 tokens/s, 5 ms to the first token).
    quint16 startSimNode(const QString &simnodeBin, const QString &name, const QString &model = QStringLiteral("m1"));
    // `switchyard --headless --config configPath --listen 127.0.0.1:port` (port 0: any).
    quint16 startHeadless(const QString &switchyardBin, const QString &configPath, quint16 port = 0,
                          QProcess **process = nullptr);

    // A `redis-server` of the test's own on 127.0.0.1 (port 0: a free one), nothing saved to disk, ready
    // to take connections; 0 when it could not start (not installed: scripts/install-deps.sh --test).
    quint16 startRedis(quint16 port = 0, QProcess **process = nullptr);

    static void stop(QProcess *process);
    void stopAll();

private:
    // Starts program with its stderr in the log folder; the process once started, else null.
    QProcess *launch(const QString &program, const QStringList &args, QProcess **process);

    QString m_logDir;
    std::vector<std::unique_ptr<QProcess>> m_processes;
};

} // namespace switchyard::testing
