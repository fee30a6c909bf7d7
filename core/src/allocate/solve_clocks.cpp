#include "stream/allocate/solve_clocks.hpp"

namespace stream::allocate {

double SolveClocks::level_s(const std::string& level) const {
  for (const auto& s : solves)
    if (s.what == level) return s.solve_time_s;
  return 0;
}

// Summed in solve order, as solve_lexicographic adds them up.
double SolveClocks::levels_s() const {
  double total = 0;
  for (const auto& s : solves)
    if (s.what != kDiagnosisSolve) total += s.solve_time_s;
  return total;
}

}  // namespace stream::allocate
