#include "history/requestblock.h"

#include "history/storedvalues.h"

#include <algorithm>
#include <limits>

using namespace Qt::StringLiterals;

namespace switchyard::history {

namespace {

constexpr quint8 BlockVersion = 1;

void putVarint(std::string &out, quint64 v)
{
    while (v >= 0x80) {
        out.push_back(char(quint8(v) | 0x80));
        v >>= 7;
    }
    out.push_back(char(quint8(v)));
}

void putSigned(std::string &out, qint64 v)
{
    putVarint(out, (quint64(v) << 1) ^ quint64(v >> 63)); // zigzag: small magnitudes stay short
}

// Reads a block, every step checked against what is left.
class Reader
{
public:
    explicit Reader(QByteArrayView bytes) : m_at(bytes.data()), m_end(bytes.data() + bytes.size()) {}

    bool ok() const { return m_ok; }
    bool atEnd() const { return m_at == m_end; }

    quint64 varint()
    {
        quint64 v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (m_at == m_end)
                break;
            const quint8 b = quint8(*m_at++);
            v |= quint64(b & 0x7f) << shift;
            if (!(b & 0x80))
                return v;
        }
        m_ok = false;
        m_at = m_end;
        return 0;
    }
    qint64 signedVarint()
    {
        const quint64 z = varint();
        return qint64(z >> 1) ^ -qint64(z & 1);
    }
    // A count or index that must stay below bound (an int's worth at most).
    quint32 below(quint64 bound)
    {
        const quint64 v = varint();
        if (v >= bound) {
            m_ok = false;
            m_at = m_end;
            return 0;
        }
        return quint32(v);
    }
    QByteArrayView bytes(quint64 size)
    {
        if (size > quint64(m_end - m_at)) {
            m_ok = false;
            m_at = m_end;
            return {};
        }
        const QByteArrayView v(m_at, qsizetype(size));
        m_at += size;
        return v;
    }

private:
    const char *m_at;
    const char *m_end;
    bool m_ok = true;
};

void appendListed(std::string &list, std::string_view utf8)
{
    if (list.empty())
        list.push_back(ListSeparator);
    list.append(utf8);
    list.push_back(ListSeparator);
}

} // namespace

std::string listedNeedle(QStringView text)
{
    std::string needle(1, ListSeparator);
    appendUtf8(needle, text);
    needle.push_back(ListSeparator);
    return needle;
}

void RequestBlockEncoder::clear()
{
    m_strings.clear();
    m_listedAs.clear();
    m_index.clear();
    m_records.clear();
    m_out.clear();
    m_keyList.clear();
    m_nodeList.clear();
    m_modelList.clear();
    std::fill(std::begin(m_recent), std::end(m_recent), Recent{});
    m_lastStarted = 0;
    m_stringBytes = 0;
    m_count = 0;
}

quint32 RequestBlockEncoder::intern(Listed listed)
{
    const auto [it, added] = m_index.try_emplace(m_scratch, quint32(m_strings.size()));
    if (added) {
        m_strings.push_back(it->first);
        m_listedAs.push_back(0);
        m_stringBytes += it->first.size() + 2; // and its length
    }
    // Listed once per place it is met in: a node named like a model is in both lists, or a search by
    // model would skip the block.
    quint8 &as = m_listedAs[it->second];
    const quint8 bit = quint8(1u << quint8(listed));
    if (listed != Listed::No && !(as & bit)) {
        as |= bit;
        appendListed(listed == Listed::Key ? m_keyList : listed == Listed::Node ? m_nodeList : m_modelList,
                     it->first);
    }
    return it->second;
}

quint32 RequestBlockEncoder::text(Field field, QStringView s, Listed listed)
{
    Recent &r = m_recent[field];
    if (r.data == s.data() && r.size == s.size())
        return r.index;
    m_scratch.clear();
    appendUtf8(m_scratch, s);
    r = Recent{s.data(), s.size(), intern(listed)};
    return r.index;
}

quint32 RequestBlockEncoder::rawBytes(Field field, QByteArrayView s)
{
    Recent &r = m_recent[field];
    if (r.data == s.data() && r.size == s.size())
        return r.index;
    m_scratch.assign(s.data(), size_t(s.size()));
    r = Recent{s.data(), s.size(), intern(Listed::No)};
    return r.index;
}

void RequestBlockEncoder::add(const stats::RequestRecord &rec)
{
    std::string &o = m_records;
    putSigned(o, rec.startedMsSinceEpoch - m_lastStarted);
    m_lastStarted = rec.startedMsSinceEpoch;
    putVarint(o, rawBytes(Method, rec.method));
    putVarint(o, rawBytes(Path, rec.path));
    putVarint(o, text(Model, rec.model, Listed::Model));
    putVarint(o, text(Node, rec.node, Listed::Node));
    putVarint(o, text(Route, rec.route, Listed::No));
    putVarint(o, text(KeyId, rec.keyId, Listed::Key));
    putVarint(o, text(Error, rec.error, Listed::No));
    putSigned(o, rec.status);
    putSigned(o, rec.attempts);
    o.push_back(rec.stream ? 1 : 0);
    putSigned(o, rec.ttftMs);
    putSigned(o, rec.durationMs);
    putSigned(o, rec.promptTokens);
    putSigned(o, rec.completionTokens);
    putVarint(o, quint64(rec.tried.size()));
    for (const stats::Attempt &a : rec.tried) {
        putVarint(o, text(TriedNode, a.node, Listed::Node));
        putVarint(o, text(TriedFallback, a.fallbackModel, Listed::Model));
        putVarint(o, text(TriedReason, a.reason, Listed::No));
        putSigned(o, a.status);
        o.push_back(char(a.outcome));
        o.push_back(char(a.via));
        putSigned(o, a.startMs);
        putSigned(o, a.durationMs);
    }
    ++m_count;
}

