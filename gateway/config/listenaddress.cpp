#include "config/listenaddress.h"

#include "config/configproblem.h"

#include <QHostAddress>

#include <algorithm>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::config {

namespace {

// Pinned to QString: unexpected() would keep a QStringBuilder expression as the error type.
using Failure = Unexpected<QString>;

bool isHostName(const QString &host)
{
    // RFC 1123 labels; an all-numeric dotted name would be a malformed IPv4 address, not a name.
    const QStringList labels = host.split(u'.');
    bool allNumeric = true;
    for (const QString &label : labels) {
        if (label.isEmpty() || label.size() > 63 || label.startsWith(u'-') || label.endsWith(u'-'))
            return false;
        for (const QChar c : label) {
            const char16_t u = c.unicode();
            const bool digit = u >= u'0' && u <= u'9';
            const bool ok = digit || (u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z') || u == u'-';
            if (!ok)
                return false;
            allNumeric = allNumeric && digit;
        }
    }
    return !allNumeric && host.size() <= 253;
}

Expected<quint16, QString> parsePort(const QString &text)
{
    if (text.isEmpty())
        return Failure{u"missing port after ':'"_s};
    for (const QChar c : text) {
        if (c.unicode() < u'0' || c.unicode() > u'9')
            return Failure{u"port "_s + jsonQuoted(text) + u" is not a number"_s};
    }
    if (text.size() > 5 || text.toUInt() > 65535)
        return Failure{u"port "_s + text + u" is out of range (0-65535)"_s};
    return quint16(text.toUInt());
}

// The two halves of a listen address, before the port is checked.
struct HostAndPort
{
    QString host;
    QString port;
};

// "[v6]:PORT": the address inside the brackets, and the port text after them.
Expected<HostAndPort, QString> splitBracketed(const QString &t)
{
    const qsizetype close = t.indexOf(u']');
    if (close < 0)
        return Failure{u"missing ']' after the IPv6 address in "_s + jsonQuoted(t)};
    HostAndPort result;
    result.host = t.mid(1, close - 1);
    const QString rest = t.mid(close + 1);
    if (!rest.startsWith(u':'))
        return Failure{u"missing :PORT after ']' in "_s + jsonQuoted(t)};
    result.port = rest.mid(1);
    QHostAddress address;
    if (!address.setAddress(result.host) || address.protocol() != QAbstractSocket::IPv6Protocol)
        return Failure{jsonQuoted(result.host) + u" is not an IPv6 address"_s};
    return result;
}

// "HOST:PORT", ":PORT" or "PORT": the host (loopback when none is given), and the port text.
Expected<HostAndPort, QString> splitUnbracketed(const QString &t, const QString &usage)
{
    HostAndPort result;
    const qsizetype colons = t.count(u':');
    if (colons == 0) {
        // A bare port. Anything else without a colon lacks the port.
        const bool digits = std::all_of(t.cbegin(), t.cend(),
                                        [](QChar c) { return c.unicode() >= u'0' && c.unicode() <= u'9'; });
        if (!digits)
            return Failure{u"missing port in "_s + jsonQuoted(t) + u" ("_s + usage + u")"_s};
        result.host = u"127.0.0.1"_s;
        result.port = t;
        return result;
    }
    if (colons > 1)
        return Failure{u"an IPv6 address needs brackets, as in [::1]:8080 (got "_s + jsonQuoted(t) + u")"_s};
    const qsizetype colon = t.indexOf(u':');
    result.host = t.left(colon);
    result.port = t.mid(colon + 1);
    // No host means loopback, not every interface: exposing the gateway is an explicit choice.
    if (result.host.isEmpty()) {
        result.host = u"127.0.0.1"_s;
        return result;
    }
    QHostAddress address;
    const bool ipv4 = address.setAddress(result.host) && address.protocol() == QAbstractSocket::IPv4Protocol;
    if (!ipv4 && !isHostName(result.host))
        return Failure{
            jsonQuoted(result.host) +
            u" is not a valid host (use an IP address such as 0.0.0.0 or 127.0.0.1, or a host name)"_s};
    return result;
}

} // namespace

bool isLoopbackHost(const QString &host)
{
    if (host.compare(u"localhost"_s, Qt::CaseInsensitive) == 0)
        return true;
    const QHostAddress address(host);
    return !address.isNull() && address.isLoopback();
}

Expected<ListenAddress, QString> parseListenAddress(const QString &text)
{
    const QString usage = u"expected HOST:PORT, [IPv6]:PORT, :PORT or PORT"_s;
    const QString t = text.trimmed();
    if (t.isEmpty())
        return Failure{u"the listen address is empty ("_s + usage + u")"_s};
    const auto parts = t.startsWith(u'[') ? splitBracketed(t) : splitUnbracketed(t, usage);
    if (!parts)
        return Failure{parts.error()};
    const auto port = parsePort(parts->port);
    if (!port)
        return Failure{port.error()};
    return ListenAddress{parts->host, *port};
}

} // namespace switchyard::config
