#include "config/didyoumean.h"

#include "config/configproblem.h"

#include <algorithm>
#include <limits>
#include <vector>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::config {

namespace {

// Levenshtein distance: insertions, deletions and substitutions of one character each.
int editDistance(const QString &a, const QString &b)
{
    std::vector<int> prev(std::size_t(b.size()) + 1), cur(prev.size());
    for (std::size_t j = 0; j < prev.size(); ++j)
        prev[j] = int(j);
    for (qsizetype i = 1; i <= a.size(); ++i) {
        cur[0] = int(i);
        for (qsizetype j = 1; j <= b.size(); ++j) {
            const int subst = prev[std::size_t(j - 1)] + (a[i - 1] == b[j - 1] ? 0 : 1);
            cur[std::size_t(j)] = std::min({prev[std::size_t(j)] + 1, cur[std::size_t(j - 1)] + 1, subst});
        }
        std::swap(prev, cur);
    }
    return prev.back();
}

} // namespace

QString didYouMean(const QString &word, const QStringList &candidates)
{
    const QString w = word.toLower();
    QString best;
    int bestDistance = std::numeric_limits<int>::max();
    for (const QString &c : candidates) {
        const int d = editDistance(w, c.toLower());
        if (d < bestDistance) {
            bestDistance = d;
            best = c;
        }
    }
    const int allowed = std::max<int>(2, int(std::min(w.size(), best.size()) / 3));
    if (best.isEmpty() || bestDistance > allowed)
        return {};
    return u" (did you mean "_s + jsonQuoted(best) + u"?)"_s;
}

} // namespace switchyard::config