size_t RequestBlockEncoder::bytes() const
{
    return m_stringBytes + m_records.size();
}

std::string_view RequestBlockEncoder::finish()
{
    m_out.clear();
    m_out.push_back(char(BlockVersion));
    putVarint(m_out, m_strings.size());
    for (std::string_view s : m_strings) {
        putVarint(m_out, s.size());
        m_out.append(s);
    }
    putVarint(m_out, quint64(m_count));
    m_out.append(m_records);
    return m_out;
}

bool packRequestBlocks(std::span<const stats::RequestRecord *const> byStart, RequestBlockEncoder &encoder,
                       const std::function<bool(qint64 firstMs, qint64 lastMs)> &store)
{
    encoder.clear();
    qint64 blockMinute = 0, firstMs = 0, lastMs = 0;
    const auto flush = [&] {
        const bool stored = store(firstMs, lastMs);
        encoder.clear();
        return stored;
    };
    for (const stats::RequestRecord *r : byStart) {
        const qint64 minute = floorToMinute(r->startedMsSinceEpoch);
        if (encoder.size() > 0 && (minute != blockMinute || encoder.size() >= RecordsPerBlockId ||
                                   encoder.bytes() >= MaxBlockBytes)) {
            if (!flush())
                return false;
        }
        if (encoder.size() == 0) {
            blockMinute = minute;
            firstMs = r->startedMsSinceEpoch;
        }
        encoder.add(*r);
        lastMs = r->startedMsSinceEpoch;
    }
    return encoder.size() == 0 || flush();
}

Expected<std::vector<stats::RequestRecord>, QString> decodeRequestBlock(QByteArrayView block)
{
    Reader in(block);
    const quint64 version = in.varint();
    if (!in.ok() || version != BlockVersion)
        return unexpected(u"a block of requests in an unknown format (version %1)"_s.arg(version));
    // Every string at least one byte of length: a count beyond the bytes left is damage, not a reason
    // to reserve memory for it.
    const quint32 stringCount = in.below(quint64(block.size()) + 1);
    std::vector<QByteArrayView> strings;
    strings.reserve(stringCount);
    for (quint32 i = 0; i < stringCount && in.ok(); ++i)
        strings.push_back(in.bytes(in.varint()));
    // Texts are converted once per block, not once per record that uses them.
    std::vector<QString> texts(strings.size());
    std::vector<bool> converted(strings.size(), false);
    const auto textAt = [&](quint32 i) -> QString {
        if (!converted[i]) {
            texts[i] = QString::fromUtf8(strings[i]);
            converted[i] = true;
        }
        return texts[i];
    };
    const quint32 count = in.below(quint64(block.size()) + 1);
    if (!in.ok())
        return unexpected(u"a damaged block of requests (its list of texts is cut short)"_s);
    const quint64 n = strings.size();
    std::vector<stats::RequestRecord> out;
    out.reserve(count);
    qint64 started = 0;
    for (quint32 i = 0; i < count && in.ok(); ++i) {
        stats::RequestRecord r;
        started += in.signedVarint();
        r.startedMsSinceEpoch = started;
        const quint32 method = in.below(n), path = in.below(n), model = in.below(n), node = in.below(n),
                      route = in.below(n), key = in.below(n), error = in.below(n);
        r.status = int(in.signedVarint());
        r.attempts = int(in.signedVarint());
        r.stream = in.varint() != 0;
        r.ttftMs = in.signedVarint();
        r.durationMs = in.signedVarint();
        r.promptTokens = in.signedVarint();
        r.completionTokens = in.signedVarint();
        const quint32 tried = in.below(quint64(stats::RequestRecord::MaxAttemptsListed) + 1);
        if (!in.ok())
            break;
        r.method = strings[method].toByteArray();
        r.path = strings[path].toByteArray();
        r.model = textAt(model);
        r.node = textAt(node);
        r.route = textAt(route);
        r.keyId = textAt(key);
        r.error = textAt(error);
        r.tried.reserve(tried);
        for (quint32 t = 0; t < tried && in.ok(); ++t) {
            stats::Attempt a;
            const quint32 anode = in.below(n), fallback = in.below(n), reason = in.below(n);
            a.status = int(in.signedVarint());
            const quint64 outcome = in.varint(), via = in.varint();
            a.startMs = in.signedVarint();
            a.durationMs = in.signedVarint();
            if (!in.ok() || outcome > quint64(stats::Attempt::Outcome::GatewayStopped) ||
                via > quint64(stats::Attempt::Via::Retry)) {
                return unexpected(u"a damaged block of requests (record %1 of %2)"_s.arg(i + 1).arg(count));
            }
            a.node = textAt(anode);
            a.fallbackModel = textAt(fallback);
            a.reason = textAt(reason);
            a.outcome = stats::Attempt::Outcome(outcome);
            a.via = stats::Attempt::Via(via);
            r.tried.push_back(std::move(a));
        }
        out.push_back(std::move(r));
    }
    if (!in.ok() || out.size() != count || !in.atEnd())
        return unexpected(u"a damaged block of requests (record %1 of %2)"_s.arg(out.size() + 1).arg(count));
    return out;
}

} // namespace switchyard::history
