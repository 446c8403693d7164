#pragma once

// Suggestions for a misspelt name: an unknown field or routing strategy most likely is a typo of a known
// one, and saying which one saves the operator a trip to the docs.

#include <QString>
#include <QStringList>

namespace switchyard::config {

// " (did you mean "x"?)" when one of the candidates is a plausible typo of `word` (a small edit distance,
// ignoring case), else empty.
QString didYouMean(const QString &word, const QStringList &candidates);

} // namespace switchyard::config
