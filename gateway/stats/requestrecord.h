#pragma once

// What the gateway remembers about one finished client request: the request log line in headless
// mode, the Requests view in the panel, and the input of the statistics.

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QString>
#include <optional>

namespace switchyard::stats {

// One node the gateway sent the request to: who, what it answered, how long it took and why it was
// tried. A failover leaves one of these per node, so an operator sees which node failed and how.
struct Attempt
{
    enum class Outcome : quint8 {
        Open,            // still running (only while the exchange is)
        Answered,        // its answer went to the client (any status the client then saw)
        ErrorStatus,     // it answered 429 or 500/502/503/504 before anything reached the client
        ConnectionError, // refused, reset or closed before an answer
        Timeout,         // connecting, the response headers or the whole request took too long
        Cut,             // it failed after its answer had started to reach the client
        ClientClosed,    // the client went away while this node worked: no verdict on the node
        GatewayStopped,  // the gateway shut down meanwhile: no verdict on the node
    };
    // How the exchange came to try this node (docs/ROUTING.md).
    enum class Via : quint8 {
        Candidate,  // the route's nodes in weighted order, the first one or after one failed
        LastResort, // a node health had passed over, tried because every admitted one failed
        Retry,      // one of the provider's max_retries, after a backoff
    };

    QString node;
    int status = 0; // the HTTP status the node answered; 0 when none came
    Outcome outcome = Outcome::Open;
    Via via = Via::Candidate;
    QString fallbackModel; // set when tried for a `fallbacks` model rather than the one asked for
    qint64 startMs = 0;    // since the request arrived
    qint64 durationMs = 0;
    QString reason;        // what went wrong, short ("HTTP 500: …", "connect timed out after 2 s")

    // The node failed this attempt (what its failure counter and the Errors chart count).
    bool failed() const
    {
        return outcome == Outcome::ErrorStatus || outcome == Outcome::ConnectionError ||
               outcome == Outcome::Timeout || outcome == Outcome::Cut;
    }
    friend bool operator==(const Attempt &, const Attempt &) = default;
};

// The wire names of the outcome and the way a node was tried (/api/requests, the log line).
QByteArray attemptOutcomeName(Attempt::Outcome outcome);
std::optional<Attempt::Outcome> attemptOutcomeFromName(QByteArrayView name);
QByteArray attemptViaName(Attempt::Via via);
std::optional<Attempt::Via> attemptViaFromName(QByteArrayView name);

struct RequestRecord
{
    // A request's attempts are listed up to this many (a config with many retries and fallbacks could
    // make more); past it the newest replaces the last entry, so the one that answered stays listed.
    static constexpr qsizetype MaxAttemptsListed = 16;
    // A node's reason is cut to this many characters (the full text of every node is in `error`).
    static constexpr qsizetype MaxReasonChars = 200;

    qint64 startedMsSinceEpoch = 0;
    QByteArray method;
    QByteArray path;
    QString model;       // as the client asked
    QString node;        // the provider that answered (or last tried)
    QString route;       // why the strategy chose the first node: "session", "prefix 87%", "weighted" …
    int status = 0;      // sent to the client; 499 = client closed first
    int attempts = 0;    // every attempt, also those beyond the listed ones
    bool stream = false;
    qint64 ttftMs = -1;  // first response byte to the client
    qint64 durationMs = 0;
    qint64 promptTokens = -1;
    qint64 completionTokens = -1;
    QString error;       // why it failed, for failed requests
    QString keyId;       // the virtual key it came with ("vk_…", keys/virtualkey.h); empty for none or a static key
    QList<Attempt> tried; // the nodes tried, in order, at most MaxAttemptsListed (empty: answered locally)

    // The answer began (status below 400) but the client did not get all of it: the node failed
    // mid-stream or the gateway stopped. Logged with the status that was sent and an error.
    bool cutMidAnswer() const { return status > 0 && status < 400 && !error.isEmpty(); }

    // Attempt bookkeeping for the exchange: one started (offsets since the request arrived)…
    void attemptStarted(const QString &node, Attempt::Via via, const QString &fallbackModel, qint64 atMs);
    // …and how it ended. Does nothing when no attempt is open.
    void attemptEnded(Attempt::Outcome outcome, int status, const QString &reason, qint64 atMs);
    // The node's status head arrived (the attempt goes on while its body streams).
    void attemptAnswered(int status);

    QString toLogLine() const;
    // The same line as UTF-8, appended to out without intermediate strings (the headless log writes
    // one per request).
    void appendLogLine(QByteArray &out) const;
};

} // namespace switchyard::stats

Q_DECLARE_METATYPE(switchyard::stats::RequestRecord)
