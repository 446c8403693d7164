#include "config/configproblem.h"

using namespace Qt::Literals::StringLiterals;

namespace switchyard::config {

namespace {

bool isPlainName(const QString &s)
{
    if (s.isEmpty())
        return false;
    for (const QChar c : s) {
        const char16_t u = c.unicode();
        const bool ok = (u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z') || (u >= u'0' && u <= u'9') ||
                        u == u'-' || u == u'_';
        if (!ok)
            return false;
    }
    return true;
}

} // namespace

QString ConfigProblem::toString() const
{
    if (line > 0)
        return u"line "_s + QString::number(line) + u", column "_s + QString::number(column) + u": "_s +
               message;
    if (path.isEmpty())
        return message;
    return path + u": "_s + message;
}

QString problemPath(const QString &parent, const QString &name)
{
    if (!isPlainName(name))
        return parent + u'[' + jsonQuoted(name) + u']';
    if (parent.isEmpty())
        return name;
    return parent + u'.' + name;
}

QString problemIndexPath(const QString &parent, std::size_t index)
{
    return parent + u'[' + QString::number(qulonglong(index)) + u']';
}

QString jsonQuoted(const QString &text)
{
    QString out;
    out.reserve(text.size() + 2);
    out += u'"';
    for (const QChar c : text) {
        const char16_t u = c.unicode();
        if (u == u'"' || u == u'\\') {
            out += u'\\';
            out += c;
        } else if (u == u'\r') {
            out += u"\\r"_s;
        } else if (u == u'\n') {
            out += u"\\n"_s;
        } else if (u < 0x20) {
            out += u"\\u"_s + QString::number(int(u), 16).rightJustified(4, u'0');
        } else {
            out += c;
        }
    }
    out += u'"';
    return out;
}

} // namespace switchyard::config
