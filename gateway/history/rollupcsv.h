#pragma once

// The lasting history's per-bucket sums as CSV (RFC 4180), for a spreadsheet: GET
// /api/history/rollups?format=csv and the panel's export of the day and week charts write the same
// columns. One row per bucket (per series and bucket when split, with a column named after the split
// second: node, model or key, and for keys the key's name third); times are UTC (ISO 8601); a mean no
// request made is an empty cell.

#include "history/historyquery.h"

#include <QByteArray>
#include <span>

namespace switchyard::history {

QByteArray rollupsCsv(std::span<const RollupPoint> points, RollupSplit split);

} // namespace switchyard::history
