#include "config/configloader.h"

#include "config/configlimits.h"
#include "config/configreader.h"
#include "config/strictjson.h"

#include <QFile>
#include <QFileInfo>

#include <exception>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::config {

namespace {

Expected<GatewayConfig, ConfigProblems> parseAndRead(QByteArrayView json, const EnvLookup &env)
{
    ConfigProblems problems;
    const std::optional<Json> doc = parseStrictJson(json, problems);
    if (!doc)
        return unexpected(problems);
    GatewayConfig cfg = readConfig(*doc, env, problems);
    if (!problems.isEmpty())
        return unexpected(problems);
    return cfg;
}

Unexpected<ConfigProblems> fileProblem(const QString &path, const QString &message)
{
    return unexpected(ConfigProblems{ConfigProblem{path, 0, 0, message}});
}

} // namespace

EnvLookup processEnvironment()
{
    return [](const QString &name) -> std::optional<QString> {
        const QByteArray n = name.toLocal8Bit();
        if (!qEnvironmentVariableIsSet(n.constData()))
            return std::nullopt;
        return qEnvironmentVariable(n.constData());
    };
}

QString exposureProblem(const GatewaySettings &settings)
{
    if (isLoopbackHost(settings.listenHost) || !settings.apiKeys.isEmpty() || !settings.adminKeys.isEmpty() ||
        settings.allowUnauthenticatedNetworkAccess)
        return {};
    return u"listening on "_s + settings.listenHost +
           u" makes the gateway reachable from the network, and anyone who reaches it could use your nodes: "
           "set switchyard.api_keys (clients then send Authorization: Bearer <key>), or set "
           "switchyard.allow_unauthenticated_network_access to true to accept that"_s;
}

Expected<GatewayConfig, ConfigProblems> parseConfig(QByteArrayView json, const EnvLookup &env)
{
    // Nothing throws across the API: an exception here (allocation failure, a bug) becomes a problem.
    try {
        return parseAndRead(json, env);
    } catch (const std::exception &e) {
        return unexpected(ConfigProblems{ConfigProblem{
            {}, 0, 0, u"internal error while reading the config: "_s + QString::fromUtf8(e.what())}});
    } catch (...) {
        return unexpected(
            ConfigProblems{ConfigProblem{{}, 0, 0, u"internal error while reading the config"_s}});
    }
}

Expected<GatewayConfig, ConfigProblems> loadConfigFile(const QString &path, const EnvLookup &env)
{
    QFile file(path);
    if (QFileInfo(path).isDir())
        return fileProblem(path, u"cannot read the config: it is a directory"_s);
    if (!file.open(QIODevice::ReadOnly))
        return fileProblem(path, u"cannot read the config: "_s + file.errorString());
    if (file.size() > kMaxConfigBytes)
        return fileProblem(path, u"the file is "_s + QString::number(file.size()) +
                                     u" bytes: too big to be a config (limit "_s +
                                     QString::number(kMaxConfigBytes) + u")"_s);
    const QByteArray data = file.read(kMaxConfigBytes + 1);
    if (file.error() != QFileDevice::NoError)
        return fileProblem(path, u"cannot read the config: "_s + file.errorString());
    return parseConfig(data, env);
}

} // namespace switchyard::config
