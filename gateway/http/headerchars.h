#pragma once

// What a byte may be in an HTTP head, from one table: the request and response parsers look at every
// byte of every header name and value, and a switch per byte (and a call to Qt's trimmed() and
// indexOf() per field) was a fifth of the instructions the two heads cost (docs/PERFORMANCE.md,
// "Per core").

#include <QByteArrayView>
#include <QtGlobal>
#include <array>
#include <cstring>

namespace switchyard::http::chars {

enum : quint8 {
    Token = 1,      // RFC 9110 tchar: may appear in a method or a header field name
    FieldValue = 2, // may appear in a field value: anything but controls other than HTAB, and DEL
    Space = 4,      // trimmed around names and values (ASCII white space, as QByteArray::trimmed does)
};

constexpr std::array<quint8, 256> makeTable()
{
    std::array<quint8, 256> t{};
    for (int c = 0; c < 256; ++c) {
        quint8 bits = 0;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
            bits |= Token;
        for (char extra : {'!', '#', '$', '%', '&', '\'', '*', '+', '-', '.', '^', '_', '`', '|', '~'}) {
            if (c == quint8(extra))
                bits |= Token;
        }
        if ((c >= 0x20 || c == '\t') && c != 0x7f)
            bits |= FieldValue;
        if (c == ' ' || (c >= '\t' && c <= '\r'))
            bits |= Space;
        t[size_t(c)] = bits;
    }
    return t;
}

inline constexpr std::array<quint8, 256> Table = makeTable();

inline bool is(char c, quint8 kind)
{
    return Table[quint8(c)] & kind;
}

inline char toLower(char c)
{
    return c >= 'A' && c <= 'Z' ? char(c + ('a' - 'A')) : c;
}

inline bool allAre(QByteArrayView v, quint8 kind)
{
    for (char c : v) {
        if (!is(c, kind))
            return false;
    }
    return true;
}

// v without the white space around it (QByteArrayView::trimmed, inline).
inline QByteArrayView trimmed(QByteArrayView v)
{
    const char *b = v.data();
    const char *e = b + v.size();
    while (b < e && is(*b, Space))
        ++b;
    while (e > b && is(e[-1], Space))
        --e;
    return QByteArrayView(b, e - b);
}

// v == literal, its length known when compiled (QByteArrayView's == measures a literal and calls out
// to compare).
template<size_t N>
inline bool equals(QByteArrayView v, const char (&literal)[N])
{
    return v.size() == qsizetype(N - 1) && std::memcmp(v.data(), literal, N - 1) == 0;
}

// Where c first occurs in v, or -1 (memchr, without QByteArrayView::indexOf's call).
inline qsizetype indexOf(QByteArrayView v, char c, qsizetype from = 0)
{
    if (from >= v.size())
        return -1;
    const void *p = std::memchr(v.data() + from, c, size_t(v.size() - from));
    return p ? static_cast<const char *>(p) - v.data() : -1;
}

} // namespace switchyard::http::chars
