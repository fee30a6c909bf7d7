// The latency-energy front of the evaluated candidates (objective pareto): a point stays while no
// other is at least as good in both and better in one; ties keep the earlier evaluation.
#pragma once

#include <optional>
#include <vector>

#include "stream/optimize/optimizer.hpp"

namespace stream::optimize {

class Front {
 public:
  struct Point {
    Figures figures;
    std::size_t evaluation = 0;
    std::optional<Candidate> candidate;  ///< none: the automatic mapping
  };

  void offer(const Figures& f, std::size_t evaluation, const std::optional<Candidate>& candidate) {
    for (const auto& p : points_)
      if (p.figures.latency <= f.latency && p.figures.energy <= f.energy) return;
    std::erase_if(points_, [&](const Point& p) { return f.latency <= p.figures.latency && f.energy <= p.figures.energy; });
    points_.push_back({f, evaluation, candidate});
  }
  /// By latency, then energy.
  [[nodiscard]] std::vector<Point> points() const {
    auto out = points_;
    std::sort(out.begin(), out.end(), [](const Point& a, const Point& b) {
      return a.figures.latency != b.figures.latency ? a.figures.latency < b.figures.latency : a.figures.energy < b.figures.energy;
    });
    return out;
  }

 private:
  std::vector<Point> points_;
};

}  // namespace stream::optimize
