#pragma once

// PUT /api/config: validates the body on the worker thread (the loader is a pure function), then hands
// the parsed config to the gateway's owner thread, which swaps the routing table (and, in the app,
// saves the file first), and answers with what changed or with every problem found. An invalid
// config is answered 422 and never reaches the gateway: the running one stays.

#include "config/config.h"
#include "config/configdiff.h"
#include "config/configloader.h"
#include "proxy/dispatcher.h"
#include "proxy/exchange.h"

#include <QFuture>
#include <QFutureWatcher>
#include <functional>

namespace switchyard::proxy {

class ConfigUpdateExchange final : public Exchange
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConfigUpdateExchange)

public:
    ConfigUpdateExchange(ConfigUpdater updater, QByteArray body, ResponseSink *sink,
                         QObject *parent = nullptr);
    ~ConfigUpdateExchange() override;

    void start() override;
    void clientGone() override;

private:
    void respond(const LocalResponse &response);

    ConfigUpdater m_updater;
    QByteArray m_body;
    ResponseSink *m_sink;
    QFutureWatcher<LocalResponse> m_watcher;
    bool m_done = false;
};

// The 422 answer for a config with problems: OpenAI-shaped error plus the list, each with its path or
// line and column, so a script (or an editor) can point at them.
LocalResponse configProblemsResponse(const config::ConfigProblems &problems);
// The 200 answer after an apply: the changes in words and as lists, and where the file was saved.
LocalResponse configAppliedResponse(const config::ConfigChanges &changes, quint64 generation,
                                    const QString &listenError, const QString &savedTo);

} // namespace switchyard::proxy
