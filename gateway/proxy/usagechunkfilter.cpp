#include "proxy/usagechunkfilter.h"

#include "http/jsonmembers.h"

namespace switchyard::proxy {

UsageChunkFilter::Verdict UsageChunkFilter::judge(QByteArrayView event, qsizetype *cutBegin,
                                                  qsizetype *cutEnd) const
{
    // Only the one-line `data: {...}` events OpenAI-compatible servers send are looked at. The LF of
    // the previous event's CRLF may lead.
    qsizetype begin = 0;
    while (begin < event.size() && (event[begin] == '\n' || event[begin] == '\r'))
        ++begin;
    if (!event.sliced(begin).startsWith("data:"))
        return Verdict::Keep;
    begin += 5;
    if (begin < event.size() && event[begin] == ' ')
        ++begin;
    qsizetype end = begin;
    while (end < event.size() && event[end] != '\n' && event[end] != '\r')
        ++end;
    const QByteArrayView payload = event.sliced(begin, end - begin);
    if (payload.isEmpty() || payload.front() != '{')
        return Verdict::Keep; // "[DONE]" and anything else
    bool emptyChoices = false;
    http::Span usage, cut;
    qsizetype previousValueEnd = -1, usageMemberBegin = -1;
    bool usageWasLast = false;
    const bool object = http::forEachJsonMember(payload, [&](const http::JsonMember &m) {
        if (usageWasLast) {
            cut = {usageMemberBegin, m.member.begin}; // the usage member and the comma after it
            usageWasLast = false;
        }
        if (m.key == "choices") {
            const QByteArrayView v = payload.sliced(m.value.begin, m.value.end - m.value.begin);
            emptyChoices = v.front() == '[' && http::skipJsonWhitespace(v, 1) == v.size() - 1;
        } else if (m.key == "usage" && !usage.isValid()) {
            usage = m.value;
            usageMemberBegin = m.member.begin;
            // Without a member after it, the comma before it goes (or nothing, when it is alone).
            cut = {previousValueEnd >= 0 ? previousValueEnd : m.member.begin, m.member.end};
            usageWasLast = true;
        }
        previousValueEnd = m.member.end;
        return true;
    });
    if (!object || !usage.isValid())
        return Verdict::Keep;
    if (emptyChoices && payload[usage.begin] == '{')
        return Verdict::Drop;
    *cutBegin = begin + cut.begin;
    *cutEnd = begin + cut.end;
    return Verdict::Cut;
}

QByteArrayView UsageChunkFilter::feed(QByteArrayView data)
{
    m_out.clear();
    bool useOut = false;
    qsizetype verbatimEnd = 0; // data[0, verbatimEnd) is the client's, unchanged, while !useOut
    const auto toOut = [&] {
        if (!useOut) {
            m_out.append(data.first(verbatimEnd));
            useOut = true;
        }
    };
    const auto emitRange = [&](qsizetype a, qsizetype b) {
        if (!useOut && a == verbatimEnd) {
            verbatimEnd = b;
            return;
        }
        toOut();
        m_out.append(data.sliced(a, b - a));
    };
    const auto emitBytes = [&](QByteArrayView bytes) {
        toOut();
        m_out.append(bytes);
    };
    const auto emitJudged = [&](QByteArrayView event, qsizetype offsetInData) {
        qsizetype cutBegin = 0, cutEnd = 0;
        switch (judge(event, &cutBegin, &cutEnd)) {
        case Verdict::Keep:
            if (offsetInData >= 0)
                emitRange(offsetInData, offsetInData + event.size());
            else
                emitBytes(event);
            break;
        case Verdict::Drop:
            ++m_removed; // what follows is no longer contiguous with what came before: emitRange sees it
            break;
        case Verdict::Cut:
            emitBytes(event.first(cutBegin));
            emitBytes(event.sliced(cutEnd));
            break;
        }
    };

    qsizetype eventStart = 0;
    for (qsizetype i = 0; i < data.size(); ++i) {
        const char c = data[i];
        if (c == '\n') {
            if (m_lastCr) {
                m_lastCr = false;
                continue;
            }
        } else if (c == '\r') {
            m_lastCr = true;
        } else {
            m_lastCr = false;
            m_atLineStart = false;
            continue;
        }
        if (!m_atLineStart) {
            m_atLineStart = true;
            continue;
        }
        // A blank line: the event ends here.
        const qsizetype eventEnd = i + 1;
        if (m_passing) {
            emitRange(eventStart, eventEnd);
            m_passing = false;
        } else if (m_held.isEmpty()) {
            emitJudged(data.sliced(eventStart, eventEnd - eventStart), eventStart);
        } else {
            m_held.append(data.sliced(eventStart, eventEnd - eventStart));
            emitJudged(m_held, -1);
            m_held.clear();
        }
        eventStart = eventEnd;
    }
    if (eventStart < data.size()) {
        if (m_passing) {
            emitRange(eventStart, data.size());
        } else {
            m_held.append(data.sliced(eventStart));
            if (m_held.size() > MaxHeldEventBytes) {
                emitBytes(m_held);
                m_held.clear();
                m_passing = true;
            }
        }
    }
    return useOut ? QByteArrayView(m_out) : data.first(verbatimEnd);
}

QByteArray UsageChunkFilter::takeHeld()
{
    QByteArray held;
    held.swap(m_held);
    return held;
}

} // namespace switchyard::proxy
