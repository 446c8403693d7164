#include "config/configloader.h"

#include <QFile>
#include <QFileInfo>
#include <QHostAddress>
#include <QUrl>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <unordered_set>
#include <vector>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::config {

QString ConfigProblem::toString() const
{
    if (line > 0)
        return u"line "_s + QString::number(line) + u", column "_s + QString::number(column) + u": "_s +
               message;
    if (path.isEmpty())
        return message;
    return path + u": "_s + message;
}

bool isLoopbackHost(const QString &host)
{
    if (host.compare(u"localhost"_s, Qt::CaseInsensitive) == 0)
        return true;
    const QHostAddress address(host);
    return !address.isNull() && address.isLoopback();
}

QString exposureProblem(const GatewaySettings &settings)
{
    if (isLoopbackHost(settings.listenHost) || !settings.apiKeys.isEmpty() || settings.allowUnauthenticatedNetworkAccess)
        return {};
    return u"listening on "_s + settings.listenHost
           + u" makes the gateway reachable from the network, and anyone who reaches it could use your nodes: "
             "set switchyard.api_keys (clients then send Authorization: Bearer <key>), or set "
             "switchyard.allow_unauthenticated_network_access to true to accept that"_s;
}

EnvLookup processEnvironment()
{
    return [](const QString &name) -> std::optional<QString> {
        const QByteArray n = name.toLocal8Bit();
        if (!qEnvironmentVariableIsSet(n.constData()))
            return std::nullopt;
        return qEnvironmentVariable(n.constData());
    };
}

