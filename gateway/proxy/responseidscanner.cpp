#include "proxy/responseidscanner.h"

#include "proxy/responseidmemory.h"

namespace switchyard::proxy {

namespace {
bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// The string value after the first "id" key in text: complete false while it may still be cut off.
std::optional<QByteArray> firstId(QByteArrayView text, bool *complete)
{
    *complete = false;
    constexpr QByteArrayView Key = "\"id\"";
    for (qsizetype at = text.indexOf(Key); at >= 0; at = text.indexOf(Key, at + 1)) {
        qsizetype p = at + Key.size();
        while (p < text.size() && isSpace(text[p]))
            ++p;
        if (p == text.size())
            return std::nullopt; // the rest arrives with the next read
        if (text[p] != ':')
            continue; // "id" as a value, not a key
        ++p;
        while (p < text.size() && isSpace(text[p]))
            ++p;
        if (p == text.size())
            return std::nullopt;
        if (text[p] != '"') {
            *complete = true; // an id that is not a string: nothing to remember
            return std::nullopt;
        }
        const qsizetype close = text.indexOf('"', p + 1);
        if (close < 0)
            return std::nullopt;
        *complete = true;
        const QByteArrayView value = text.sliced(p + 1, close - p - 1);
        if (value.isEmpty() || value.contains('\\') || value.size() > ResponseIdMemory::MaxIdBytes)
            return std::nullopt;
        return value.toByteArray();
    }
    return std::nullopt;
}
} // namespace

std::optional<QByteArray> ResponseIdScanner::feed(QByteArrayView data)
{
    if (m_done || data.isEmpty())
        return std::nullopt;
    m_head.append(data.first(std::min(data.size(), MaxScanBytes - m_head.size())));
    bool complete = false;
    std::optional<QByteArray> id = firstId(m_head, &complete);
    if (complete || m_head.size() >= MaxScanBytes) {
        m_done = true;
        m_head = QByteArray();
    }
    return id;
}

} // namespace switchyard::proxy
