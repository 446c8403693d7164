#pragma once

// The management API's answers (docs: the management API; gateway/proxy/statusapi.cpp writes them) read
// back into the values a GatewayLink hands the panel: the request log page, one history series, the
// outcome of PUT /api/config, and the verdict on a GET /api/status answer. Pure functions of bytes, so
// the remote link's worker thread does all the parsing and the GUI thread only receives values.

#include "common/expected.h"
#include "link/gatewaylink.h"
#include "link/gatewaystatus.h"
#include "stats/requestrecord.h"
#include "stats/secondshistory.h"

#include <QByteArrayView>
#include <QList>
#include <QString>

namespace switchyard::client {

struct RequestsPage
{
    QList<stats::RequestRecord> records;
    quint64 cursor = 0;
    qint64 missed = 0;
};

// GET /api/requests: {"cursor","missed","requests":[…]}.
Expected<RequestsPage, QString> parseRequestsPage(QByteArrayView body);
// GET /api/history/requests: one page of a search of the lasting history.
Expected<history::HistoryPage, QString> parseHistoryPage(QByteArrayView body);
// The path and query of that search ("/api/history/requests?from=…&limit=100").
QString historySearchPath(const history::HistoryQuery &query);
// GET /api/history/rollups: every bucket of the range, oldest first.
Expected<std::vector<history::RollupPoint>, QString> parseRollups(QByteArrayView body);
QString rollupsPath(const history::RollupQuery &query);
// GET /api/history: the columns of one series ("*" = the whole gateway); empty when the series is absent.
Expected<QList<stats::SecondSample>, QString> parseHistorySeries(QByteArrayView body, const QString &series);
// PUT /api/config: 200 applied, 412 stale, 422 invalid (with problems), anything else failed.
link::ConfigPutResult configPutResultOf(int status, QByteArrayView body);
// A 2xx GET /api/status body: the status, or why this is no Switchyard status this panel reads
// (not JSON, a field missing, another major version).
Expected<link::GatewayStatus, QString> statusFromBody(QByteArrayView body, const QString &panelVersion);
// An ETag or If-Match value without its quotes (and without a weak W/ prefix).
QString unquotedEntityTag(QByteArrayView value);
// "drain", "enable", "probe".
QByteArray nodeActionName(link::NodeAction action);

} // namespace switchyard::client
