#pragma once

// Axis ranges that read well, shared by the Charts view and the Benchmark view's sweep charts.

namespace switchyard::ui {

// The smallest "nice" axis maximum (4 intervals of 1, 2, 2.5 or 5 × 10^k) at or above value × headroom,
// and at least minimum. The headroom keeps the highest point off the chart's top edge.
double niceMaximum(double value, double minimum, double headroom = 1.1);

} // namespace switchyard::ui
