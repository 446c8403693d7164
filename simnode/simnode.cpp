#include "simnode.h"

#include "simserver.h"

#include <QEventLoop>
#include <QHostAddress>
#include <QThread>

#include <future>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::sim {

SimNode::SimNode(SimNodeOptions options, QObject *parent)
    : QObject(parent), m_options(std::move(options)), m_shared(std::make_unique<SharedState>())
{
    m_shared->fault = int(m_options.fault);
}

SimNode::~SimNode()
{
    stop();
}

Expected<quint16, QString> SimNode::start()
{
    QMutexLocker lock(&m_control);
    if (m_thread)
        return m_port.load();
    if (const QString why = validateOptions(m_options); !why.isEmpty())
        return unexpected(why);

    std::promise<Expected<quint16, QString>> started;
    auto result = started.get_future();
    // The server is created, run and destroyed on the node's thread, so its sockets and timers never
    // cross threads. Only stop() ends the loop, and stop() holds m_control while it does.
    m_thread.reset(QThread::create([this, &started] {
        auto server = std::make_unique<SimServer>(m_options, *m_shared);
        Expected<quint16, QString> listened = server->listen();
        if (listened)
            m_server = server.get();
        started.set_value(std::move(listened)); // `started` must not be touched after this
        if (!m_server)
            return;
        QEventLoop loop;
        loop.exec();
        m_server = nullptr;
        server.reset();
    }));
    m_thread->setObjectName(u"simnode:"_s + (m_options.name.isEmpty() ? m_options.models.value(0) : m_options.name));
    m_thread->start();
    Expected<quint16, QString> r = result.get();
    if (!r) {
        m_thread->wait();
        m_thread.reset();
        return r;
    }
    m_port = *r;
    return r;
}

void SimNode::stop()
{
    QMutexLocker lock(&m_control);
    if (!m_thread)
        return;
    m_thread->quit();
    m_thread->wait();
    m_thread.reset();
}

bool SimNode::isRunning() const
{
    QMutexLocker lock(&m_control);
    return m_thread != nullptr;
}

QString SimNode::baseUrl() const
{
    QHostAddress a(m_options.host);
    QString host = m_options.host;
    if (a == QHostAddress::AnyIPv4 || a == QHostAddress::Any)
        host = u"127.0.0.1"_s;
    else if (a == QHostAddress::AnyIPv6)
        host = u"[::1]"_s;
    else if (a.protocol() == QAbstractSocket::IPv6Protocol)
        host = u'[' + host + u']';
    return u"http://"_s + host + u':' + QString::number(port());
}

void SimNode::setFault(FaultMode mode, FaultParams params)
{
    QMutexLocker lock(&m_control);
    m_options.fault = mode;
    m_options.faultParams = params;
    SimServer *server = m_server.load();
    if (!server) {
        m_shared->fault = int(mode);
        return;
    }
    const auto type = QThread::currentThread() == m_thread.get() ? Qt::DirectConnection : Qt::BlockingQueuedConnection;
    QMetaObject::invokeMethod(server, [server, mode, params] { server->setFault(mode, params); }, type);
}

FaultMode SimNode::fault() const
{
    return FaultMode(m_shared->fault.load());
}

SimNode::Counters SimNode::counters() const
{
    const SharedState &s = *m_shared;
    Counters c;
    c.requestsReceived = s.requestsReceived.load();
    c.completed = s.completed.load();
    c.clientAborts = s.clientAborts.load();
    c.running = s.running.load();
    c.waiting = s.waiting.load();
    c.openConnections = s.openConnections.load();
    c.bytesReceived = s.bytesReceived.load();
    c.promptTokens = s.promptTokens.load();
    c.cachedPromptTokens = s.cachedPromptTokens.load();
    c.generationTokens = s.generationTokens.load();
    c.faultsInjected = s.faultsInjected.load();
    return c;
}

} // namespace switchyard::sim
