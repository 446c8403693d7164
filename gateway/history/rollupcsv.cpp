#include "history/rollupcsv.h"

#include "stats/requestcsv.h"

#include <QDateTime>

namespace switchyard::history {

QByteArray rollupsCsv(std::span<const RollupPoint> points, RollupSplit split)
{
    const bool grouped = split != RollupSplit::None;
    QByteArray out = "bucket_start_utc,";
    if (grouped)
        out.append(rollupSplitName(split)).append(',');
    if (split == RollupSplit::Key)
        out.append("key_name,");
    out += "requests,errors,client_errors,prompt_tokens,completion_tokens,mean_duration_ms,mean_ttft_ms\r\n";
    out.reserve(out.size() + qsizetype(points.size()) * 80);
    for (const RollupPoint &p : points) {
        out +=
            QDateTime::fromMSecsSinceEpoch(p.bucketStartMs, Qt::UTC).toString(Qt::ISODate).toLatin1() + ',';
        if (grouped)
            out += stats::csvCell(p.group) + ',';
        if (split == RollupSplit::Key)
            out += stats::csvCell(p.groupName) + ',';
        out += QByteArray::number(p.requests) + ',' + QByteArray::number(p.errors) + ',' +
               QByteArray::number(p.clientErrors) + ',' + QByteArray::number(p.promptTokens) + ',' +
               QByteArray::number(p.completionTokens) + ',' +
               (p.requests > 0 ? QByteArray::number(p.meanDurationMs, 'f', 1) : QByteArray()) + ',' +
               (p.meanTtftMs < 0 ? QByteArray() : QByteArray::number(p.meanTtftMs, 'f', 1)) + "\r\n";
    }
    return out;
}

} // namespace switchyard::history
