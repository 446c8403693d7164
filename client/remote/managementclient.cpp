#include "remote/managementclient.h"

#include "keys/keyjson.h"
#include "openai/openaierror.h"
#include "remote/managementwire.h"

using namespace Qt::Literals::StringLiterals;

namespace switchyard::client {

namespace {

const QString StatusRequest = u"GET /api/status"_s;

bool isSuccess(int status)
{
    return status >= 200 && status < 300;
}

} // namespace

ManagementClient::ManagementClient(RemoteLinkOptions options, QObject *parent)
    : QObject(parent), m_options(std::move(options)), m_http(this)
{
    if (!m_options.adminKey.isEmpty())
        m_authorization = "Bearer " + m_options.adminKey.toUtf8();
    // One for the status poll, the rest for what the views ask meanwhile (a page of requests, history).
    m_http.setMaxConnectionsPerHost(3);
}

ManagementClient::~ManagementClient() = default;

HttpRequest ManagementClient::request(QByteArray method, const QString &pathAndQuery, qsizetype maxBytes,
                                      bool slow) const
{
    HttpRequest r;
    r.method = std::move(method);
    QUrl url = m_options.url;
    QString base = url.path(QUrl::FullyEncoded);
    while (base.endsWith(u'/'))
        base.chop(1);
    const qsizetype q = pathAndQuery.indexOf(u'?');
    url.setPath(base % (q < 0 ? pathAndQuery : pathAndQuery.first(q)), QUrl::TolerantMode);
    url.setQuery(q < 0 ? QString() : pathAndQuery.sliced(q + 1), QUrl::TolerantMode);
    r.url = url;
    r.addHeader("Accept", "application/json");
    if (!m_authorization.isEmpty())
        r.addHeader("Authorization", m_authorization);
    r.connectTimeoutMs = m_options.connectTimeoutMs;
    r.timeoutMs = slow ? m_options.slowRequestTimeoutMs : m_options.requestTimeoutMs;
    r.maxResponseBytes = maxBytes;
    r.pinnedSha256 = m_options.pinnedSha256;
    return r;
}

link::LinkStatus ManagementClient::failureOf(const HttpResult &result, const QString &what) const
{
    using link::LinkState;
    link::LinkStatus s;
    const QString where = m_options.url.toDisplayString(QUrl::RemoveUserInfo);
    if (!result) {
        const HttpError &e = result.error();
        // A peer that talks but not HTTP, or sends more than a status ever is, is no gateway this panel
        // understands; every other failure means it cannot be reached (now).
        s.state = e.kind == HttpErrorKind::BadResponse || e.kind == HttpErrorKind::TooLarge
                      ? LinkState::Incompatible
                      : LinkState::Unreachable;
        const QString kind = httpErrorKindName(e.kind);
        s.reason = e.message.startsWith(kind) ? e.message : kind % u": "_s % e.message;
        return s;
    }
    const HttpResponse &r = *result;
    const QString message = openai::errorMessageFromBody(r.body);
    const QString said = message.isEmpty() ? QString() : u": "_s % message;
    switch (r.status) {
    case 401:
        s.state = LinkState::Unauthorized;
        s.reason = u"%1 refused the admin key (401)%2"_s.arg(where, said);
        break;
    case 403:
        s.state = LinkState::Forbidden;
        s.reason = u"%1 refused %2 to this key (403)%3"_s.arg(where, what, said);
        break;
    case 404:
    case 405:
        // On the status poll: nothing of the management API is there. On a command: the gateway's words
        // (an unknown node, an action this gateway version does not have).
        s.state = LinkState::Incompatible;
        s.reason =
            what == StatusRequest || message.isEmpty()
                ? u"%1 answered %2 to %3: no Switchyard management API there"_s.arg(where).arg(r.status).arg(
                      what)
                : u"%1 answered %2 to %3%4"_s.arg(where).arg(r.status).arg(what, said);
        break;
    default:
        s.state = r.status >= 500 ? LinkState::Unreachable : LinkState::Incompatible;
        s.reason = u"%1 answered %2 to %3%4"_s.arg(where).arg(r.status).arg(what, said);
        break;
    }
    return s;
}

void ManagementClient::pollStatus()
{
    m_http.send(request("GET", u"/api/status"_s, MaxStatusBytes), [this](const HttpResult &result) {
        if (!result || !isSuccess(result->status)) {
            emit statusFailed(failureOf(result, StatusRequest),
                              result ? upstream::UntrustedCertificate() : result.error().untrusted);
            return;
        }
        auto status = statusFromBody(result->body, QStringLiteral(SWITCHYARD_VERSION));
        if (!status) {
            link::LinkStatus s;
            s.state = link::LinkState::Incompatible;
            s.reason = m_options.url.toDisplayString(QUrl::RemoveUserInfo) % u": "_s % status.error();
            emit statusFailed(s, {});
            return;
        }
        emit statusPolled(*status);
    });
}

void ManagementClient::fetchRequests(quint64 afterCursor, int max)
{
    const QString path = u"/api/requests?after=%1&max=%2"_s.arg(afterCursor).arg(std::clamp(max, 1, 1000));
    m_http.send(request("GET", path, MaxRequestsBytes), [this](const HttpResult &result) {
        const QString what = u"GET /api/requests"_s;
        if (!result || !isSuccess(result->status)) {
            emit commandFinished(what, false, failureOf(result, what).reason);
            return;
        }
        auto page = parseRequestsPage(result->body);
        if (!page) {
            emit commandFinished(what, false, page.error());
            return;
        }
        emit requestsFetched(page->records, page->cursor, page->missed);
    });
}

void ManagementClient::fetchHistory(const QString &series, int seconds)
{
    const QString path =
        u"/api/history?seconds=%1&node=%2"_s.arg(std::clamp(seconds, 1, stats::SecondsHistory::Capacity))
            .arg(QString::fromLatin1(QUrl::toPercentEncoding(series)));
    m_http.send(request("GET", path, MaxHistoryBytes, true), [this, series](const HttpResult &result) {
        const QString what = u"GET /api/history"_s;
        if (!result || !isSuccess(result->status)) {
            emit commandFinished(what, false, failureOf(result, what).reason);
            return;
        }
        auto samples = parseHistorySeries(result->body, series);
        if (!samples) {
            emit commandFinished(what, false, samples.error());
            return;
        }
        emit historyFetched(series, *samples);
    });
}

void ManagementClient::searchHistory(quint64 ticket, const history::HistoryQuery &query)
{
    m_http.send(request("GET", historySearchPath(query), MaxRequestsBytes, true),
                [this, ticket](const HttpResult &result) {
                    link::HistorySearchResult r;
                    r.ticket = ticket;
                    if (!result || !isSuccess(result->status)) {
                        // The gateway's own words where it gave any: "keeps no lasting history: set …".
                        r.error = failureOf(result, u"search the history"_s).reason;
                    } else if (auto page = parseHistoryPage(result->body)) {
                        r.ok = true;
                        r.page = std::move(*page);
                    } else {
                        r.error = page.error();
                    }
                    emit historySearched(r);
                });
}

void ManagementClient::fetchRollups(quint64 ticket, const history::RollupQuery &query)
{
    m_http.send(request("GET", rollupsPath(query), MaxRequestsBytes, true),
                [this, ticket, query](const HttpResult &result) {
                    link::RollupsResult r;
                    r.ticket = ticket;
                    r.query = query;
                    if (!result || !isSuccess(result->status)) {
                        r.error = failureOf(result, u"read the history's sums"_s).reason;
                    } else if (auto points = parseRollups(result->body)) {
                        r.ok = true;
                        r.points = std::move(*points);
                        if (r.query.toMs == 0 && !r.points.empty())
                            r.query.toMs =
                                r.points.back().bucketStartMs + qint64(r.query.bucketMinutes) * 60'000;
                    } else {
                        r.error = points.error();
                    }
                    emit rollupsFetched(r);
                });
}

void ManagementClient::fetchConfig()
{
    m_http.send(request("GET", u"/api/config"_s, MaxConfigBytes, true), [this](const HttpResult &result) {
        const QString what = u"GET /api/config"_s;
        if (!result || !isSuccess(result->status)) {
            emit commandFinished(what, false, failureOf(result, what).reason);
            return;
        }
        emit configFetched(result->body, unquotedEntityTag(result->header("etag")));
    });
}

void ManagementClient::putConfig(const QByteArray &text, const QString &ifMatchHash)
{
    HttpRequest r = request("PUT", u"/api/config"_s, MaxCommandBytes, true);
    r.addHeader("Content-Type", "application/json");
    if (!ifMatchHash.isEmpty())
        r.addHeader("If-Match", '"' + ifMatchHash.toLatin1() + '"');
    r.body = text;
    m_http.send(std::move(r), [this](const HttpResult &result) {
        if (!result) {
            link::ConfigPutResult failed;
            failed.outcome = link::ConfigPutResult::Outcome::Failed;
            failed.reason = failureOf(result, u"PUT /api/config"_s).reason;
            emit configPut(failed);
            return;
        }
        link::ConfigPutResult put = configPutResultOf(result->status, result->body);
        if (put.outcome == link::ConfigPutResult::Outcome::Failed)
            put.reason = failureOf(result, u"PUT /api/config"_s).reason;
        emit configPut(put);
    });
}

void ManagementClient::nodeAction(const QString &node, link::NodeAction action)
{
    const QByteArray name = nodeActionName(action);
    const QString what = QString::fromLatin1(name) % u' ' % node;
    const QString path = u"/api/nodes/"_s % QString::fromLatin1(QUrl::toPercentEncoding(node)) % u'/' %
                         QString::fromLatin1(name);
    m_http.send(request("POST", path, MaxCommandBytes), [this, what](const HttpResult &result) {
        if (!result || !isSuccess(result->status)) {
            emit commandFinished(what, false, failureOf(result, what).reason);
            return;
        }
        emit commandFinished(what, true, QString());
    });
}

void ManagementClient::setAccepting(bool accepting)
{
    const QString what = accepting ? u"resume"_s : u"pause"_s;
    m_http.send(request("POST", u"/api/gateway/"_s % what, MaxCommandBytes),
                [this, what](const HttpResult &result) {
                    if (!result || !isSuccess(result->status)) {
                        emit commandFinished(what, false, failureOf(result, what).reason);
                        return;
                    }
                    emit commandFinished(what, true, QString());
                });
}

void ManagementClient::fetchKeys()
{
    m_http.send(request("GET", u"/api/keys"_s, MaxKeysBytes, true), [this](const HttpResult &result) {
        const QString what = u"list keys"_s;
        if (!result || !isSuccess(result->status)) {
            emit commandFinished(what, false, failureOf(result, what).reason);
            return;
        }
        auto list = keys::parseKeyList(result->body);
        if (!list) {
            emit commandFinished(what, false, list.error());
            return;
        }
        emit keysFetched(QList<keys::KeyListing>(list->begin(), list->end()));
    });
}

void ManagementClient::createKey(const keys::KeyChange &spec)
{
    HttpRequest r = request("POST", u"/api/keys"_s, MaxCommandBytes);
    r.addHeader("Content-Type", "application/json");
    r.body = keys::keyChangeToJson(spec);
    m_http.send(std::move(r), [this](const HttpResult &result) {
        const QString what = u"create key"_s;
        if (!result || !isSuccess(result->status)) {
            emit commandFinished(what, false, failureOf(result, what).reason);
            return;
        }
        auto made = keys::parseCreatedKey(result->body);
        if (!made) {
            emit commandFinished(what, false, made.error());
            return;
        }
        emit keyCreated(made->listing, made->secret);
        emit commandFinished(what, true, QString());
    });
}

void ManagementClient::changeKey(QByteArray method, const QString &id, const QString &what, QByteArray body)
{
    HttpRequest r =
        request(std::move(method), u"/api/keys/"_s % QString::fromLatin1(QUrl::toPercentEncoding(id)),
                MaxCommandBytes);
    if (!body.isEmpty()) {
        r.addHeader("Content-Type", "application/json");
        r.body = std::move(body);
    }
    m_http.send(std::move(r), [this, what](const HttpResult &result) {
        if (!result || !isSuccess(result->status)) {
            emit commandFinished(what, false, failureOf(result, what).reason);
            return;
        }
        const auto doc = nlohmann::json::parse(result->body.begin(), result->body.end(), nullptr, false);
        auto listing = keys::keyListingFromJson(doc);
        if (!listing) {
            emit commandFinished(what, false, what % u": "_s % listing.error());
            return;
        }
        emit keyChanged(*listing);
        emit commandFinished(what, true, QString());
    });
}

void ManagementClient::updateKey(const QString &id, const keys::KeyChange &change)
{
    changeKey("PATCH", id, u"change key "_s % id, keys::keyChangeToJson(change));
}

void ManagementClient::revokeKey(const QString &id)
{
    changeKey("DELETE", id, u"revoke key "_s % id, {});
}

} // namespace switchyard::client
