#include "chartaxis.h"

#include <algorithm>
#include <cmath>

namespace switchyard::ui {

double niceMaximum(double value, double minimum, double headroom)
{
    value = std::max(value * headroom, minimum);
    const double rawStep = value / 4.0;
    const double magnitude = std::pow(10.0, std::floor(std::log10(rawStep)));
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
        if (m * magnitude >= rawStep - 1e-12)
            return 4.0 * m * magnitude;
    }
    return 40.0 * magnitude;
}

} // namespace switchyard::ui
