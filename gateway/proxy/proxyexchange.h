#pragma once

// One proxied client request: choose a node, send, and pass the response back as it arrives, moving to
// the next node when one fails before anything reached the client.
//
// Order of attempts: the route's candidates that health admits (pool nodes in weighted order, each
// once), then, as a last resort, the ones it passed over as ejected or down (never a drained one; each
// once, within the request's time, a node that timed out last time only once per few seconds across
// requests), then the first node's provider's max_retries further attempts cycling over the same
// candidates with Bifrost's jittered exponential backoff, then each `fallbacks` entry the same way —
// so a request moves to another model only after every node of the one it asked for had its chance
// (docs/ROUTING.md, "Last resort"). A connect error, reset,
// timeout, 429 or 500/502/503/504 moves on; other statuses are the answer. Once a response byte went to
// the client there is no moving on: a stream then ends with an OpenAI-shaped error event and [DONE].

#include "common/deadlines.h"
#include "config/config.h"
#include "http/jsonbodyscanner.h"
#include "keys/keyregistry.h"
#include "proxy/apifamily.h"
#include "proxy/exchange.h"
#include "proxy/gatewaycontrol.h"
#include "proxy/localresponse.h"
#include "proxy/responseidscanner.h"
#include "proxy/responsesink.h"
#include "proxy/usagechunkfilter.h"
#include "routing/routingtable.h"
#include "stats/gatewaystats.h"
#include "stats/requestrecord.h"
#include "stats/usagesniffer.h"
#include "upstream/upstreamconnection.h"

#include <QBasicTimer>
#include <QElapsedTimer>
#include <QObject>
#include <functional>
#include <memory>

namespace switchyard::upstream {
class UpstreamPool;
}

namespace switchyard::proxy {

class ResponseIdMemory;

struct Target
{
    QString label; // the model string as the client or fallbacks wrote it
    routing::Route route;
};

struct ExchangeContext
{
    std::shared_ptr<const routing::RoutingTable> table;
    upstream::UpstreamPool *pool = nullptr;
    const stats::GatewayStats *stats = nullptr;
    std::function<void(const stats::RequestRecord &)> onFinished;
    // The Gateway's run state and its commands (management API); null where a dispatcher runs without
    // a Gateway (unit tests). Owned by the worker, which outlives every exchange of its connections.
    const GatewayControl *control = nullptr;
    // The virtual key the request came with (set by the dispatcher), or null.
    std::shared_ptr<const keys::KeyEntry> key;
    // The worker thread's request timeouts (common/deadlines); set wherever pool is. Owned by the worker.
    Deadlines *deadlines = nullptr;
};

// An admitted virtual key's hold on a request (proxy/keyadmission): the usage it is charged to and the
// header lines its answer carries.
struct KeyHold
{
    keys::KeyCharge charge;
    QByteArray rateLimitHeaders; // "x-ratelimit-…: …\r\n" lines; empty for a key without rate limits
};

class ProxyExchange final : public Exchange, private upstream::UpstreamListener
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProxyExchange)

public:
    ProxyExchange(ExchangeContext context, ResponseSink *sink, QByteArray upstreamPath,
                  http::BodyTemplate body, std::vector<Target> targets, bool stream,
                  stats::RequestRecord record, QObject *parent = nullptr);
    ~ProxyExchange() override;

    void start() override;
    // The client disconnected: stop everything now, including retries and backoff waits.
    void clientGone() override;
    // The client's socket took some output; continue reading the node if we had paused.
    void outputDrained() override;
    void gatewayStopping() override;

    // The gateway asked the node for usage in the client's stead (proxy/usagerequest): take it back
    // out of the stream the client receives.
    void takeBackAskedUsage() { m_usageAsked = true; }
    // The request came with a virtual key and was admitted: its tokens are charged to the key when it
    // ends, and its answer carries the key's x-ratelimit-* headers, as OpenAI's answers do.
    void chargeTo(KeyHold hold);
    // An upload forwarded while it arrives (proxy/uploadexchange): the body given to the constructor is
    // what has arrived, `bytes` more follow through requestBodyArrived(). Each attempt sends what has arrived
    // and then each piece as it comes; the node's answer is awaited (the response header and request
    // timeouts) from the body's last byte on, and a node that answers before it is not reused.
    void expectMoreBody(qsizetype bytes) { m_bodyToCome = bytes; }
    void requestBodyArrived(QByteArrayView piece, bool complete) override;
    // The body is not JSON (an audio upload's multipart form): the Content-Type the node is sent.
    void setRequestContentType(QByteArray contentType) { m_contentType = std::move(contentType); }

    // The Responses and Messages APIs (docs/ENDPOINTS.md): the API the request speaks (the shape of the
    // gateway's own errors, the names of the usage figures), the method for the node (POST unless
    // said), and the memory of which node created which response: learnt from a created response's
    // id, or forgotten once the node deleted the response named forgetId.
    void speak(ApiFamily family);
    void setMethod(QByteArray method) { m_method = std::move(method); }
    // A stored response read back carries the usage of the request that created it, counted then.
    void countNoUsage() { m_countUsage = false; }
    void rememberCreatedResponse(ResponseIdMemory *memory) { m_responseIds = memory; }
    void forgetOnSuccess(ResponseIdMemory *memory, QByteArray id)
    {
        m_forgetIds = memory;
        m_forgetId = std::move(id);
    }

