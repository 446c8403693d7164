#include "requestrecord.h"

using namespace Qt::Literals::StringLiterals;

namespace switchyard::stats {

QString RequestRecord::toLogLine() const
{
    auto num = [](qint64 v) { return v < 0 ? u"-"_s : QString::number(v); };
    QString line = QString::fromLatin1(method) % u' ' % QString::fromLatin1(path) % u" model="_s
                   % (model.isEmpty() ? u"-"_s : model) % u" node="_s % (node.isEmpty() ? u"-"_s : node)
                   % u" status="_s % QString::number(status) % u" attempts="_s % QString::number(attempts)
                   % u" stream="_s % (stream ? u"1"_s : u"0"_s) % u" ttft_ms="_s % num(ttftMs)
                   % u" duration_ms="_s % QString::number(durationMs) % u" prompt_tokens="_s % num(promptTokens)
                   % u" completion_tokens="_s % num(completionTokens);
    if (!error.isEmpty())
        line += u" error=\""_s % QString(error).replace(u'"', u'\'') % u'"';
    return line;
}

} // namespace switchyard::stats
