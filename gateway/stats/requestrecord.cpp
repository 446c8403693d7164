#include "requestrecord.h"

#include <algorithm>
#include <charconv>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::stats {

namespace {
void appendNumber(QByteArray &out, qint64 v)
{
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr - buf);
}

void appendOptional(QByteArray &out, qint64 v)
{
    if (v < 0)
        out.append('-');
    else
        appendNumber(out, v);
}

// Latin-1 bytes as UTF-8, as QString::fromLatin1(...).toUtf8() would give.
void appendLatin1(QByteArray &out, QByteArrayView text)
{
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x80) {
            out.append(c);
        } else {
            out.append(char(0xC0 | (u >> 6)));
            out.append(char(0x80 | (u & 0x3F)));
        }
    }
}
struct OutcomeName
{
    Attempt::Outcome outcome;
    const char *name;
};
constexpr OutcomeName OutcomeNames[] = {
    {Attempt::Outcome::Open, "open"},
    {Attempt::Outcome::Answered, "answered"},
    {Attempt::Outcome::ErrorStatus, "error_status"},
    {Attempt::Outcome::ConnectionError, "connection_error"},
    {Attempt::Outcome::Timeout, "timeout"},
    {Attempt::Outcome::Cut, "cut"},
    {Attempt::Outcome::ClientClosed, "client_closed"},
    {Attempt::Outcome::GatewayStopped, "gateway_stopped"},
};

struct ViaName
{
    Attempt::Via via;
    const char *name;
};
constexpr ViaName ViaNames[] = {
    {Attempt::Via::Candidate, "candidate"},
    {Attempt::Via::LastResort, "last_resort"},
    {Attempt::Via::Retry, "retry"},
};

// One attempt in the log line: the status the node answered, or what happened instead.
void appendAttemptCode(QByteArray &out, const Attempt &a)
{
    if (a.outcome == Attempt::Outcome::Answered || a.outcome == Attempt::Outcome::ErrorStatus) {
        appendNumber(out, a.status);
        return;
    }
    out.append(attemptOutcomeName(a.outcome));
}
} // namespace

QByteArray attemptOutcomeName(Attempt::Outcome outcome)
{
    for (const OutcomeName &n : OutcomeNames) {
        if (n.outcome == outcome)
            return QByteArray(n.name);
    }
    return QByteArray("open");
}

std::optional<Attempt::Outcome> attemptOutcomeFromName(QByteArrayView name)
{
    for (const OutcomeName &n : OutcomeNames) {
        if (name == QByteArrayView(n.name))
            return n.outcome;
    }
    return std::nullopt;
}

QByteArray attemptViaName(Attempt::Via via)
{
    for (const ViaName &n : ViaNames) {
        if (n.via == via)
            return QByteArray(n.name);
    }
    return QByteArray("candidate");
}

std::optional<Attempt::Via> attemptViaFromName(QByteArrayView name)
{
    for (const ViaName &n : ViaNames) {
        if (name == QByteArrayView(n.name))
            return n.via;
    }
    return std::nullopt;
}

void RequestRecord::attemptStarted(const QString &nodeName, Attempt::Via via, const QString &fallbackModel,
                                   qint64 atMs)
{
    Attempt a;
    a.node = nodeName;
    a.via = via;
    a.fallbackModel = fallbackModel;
    a.startMs = atMs;
    if (tried.size() < MaxAttemptsListed)
        tried.append(std::move(a));
    else
        tried.last() = std::move(a); // the newest stays listed: it may be the one that answers
}

void RequestRecord::attemptAnswered(int answeredStatus)
{
    if (!tried.isEmpty() && tried.last().outcome == Attempt::Outcome::Open)
        tried.last().status = answeredStatus;
}

void RequestRecord::attemptEnded(Attempt::Outcome outcome, int answeredStatus, const QString &reason, qint64 atMs)
{
    if (tried.isEmpty() || tried.last().outcome != Attempt::Outcome::Open)
        return;
    Attempt &a = tried.last();
    a.outcome = outcome;
    if (answeredStatus > 0)
        a.status = answeredStatus;
    a.durationMs = std::max<qint64>(0, atMs - a.startMs);
    a.reason = reason.size() > MaxReasonChars ? reason.first(MaxReasonChars - 1) + QChar(0x2026) : reason;
}

void RequestRecord::appendLogLine(QByteArray &out) const
{
    appendLatin1(out, method);
    out.append(' ');
    appendLatin1(out, path);
    out.append(" model=");
    out.append(model.isEmpty() ? QByteArray("-") : model.toUtf8());
    out.append(" node=");
    out.append(node.isEmpty() ? QByteArray("-") : node.toUtf8());
    out.append(" status=");
    appendNumber(out, status);
    out.append(" attempts=");
    appendNumber(out, attempts);
    if (attempts > 1 && !tried.isEmpty()) {
        // A failover: which nodes, and what each said, in the order tried.
        out.append(" tried=");
        for (qsizetype i = 0; i < tried.size(); ++i) {
            if (i)
                out.append(',');
            out.append(tried[i].node.toUtf8());
            out.append(':');
            appendAttemptCode(out, tried[i]);
        }
    }
    if (!route.isEmpty()) {
        // Quoted when it has a space ("prefix 87%"), like error=.
        const QByteArray r = route.toUtf8().replace('"', '\'');
        out.append(" route=");
        if (r.contains(' '))
            out.append('"').append(r).append('"');
        else
            out.append(r);
    }
    out.append(stream ? " stream=1" : " stream=0");
    out.append(" ttft_ms=");
    appendOptional(out, ttftMs);
    out.append(" duration_ms=");
    appendNumber(out, durationMs);
    out.append(" prompt_tokens=");
    appendOptional(out, promptTokens);
    out.append(" completion_tokens=");
    appendOptional(out, completionTokens);
    if (!error.isEmpty()) {
        out.append(" error=\"");
        out.append(error.toUtf8().replace('"', '\''));
        out.append('"');
    }
}

QString RequestRecord::toLogLine() const
{
    QByteArray line;
    line.reserve(160);
    appendLogLine(line);
    return QString::fromUtf8(line);
}

} // namespace switchyard::stats
