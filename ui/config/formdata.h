#pragma once

// What the config editor's form shows, read from the JSON text as it stands (through a JsonTextIndex, so
// a config that is still being fixed shows too), and the paths of the places in the text the form writes.
// Secrets are never read into the form: a literal key value is only "there", an "env.NAME" reference is
// kept as written and never resolved.

#include "jsontextindex.h"

#include <QMap>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

namespace switchyard::ui {

// What the form shows, read from the text.
struct FormKey
{
    QString name;
    bool hasValue = false;
    bool valueIsRef = false;
    QString valueRef; // "env.NAME" as written (never the resolved secret)
    bool modelsSet = false;
    QStringList models; // as written; absent = every model
    std::optional<double> weight;
    QString weightText; // the JSON as written, when it is not a number
    bool enabled = true;
};

struct FormProvider
{
    QString name;
    QString baseUrl;
    std::vector<FormKey> keys;
    std::optional<int> timeoutSeconds; // default_request_timeout_in_seconds as written
    std::optional<int> maxRetries;
    bool keysReadable = true; // "keys" is an array
};

struct FormData
{
    bool readable = false; // the text is JSON with an object at the top
    std::vector<FormProvider> providers;
    QString listen;          // switchyard.listen as written, empty when absent
    QString defaultStrategy; // switchyard.routing.default_strategy as written, empty when absent
    QMap<QString, QString> strategyByModel;
    // session_affinity's and cache_aware's settings in switchyard.routing, each as written (JSON text
    // for the numbers), empty when absent.
    QMap<QString, QString> routingSettings;
    // switchyard.history's members ("history.path", …) and switchyard.redis_url, each as written (JSON
    // text for the numbers), empty when absent.
    QMap<QString, QString> storageSettings;
};

// The members of switchyard.routing the routing box edits, besides the strategies.
QStringList routingSettingKeys();

FormData readForm(const JsonTextIndex &index);

// The strategy names the loader knows, and what the form calls them.
QStringList strategyIds();
QString strategyLabel(const QString &id);

// providers.<provider>, then the members `rest` below it.
JsonPath providerPath(const QString &provider, const QStringList &rest = {});
// providers.<provider>.keys[key], then the members `rest` below it.
JsonPath keyPath(const QString &provider, int key, const QStringList &rest = {});
// switchyard.<rest…>: the gateway's own settings.
JsonPath settingsPath(const QStringList &rest);

} // namespace switchyard::ui
