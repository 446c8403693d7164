#include "requestrecord.h"

#include <algorithm>
#include <charconv>
#include <cstring>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::stats {

namespace {
// The request log line is written for every request, so it is put together in a buffer on the stack and
// handed to the output once: no allocation, no QByteArray growth per field (the profile showed ~10
// allocations and ~5k instructions per line when each field was appended on its own).
class LineWriter final
{
public:
    explicit LineWriter(QByteArray &out) : m_out(out) {}
    ~LineWriter() { flush(); }
    Q_DISABLE_COPY_MOVE(LineWriter)

    void put(char c)
    {
        if (m_used == Size)
            flush();
        m_buf[m_used++] = c;
    }
    void put(QByteArrayView text)
    {
        if (m_used + text.size() > Size) {
            flush();
            if (text.size() > Size) {
                m_out.append(text);
                return;
            }
        }
        std::memcpy(m_buf + m_used, text.data(), size_t(text.size()));
        m_used += text.size();
    }
    void number(qint64 v)
    {
        char digits[24];
        const auto r = std::to_chars(digits, digits + sizeof digits, v);
        put(QByteArrayView(digits, r.ptr - digits));
    }
    void optional(qint64 v)
    {
        if (v < 0)
            put('-');
        else
            number(v);
    }
    // Latin-1 bytes (method, path) as UTF-8, as QString::fromLatin1(...).toUtf8() would give.
    void latin1(QByteArrayView text)
    {
        for (char c : text) {
            const auto u = static_cast<unsigned char>(c);
            if (u < 0x80) {
                put(c);
            } else {
                put(char(0xC0 | (u >> 6)));
                put(char(0x80 | (u & 0x3F)));
            }
        }
    }
    // A name as UTF-8, with `from` replaced by `to` (quotes in quoted fields); node and model names are
    // ASCII nearly always, so that case is copied directly and only other text goes through toUtf8().
    void utf16(QStringView text, char from = 0, char to = 0)
    {
        const bool ascii = std::all_of(text.begin(), text.end(), [](QChar c) { return c.unicode() < 0x80; });
        if (!ascii) {
            QByteArray utf8 = text.toUtf8();
            if (from)
                utf8.replace(from, to);
            put(utf8);
            return;
        }
        for (QChar c : text) {
            const char b = char(c.unicode());
            put(from && b == from ? to : b);
        }
    }

private:
    void flush()
    {
        if (m_used)
            m_out.append(m_buf, m_used);
        m_used = 0;
    }

    static constexpr qsizetype Size = 512;
    QByteArray &m_out;
    char m_buf[Size];
    qsizetype m_used = 0;
};

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
void putAttemptCode(LineWriter &out, const Attempt &a)
{
    if (a.outcome == Attempt::Outcome::Answered || a.outcome == Attempt::Outcome::ErrorStatus) {
        out.number(a.status);
        return;
    }
    for (const OutcomeName &n : OutcomeNames) {
        if (n.outcome == a.outcome) {
            out.put(QByteArrayView(n.name));
            return;
        }
    }
    out.put("open");
}
} // namespace

QByteArray attemptOutcomeName(Attempt::Outcome outcome)
{
    for (const OutcomeName &n : OutcomeNames) {
        if (n.outcome == outcome)
            return QByteArray::fromRawData(n.name, qsizetype(qstrlen(n.name))); // a literal: no copy
    }
    return QByteArray::fromRawData("open", 4);
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
            return QByteArray::fromRawData(n.name, qsizetype(qstrlen(n.name))); // a literal: no copy
    }
    return QByteArray::fromRawData("candidate", 9);
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

void RequestRecord::appendLogLine(QByteArray &line) const
{
    LineWriter out(line);
    out.latin1(method);
    out.put(' ');
    out.latin1(path);
    out.put(" model=");
    if (model.isEmpty())
        out.put('-');
    else
        out.utf16(model);
    out.put(" node=");
    if (node.isEmpty())
        out.put('-');
    else
        out.utf16(node);
    out.put(" status=");
    out.number(status);
    out.put(" attempts=");
    out.number(attempts);
    if (attempts > 1 && !tried.isEmpty()) {
        // A failover: which nodes, and what each said, in the order tried.
        out.put(" tried=");
        for (qsizetype i = 0; i < tried.size(); ++i) {
            if (i)
                out.put(',');
            out.utf16(tried[i].node);
            out.put(':');
            putAttemptCode(out, tried[i]);
        }
    }
    if (!route.isEmpty()) {
        // Quoted when it has a space ("prefix 87%"), like error=.
        out.put(" route=");
        const bool quoted = route.contains(u' ');
        if (quoted)
            out.put('"');
        out.utf16(route, '"', '\'');
        if (quoted)
            out.put('"');
    }
    out.put(stream ? " stream=1" : " stream=0");
    out.put(" ttft_ms=");
    out.optional(ttftMs);
    out.put(" duration_ms=");
    out.number(durationMs);
    out.put(" prompt_tokens=");
    out.optional(promptTokens);
    out.put(" completion_tokens=");
    out.optional(completionTokens);
    if (!error.isEmpty()) {
        out.put(" error=\"");
        out.utf16(error, '"', '\'');
        out.put('"');
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
