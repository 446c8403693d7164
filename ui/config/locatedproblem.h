#pragma once

// Where in the text each problem the loader found is, so the editor can list it as "line:column  path:
// message", underline it and go to it.

#include "config/configloader.h"

#include <QList>
#include <QString>
#include <QStringView>

namespace switchyard::ui {

// A problem from the loader with where it is in the text.
struct LocatedProblem
{
    config::ConfigProblem problem;
    int start = -1; // text range to mark, -1 when the problem has no place (e.g. "invalid JSON: overflow")
    int end = -1;
    int line = 0; // 1-based, 0 when unknown
    int column = 0;
    QString text() const; // "12:21  providers.a.keys[0].weight: must be 0 or more (got -1)"
};

// Places every problem in text: syntax errors by their line and column, the rest by their path (a missing
// member is placed at the nearest enclosing one that exists).
QList<LocatedProblem> locateProblems(const config::ConfigProblems &problems, QStringView text);

} // namespace switchyard::ui
