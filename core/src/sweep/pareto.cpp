#include "stream/sweep/pareto.hpp"

#include <algorithm>
#include <numeric>

namespace stream::sweep {

namespace {

bool dominates(const std::vector<double>& a, const std::vector<double>& b) {
  bool better = false;
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (a[k] > b[k]) return false;
    better = better || a[k] < b[k];
  }
  return better;
}

}  // namespace

std::vector<std::size_t> pareto_front(const std::vector<std::vector<double>>& objectives) {
  // In lexicographic order a point can only be dominated by one before it, and a dominated
  // point is dominated by some front point (domination is transitive): compare with the front only.
  std::vector<std::size_t> order(objectives.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return objectives[a] < objectives[b]; });
  std::vector<std::size_t> front;
  for (auto i : order)
    if (std::none_of(front.begin(), front.end(), [&](std::size_t f) { return dominates(objectives[f], objectives[i]); }))
      front.push_back(i);
  std::sort(front.begin(), front.end());
  return front;
}

}  // namespace stream::sweep
