#include "requestrecord.h"

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
} // namespace

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