private:
    // UpstreamListener
    void upstreamConnected() override;
    void upstreamHead(const http::ResponseParser &response) override;
    void upstreamBody(QByteArrayView data) override;
    void upstreamFinished() override;
    void upstreamFailed(const upstream::UpstreamError &error) override;

    enum class Phase { Idle, Connecting, AwaitingHead, DrainingError, Streaming, Done };

    enum class Stage { Candidates, LastResort, Retries };
    enum class Pick { Go, Unhealthy, Drained };

    bool pickNext();
    Pick admitted(const routing::PoolEntry &entry);
    bool admittedAsLastResort(const routing::PoolEntry &entry);
    void noteSkipped(const QString &node, const QString &why);
    void forgetSkipped(const QString &node);
    void tryNext();
    void startAttempt(bool forceFresh);
    void attemptFailed(const QString &what, bool timeout, bool nodeAtFault = true);
    void timerEvent(QTimerEvent *event) override;
    void startPhaseTimer(int ms);
    // The node has the whole request: its answer's time starts (response header and request timeouts).
    void awaitAnswer();
    void startTotalTimer(int ms);
    void onPhaseTimeout();
    void onTotalTimeout();
    void releaseConnection(bool reusable);
    void failAll();
    void finish(int status, const QString &error = {});
    // Stops timers and the node's request without a verdict on the node (client gone, gateway stopping).
    void abandonAttempt();
    int timeoutFor(const config::ProviderConfig &p) const;
    // Brings the node's token counters up to what the usage sniffer knows now (streams: per read).
    void countTokens();
    // The completion tokens to count: the node's usage, or for an event stream the estimate (else -1).
    qint64 completionTokensSeen() const;
    // Bytes of an unfinished event the usage filter holds: the client gets them before an ending.
    void flushHeldEvent();
    void chargeKey(); // the key's tokens, from the usage read so far
    // The gateway's own error in the shape of the request's API: a whole body, or an event ending a stream.
    QByteArray errorBody(int status, const QString &message, const QByteArray &code) const;
    QByteArray streamErrorEvent(int status, const QString &message, const QByteArray &code) const;
    // A created response's id, as soon as it passed: remembered with the node that made it.
    void noteResponseId(QByteArrayView data);

    ExchangeContext m_ctx;
    ResponseSink *m_sink;
    QByteArray m_upstreamPath;
    QByteArray m_contentType = QByteArrayLiteral("application/json");
    http::BodyTemplate m_body;
    std::vector<Target> m_targets;
    bool m_stream;
    stats::RequestRecord m_record;

    // Position in the attempt plan.
    size_t m_targetIndex = 0;
    size_t m_candidateIndex = 0;
    int m_retriesLeft = -1; // -1: not yet set for the current target
    int m_retryNumber = 0;
    const routing::Node *m_node = nullptr;
    int m_keyIndex = -1;

    Phase m_phase = Phase::Idle;
    upstream::UpstreamConnection *m_connection = nullptr;
    bool m_freshRetryUsed = false;
    int m_errorStatus = 0;
    QByteArray m_errorBody;
    QStringList m_tried;
    int m_timeouts = 0;
    int m_failures = 0;
    bool m_all429 = true;
    bool m_committed = false;
    bool m_sse = false;
    bool m_paused = false;
    Stage m_stage = Stage::Candidates;
    std::vector<size_t> m_lastResort; // candidates of the current target health passed over
    size_t m_lastResortIndex = 0;
    bool m_lastResortAttempt = false; // the current attempt is one of them
    bool m_pickedRetry = false;       // the current attempt is a retry: back off first
    bool m_trial = false;             // the current attempt is an ejected node's trial
    QStringList m_skipped;            // "node: why" for nodes passed over (once per node, the latest reason)

    // The phase's timeout (connect, response head, stream idle) and the whole request's, in the
    // worker's heap of deadlines (common/deadlines): arming and disarming a Qt timer twice per request
    // was a registration in Qt's timer list each time. The backoff between retries is rare and stays
    // a QBasicTimer (not a QTimer: a QObject and its connections per request were a visible share of
    // malloc).
    Deadline m_phaseTimer{[this] { onPhaseTimeout(); }};
    Deadline m_totalTimer{[this] { onTotalTimeout(); }};
    QBasicTimer m_backoffTimer;
    int m_phaseMs = 0;
    int m_totalMs = 0;
    qint64 m_backoffUntilMs = 0;  // Clock::nowMs() time the current backoff ends
    QElapsedTimer m_clock;        // since the request arrived
    QElapsedTimer m_attemptClock; // since the current attempt started
    qint64 m_lastBodyMs = -1;     // m_clock time of the last streamed body piece (idle timeout)
    int m_streamIdleMs = 0;       // the node's stream idle timeout
    stats::UsageSniffer m_usage;
    qint64 m_countedPrompt = 0; // what this request added to the node's counters so far
    qint64 m_countedCompletion = 0;
    bool m_usageAsked = false;
    std::optional<keys::KeyCharge> m_charge;
    qsizetype m_bodyToCome = 0; // of the request's body, still arriving from the client (expectMoreBody)
    qint64 m_bodyLeft = -1; // bytes of a Content-Length answer still to come; -1: framed otherwise
    QByteArray m_rateLimitHeaders;
    bool m_filterUsage = false; // m_usageAsked and the node answered with an event stream
    UsageChunkFilter m_usageFilter;
    ApiFamily m_family = ApiFamily::OpenAi;
    QByteArray m_method = QByteArrayLiteral("POST"); // a literal's data: no allocation per exchange
    bool m_countUsage = true;
    ResponseIdMemory *m_responseIds = nullptr;
    ResponseIdScanner m_idScanner;
    ResponseIdMemory *m_forgetIds = nullptr;
    QByteArray m_forgetId;
};

} // namespace switchyard::proxy
