#pragma once

// The multi-turn benchmark's results as text, in the shapes of benchformat.h: a Markdown table with one
// row per strategy (TTFT p50/p95, latency, tok/s, prefix-cache hit rate, request split) and one per
// strategy and node; CSV with one row per strategy and node (node "all" for the run as a whole); JSON
// with every figure and, optionally, every turn's sample.

#include "multiturntypes.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace switchyard::bench {

QString formatMultiTurnMarkdown(const MultiTurnResults &results);
QByteArray formatMultiTurnCsv(const MultiTurnResults &results);
QStringList multiTurnCsvColumns();
QByteArray formatMultiTurnJson(const MultiTurnResults &results, bool withSamples = true);

// "62 %" (or "—" when nothing was reported); "vllm-server1 24 · vllm-server2 24".
QString formatHitRate(qint64 cachedTokens, qint64 promptTokens, bool reported);
QString formatSplit(const MultiTurnRun &run);

} // namespace switchyard::bench
