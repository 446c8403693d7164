#include "config/configcontroller.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QPromise>
#include <QThreadPool>
#include <QTimer>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::config {

namespace {
// Other programs write in steps (truncate, write, rename): look once they are done.
constexpr int SettleMs = 200;
} // namespace

ConfigController::ConfigController(Gateway *gateway, QObject *parent)
    : QObject(parent), m_gateway(gateway), m_watcher(new QFileSystemWatcher(this)), m_settle(new QTimer(this))
{
    m_settle->setSingleShot(true);
    m_settle->setInterval(SettleMs);
    connect(m_watcher, &QFileSystemWatcher::fileChanged, m_settle, qOverload<>(&QTimer::start));
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, m_settle, qOverload<>(&QTimer::start));
    connect(m_settle, &QTimer::timeout, this, &ConfigController::checkDisk);
    if (m_gateway) {
        m_gateway->setConfigUpdateHandler([this](const GatewayConfig &parsed, const QByteArray &text) {
            return updateFromApi(parsed, text);
        });
    }
}

ConfigController::~ConfigController()
{
    if (m_gateway)
        m_gateway->setConfigUpdateHandler({}); // the gateway applies as it is again
}

// --- validation ---------------------------------------------------------------------------------------

ConfigValidation ConfigController::validate(QByteArrayView json, const EnvLookup &env)
{
    ConfigValidation v;
    QElapsedTimer timer;
    timer.start();
    auto parsed = parseConfig(json, env);
    if (parsed)
        v.config = std::move(*parsed);
    else
        v.problems = parsed.error();
    v.micros = timer.nsecsElapsed() / 1000;
    return v;
}

QFuture<ConfigValidation> ConfigController::validateInBackground(QByteArray json, EnvLookup env)
{
    auto promise = std::make_shared<QPromise<ConfigValidation>>();
    QFuture<ConfigValidation> future = promise->future();
    promise->start();
    QThreadPool::globalInstance()->start([promise, json = std::move(json), env = std::move(env)] {
        promise->addResult(validate(json, env));
        promise->finish();
    });
    return future;
}

// --- apply --------------------------------------------------------------------------------------------

Expected<std::optional<ListenAddress>, QString> ConfigController::setListenOverride(const QString &listen)
{
    if (listen.isEmpty()) {
        m_listen.clear();
        m_listenAddress.reset();
        return std::optional<ListenAddress>();
    }
    auto address = parseListenAddress(listen);
    if (!address)
        return unexpected(address.error());
    m_listen = listen;
    m_listenAddress = *address;
    return m_listenAddress;
}

Gateway::ApplyResult ConfigController::apply(GatewayConfig config, const QString &source)
{
    if (!m_gateway)
        return {};
    if (m_listenAddress) {
        config.settings.listenHost = m_listenAddress->host;
        config.settings.listenPort = m_listenAddress->port;
    }
    m_source = source;
    const Gateway::ApplyResult result = m_gateway->applyConfig(config);
    emit applied(result, source);
    return result;
}

Expected<Gateway::ApplyResult, ConfigProblems> ConfigController::applyText(QByteArrayView json,
                                                                           const QString &source)
{
    auto parsed = parseConfig(json);
    if (!parsed)
        return unexpected(parsed.error());
    return apply(std::move(*parsed), source);
}

std::optional<QString> ConfigController::exposedHost() const
{
    if (!m_gateway)
        return std::nullopt;
    const GatewaySettings &s = m_gateway->config().settings;
    if (s.allowUnauthenticatedNetworkAccess && s.apiKeys.isEmpty() && !isLoopbackHost(s.listenHost))
        return s.listenHost;
    return std::nullopt;
}

QString ConfigController::exposureWarning() const
{
    const auto host = exposedHost();
    if (!host)
        return {};
    return u"warning: the gateway is reachable from the network without API keys: anyone who can reach "_s %
           *host %
           u" can use your nodes (switchyard.allow_unauthenticated_network_access is true); set "
           "switchyard.api_keys to require a key"_s;
}

Gateway::ConfigUpdate ConfigController::updateFromApi(const GatewayConfig &parsed, const QByteArray &text)
{
    // The file is the truth: a config sent over the API is saved first, then applied. Without a file
    // (the demo, a text not saved yet) it is applied in memory.
    Gateway::ConfigUpdate update;
    if (!m_path.isEmpty()) {
        const auto saved = saveValidConfig(m_path, text);
        if (!saved) {
            update.error = saved.error().toString();
            emit apiConfigRefused(update.error);
            return update;
        }
        update.savedTo = saved->path;
        m_apiSavedText = text;
    }
    update.result = apply(parsed, m_path.isEmpty() ? m_source : m_path);
    emit apiConfigApplied(update.result, update.savedTo);
    return update;
}

