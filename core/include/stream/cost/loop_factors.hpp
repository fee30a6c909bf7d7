// Temporal loops and their prime factors (LOMA's loop prime factors, LPFs).
//
// The temporal loops are the layer sizes left after spatial unrolling (ceil division, sizes of 1
// dropped, layer order kept). Each is factorised into primes; while there are more factors than
// the LPF limit (raised to the number of temporal dims if smaller), the dim with the most factors
// (first in layer order on a tie) merges its two smallest factors (two copies of the smallest if
// it occurs twice). Every distinct permutation of the resulting multiset is one loop ordering,
// innermost first; MultisetPermutations enumerates them without allocating.
#pragma once

#include <cstdint>
#include <vector>

#include "stream/cost/layer.hpp"
#include "stream/cost/spatial_mapping.hpp"
#include "stream/export.hpp"

namespace stream::cost {

struct TemporalLoop {
  int dim = 0;
  std::int64_t size = 1;
};

/// Temporal loop sizes in layer order, from the fractional spatial loops of the first input.
std::vector<TemporalLoop> temporal_loops(const Layer& layer, const OperandSpatial& first_input_frac);

/// The LPF list after limiting (each entry one factor), grouped by dim in layer order, factors
/// ascending. An empty nest gives one loop (first layer dim, 1).
STREAM_API std::vector<TemporalLoop> loop_prime_factors(const std::vector<TemporalLoop>& loops, int lpf_limit);

/// Number of distinct orderings of `lpfs` (n! / prod multiplicity!).
STREAM_API std::uint64_t ordering_count(const std::vector<TemporalLoop>& lpfs);

/// Distinct permutations of a multiset in lexicographic order of kind ids.
class STREAM_API MultisetPermutations {
 public:
  explicit MultisetPermutations(const std::vector<TemporalLoop>& lpfs);
  /// The current ordering, innermost first.
  [[nodiscard]] const std::vector<TemporalLoop>& current() const { return current_; }
  /// Advances; false after the last ordering.
  bool next();

 private:
  std::vector<TemporalLoop> kinds_;
  std::vector<int> ids_;
  std::vector<TemporalLoop> current_;
};

}  // namespace stream::cost
