#include "soakfleet.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QNetworkReply>
#include <QSaveFile>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>
#include <nlohmann/json.hpp>

#include <csignal>
#include <cstdio>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::soak {

ProcessResources resourcesOf(qint64 pid)
{
    ProcessResources r;
    QFile status(u"/proc/%1/status"_s.arg(pid));
    if (status.open(QIODevice::ReadOnly)) {
        for (const QByteArray &line : status.readAll().split('\n')) {
            if (line.startsWith("VmRSS:"))
                r.rssKiB = line.mid(6).trimmed().split(' ').value(0).toLongLong();
        }
    }
    const QDir fds(u"/proc/%1/fd"_s.arg(pid));
    if (fds.exists())
        r.openFds = int(fds.entryList(QDir::Files | QDir::System | QDir::NoDotAndDotDot).size());
    return r;
}

SoakFleet::SoakFleet(QString switchyardBinary, QString simnodeBinary, QString workDir, int nodeCount, QObject *parent)
    : QObject(parent), m_switchyard(std::move(switchyardBinary)), m_simnode(std::move(simnodeBinary)),
      m_workDir(std::move(workDir))
{
    m_configPath = m_workDir + u"/config.json"_s;
    for (int i = 0; i < nodeCount; ++i) {
        Node n;
        n.name = u"vllm-server%1"_s.arg(i + 1);
        m_nodes.push_back(std::move(n));
    }
}

SoakFleet::~SoakFleet()
{
    stopAll();
}

quint16 SoakFleet::freePort()
{
    QTcpServer probe;
    if (!probe.listen(QHostAddress::LocalHost, 0))
        return 0;
    return probe.serverPort();
}

bool SoakFleet::waitForHealth(quint16 port, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs) {
        QTcpSocket s;
        s.connectToHost(QHostAddress::LocalHost, port);
        if (s.waitForConnected(200)) {
            s.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
            QByteArray in;
            while (s.waitForReadyRead(500))
                in += s.readAll();
            in += s.readAll();
            if (in.startsWith("HTTP/1.1 200"))
                return true;
        }
        QThread::msleep(50); // start-up only: nothing else runs yet
    }
    return false;
}

QString SoakFleet::nodeName(int i) const
{
    return m_nodes[size_t(i)].name;
}

qint64 SoakFleet::gatewayPid() const
{
    return m_gateway ? m_gateway->processId() : -1;
}

bool SoakFleet::startNode(Node &node)
{
    node.process = std::make_unique<QProcess>();
    node.process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    node.process->setStandardOutputFile(QProcess::nullDevice());
    // Fast enough that a request takes ~0.1 s, so the soak sends thousands; seeded per node.
    node.process->start(m_simnode, {u"--listen"_s, u"127.0.0.1:%1"_s.arg(node.port), u"--model"_s,
                                    QString::fromLatin1(Model), u"--name"_s, node.name, u"--tokens-per-second"_s,
                                    u"400"_s, u"--ttft-ms"_s, u"20"_s, u"--embedding-dim"_s, u"64"_s,
                                    u"--seed"_s, QString::number(node.port)});
    if (!node.process->waitForStarted(5000)) {
        std::fprintf(stderr, "soak: %s did not start: %s\n", qPrintable(node.name),
                     qPrintable(node.process->errorString()));
        return false;
    }
    if (!waitForHealth(node.port, 10000)) {
        std::fprintf(stderr, "soak: %s does not answer on port %u\n", qPrintable(node.name), node.port);
        return false;
    }
    return true;
}

QByteArray SoakFleet::configJson(const std::vector<int> &weights) const
{
    nlohmann::ordered_json providers = nlohmann::ordered_json::object();
    for (size_t i = 0; i < m_nodes.size(); ++i) {
        const Node &n = m_nodes[i];
        const int w = i < weights.size() ? weights[i] : 1;
        providers[n.name.toStdString()] = {
            {"keys", nlohmann::ordered_json::array(
                         {{{"name", n.name.toStdString() + "-key"}, {"value", "dummy"}, {"models", {Model}},
                           {"weight", w}}})},
            {"network_config",
             {{"base_url", u"http://127.0.0.1:%1"_s.arg(n.port).toStdString()},
              {"default_request_timeout_in_seconds", 15},
              {"max_retries", 1},
              {"retry_backoff_initial", 100},
              {"retry_backoff_max", 500},
              {"stream_idle_timeout_in_seconds", 2}}},
            {"custom_provider_config", {{"base_provider_type", "openai"}}}};
    }
    nlohmann::ordered_json j;
    j["providers"] = providers;
    // A hung node costs a request 3 s before it moves on; checks every second find a node back quickly.
    j["switchyard"] = {{"listen", u"127.0.0.1:%1"_s.arg(m_gatewayPort).toStdString()},
                       {"worker_threads", 2},
                       {"connect_timeout_ms", 1000},
                       {"response_header_timeout_ms", 3000},
                       {"health_check_interval_ms", 1000}};
    return QByteArray::fromStdString(j.dump(2));
}

bool SoakFleet::start()
{
    for (Node &n : m_nodes) {
        n.port = freePort();
        if (n.port == 0 || !startNode(n))
            return false;
    }
    m_gatewayPort = freePort();
    writeConfigFile({});
    return startGateway();
}