// --- the file -----------------------------------------------------------------------------------------

void ConfigController::takeFile(const QString &path, const QByteArray &bytes)
{
    m_path = path;
    m_knownBytes = bytes;
    m_missing = false;
    watch();
}

Expected<QByteArray, FileError> ConfigController::openFile(const QString &path)
{
    auto bytes = readConfigBytes(path);
    if (bytes) {
        m_apiSavedText.clear();
        takeFile(QFileInfo(path).absoluteFilePath(), *bytes);
    }
    return bytes;
}

Expected<GatewayConfig, ConfigProblems> ConfigController::openConfigFile(const QString &path)
{
    const auto bytes = openFile(path);
    if (!bytes) {
        return unexpected(ConfigProblems{
            ConfigProblem{path, 0, 0, u"cannot read the config: "_s % bytes.error().reason()}});
    }
    return parseConfig(*bytes);
}

void ConfigController::closeFile()
{
    m_path.clear();
    m_knownBytes.clear();
    m_apiSavedText.clear();
    m_missing = false;
    watch();
}

Expected<QByteArray, FileError> ConfigController::rereadFile()
{
    if (m_path.isEmpty())
        return unexpected(FileError{FileError::Kind::Unreadable, {}, u"there is no file"_s, {}});
    auto bytes = readConfigBytes(m_path);
    if (bytes)
        takeFile(m_path, *bytes);
    return bytes;
}

Expected<SavedConfig, FileError> ConfigController::saveAs(const QString &path, const QByteArray &bytes)
{
    const QString target = QFileInfo(path).absoluteFilePath();
    auto saved = saveValidConfig(target, bytes);
    if (saved) {
        if (target != m_path)
            m_apiSavedText.clear();
        takeFile(target, bytes);
    }
    return saved;
}

void ConfigController::watch()
{
    if (!m_watcher->files().isEmpty())
        m_watcher->removePaths(m_watcher->files());
    if (!m_watcher->directories().isEmpty())
        m_watcher->removePaths(m_watcher->directories());
    if (m_path.isEmpty())
        return;
    // The directory too: a program that saves by writing a new file and renaming it over this one replaces
    // the watched file, and inotify then stops reporting it. The directory sees the new file arrive.
    m_watcher->addPath(QFileInfo(m_path).absolutePath());
    if (QFileInfo::exists(m_path))
        m_watcher->addPath(m_path);
}

void ConfigController::checkDisk()
{
    if (m_path.isEmpty())
        return;
    const bool exists = QFileInfo::exists(m_path);
    if (exists && !m_watcher->files().contains(m_path))
        m_watcher->addPath(m_path); // the file was replaced (atomic rename): watch the new one
    if (!exists) {
        if (!m_missing) {
            m_missing = true;
            emit fileMissing(m_path);
            if (m_reloadOnChange)
                reload(u"file changed"_s);
        }
        return;
    }
    const auto bytes = readConfigBytes(m_path);
    if (!bytes || *bytes == m_knownBytes) {
        if (bytes && m_missing) {
            m_missing = false;
            emit fileRestored(m_path);
        }
        return; // a save of our own, a touch, or a change in another file of the directory
    }
    m_missing = false;
    emit fileChanged(m_path);
    if (m_reloadOnChange)
        reload(u"file changed"_s);
}

void ConfigController::reload(const QString &why)
{
    if (m_path.isEmpty())
        return;
    const auto bytes = readConfigBytes(m_path);
    if (bytes)
        m_knownBytes = *bytes;
    if (bytes && !m_apiSavedText.isEmpty() && *bytes == m_apiSavedText)
        return; // our own save of a config that came over the API: already running
    m_apiSavedText.clear();
    if (!bytes) {
        emit reloadRejected(
            why, {ConfigProblem{m_path, 0, 0, u"cannot read the config: "_s % bytes.error().reason()}});
        return;
    }
    auto parsed = parseConfig(*bytes);
    if (!parsed) {
        emit reloadRejected(why, parsed.error());
        return;
    }
    const Gateway::ApplyResult result = apply(std::move(*parsed), m_path);
    emit reloaded(why, result);
}

} // namespace switchyard::config
