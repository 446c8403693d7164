#pragma once

// The colours of a chart's per-node (or per-group) lines: the same in the live charts and in the day and
// week charts, so a node keeps its colour from one to the other. Tableau's categorical colours.

#include <QColor>

namespace switchyard::ui {

// The colour of the index-th series; after the eighth they repeat.
QColor seriesColor(int index);

} // namespace switchyard::ui
