#include "weightedschedule.h"

#include <cmath>
#include <numeric>

namespace switchyard::routing {

WeightedSchedule::WeightedSchedule(const std::vector<double> &weights)
{
    std::vector<long long> w(weights.size());
    long long total = 0;
    for (size_t i = 0; i < weights.size(); ++i) {
        w[i] = weights[i] > 0 ? std::llround(weights[i] * 100.0) : 0;
        total += w[i];
    }
    if (total == 0)
        return;
    long long g = 0;
    for (long long x : w)
        g = std::gcd(g, x);
    for (long long &x : w)
        x /= g;
    total /= g;
    if (total > MaxPeriod) {
        // Scale down, keeping every positive weight at least 1.
        const double f = double(MaxPeriod) / double(total);
        total = 0;
        for (long long &x : w) {
            if (x > 0)
                x = std::max<long long>(1, std::llround(double(x) * f));
            total += x;
        }
    }
    // nginx's smooth weighted round-robin over one full period.
    std::vector<long long> current(w.size(), 0);
    m_order.reserve(size_t(total));
    for (long long n = 0; n < total; ++n) {
        int best = -1;
        for (size_t i = 0; i < w.size(); ++i) {
            if (w[i] == 0)
                continue;
            current[i] += w[i];
            if (best < 0 || current[i] > current[size_t(best)])
                best = int(i);
        }
        current[size_t(best)] -= total;
        m_order.push_back(best);
    }
}

} // namespace switchyard::routing
