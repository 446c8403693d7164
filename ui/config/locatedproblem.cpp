#include "locatedproblem.h"

#include "jsontextindex.h"

#include <algorithm>
#include <vector>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {

// Offsets where each line of text starts.
std::vector<int> lineStarts(QStringView text)
{
    std::vector<int> starts{0};
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i] == u'\n')
            starts.push_back(int(i + 1));
    }
    return starts;
}

} // namespace

QString LocatedProblem::text() const
{
    const QString what = problem.path.isEmpty() || problem.line > 0
                             ? problem.message
                             : problem.path + u": "_s + problem.message;
    if (line <= 0)
        return what;
    return QString::number(line) + u':' + QString::number(column) + u"  "_s + what;
}

QList<LocatedProblem> locateProblems(const config::ConfigProblems &problems, QStringView text)
{
    QList<LocatedProblem> out;
    const std::vector<int> starts = lineStarts(text);
    const JsonTextIndex index = JsonTextIndex::build(text);
    auto lineEnd = [&](size_t line) {
        return line + 1 < starts.size() ? starts[line + 1] - 1 : int(text.size());
    };
    for (const config::ConfigProblem &p : problems) {
        LocatedProblem lp{p};
        if (p.line > 0) {
            if (size_t(p.line - 1) < starts.size()) {
                const size_t l = size_t(p.line - 1);
                lp.start = lp.end = std::min(starts[l] + std::max(p.column, 1) - 1, lineEnd(l));
            }
            lp.line = p.line;
            lp.column = p.column;
        } else if (const auto path = parseJsonPath(p.path); path && !index.isEmpty()) {
            int matched = 0;
            const int at = index.findNearest(*path, &matched);
            const JsonTextIndex::Node &n = index.node(at);
            const bool container =
                n.kind == JsonTextIndex::Kind::Object || n.kind == JsonTextIndex::Kind::Array;
            if ((matched < path->size() || container) && n.keyStart >= 0) {
                // Missing, or a whole object: its name says where without painting a block of text.
                lp.start = n.keyStart;
                lp.end = n.keyEnd;
            } else if (matched < path->size() || container) {
                lp.start = n.start;
                lp.end = n.start + 1;
            } else {
                lp.start = n.start;
                lp.end = n.end;
            }
        }
        if (lp.start >= 0 && p.line <= 0) {
            const auto it = std::upper_bound(starts.begin(), starts.end(), lp.start);
            const size_t l = size_t(it - starts.begin()) - 1;
            lp.line = int(l) + 1;
            lp.column = lp.start - starts[l] + 1;
        }
        out.append(lp);
    }
    return out;
}

} // namespace switchyard::ui
