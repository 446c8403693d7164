#pragma once

// The soak's processes: a headless `switchyard` and the `switchyard-simnode`s behind it, each on a
// loopback port chosen at start and kept across restarts (a node restarted comes back where it was).
// Faults go to a node through its control endpoint (docs/SIMNODE.md), reloads to the gateway through
// PUT /api/config, SIGHUP and an edit of its config file.

#include <QNetworkAccessManager>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <memory>
#include <vector>

namespace switchyard::soak {

struct ProcessResources
{
    qint64 rssKiB = -1;
    int openFds = -1;
};
// Read from /proc/PID; −1 where it could not be read.
ProcessResources resourcesOf(qint64 pid);

class SoakFleet final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SoakFleet)

public:
    SoakFleet(QString switchyardBinary, QString simnodeBinary, QString workDir, int nodeCount,
              QObject *parent = nullptr);
    ~SoakFleet() override;

    static constexpr const char *Model = "soak-model";

    // Starts the nodes and the gateway and waits until all answer; false with the reason on stderr.
    bool start();
    void stopAll();

    quint16 gatewayPort() const { return m_gatewayPort; }
    qint64 gatewayPid() const;
    int nodeCount() const { return int(m_nodes.size()); }
    QString nodeName(int i) const;

    // POST /control/fault to the node (mode names as in SIMNODE.md, extra JSON members merged in).
    void setFault(int node, const QByteArray &json);
    // SIGTERM (or SIGKILL) the node's process; restartNode() starts it again on the same port.
    void stopNode(int node, bool kill);
    void restartNode(int node);

    // The config with the given weights: PUT to /api/config, or written to the file (the gateway
    // watches it), or read again on SIGHUP.
    void putConfig(const std::vector<int> &weights);
    void writeConfigFile(const std::vector<int> &weights);
    void sighup();

    // What `systemctl restart` does: SIGTERM (the gateway finishes the requests in flight and exits),
    // then the same command again on the same port. Asynchronous: clients keep being served meanwhile.
    // A restart whose gateway did not exit with code 0 is counted in gatewayRestartsUnclean.
    void restartGateway();
    int gatewayRestarts = 0;
    int gatewayRestartsUnclean = 0;
    QStringList gatewayRestartProblems;

    // After stopAll(): how the gateway ended (0 = clean; under ASan a leak makes it non-zero).
    QString gatewayExit;
    bool gatewayExitedCleanly = false;
    QString gatewayLogTail(int lines) const;

    int configPutsOk = 0;
    int configPutsFailed = 0;
    int configPutsSkipped = 0; // while the gateway restarted
    int controlFailures = 0;

private:
    struct Node
    {
        QString name;
        quint16 port = 0;
        std::unique_ptr<QProcess> process;
    };
    bool startNode(Node &node);
    bool startGateway();
    QByteArray configJson(const std::vector<int> &weights) const;
    static quint16 freePort();
    static bool waitForHealth(quint16 port, int timeoutMs);

    QString m_switchyard;
    QString m_simnode;
    QString m_workDir;
    QString m_configPath;
    std::vector<Node> m_nodes;
    quint16 m_gatewayPort = 0;
    std::unique_ptr<QProcess> m_gateway;
    bool m_restarting = false;
    QNetworkAccessManager m_http;
};

} // namespace switchyard::soak
