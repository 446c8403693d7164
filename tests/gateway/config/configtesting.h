#pragma once

// What the config loader's test classes share: a fake environment for ${VAR} references, the test data
// files, problems as text, and a small valid document the mistake rows change one place at a time.

#include "config/configloader.h"

#include <QFile>
#include <QMap>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>
#include <optional>

namespace switchyard::config::testing {

using namespace Qt::Literals::StringLiterals;
using Json = nlohmann::ordered_json;

inline EnvLookup fakeEnv(const QMap<QString, QString> &vars)
{
    return [vars](const QString &name) -> std::optional<QString> {
        const auto it = vars.constFind(name);
        if (it == vars.cend())
            return std::nullopt;
        return *it;
    };
}

inline const EnvLookup noEnv = fakeEnv({});

inline QString dataFile(const char *name)
{
    return QStringLiteral(SWITCHYARD_CONFIG_TESTDATA) + u'/' + QString::fromUtf8(name);
}

inline QByteArray readData(const char *name)
{
    QFile f(dataFile(name));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot open test data %s", name);
    return f.readAll();
}

inline QString describe(const ConfigProblems &problems)
{
    QStringList lines;
    for (const ConfigProblem &p : problems)
        lines.append(p.toString());
    return lines.join(u'\n');
}

inline bool hasProblem(const ConfigProblems &problems, const QString &path, const QString &fragment)
{
    for (const ConfigProblem &p : problems) {
        if (p.path == path && p.message.contains(fragment))
            return true;
    }
    return false;
}

// A small valid document the mistake rows mutate one place at a time.
inline const char *const kMinimal =
    "{\"providers\": {\"p1\": {"
    "\"keys\": [{\"name\": \"k1\", \"value\": \"v\", \"models\": [\"m\"], \"weight\": 1}],"
    "\"network_config\": {\"base_url\": \"http://10.0.0.1:8000\"},"
    "\"custom_provider_config\": {\"base_provider_type\": \"openai\"}}}}";

inline Json minimal()
{
    return Json::parse(kMinimal);
}

inline QByteArray dump(const Json &j)
{
    const std::string s = j.dump(2);
    return QByteArray(s.data(), qsizetype(s.size()));
}

// Every field of a provider in one string, so two parses can be compared whole.
inline QString describe(const ProviderConfig &p)
{
    QString s = p.name + u'|' + p.baseProviderType + u'|' + QString::number(p.concurrency) + u'|' +
                QString::number(p.bufferSize) + u'|';
    for (const KeyConfig &k : p.keys)
        s += u"key("_s + k.name + u',' + k.value + u',' + k.valueRef + u',' + k.models.join(u';') + u',' +
             QString::number(k.weight) + u',' + (k.enabled ? u"on"_s : u"off"_s) + u')';
    const NetworkConfig &n = p.network;
    s += u'|' + n.baseUrl + u'|' + QString::number(n.requestTimeoutSeconds) + u'|' +
         QString::number(n.maxRetries) + u'|' + QString::number(n.retryBackoffInitialMs) + u'|' +
         QString::number(n.retryBackoffMaxMs) + u'|' + QString::number(n.streamIdleTimeoutSeconds) + u'|';
    for (const auto &[name, value] : n.extraHeaders)
        s += QString::fromUtf8(name) + u'=' + QString::fromUtf8(value) + u';';
    for (RequestKind kind :
         {RequestKind::ChatCompletion, RequestKind::ChatCompletionStream, RequestKind::TextCompletion,
          RequestKind::TextCompletionStream, RequestKind::Embedding, RequestKind::ListModels})
        s += p.allowed.allows(kind) ? u'1' : u'0';
    return s;
}

} // namespace switchyard::config::testing
