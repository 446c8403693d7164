#include "proxy/gatewaycommandexchange.h"

#include "config/configloader.h"
#include "proxy/configresponses.h"
#include "proxy/dispatcher.h"
#include "proxy/responsesink.h"

using namespace Qt::Literals::StringLiterals;

namespace switchyard::proxy {

GatewayCommandExchange::GatewayCommandExchange(const GatewayControl *control, GatewayCommand command,
                                               ResponseSink *sink, QObject *parent)
    : Exchange(parent), m_control(control), m_command(std::move(command)), m_sink(sink)
{}

GatewayCommandExchange::~GatewayCommandExchange() = default;

void GatewayCommandExchange::start()
{
    if (auto *put = std::get_if<ConfigPutCommand>(&m_command)) {
        auto parsed = config::parseConfig(put->text);
        if (!parsed) {
            respond(configProblemsResponse(parsed.error()));
            return;
        }
        put->parsed = std::move(*parsed);
    }
    if (!m_control || !m_control->run) {
        respond(errorResponse(503, u"This gateway takes no management commands here"_s, "not_available"));
        return;
    }
    connect(&m_watcher, &QFutureWatcher<LocalResponse>::finished, this, [this] {
        const QFuture<LocalResponse> f = m_watcher.future();
        if (f.resultCount() > 0)
            respond(f.result());
        else // the gateway went away (stopping) before it ran the command
            respond(errorResponse(503, u"The gateway is shutting down; nothing was changed"_s, "shutting_down"));
    });
    m_watcher.setFuture(m_control->run(std::move(m_command)));
}

void GatewayCommandExchange::clientGone()
{
    // A command, once handed over, completes anyway (a config is all or nothing); only the answer is lost.
    m_done = true;
    m_watcher.disconnect(this);
}

void GatewayCommandExchange::respond(const LocalResponse &response)
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
