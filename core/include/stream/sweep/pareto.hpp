// The Pareto front of a sweep: the points no other point beats on every objective (all are
// minimised: latency, energy, area). A point dominates another when it is no worse on every
// objective and better on one; equal points do not dominate each other, so both stay.
#pragma once

#include <cstddef>
#include <vector>

#include "stream/export.hpp"

namespace stream::sweep {

/// Indices (ascending) of the non-dominated rows of `objectives` (each row one point, every row
/// the same length). Sorted sweep: O(n log n + n x front size).
[[nodiscard]] STREAM_API std::vector<std::size_t> pareto_front(const std::vector<std::vector<double>>& objectives);

}  // namespace stream::sweep