bool SoakFleet::startGateway()
{
    m_gateway = std::make_unique<QProcess>();
    // The request log (one line per request) is not needed; problems go to stderr, kept in a file.
    m_gateway->setStandardOutputFile(QProcess::nullDevice());
    m_gateway->setStandardErrorFile(m_workDir + u"/switchyard.log"_s, QIODevice::Append);
    m_gateway->start(m_switchyard, {u"--headless"_s, u"--config"_s, m_configPath});
    if (!m_gateway->waitForStarted(5000) || !waitForHealth(m_gatewayPort, 15000)) {
        std::fprintf(stderr, "soak: the gateway did not come up on port %u (log: %s/switchyard.log)\n",
                     m_gatewayPort, qPrintable(m_workDir));
        return false;
    }
    return true;
}

void SoakFleet::restartGateway()
{
    if (!m_gateway || m_gateway->state() != QProcess::Running)
        return;
    QProcess *old = m_gateway.get();
    m_restarting = true;
    connect(old, &QProcess::finished, this, [this, old](int code, QProcess::ExitStatus status) {
        ++gatewayRestarts;
        if (status != QProcess::NormalExit || code != 0) {
            ++gatewayRestartsUnclean;
            gatewayRestartProblems << (status == QProcess::NormalExit ? u"exit code %1"_s.arg(code) : u"crashed"_s);
        }
        // Not inside the finished() of the process being replaced.
        QMetaObject::invokeMethod(this, [this, old] {
            if (m_gateway.get() == old && !startGateway())
                gatewayRestartProblems << u"did not come back on its port"_s;
            m_restarting = false;
        }, Qt::QueuedConnection);
    });
    old->terminate();
}

void SoakFleet::stopAll()
{
    auto stop = [](QProcess *p) {
        if (!p || p->state() == QProcess::NotRunning)
            return;
        p->terminate();
        if (!p->waitForFinished(10000)) {
            p->kill();
            p->waitForFinished(5000);
        }
    };
    if (m_gateway && m_gateway->state() != QProcess::NotRunning) {
        stop(m_gateway.get());
        gatewayExitedCleanly = m_gateway->exitStatus() == QProcess::NormalExit && m_gateway->exitCode() == 0;
        gatewayExit = m_gateway->exitStatus() == QProcess::NormalExit
                          ? u"exit code %1"_s.arg(m_gateway->exitCode())
                          : u"crashed"_s;
    }
    for (Node &n : m_nodes)
        stop(n.process.get());
}

QString SoakFleet::gatewayLogTail(int lines) const
{
    QFile f(m_workDir + u"/switchyard.log"_s);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QList<QByteArray> all = f.readAll().split('\n');
    // The request log's good lines are noise here; its failed ones (with why) and everything else stay.
    all.removeIf([](const QByteArray &l) { return l.contains(" status=2") || l.contains(" status=499 "); });
    QStringList out;
    for (qsizetype i = std::max<qsizetype>(0, all.size() - lines); i < all.size(); ++i)
        out << QString::fromUtf8(all[i]);
    return out.join(u'\n');
}

void SoakFleet::setFault(int node, const QByteArray &json)
{
    QNetworkRequest req(QUrl(u"http://127.0.0.1:%1/control/fault"_s.arg(m_nodes[size_t(node)].port)));
    req.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
    QNetworkReply *reply = m_http.post(req, json);
    connect(reply, &QNetworkReply::finished, this, [this, reply] {
        if (reply->error() != QNetworkReply::NoError)
            ++controlFailures;
        reply->deleteLater();
    });
}

void SoakFleet::stopNode(int node, bool kill)
{
    QProcess *p = m_nodes[size_t(node)].process.get();
    if (!p || p->state() == QProcess::NotRunning)
        return;
    if (kill)
        p->kill();
    else
        p->terminate();
    p->waitForFinished(5000);
}

void SoakFleet::restartNode(int node)
{
    Node &n = m_nodes[size_t(node)];
    if (n.process && n.process->state() != QProcess::NotRunning)
        return;
    // Blocks the soak's loop for the node's start (~50 ms): its clients' requests wait that long.
    if (!startNode(n))
        ++controlFailures;
}

void SoakFleet::putConfig(const std::vector<int> &weights)
{
    if (m_restarting) {
        ++configPutsSkipped; // no gateway to take it: an operator would wait for the restart too
        return;
    }
    QNetworkRequest req(QUrl(u"http://127.0.0.1:%1/api/config"_s.arg(m_gatewayPort)));
    req.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
    QNetworkReply *reply = m_http.put(req, configJson(weights));
    connect(reply, &QNetworkReply::finished, this, [this, reply] {
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (status == 200)
            ++configPutsOk;
        else {
            ++configPutsFailed;
            std::fprintf(stderr, "soak: PUT /api/config answered %d: %s\n", status,
                         reply->readAll().left(300).constData());
        }
        reply->deleteLater();
    });
}

void SoakFleet::writeConfigFile(const std::vector<int> &weights)
{
    // As an editor saves: a new file renamed over the old one.
    QSaveFile f(m_configPath);
    if (f.open(QIODevice::WriteOnly)) {
        f.write(configJson(weights));
        f.commit();
    }
}

void SoakFleet::sighup()
{
    if (m_gateway && m_gateway->state() == QProcess::Running)
        ::kill(pid_t(m_gateway->processId()), SIGHUP);
}

} // namespace switchyard::soak
