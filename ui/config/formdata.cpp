#include "formdata.h"

#include <QObject>

#include <algorithm>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {

using Kind = JsonTextIndex::Kind;

JsonPath withMembers(JsonPath path, const QStringList &names)
{
    for (const QString &name : names)
        path << JsonPathSegment{name, -1};
    return path;
}

QString describeValue(const JsonTextIndex::Node &n)
{
    switch (n.kind) {
    case Kind::String:
        return jsonQuote(n.string);
    case Kind::Number:
        return jsonNumber(n.number);
    case Kind::Bool:
        return n.boolean ? u"true"_s : u"false"_s;
    case Kind::Null:
        return u"null"_s;
    case Kind::Object:
        return u"{…}"_s;
    case Kind::Array:
        return u"[…]"_s;
    }
    return {};
}

FormKey readKey(const JsonTextIndex &index, int node)
{
    FormKey k;
    if (index.node(node).kind != Kind::Object)
        return k;
    k.name = index.stringAt(node, u"name").value_or(QString());
    if (const auto value = index.stringAt(node, u"value")) {
        k.hasValue = true;
        if (value->startsWith(u"env."_s)) {
            k.valueIsRef = true;
            k.valueRef = *value;
        }
    }
    const int models = index.member(node, u"models");
    if (models >= 0 && index.node(models).kind == Kind::Array) {
        k.modelsSet = true;
        for (int m : index.node(models).children) {
            if (index.node(m).kind == Kind::String)
                k.models << index.node(m).string;
        }
    }
    k.weight = index.numberAt(node, u"weight");
    const int w = index.member(node, u"weight");
    if (!k.weight && w >= 0)
        k.weightText = describeValue(index.node(w));
    k.enabled = index.boolAt(node, u"enabled").value_or(true);
    return k;
}

std::optional<int> intAt(const JsonTextIndex &index, int object, QStringView name)
{
    const auto v = index.numberAt(object, name);
    if (!v)
        return std::nullopt;
    return int(std::clamp(*v, -2e9, 2e9));
}

// providers.<name> as the form shows it.
FormProvider readProvider(const JsonTextIndex &index, int node)
{
    FormProvider p;
    p.name = index.node(node).key;
    if (index.node(node).kind != Kind::Object)
        return p;
    const int net = index.member(node, u"network_config");
    if (net >= 0 && index.node(net).kind == Kind::Object) {
        p.baseUrl = index.stringAt(net, u"base_url").value_or(QString());
        p.timeoutSeconds = intAt(index, net, u"default_request_timeout_in_seconds");
        p.maxRetries = intAt(index, net, u"max_retries");
    }
    const int keys = index.member(node, u"keys");
    p.keysReadable = keys < 0 || index.node(keys).kind == Kind::Array;
    if (keys >= 0 && index.node(keys).kind == Kind::Array) {
        for (int k : index.node(keys).children)
            p.keys.push_back(readKey(index, k));
    }
    return p;
}

// switchyard.listen and switchyard.routing as the form shows them.
void readSettings(const JsonTextIndex &index, int sy, FormData &f)
{
    f.listen = index.stringAt(sy, u"listen").value_or(QString());
    if (const auto url = index.stringAt(sy, u"redis_url"))
        f.storageSettings.insert(u"redis_url"_s, *url);
    const int history = index.member(sy, u"history");
    if (history >= 0 && index.node(history).kind == Kind::Object) {
        for (const QString &key : {u"path"_s, u"max_age_days"_s, u"max_size_mb"_s}) {
            if (const auto text = index.stringAt(history, key))
                f.storageSettings.insert(u"history."_s + key, *text);
            else if (const auto number = index.numberAt(history, key))
                f.storageSettings.insert(u"history."_s + key, QString::number(*number, 'g', 12));
        }
    }
    const int routing = index.member(sy, u"routing");
    if (routing < 0 || index.node(routing).kind != Kind::Object)
        return;
    f.defaultStrategy = index.stringAt(routing, u"default_strategy").value_or(QString());
    for (const QString &key : routingSettingKeys()) {
        if (const auto text = index.stringAt(routing, key))
            f.routingSettings.insert(key, *text);
        else if (const auto number = index.numberAt(routing, key))
            f.routingSettings.insert(key, QString::number(*number, 'g', 12));
    }
    const int models = index.member(routing, u"models");
    if (models >= 0 && index.node(models).kind == Kind::Object) {
        for (int m : index.node(models).children) {
            if (index.node(m).kind == Kind::String)
                f.strategyByModel.insert(index.node(m).key, index.node(m).string);
        }
    }
}

} // namespace

QStringList strategyIds()
{
    return {u"weighted_round_robin"_s, u"least_outstanding"_s, u"load_aware"_s, u"session_affinity"_s,
            u"cache_aware"_s};
}

QStringList routingSettingKeys()
{
    return {u"session_header"_s, u"fallback_strategy"_s, u"cache_threshold"_s, u"balance_abs_threshold"_s,
            u"balance_rel_threshold"_s};
}

QString strategyLabel(const QString &id)
{
    if (id == u"weighted_round_robin"_s)
        return QObject::tr("weighted round robin");
    if (id == u"least_outstanding"_s)
        return QObject::tr("least outstanding");
    if (id == u"load_aware"_s)
        return QObject::tr("load aware");
    if (id == u"session_affinity"_s)
        return QObject::tr("session affinity");
    if (id == u"cache_aware"_s)
        return QObject::tr("cache aware");
    return id;
}

FormData readForm(const JsonTextIndex &index)
{
    FormData f;
    const int root = index.root();
    if (!index.isComplete() || root < 0 || index.node(root).kind != Kind::Object)
        return f;
    f.readable = true;
    const int providers = index.member(root, u"providers");
    if (providers >= 0 && index.node(providers).kind == Kind::Object) {
        for (int c : index.node(providers).children) {
            if (index.member(providers, index.node(c).key) != c)
                continue; // a repeated name: the last one counts (and the problem list says so)
            f.providers.push_back(readProvider(index, c));
        }
    }
    const int sy = index.member(root, u"switchyard");
    if (sy >= 0 && index.node(sy).kind == Kind::Object)
        readSettings(index, sy, f);
    return f;
}

JsonPath providerPath(const QString &provider, const QStringList &rest)
{
    return withMembers(JsonPath{{u"providers"_s, -1}, {provider, -1}}, rest);
}

JsonPath keyPath(const QString &provider, int key, const QStringList &rest)
{
    JsonPath path = providerPath(provider, {u"keys"_s});
    path << JsonPathSegment{{}, key};
    return withMembers(path, rest);
}

JsonPath settingsPath(const QStringList &rest)
{
    return withMembers(JsonPath{{u"switchyard"_s, -1}}, rest);
}

} // namespace switchyard::ui
