// Lanes: the rows a resource needs so that none of its bars overlap. Bars that overlap in time
// on one resource (consecutive iterations, or transfers that share a link within a slot) go on
// separate lanes; Perfetto drops complete events that partially overlap on one track, and a
// picture with stacked bars hides one of them.
#pragma once

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <vector>

namespace stream::report::detail {

struct Interval {
  double start = 0, end = 0;  ///< half-open [start, end); touching intervals do not overlap
};

/// The lane of every interval (0-based), first-fit in order of start (ties in input order): an
/// interval goes on the lowest lane whose last interval has ended, so the result depends only on
/// the intervals and their order and uses as many lanes as the most intervals open at once.
inline std::vector<int> assign_lanes(const std::vector<Interval>& items) {
  std::vector<std::size_t> order(items.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return items[a].start < items[b].start; });
  std::vector<double> lane_end;
  std::vector<int> lane(items.size(), 0);
  for (std::size_t i : order) {
    std::size_t l = 0;
    while (l < lane_end.size() && lane_end[l] > items[i].start) ++l;
    if (l == lane_end.size()) lane_end.push_back(items[i].end);
    else lane_end[l] = items[i].end;
    lane[i] = static_cast<int>(l);
  }
  return lane;
}

/// How many lanes `lanes` uses (at least 1, so an idle resource keeps its row).
inline int lane_count(const std::vector<int>& lanes) {
  return lanes.empty() ? 1 : *std::max_element(lanes.begin(), lanes.end()) + 1;
}

}  // namespace stream::report::detail
