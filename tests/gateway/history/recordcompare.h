#pragma once

// Shared by the history's suites: a request record read back compared with the one written, field by
// field, so that a failure names the field that came back different.

#include "stats/requestrecord.h"

#include <QTest>

namespace switchyard::testing {

inline void compareRecords(const stats::RequestRecord &got, const stats::RequestRecord &want)
{
    QCOMPARE(got.startedMsSinceEpoch, want.startedMsSinceEpoch);
    QCOMPARE(got.method, want.method);
    QCOMPARE(got.path, want.path);
    QCOMPARE(got.model, want.model);
    QCOMPARE(got.node, want.node);
    QCOMPARE(got.route, want.route);
    QCOMPARE(got.status, want.status);
    QCOMPARE(got.attempts, want.attempts);
    QCOMPARE(got.stream, want.stream);
    QCOMPARE(got.ttftMs, want.ttftMs);
    QCOMPARE(got.durationMs, want.durationMs);
    QCOMPARE(got.promptTokens, want.promptTokens);
    QCOMPARE(got.completionTokens, want.completionTokens);
    QCOMPARE(got.error, want.error);
    QCOMPARE(got.keyId, want.keyId);
    QCOMPARE(got.tried, want.tried);
}

} // namespace switchyard::testing