namespace {

// ordered_json keeps members in file order: providers come out in the order the operator wrote them,
// and an export reads like the file it came from.
using Json = nlohmann::ordered_json;

// A config file is a few kilobytes; anything this big is a mistake (wrong file), not a config.
constexpr qint64 kMaxConfigBytes = 16LL * 1024 * 1024;
// Nothing in the schema nests deeper than 5; the cap keeps hostile input from exhausting the stack in
// recursive consumers (dump, destructors of older nlohmann versions).
constexpr std::size_t kMaxDepth = 64;
// Upper bounds for time values: a day is far beyond any sane timeout and keeps "seconds × 1000" and
// "2^n × backoff" arithmetic in consumers comfortably inside int.
constexpr qint64 kDaySeconds = 24 * 60 * 60;
constexpr qint64 kDayMs = kDaySeconds * 1000;

QString fromStd(const std::string &s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

bool isPlainName(const QString &s)
{
    if (s.isEmpty())
        return false;
    for (const QChar c : s) {
        const char16_t u = c.unicode();
        const bool ok = (u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z') || (u >= u'0' && u <= u'9') ||
                        u == u'-' || u == u'_';
        if (!ok)
            return false;
    }
    return true;
}

QString quoted(const QString &s)
{
    QString out;
    out.reserve(s.size() + 2);
    out += u'"';
    for (const QChar c : s) {
        const char16_t u = c.unicode();
        if (u == u'"' || u == u'\\') {
            out += u'\\';
            out += c;
        } else if (u == u'\r') {
            out += u"\\r"_s;
        } else if (u == u'\n') {
            out += u"\\n"_s;
        } else if (u < 0x20) {
            out += u"\\u"_s + QString::number(int(u), 16).rightJustified(4, u'0');
        } else {
            out += c;
        }
    }
    out += u'"';
    return out;
}

// "parent.name", or parent["odd name"] when the name would make the path ambiguous (dots, slashes, …).
QString memberPath(const QString &parent, const QString &name)
{
    if (!isPlainName(name))
        return parent + u'[' + quoted(name) + u']';
    if (parent.isEmpty())
        return name;
    return parent + u'.' + name;
}

QString memberPath(const QString &parent, const char *name)
{
    return memberPath(parent, QString::fromUtf8(name));
}

QString indexPath(const QString &parent, std::size_t index)
{
    return parent + u'[' + QString::number(qulonglong(index)) + u']';
}

QString typeName(const Json &v)
{
    if (v.is_number())
        return u"a number"_s;
    if (v.is_string())
        return u"a string"_s;
    if (v.is_boolean())
        return u"a boolean"_s;
    if (v.is_object())
        return u"an object"_s;
    if (v.is_array())
        return u"an array"_s;
    return u"null"_s;
}

int editDistance(const QString &a, const QString &b)
{
    std::vector<int> prev(std::size_t(b.size()) + 1), cur(prev.size());
    for (std::size_t j = 0; j < prev.size(); ++j)
        prev[j] = int(j);
    for (qsizetype i = 1; i <= a.size(); ++i) {
        cur[0] = int(i);
        for (qsizetype j = 1; j <= b.size(); ++j) {
            const int subst = prev[std::size_t(j - 1)] + (a[i - 1] == b[j - 1] ? 0 : 1);
            cur[std::size_t(j)] = std::min({prev[std::size_t(j)] + 1, cur[std::size_t(j - 1)] + 1, subst});
        }
        std::swap(prev, cur);
    }
    return prev.back();
}

// " (did you mean "x"?)" when one of the candidates is a plausible typo of `word`, else empty.
QString didYouMean(const QString &word, const QStringList &candidates)
{
    const QString w = word.toLower();
    QString best;
    int bestDistance = std::numeric_limits<int>::max();
    for (const QString &c : candidates) {
        const int d = editDistance(w, c.toLower());
        if (d < bestDistance) {
            bestDistance = d;
            best = c;
        }
    }
    const int allowed = std::max<int>(2, int(std::min(w.size(), best.size()) / 3));
    if (best.isEmpty() || bestDistance > allowed)
        return {};
    return u" (did you mean "_s + quoted(best) + u"?)"_s;
}

// unexpected() would keep a QStringBuilder expression as the error type; pin it to QString.
Unexpected<QString> stringError(const QString &message)
{
    return {message};
}

// Go's time.ParseDuration grammar ("300ms", "1.5s", "2h45m", "0"), converted to milliseconds. Negative
// durations are rejected: a backoff cannot be negative.
Expected<qint64, QString> parseGoDurationMs(const QString &text)
{
    const QString expected = u"expected a duration like \"500ms\", \"2s\" or \"1m30s\""_s;
    if (text == u"0"_s)
        return qint64(0);
    if (text.startsWith(u'-'))
        return stringError(u"must not be negative"_s);
    QString s = text.startsWith(u'+') ? text.mid(1) : text;
    if (s.isEmpty())
        return stringError(expected);
    double totalMs = 0;
    qsizetype i = 0;
    while (i < s.size()) {
        const qsizetype numberStart = i;
        bool digits = false;
        while (i < s.size() && s[i].isDigit() && s[i].unicode() < 128) {
            ++i;
            digits = true;
        }
        if (i < s.size() && s[i] == u'.') {
            ++i;
            while (i < s.size() && s[i].isDigit() && s[i].unicode() < 128) {
                ++i;
                digits = true;
            }
        }
        if (!digits)
            return stringError(expected);
        const double number = s.mid(numberStart, i - numberStart).toDouble();
        const qsizetype unitStart = i;
        while (i < s.size() && !(s[i].isDigit() && s[i].unicode() < 128) && s[i] != u'.')
            ++i;
        const QString unit = s.mid(unitStart, i - unitStart);
        double factor = 0; // milliseconds per unit
        if (unit == u"ns"_s)
            factor = 1e-6;
        else if (unit == u"us"_s || unit == u"\u00b5s"_s || unit == u"\u03bcs"_s)
            factor = 1e-3;
        else if (unit == u"ms"_s)
            factor = 1;
        else if (unit == u"s"_s)
            factor = 1000;
        else if (unit == u"m"_s)
            factor = 60'000;
        else if (unit == u"h"_s)
            factor = 3'600'000;
        else if (unit.isEmpty())
            return stringError(u"missing unit after "_s + s.mid(numberStart, unitStart - numberStart) +
                               u" ("_s + expected + u")"_s);
        else
            return stringError(u"unknown unit "_s + quoted(unit) + u" (use ns, us, ms, s, m or h)"_s);
        totalMs += number * factor;
        if (totalMs > double(kDayMs))
            return stringError(u"must not exceed 24h"_s);
    }
    return qint64(std::llround(totalMs));
}

bool isTokenChar(char16_t c)
{
    // RFC 9110 tchar
    if ((c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9'))
        return true;
    return QStringView(u"!#$%&'*+-.^_`|~").contains(QChar(c));
}

// Headers the gateway writes itself: a second copy from extra_headers would corrupt message framing
// (request smuggling) or the connection's lifetime, so they are rejected rather than silently dropped.
bool isGatewayOwnedHeader(const QString &name)
{
    static const QStringList owned = {u"host"_s,       u"content-length"_s, u"transfer-encoding"_s,
                                      u"connection"_s, u"keep-alive"_s,     u"upgrade"_s,
                                      u"te"_s,         u"trailer"_s,        u"proxy-connection"_s};
    return owned.contains(name.toLower());
}

enum class Kind { String, Boolean, Number, Object, Array };

bool hasKind(const Json &v, Kind kind)
{
    switch (kind) {
    case Kind::String:
        return v.is_string();
    case Kind::Boolean:
        return v.is_boolean();
    case Kind::Number:
        return v.is_number();
    case Kind::Object:
        return v.is_object();
    case Kind::Array:
        return v.is_array();
    }
    return false;
}

QString kindName(Kind kind)
{
    switch (kind) {
    case Kind::String:
        return u"a string"_s;
    case Kind::Boolean:
        return u"a boolean (true or false)"_s;
    case Kind::Number:
        return u"a number"_s;
    case Kind::Object:
        return u"an object"_s;
    case Kind::Array:
        return u"an array"_s;
    }
    return {};
}

const QStringList &settingsFields()
{
    static const QStringList fields = {u"listen"_s,
                                       u"worker_threads"_s,
                                       u"max_connections"_s,
                                       u"max_request_body_bytes"_s,
                                       u"header_timeout_ms"_s,
                                       u"idle_timeout_ms"_s,
                                       u"connect_timeout_ms"_s,
                                       u"response_header_timeout_ms"_s,
                                       u"drain_timeout_ms"_s,
                                       u"health_check_interval_ms"_s,
                                       u"ejection_consecutive_failures"_s,
                                       u"ejection_cooldown_ms"_s,
                                       u"ejection_cooldown_max_ms"_s,
                                       u"ejection_error_rate"_s,
                                       u"ejection_error_rate_min_requests"_s,
                                       u"ejection_error_rate_window_ms"_s,
                                       u"routing"_s,
                                       u"api_keys"_s,
                                       u"allow_unauthenticated_network_access"_s,
                                       u"cors_origins"_s};
    return fields;
}

const QStringList &routingFields()
{
    static const QStringList fields = {u"default_strategy"_s, u"models"_s};
    return fields;
}

const QStringList &strategyNames()
{
    static const QStringList names = {u"weighted_round_robin"_s, u"least_outstanding"_s, u"load_aware"_s};
    return names;
}

// Walks a parsed document and turns it into a GatewayConfig, collecting every problem on the way rather
// than stopping at the first. Conventions (Go's encoding/json, which Bifrost uses): an absent member and
// a JSON null are the same "not set"; a member of the wrong type is an error.
class ConfigReader final
{
public:
    explicit ConfigReader(const EnvLookup &env, ConfigProblems &problems) : m_env(env), m_problems(problems)
    {}

    GatewayConfig readDocument(const Json &doc)
    {
        GatewayConfig cfg;
        if (!doc.is_object()) {
            fail({}, u"the document must be a JSON object, not "_s + typeName(doc));
            return cfg;
        }
        const Json *providers = member(doc, "providers");
        if (!providers) {
            fail(u"providers"_s, u"is required: an object with one member per provider"_s);
        } else if (!providers->is_object()) {
            failType(u"providers"_s, Kind::Object, *providers);
        } else if (providers->empty()) {
            fail(u"providers"_s, u"must hold at least one provider"_s);
        } else {
            for (auto it = providers->begin(); it != providers->end(); ++it)
                cfg.providers.push_back(readProvider(fromStd(it.key()), it.value()));
        }
        if (const Json *sy = get(doc, {}, "switchyard", Kind::Object))
            cfg.settings = readSettings(*sy, u"switchyard"_s);
        return cfg;
    }

private:
    void fail(const QString &path, const QString &message)
    {
        m_problems.append(ConfigProblem{path, 0, 0, message});
    }

    void failType(const QString &path, Kind kind, const Json &v)
    {
        // Appended step by step: the equivalent QStringBuilder chain trips a GCC 12 -Wstringop-overflow
        // false positive here.
        QString message = u"must be "_s;
        message += kindName(kind);
        message += u", not "_s;
        message += typeName(v);
        fail(path, message);
    }

    static const Json *member(const Json &obj, const char *key)
    {
        const auto it = obj.find(key);
        if (it == obj.end() || it->is_null())
            return nullptr;
        return &*it;
    }

    // The member if present and of the right kind; otherwise nullptr, with a problem recorded when it is
    // required-but-absent or present-but-mistyped.
    const Json *get(const Json &obj, const QString &objPath, const char *key, Kind kind,
                    bool required = false, const QString &requiredHint = {})
    {
        const Json *v = member(obj, key);
        if (!v) {
            if (required)
                fail(memberPath(objPath, key), u"is required"_s + requiredHint);
            return nullptr;
        }
        if (!hasKind(*v, kind)) {
            failType(memberPath(objPath, key), kind, *v);
            return nullptr;
        }
        return v;
    }

    std::optional<QString> string(const Json &obj, const QString &objPath, const char *key,
                                  bool required = false)
    {
        if (const Json *v = get(obj, objPath, key, Kind::String, required))
            return fromStd(v->get_ref<const std::string &>());
        return std::nullopt;
    }

    std::optional<bool> boolean(const Json &obj, const QString &objPath, const char *key)
    {
        if (const Json *v = get(obj, objPath, key, Kind::Boolean))
            return v->get<bool>();
        return std::nullopt;
    }

    static QString rangeText(qint64 min, qint64 max)
    {
        return u"must be between "_s + QString::number(min) + u" and "_s + QString::number(max);
    }

    std::optional<qint64> checkInteger(const Json &v, const QString &path, qint64 min, qint64 max)
    {
        qint64 value = 0;
        if (v.is_number_unsigned()) {
            const auto u = v.get<std::uint64_t>();
            if (u > std::uint64_t(max)) {
                fail(path, rangeText(min, max) + u" (got "_s + fromStd(v.dump()) + u")"_s);
                return std::nullopt;
            }
            value = qint64(u);
        } else if (v.is_number_integer()) {
            value = v.get<qint64>();
        } else {
            fail(path, u"must be a whole number, not "_s + fromStd(v.dump()));
            return std::nullopt;
        }
        if (value < min || value > max) {
            fail(path, rangeText(min, max) + u" (got "_s + QString::number(value) + u")"_s);
            return std::nullopt;
        }
        return value;
    }

    std::optional<qint64> integer(const Json &obj, const QString &objPath, const char *key, qint64 min,
                                  qint64 max)
    {
        if (const Json *v = get(obj, objPath, key, Kind::Number))
            return checkInteger(*v, memberPath(objPath, key), min, max);
        return std::nullopt;
    }

    // Stores an integer member into `target` when present and valid; leaves the default otherwise.
    template <typename T>
    void readInt(const Json &obj, const QString &objPath, const char *key, qint64 min, qint64 max, T &target)
    {
        if (const auto v = integer(obj, objPath, key, min, max))
            target = T(*v);
    }

    // A retry backoff: milliseconds as a whole number, or a Go duration string ("500ms", "2s").
    std::optional<qint64> durationMs(const Json &obj, const QString &objPath, const char *key)
    {
        const Json *v = member(obj, key);
        if (!v)
            return std::nullopt;
        const QString path = memberPath(objPath, key);
        if (v->is_number())
            return checkInteger(*v, path, 0, kDayMs);
        if (v->is_string()) {
            const QString text = fromStd(v->get_ref<const std::string &>());
            auto ms = parseGoDurationMs(text);
            if (!ms) {
                fail(path, quoted(text) + u": "_s + ms.error());
                return std::nullopt;
            }
            return *ms;
        }
        fail(path,
             u"must be a number of milliseconds or a duration string like \"500ms\", not "_s + typeName(*v));
        return std::nullopt;
    }

    // A literal secret, or "env.NAME" read from the environment. Bifrost turns an unset variable into an
    // empty key silently; here it is an error, because an empty key fails much later and far less clearly.
    std::optional<QString> resolveSecret(const QString &text, const QString &path)
    {
        if (!text.startsWith(u"env."_s))
            return text;
        const QString name = text.mid(4);
        if (name.isEmpty() || name.contains(u'=') || name.contains(QChar(0)) || name.contains(u' ')) {
            fail(path, quoted(text) + u" does not name a valid environment variable"_s);
            return std::nullopt;
        }
        std::optional<QString> value = m_env ? m_env(name) : std::nullopt;
        if (!value) {
            fail(path, u"environment variable "_s + name + u" is not set (referenced as "_s + quoted(text) +
                           u")"_s);
            return std::nullopt;
        }
        return value;
    }

    ProviderConfig readProvider(const QString &name, const Json &v)
    {
        const QString path = memberPath(u"providers"_s, name);
        ProviderConfig p;
        p.name = name;
        if (name.isEmpty())
            fail(path, u"a provider needs a non-empty name"_s);
        else if (name.contains(u'/'))
            fail(path,
                 u"a provider name must not contain '/': clients address models as \"provider/model\""_s);
        if (!v.is_object()) {
            failType(path, Kind::Object, v);
            return p;
        }

        const QString keysPath = memberPath(path, "keys");
        if (const Json *keys =
                get(v, path, "keys", Kind::Array, true, u": an array of keys, each with name and weight"_s)) {
            if (keys->empty())
                fail(keysPath, u"must hold at least one key: a key lists the models the provider serves"_s);
            QMap<QString, std::size_t> firstIndexByName;
            for (std::size_t i = 0; i < keys->size(); ++i) {
                const QString keyPath = indexPath(keysPath, i);
                KeyConfig key = readKey((*keys)[i], keyPath);
                if (!key.name.isEmpty()) {
                    const auto seen = firstIndexByName.constFind(key.name);
                    if (seen != firstIndexByName.cend())
                        fail(keyPath + u".name"_s, u"duplicate key name "_s + quoted(key.name) +
                                                       u": keys["_s + QString::number(qulonglong(*seen)) +
                                                       u"] and keys["_s + QString::number(qulonglong(i)) +
                                                       u"]"_s);
                    else
                        firstIndexByName.insert(key.name, i);
                }
                p.keys.push_back(std::move(key));
            }
        }

        const QString netPath = memberPath(path, "network_config");
        const Json *net = member(v, "network_config");
        if (!net)
            fail(netPath + u".base_url"_s,
                 u"is required: the provider's address, like \"http://192.168.200.101:8030\""_s);
        else if (!net->is_object())
            failType(netPath, Kind::Object, *net);
        else
            p.network = readNetwork(*net, netPath);

        const QString customPath = memberPath(path, "custom_provider_config");
        if (const Json *custom = get(v, path, "custom_provider_config", Kind::Object)) {
            if (const auto type = string(*custom, customPath, "base_provider_type", true)) {
                if (*type != u"openai"_s)
                    fail(memberPath(customPath, "base_provider_type"),
                         u"unsupported base_provider_type "_s + quoted(*type) +
                             u": Switchyard speaks only the OpenAI API (\"openai\")"_s);
                p.baseProviderType = *type;
            }
            if (const Json *allowed = get(*custom, customPath, "allowed_requests", Kind::Object))
                p.allowed = readAllowed(*allowed, memberPath(customPath, "allowed_requests"));
        } else if (!member(v, "custom_provider_config") && name != u"openai"_s) {
            // Without custom_provider_config Bifrost reads the name as one of its built-in providers
            // (anthropic, bedrock, …), whose APIs Switchyard does not speak.
            fail(customPath,
                 u"is required: "_s + quoted(name) +
                     u" is not a built-in OpenAI provider, and Switchyard proxies only OpenAI-compatible"
                     u" servers (set base_provider_type to \"openai\")"_s);
        }

        const QString cbPath = memberPath(path, "concurrency_and_buffer_size");
        if (const Json *cb = get(v, path, "concurrency_and_buffer_size", Kind::Object)) {
            readInt(*cb, cbPath, "concurrency", 1, 1'000'000, p.concurrency);
            readInt(*cb, cbPath, "buffer_size", 1, 1'000'000, p.bufferSize);
        }

        // Ignoring a proxy would silently send traffic around it; refuse instead.
        const QString proxyPath = memberPath(path, "proxy_config");
        if (const Json *proxy = get(v, path, "proxy_config", Kind::Object)) {
            if (const auto type = string(*proxy, proxyPath, "type");
                type && *type != u"none"_s && !type->isEmpty())
                fail(memberPath(proxyPath, "type"),
                     u"proxy type "_s + quoted(*type) +
                         u" is not supported: Switchyard connects to providers directly"_s);
        }
        return p;
    }

    KeyConfig readKey(const Json &v, const QString &path)
    {
        KeyConfig key;
        if (!v.is_object()) {
            failType(path, Kind::Object, v);
            return key;
        }
        if (const auto name = string(v, path, "name", true)) {
            if (name->isEmpty())
                fail(memberPath(path, "name"), u"must not be empty"_s);
            key.name = *name;
        }
        if (const auto value = string(v, path, "value")) {
            if (value->startsWith(u"env."_s))
                key.valueRef = *value;
            if (const auto resolved = resolveSecret(*value, memberPath(path, "value")))
                key.value = *resolved;
        }
        // Absent models = every model (Bifrost's default); an explicit [] = none.
        key.models = QStringList{u"*"_s};
        if (const Json *models = get(v, path, "models", Kind::Array)) {
            key.models.clear();
            const QString modelsPath = memberPath(path, "models");
            for (std::size_t i = 0; i < models->size(); ++i) {
                const Json &m = (*models)[i];
                if (!m.is_string())
                    failType(indexPath(modelsPath, i), Kind::String, m);
                else if (m.get_ref<const std::string &>().empty())
                    fail(indexPath(modelsPath, i), u"must not be empty"_s);
                else
                    key.models.append(fromStd(m.get_ref<const std::string &>()));
            }
        }
        if (const Json *w = get(v, path, "weight", Kind::Number, true,
                                u" (Bifrost requires it; 1 gives equal shares)"_s)) {
            const double weight = w->get<double>();
            if (!std::isfinite(weight) || weight < 0)
                fail(memberPath(path, "weight"), u"must be 0 or more (got "_s + fromStd(w->dump()) + u")"_s);
            else
                key.weight = weight;
        }
        if (const auto enabled = boolean(v, path, "enabled"))
            key.enabled = *enabled;
        return key;
    }

    std::optional<QString> checkBaseUrl(const QString &text, const QString &path)
    {
        QString t = text;
        while (t.endsWith(u'/'))
            t.chop(1);
        if (t.isEmpty()) {
            fail(path, u"must not be empty: the provider's address, like \"http://192.168.200.101:8030\""_s);
            return std::nullopt;
        }
        const QUrl url(t, QUrl::StrictMode);
        const QString scheme = url.scheme().toLower();
        const QString lower = t.toLower();
        if (!lower.startsWith(u"http://"_s) && !lower.startsWith(u"https://"_s)) {
            fail(path, quoted(text) + u" must start with http:// or https://"_s);
            return std::nullopt;
        }
        if (!url.isValid() || t.contains(u' ')) {
            // QUrl appends a dump of its parser state ("; source was …"); the first clause is the reason.
            const QString reason = url.errorString().section(u"; "_s, 0, 0);
            fail(path,
                 quoted(text) + u" is not a valid URL"_s + (reason.isEmpty() ? QString() : u": "_s + reason));
            return std::nullopt;
        }
        if (url.host().isEmpty()) {
            fail(path, quoted(text) + u" has no host"_s);
            return std::nullopt;
        }
        if (!url.userInfo().isEmpty()) {
            fail(path, quoted(text) + u" must not carry user:password (put credentials in keys[].value)"_s);
            return std::nullopt;
        }
        if (url.hasQuery() || url.hasFragment()) {
            fail(path,
                 quoted(text) + u" must not have a query or fragment: request paths are appended to it"_s);
            return std::nullopt;
        }
        return t;
    }

    NetworkConfig readNetwork(const Json &v, const QString &path)
    {
        NetworkConfig n;
        if (const auto url = string(v, path, "base_url", true))
            if (const auto checked = checkBaseUrl(*url, memberPath(path, "base_url")))
                n.baseUrl = *checked;
        readInt(v, path, "default_request_timeout_in_seconds", 1, kDaySeconds, n.requestTimeoutSeconds);
        readInt(v, path, "max_retries", 0, 100, n.maxRetries);
        readInt(v, path, "stream_idle_timeout_in_seconds", 1, kDaySeconds, n.streamIdleTimeoutSeconds);

        const auto initial = durationMs(v, path, "retry_backoff_initial");
        const auto max = durationMs(v, path, "retry_backoff_max");
        if (initial)
            n.retryBackoffInitialMs = int(*initial);
        if (max)
            n.retryBackoffMaxMs = int(*max);
        const bool initialOk = initial || !member(v, "retry_backoff_initial");
        const bool maxOk = max || !member(v, "retry_backoff_max");
        if (initialOk && maxOk && n.retryBackoffInitialMs > n.retryBackoffMaxMs)
            fail(memberPath(path, "retry_backoff_initial"),
                 u"must not exceed retry_backoff_max ("_s + QString::number(n.retryBackoffInitialMs) +
                     u" ms > "_s + QString::number(n.retryBackoffMaxMs) + u" ms"_s +
                     (max ? QString() : u", the default"_s) + u")"_s);

        const QString headersPath = memberPath(path, "extra_headers");
        if (const Json *headers = get(v, path, "extra_headers", Kind::Object)) {
            for (auto it = headers->begin(); it != headers->end(); ++it) {
                const QString name = fromStd(it.key());
                const QString hPath = memberPath(headersPath, name);
                const bool crlf = name.contains(u'\r') || name.contains(u'\n');
                if (crlf) {
                    fail(hPath, u"header name contains CR or LF (header injection)"_s);
                } else if (name.isEmpty() || !std::all_of(name.cbegin(), name.cend(),
                                                          [](QChar c) { return isTokenChar(c.unicode()); })) {
                    fail(hPath, u"invalid header name "_s + quoted(name) + u": use letters, digits and -"_s);
                } else if (isGatewayOwnedHeader(name)) {
                    fail(hPath, u"header "_s + name + u" is set by the gateway and cannot be overridden"_s);
                }
                if (!it.value().is_string()) {
                    failType(hPath, Kind::String, it.value());
                    continue;
                }
                const QString value = fromStd(it.value().get_ref<const std::string &>());
                if (value.contains(u'\r') || value.contains(u'\n')) {
                    fail(hPath, u"header value contains CR or LF (header injection)"_s);
                    continue;
                }
                if (value.contains(QChar(0))) {
                    fail(hPath, u"header value contains a NUL character"_s);
                    continue;
                }
                n.extraHeaders.emplace_back(name.toUtf8(), value.toUtf8());
            }
        }
        return n;
    }

    AllowedRequests readAllowed(const Json &v, const QString &path)
    {
        // Present = only what is set to true. A missing *_stream flag follows its non-stream flag: the seed
        // config lists only chat_completion and text_completion and is expected to stream.
        AllowedRequests a;
        a.chatCompletion = boolean(v, path, "chat_completion").value_or(false);
        a.chatCompletionStream = boolean(v, path, "chat_completion_stream").value_or(a.chatCompletion);
        a.textCompletion = boolean(v, path, "text_completion").value_or(false);
        a.textCompletionStream = boolean(v, path, "text_completion_stream").value_or(a.textCompletion);
        a.embedding = boolean(v, path, "embedding").value_or(false);
        a.listModels = boolean(v, path, "list_models").value_or(false);
        return a;
    }

    // Our own schema, so an unknown field is a mistake (most likely a typo), not something to skip.
    void rejectUnknownFields(const Json &obj, const QString &path, const QStringList &known)
    {
        for (auto it = obj.begin(); it != obj.end(); ++it) {
            const QString name = fromStd(it.key());
            if (known.contains(name))
                continue;
            const QString hint = didYouMean(name, known);
            fail(memberPath(path, name),
                 u"unknown field"_s + (hint.isEmpty() ? u"; known fields: "_s + known.join(u", "_s) : hint));
        }
    }

    std::optional<RoutingStrategy> strategy(const Json &v, const QString &path)
    {
        if (!v.is_string()) {
            failType(path, Kind::String, v);
            return std::nullopt;
        }
        const QString name = fromStd(v.get_ref<const std::string &>());
        if (name == u"weighted_round_robin"_s)
            return RoutingStrategy::WeightedRoundRobin;
        if (name == u"least_outstanding"_s)
            return RoutingStrategy::LeastOutstanding;
        if (name == u"load_aware"_s)
            return RoutingStrategy::LoadAware;
        const QString hint = didYouMean(name, strategyNames());
        fail(path,
             u"unknown routing strategy "_s + quoted(name) +
                 (hint.isEmpty() ? u" (expected weighted_round_robin, least_outstanding or load_aware)"_s
                                 : hint));
        return std::nullopt;
    }

    GatewaySettings readSettings(const Json &v, const QString &path)
    {
        GatewaySettings s;
        rejectUnknownFields(v, path, settingsFields());
        if (const auto listen = string(v, path, "listen")) {
            const auto address = parseListenAddress(*listen);
            if (address) {
                s.listenHost = address->host;
                s.listenPort = address->port;
            } else {
                fail(memberPath(path, "listen"), address.error());
            }
        }
        readInt(v, path, "worker_threads", 0, 256, s.workerThreads);
        readInt(v, path, "max_connections", 1, 1'000'000, s.maxConnections);
        readInt(v, path, "max_request_body_bytes", 1, 4LL * 1024 * 1024 * 1024, s.maxRequestBodyBytes);
        readInt(v, path, "header_timeout_ms", 1, kDayMs, s.headerTimeoutMs);
        readInt(v, path, "idle_timeout_ms", 1, kDayMs, s.idleTimeoutMs);
        readInt(v, path, "connect_timeout_ms", 1, kDayMs, s.connectTimeoutMs);
        readInt(v, path, "response_header_timeout_ms", 0, kDayMs, s.responseHeaderTimeoutMs);
        readInt(v, path, "drain_timeout_ms", 0, kDayMs, s.drainTimeoutMs);
        readInt(v, path, "health_check_interval_ms", 1, kDayMs, s.healthCheckIntervalMs);
        readInt(v, path, "ejection_consecutive_failures", 1, 1000, s.ejectionConsecutiveFailures);
        readInt(v, path, "ejection_cooldown_ms", 1, kDayMs, s.ejectionCooldownMs);
        readInt(v, path, "ejection_cooldown_max_ms", 1, kDayMs, s.ejectionCooldownMaxMs);
        if (const Json *rate = get(v, path, "ejection_error_rate", Kind::Number)) {
            const double r = rate->get<double>();
            if (r >= 0.0 && r <= 1.0)
                s.ejectionErrorRate = r;
            else
                fail(memberPath(path, "ejection_error_rate"),
                     u"must be between 0 (off) and 1, a share of failed requests (got "_s + fromStd(rate->dump()) + u")"_s);
        }
        readInt(v, path, "ejection_error_rate_min_requests", 1, 1'000'000, s.ejectionErrorRateMinRequests);
        readInt(v, path, "ejection_error_rate_window_ms", 1000, 60000, s.ejectionErrorRateWindowMs);

        const QString routingPath = memberPath(path, "routing");
        if (const Json *routing = get(v, path, "routing", Kind::Object)) {
            rejectUnknownFields(*routing, routingPath, routingFields());
            if (const Json *d = member(*routing, "default_strategy"))
                if (const auto st = strategy(*d, memberPath(routingPath, "default_strategy")))
                    s.defaultStrategy = *st;
            const QString modelsPath = memberPath(routingPath, "models");
            if (const Json *models = get(*routing, routingPath, "models", Kind::Object)) {
                for (auto it = models->begin(); it != models->end(); ++it) {
                    const QString model = fromStd(it.key());
                    const QString mPath = memberPath(modelsPath, model);
                    if (model.isEmpty()) {
                        fail(mPath, u"a model name must not be empty"_s);
                        continue;
                    }
                    if (const auto st = strategy(it.value(), mPath))
                        s.strategyByModel.insert(model, *st);
                }
            }
        }

        const QString keysPath = memberPath(path, "api_keys");
        if (const Json *keys = get(v, path, "api_keys", Kind::Array)) {
            for (std::size_t i = 0; i < keys->size(); ++i) {
                const QString kPath = indexPath(keysPath, i);
                const Json &k = (*keys)[i];
                if (!k.is_string()) {
                    failType(kPath, Kind::String, k);
                    continue;
                }
                const auto resolved = resolveSecret(fromStd(k.get_ref<const std::string &>()), kPath);
                if (!resolved)
                    continue;
                // An empty client key would make "Authorization: Bearer " a valid credential.
                if (resolved->isEmpty())
                    fail(kPath, u"an API key must not be empty"_s);
                else
                    s.apiKeys.append(*resolved);
            }
        }
        if (const auto allow = boolean(v, path, "allow_unauthenticated_network_access"))
            s.allowUnauthenticatedNetworkAccess = *allow;
        const QString corsPath = memberPath(path, "cors_origins");
        if (const Json *origins = get(v, path, "cors_origins", Kind::Array)) {
            for (std::size_t i = 0; i < origins->size(); ++i) {
                const QString oPath = indexPath(corsPath, i);
                const Json &o = (*origins)[i];
                if (!o.is_string()) {
                    failType(oPath, Kind::String, o);
                    continue;
                }
                const QString origin = fromStd(o.get_ref<const std::string &>());
                const QUrl url(origin, QUrl::StrictMode);
                const bool valid = origin == u"*"_s
                                   || (url.isValid() && (url.scheme() == u"http"_s || url.scheme() == u"https"_s)
                                       && !url.host().isEmpty() && url.path().isEmpty() && !url.hasQuery()
                                       && !url.hasFragment() && url.userInfo().isEmpty());
                if (valid)
                    s.corsOrigins.append(origin);
                else
                    fail(oPath, quoted(origin) + u" is not an origin; write \"https://host[:port]\" (no path) or \"*\""_s);
            }
        }
        if (const QString why = exposureProblem(s); !why.isEmpty() && !hasProblemAt(memberPath(path, "listen")))
            fail(memberPath(path, "listen"), why);
        return s;
    }

    bool hasProblemAt(const QString &p) const
    {
        return std::any_of(m_problems.cbegin(), m_problems.cend(), [&](const ConfigProblem &x) { return x.path == p; });
    }

    const EnvLookup &m_env;
    ConfigProblems &m_problems;
};

struct TooDeep final
{
};

// 1-based line and column (in characters) of the byte at `offset`.
std::pair<int, int> lineAndColumn(QByteArrayView text, qsizetype offset)
{
    offset = std::clamp<qsizetype>(offset, 0, text.size());
    int line = 1;
    int column = 1;
    for (qsizetype i = 0; i < offset; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == '\n') {
            ++line;
            column = 1;
        } else if ((c & 0xC0) != 0x80) { // count UTF-8 lead bytes only: columns are characters
            ++column;
        }
    }
    return {line, column};
}

// Parses strictly (no comments, as Go's decoder), reporting a syntax error with its line and column.
// Also reports a member name repeated within one object: JSON parsers keep only one of them (nlohmann
// and Go the last), so the file would not mean what it seems to say.
std::optional<Json> parseDocument(QByteArrayView text, ConfigProblems &problems)
{
    struct Frame
    {
        QString path;
        bool isArray = false;
        std::size_t index = 0;
        std::string key;
        std::unordered_set<std::string> seen;
    };
    std::vector<Frame> stack;
    const auto childPath = [&stack]() -> QString {
        if (stack.empty())
            return {};
        const Frame &f = stack.back();
        return f.isArray ? indexPath(f.path, f.index) : memberPath(f.path, fromStd(f.key));
    };
    const auto childDone = [&stack]() {
        if (!stack.empty() && stack.back().isArray)
            ++stack.back().index;
    };
    const Json::parser_callback_t callback = [&](int, Json::parse_event_t event, Json &parsed) {
        switch (event) {
        case Json::parse_event_t::object_start:
        case Json::parse_event_t::array_start:
            if (stack.size() >= kMaxDepth)
                throw TooDeep{};
            stack.push_back(Frame{childPath(), event == Json::parse_event_t::array_start});
            break;
        case Json::parse_event_t::object_end:
        case Json::parse_event_t::array_end:
            stack.pop_back();
            childDone();
            break;
        case Json::parse_event_t::key: {
            Frame &f = stack.back();
            f.key = parsed.get<std::string>();
            if (!f.seen.insert(f.key).second)
                problems.append(ConfigProblem{
                    memberPath(f.path, fromStd(f.key)), 0, 0,
                    u"appears more than once in the same object (only the last one would count)"_s});
            break;
        }
        case Json::parse_event_t::value:
            childDone();
            break;
        }
        return true;
    };

    try {
        const char *begin = text.data();
        return Json::parse(begin, begin + text.size(), callback, true, false);
    } catch (const Json::parse_error &e) {
        // e.byte is the 1-based position of the last byte read, i.e. the offending one.
        const auto [line, column] = lineAndColumn(text, qsizetype(e.byte) - 1);
        std::string what = e.what();
        const auto pos = what.find(": ", what.find("parse error"));
        if (pos != std::string::npos)
            what = what.substr(pos + 2);
        problems.append(ConfigProblem{{}, line, std::max(column, 1), fromStd(what)});
    } catch (const TooDeep &) {
        problems.append(ConfigProblem{childPath(), 0, 0,
                                      u"nested more than "_s + QString::number(qulonglong(kMaxDepth)) +
                                          u" levels deep"_s});
    } catch (const Json::exception &e) {
        // e.g. out_of_range.406 "number overflow parsing '1e400'": no position available.
        std::string what = e.what();
        const auto pos = what.find("] ");
        if (pos != std::string::npos)
            what = what.substr(pos + 2);
        problems.append(ConfigProblem{{}, 0, 0, u"invalid JSON: "_s + fromStd(what)});
    }
    return std::nullopt;
}

Expected<GatewayConfig, ConfigProblems> parseConfigImpl(QByteArrayView json, const EnvLookup &env)
{
    ConfigProblems problems;
    const std::optional<Json> doc = parseDocument(json, problems);
    if (!doc)
        return unexpected(problems);
    GatewayConfig cfg = ConfigReader(env, problems).readDocument(*doc);
    if (!problems.isEmpty())
        return unexpected(problems);
    return cfg;
}

} // namespace

QString problemPath(const QString &parent, const QString &name)
{
    return memberPath(parent, name);
}

Expected<GatewayConfig, ConfigProblems> parseConfig(QByteArrayView json, const EnvLookup &env)
{
    // Nothing throws across the API: an exception here (allocation failure, a bug) becomes a problem.
    try {
        return parseConfigImpl(json, env);
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
        return unexpected(
            ConfigProblems{ConfigProblem{path, 0, 0, u"cannot read the config: it is a directory"_s}});
    if (!file.open(QIODevice::ReadOnly))
        return unexpected(
            ConfigProblems{ConfigProblem{path, 0, 0, u"cannot read the config: "_s + file.errorString()}});
    if (file.size() > kMaxConfigBytes)
        return unexpected(ConfigProblems{ConfigProblem{path, 0, 0,
                                                       u"the file is "_s + QString::number(file.size()) +
                                                           u" bytes: too big to be a config (limit "_s +
                                                           QString::number(kMaxConfigBytes) + u")"_s}});
    const QByteArray data = file.read(kMaxConfigBytes + 1);
    if (file.error() != QFileDevice::NoError)
        return unexpected(
            ConfigProblems{ConfigProblem{path, 0, 0, u"cannot read the config: "_s + file.errorString()}});
    return parseConfig(data, env);
}

Expected<QByteArray, ConfigProblems> exportBifrostConfig(QByteArrayView json)
{
    try {
        ConfigProblems problems;
        std::optional<Json> doc = parseDocument(json, problems);
        if (!doc)
            return unexpected(problems);
        // What is dropped cannot hurt the export: forget problems found inside `switchyard`.
        problems.removeIf([](const ConfigProblem &p) {
            return p.path == u"switchyard"_s || p.path.startsWith(u"switchyard."_s) ||
                   p.path.startsWith(u"switchyard["_s);
        });
        if (doc->is_object())
            doc->erase("switchyard");
        // Validate what is exported. Environment references stay as written (the target resolves them),
        // so every variable counts as set here.
        const EnvLookup anyVariable = [](const QString &) -> std::optional<QString> { return QString(); };
        ConfigReader(anyVariable, problems).readDocument(*doc);
        if (!problems.isEmpty())
            return unexpected(problems);
        std::string out = doc->dump(2);
        out += '\n';
        return QByteArray(out.data(), qsizetype(out.size()));
    } catch (const std::exception &e) {
        return unexpected(ConfigProblems{ConfigProblem{
            {}, 0, 0, u"internal error while exporting the config: "_s + QString::fromUtf8(e.what())}});
    } catch (...) {
        return unexpected(
            ConfigProblems{ConfigProblem{{}, 0, 0, u"internal error while exporting the config"_s}});
    }
}

namespace {

bool isHostName(const QString &host)
{
    // RFC 1123 labels; an all-numeric dotted name would be a malformed IPv4 address, not a name.
    const QStringList labels = host.split(u'.');
    bool allNumeric = true;
    for (const QString &label : labels) {
        if (label.isEmpty() || label.size() > 63 || label.startsWith(u'-') || label.endsWith(u'-'))
            return false;
        for (const QChar c : label) {
            const char16_t u = c.unicode();
            const bool digit = u >= u'0' && u <= u'9';
            const bool ok = digit || (u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z') || u == u'-';
            if (!ok)
                return false;
            allNumeric = allNumeric && digit;
        }
    }
    return !allNumeric && host.size() <= 253;
}

Expected<quint16, QString> parsePort(const QString &text)
{
    if (text.isEmpty())
        return stringError(u"missing port after ':'"_s);
    for (const QChar c : text) {
        if (c.unicode() < u'0' || c.unicode() > u'9')
            return stringError(u"port "_s + quoted(text) + u" is not a number"_s);
    }
    if (text.size() > 5 || text.toUInt() > 65535)
        return stringError(u"port "_s + text + u" is out of range (0-65535)"_s);
    return quint16(text.toUInt());
}

} // namespace

Expected<ListenAddress, QString> parseListenAddress(const QString &text)
{
    const QString usage = u"expected HOST:PORT, [IPv6]:PORT, :PORT or PORT"_s;
    const QString t = text.trimmed();
    if (t.isEmpty())
        return stringError(u"the listen address is empty ("_s + usage + u")"_s);

    ListenAddress result;
    QString portText;
    if (t.startsWith(u'[')) {
        const qsizetype close = t.indexOf(u']');
        if (close < 0)
            return stringError(u"missing ']' after the IPv6 address in "_s + quoted(t));
        result.host = t.mid(1, close - 1);
        const QString rest = t.mid(close + 1);
        if (!rest.startsWith(u':'))
            return stringError(u"missing :PORT after ']' in "_s + quoted(t));
        portText = rest.mid(1);
        QHostAddress address;
        if (!address.setAddress(result.host) || address.protocol() != QAbstractSocket::IPv6Protocol)
            return stringError(quoted(result.host) + u" is not an IPv6 address"_s);
    } else {
        const qsizetype colons = t.count(u':');
        if (colons == 0) {
            // A bare port. Anything else without a colon lacks the port.
            const bool digits = std::all_of(
                t.cbegin(), t.cend(), [](QChar c) { return c.unicode() >= u'0' && c.unicode() <= u'9'; });
            if (!digits)
                return stringError(u"missing port in "_s + quoted(t) + u" ("_s + usage + u")"_s);
            result.host = u"127.0.0.1"_s;
            portText = t;
        } else if (colons > 1) {
            return stringError(u"an IPv6 address needs brackets, as in [::1]:8080 (got "_s + quoted(t) +
                               u")"_s);
        } else {
            const qsizetype colon = t.indexOf(u':');
            result.host = t.left(colon);
            portText = t.mid(colon + 1);
            // No host means loopback, not every interface: exposing the gateway is an explicit choice.
            if (result.host.isEmpty()) {
                result.host = u"127.0.0.1"_s;
            } else {
                QHostAddress address;
                const bool ipv4 =
                    address.setAddress(result.host) && address.protocol() == QAbstractSocket::IPv4Protocol;
                if (!ipv4 && !isHostName(result.host))
                    return stringError(
                        quoted(result.host) +
                        u" is not a valid host (use an IP address such as 0.0.0.0 or 127.0.0.1, or a host name)"_s);
            }
        }
    }
    const auto port = parsePort(portText);
    if (!port)
        return stringError(port.error());
    result.port = *port;
    return result;
}

} // namespace switchyard::config
