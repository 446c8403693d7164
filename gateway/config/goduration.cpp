#include "config/goduration.h"

#include "config/configlimits.h"
#include "config/configproblem.h"

#include <cmath>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::config {

namespace {

// Pinned to QString: unexpected() would keep a QStringBuilder expression as the error type.
using Failure = Unexpected<QString>;

bool isAsciiDigit(QChar c)
{
    return c.isDigit() && c.unicode() < 128;
}

// Milliseconds per unit, or 0 for a unit Go does not know.
double msPerUnit(const QString &unit)
{
    if (unit == u"ns"_s)
        return 1e-6;
    if (unit == u"us"_s || unit == u"\u00b5s"_s || unit == u"\u03bcs"_s)
        return 1e-3;
    if (unit == u"ms"_s)
        return 1;
    if (unit == u"s"_s)
        return 1000;
    if (unit == u"m"_s)
        return 60'000;
    if (unit == u"h"_s)
        return 3'600'000;
    return 0;
}

} // namespace

Expected<qint64, QString> parseGoDurationMs(const QString &text)
{
    const QString expected = u"expected a duration like \"500ms\", \"2s\" or \"1m30s\""_s;
    if (text == u"0"_s)
        return qint64(0);
    if (text.startsWith(u'-'))
        return Failure{u"must not be negative"_s};
    const QString s = text.startsWith(u'+') ? text.mid(1) : text;
    if (s.isEmpty())
        return Failure{expected};
    double totalMs = 0;
    qsizetype i = 0;
    while (i < s.size()) {
        // One "<number><unit>" term: digits with an optional fraction, then the unit up to the next digit.
        const qsizetype numberStart = i;
        bool digits = false;
        while (i < s.size() && isAsciiDigit(s[i])) {
            ++i;
            digits = true;
        }
        if (i < s.size() && s[i] == u'.') {
            ++i;
            while (i < s.size() && isAsciiDigit(s[i])) {
                ++i;
                digits = true;
            }
        }
        if (!digits)
            return Failure{expected};
        const double number = s.mid(numberStart, i - numberStart).toDouble();
        const qsizetype unitStart = i;
        while (i < s.size() && !isAsciiDigit(s[i]) && s[i] != u'.')
            ++i;
        const QString unit = s.mid(unitStart, i - unitStart);
        if (unit.isEmpty())
            return Failure{u"missing unit after "_s + s.mid(numberStart, unitStart - numberStart) + u" ("_s +
                           expected + u")"_s};
        const double factor = msPerUnit(unit);
        if (factor == 0)
            return Failure{u"unknown unit "_s + jsonQuoted(unit) + u" (use ns, us, ms, s, m or h)"_s};
        totalMs += number * factor;
        if (totalMs > double(kDayMs))
            return Failure{u"must not exceed 24h"_s};
    }
    return qint64(std::llround(totalMs));
}

} // namespace switchyard::config
