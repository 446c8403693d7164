#include "proxy/configresponses.h"

#include "link/gatewaystatus.h"
#include "proxy/openaierror.h"
#include "proxy/statusapi.h"

#include <nlohmann/json.hpp>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::proxy {

namespace {

nlohmann::json strings(const QStringList &list)
{
    nlohmann::json a = nlohmann::json::array();
    for (const QString &s : list)
        a.push_back(s.toStdString());
    return a;
}

nlohmann::json errorJson(int status, const QString &message, const QByteArray &code, const QByteArray &type = {})
{
    nlohmann::json body = nlohmann::json::parse(openAiErrorBody(status, message, code, {}, type).toStdString(),
                                                nullptr, false);
    return body.is_discarded() ? nlohmann::json::object() : body;
}

} // namespace

QByteArray configEtag(const QString &configHash)
{
    return '"' + configHash.toLatin1() + '"';
}

LocalResponse configDocumentResponse(const config::GatewayConfig &config)
{
    return {200, "Content-Type: application/json\r\nETag: " + configEtag(link::configHash(config)) + "\r\n",
            link::maskedConfigText(config)};
}

LocalResponse configProblemsResponse(const config::ConfigProblems &problems)
{
    nlohmann::json list = nlohmann::json::array();
    for (const config::ConfigProblem &p : problems) {
        nlohmann::json item = {{"message", p.message.toStdString()}, {"text", p.toString().toStdString()}};
        if (!p.path.isEmpty())
            item["path"] = p.path.toStdString();
        if (p.line > 0) {
            item["line"] = p.line;
            item["column"] = p.column;
        }
        list.push_back(std::move(item));
    }
    const QString first = problems.isEmpty() ? QString() : problems.first().toString();
    const QString message = problems.size() == 1
                                ? QString(u"The config is invalid and was not applied: "_s % first)
                                : QString(u"The config has "_s % QString::number(problems.size()) %
                                          u" problems and was not applied; the first: "_s % first);
    nlohmann::json body = errorJson(422, message, "invalid_config", "invalid_request_error");
    body["problems"] = std::move(list);
    return prettyJsonResponse(422, body);
}

LocalResponse configStaleResponse(const QString &currentHash)
{
    nlohmann::json body = errorJson(412,
                                    u"The running config changed since it was read (If-Match does not name it); "
                                    "nothing was applied. Reload it, or send it again with the current hash"_s,
                                    "config_changed", "invalid_request_error");
    body["config_hash"] = currentHash.toStdString();
    LocalResponse r = prettyJsonResponse(412, body);
    r.headerLines += "ETag: " + configEtag(currentHash) + "\r\n";
    return r;
}

LocalResponse configAppliedResponse(const config::ConfigChanges &changes, quint64 generation,
                                    const QString &listenError, const QString &savedTo,
                                    const QString &configHash)
{
    nlohmann::json body = {
        {"applied", true},
        {"config_generation", generation},
        {"config_hash", configHash.toStdString()},
        {"summary", changes.isEmpty() ? std::string("no changes") : changes.summary().toStdString()},
        {"changes",
         {{"added", strings(changes.added)},
          {"removed", strings(changes.removed)},
          {"reweighted", strings(changes.reweighted)},
          {"changed", strings(changes.changed)},
          {"settings_changed", changes.settingsChanged},
          {"listen_changed", changes.listenChanged}}},
        {"saved_to", savedTo.isEmpty() ? nlohmann::json(nullptr) : nlohmann::json(savedTo.toStdString())},
    };
    if (!listenError.isEmpty())
        body["listen_error"] = listenError.toStdString(); // the rest applied; the old address stays
    LocalResponse r = prettyJsonResponse(200, body);
    r.headerLines += "ETag: " + configEtag(configHash) + "\r\n";
    return r;
}

} // namespace switchyard::proxy
