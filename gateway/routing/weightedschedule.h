#pragma once

// Smooth weighted round-robin (as in nginx), precomputed into one period of picks so that choosing a
// node on the request path is a single atomic increment: deterministic, lock-free, and exact — weights
// 1:1 alternate, 3:1 give exactly 3 of every 4 picks, spread out rather than in runs.

#include <QList>
#include <atomic>
#include <memory>
#include <vector>

namespace switchyard::routing {

class WeightedSchedule final
{
public:
    // Longest period kept; larger weight sums are scaled down proportionally (never to zero).
    static constexpr int MaxPeriod = 4096;

    WeightedSchedule() = default;
    // weights: one per entry, ≥ 0 (fractional allowed, resolution 0.01 as in Bifrost). Entries with a
    // weight of zero are never picked.
    explicit WeightedSchedule(const std::vector<double> &weights);

    bool isEmpty() const { return m_order.empty(); }
    int period() const { return int(m_order.size()); }
    // Entry index at position n of the infinite schedule.
    int at(quint64 n) const { return m_order[n % m_order.size()]; }
    // Claims the next position (shared by all threads that route through this schedule).
    quint64 claim() const { return m_cursor->fetch_add(1, std::memory_order_relaxed); }

private:
    std::vector<int> m_order;
    // Shared so copies of a schedule (in a copied routing table) keep one rotation.
    std::shared_ptr<std::atomic<quint64>> m_cursor = std::make_shared<std::atomic<quint64>>(0);
};

} // namespace switchyard::routing
