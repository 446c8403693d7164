#include "proxy/configupdateexchange.h"

#include "proxy/openaierror.h"
#include "proxy/responsesink.h"
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

} // namespace

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
    nlohmann::json body = nlohmann::json::parse(
        openAiErrorBody(422, message, "invalid_config", {}, "invalid_request_error").toStdString(), nullptr,
        false);
    if (body.is_discarded())
        body = nlohmann::json::object();
    body["problems"] = std::move(list);
    return prettyJsonResponse(422, body);
}

LocalResponse configAppliedResponse(const config::ConfigChanges &changes, quint64 generation,
                                    const QString &listenError, const QString &savedTo)
{
    nlohmann::json body = {
        {"applied", true},
        {"config_generation", generation},
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
    return prettyJsonResponse(200, body);
}

ConfigUpdateExchange::ConfigUpdateExchange(ConfigUpdater updater, QByteArray body, ResponseSink *sink,
                                           QObject *parent)
    : Exchange(parent), m_updater(std::move(updater)), m_body(std::move(body)), m_sink(sink)
{}

ConfigUpdateExchange::~ConfigUpdateExchange() = default;

void ConfigUpdateExchange::start()
{
    auto parsed = config::parseConfig(m_body);
    if (!parsed) {
        respond(configProblemsResponse(parsed.error()));
        return;
    }
    if (!m_updater) {
        respond(errorResponse(503, u"This gateway does not take configs over the API"_s, "not_available"));
        return;
    }
    connect(&m_watcher, &QFutureWatcher<LocalResponse>::finished, this, [this] {
        const QFuture<LocalResponse> f = m_watcher.future();
        if (f.resultCount() > 0)
            respond(f.result());
        else // the gateway went away (stopping) before it applied anything
            respond(errorResponse(503, u"The gateway is shutting down; the config was not applied"_s,
                                  "shutting_down"));
    });
    m_watcher.setFuture(m_updater(std::move(*parsed), m_body));
}

void ConfigUpdateExchange::clientGone()
{
    // The apply, once handed over, completes anyway: a config is all or nothing. Only the answer is lost.
    m_done = true;
    m_watcher.disconnect(this);
}

void ConfigUpdateExchange::respond(const LocalResponse &response)
{
    if (m_done)
        return;
    m_done = true;
    m_sink->sendResponseHead(response.status, response.headerLines, response.body.size());
    m_sink->sendResponseBody(response.body);
    m_sink->endResponse();
    m_sink->exchangeFinished(this);
}

} // namespace switchyard::proxy
