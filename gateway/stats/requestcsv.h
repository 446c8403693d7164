#pragma once

// Finished requests as CSV (RFC 4180), for a spreadsheet: the panel's "Export CSV…" of a history search
// and GET /api/history/requests?format=csv write the same columns. Times are UTC (ISO 8601, ms); an
// unknown count is an empty cell. A cell that a spreadsheet would run as a formula (it starts with =, +,
// -, @, tab or carriage return, e.g. an error text a node sent) is written with a leading apostrophe.

#include "stats/requestrecord.h"

#include <QByteArray>
#include <span>

namespace switchyard::stats {

// One cell: quoted when it holds a comma, quote or line break; a leading apostrophe when a
// spreadsheet would run it as a formula.
QByteArray csvCell(const QString &text);

// The header line.
QByteArray requestsCsvHeader();
// One line per record, each ending in "\r\n", without the header.
QByteArray requestsCsvRows(std::span<const RequestRecord> records);
// The header, then the rows.
QByteArray requestsCsv(std::span<const RequestRecord> records);

} // namespace switchyard::stats
