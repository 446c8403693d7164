#pragma once

// Appends pieces to a QByteArray by copying them straight into its storage. The request path builds a
// head per request out of a dozen or more short pieces (the request to the node, the answer's head to
// the client); QByteArray::append goes through QByteArray::insert for each, about 60 instructions
// before the copy, which was 5 % of a proxied request's instructions (docs/PERFORMANCE.md, "Per
// core"). Here each piece is a bounds check and a memcpy; the array is sized once up front, grown
// (doubling) only when the estimate was short, and cut to what was written when the writer goes.

#include <QByteArray>
#include <QByteArrayView>
#include <QtGlobal>
#include <algorithm>
#include <cstring>

namespace switchyard::http {

// n in decimal ('-' first when negative), written at the end of buffer; the view of what was written.
inline QByteArrayView decimalDigits(qint64 n, char (&buffer)[24])
{
    char *const end = buffer + sizeof buffer;
    char *at = end;
    // Negative numbers through the unsigned magnitude, so the smallest qint64 has one too.
    quint64 u = n < 0 ? 0 - quint64(n) : quint64(n);
    do {
        *--at = char('0' + u % 10);
        u /= 10;
    } while (u != 0);
    if (n < 0)
        *--at = '-';
    return QByteArrayView(at, end - at);
}

class ByteWriter final
{
    Q_DISABLE_COPY_MOVE(ByteWriter)

public:
    // Writes after what out holds; expected: about how many bytes will be written (a guess is fine).
    ByteWriter(QByteArray &out, qsizetype expected) : m_out(out), m_at(out.size())
    {
        m_out.resize(m_at + std::max<qsizetype>(expected, 16)); // the new bytes are not initialised
        m_data = m_out.data();
    }
    ~ByteWriter() { m_out.resize(m_at); } // keeps the capacity

    ByteWriter &put(QByteArrayView bytes)
    {
        const qsizetype n = bytes.size();
        if (m_at + n > m_out.size())
            grow(n);
        if (n > 0)
            std::memcpy(m_data + m_at, bytes.data(), size_t(n));
        m_at += n;
        return *this;
    }
    ByteWriter &put(char c)
    {
        if (m_at + 1 > m_out.size())
            grow(1);
        m_data[m_at++] = c;
        return *this;
    }
    // n in decimal, '-' first when negative.
    ByteWriter &decimal(qint64 n)
    {
        char digits[24];
        return put(decimalDigits(n, digits));
    }
    qsizetype size() const { return m_at; }

private:
    void grow(qsizetype more)
    {
        m_out.resize(std::max(m_at + more, m_out.size() * 2));
        m_data = m_out.data();
    }

    QByteArray &m_out;
    char *m_data = nullptr;
    qsizetype m_at = 0; // bytes of m_out written so far (its size() is the room)
};

} // namespace switchyard::http
