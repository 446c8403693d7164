#pragma once

// Benchmark results as text: Markdown tables in the article's shapes (single requests; 5 parallel
// requests; the sweep), CSV with one row per test for spreadsheets, and JSON with every sample, which is
// also how the panel keeps runs between sessions (resultsFromJson reads it back).

#include "benchtypes.h"

#include <QByteArray>
#include <QList>
#include <optional>

namespace switchyard::bench {

QString formatMarkdown(const BenchmarkResults &results);
// Several runs side by side (the panel's comparison): one table per test shape, rows labelled
// "target (run time)".
QString formatMarkdown(const QList<BenchmarkResults> &runs);

QByteArray formatCsv(const BenchmarkResults &results);
QByteArray formatCsv(const QList<BenchmarkResults> &runs);
// The header row's columns, for tests and scripts.
QStringList csvColumns();

QByteArray formatJson(const BenchmarkResults &results, bool withSamples = true);
// A file holding several runs: {"format":"switchyard-bench-history/1","runs":[…]}.
QByteArray formatJsonHistory(const QList<BenchmarkResults> &runs);

// Reads formatJson's output (one run) or a history file (every run in it). Unknown fields are ignored;
// nullopt when the text is not such a document.
std::optional<BenchmarkResults> resultsFromJson(QByteArrayView json);
std::optional<QList<BenchmarkResults>> historyFromJson(QByteArrayView json);

// "1,401 ms", "14.3 tok/s", "5/5 ✅": the article's way of writing numbers.
QString formatMs(double ms);
QString formatRate(double tokensPerSecond);
QString formatSuccess(int succeeded, int requests);

} // namespace switchyard::bench
