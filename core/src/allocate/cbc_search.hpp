// The boundary between libstream_clp.so and libstream_cbc.so (cbc_search.cpp): CBC's branch and
// bound for a model whose relaxation has a fractional optimum, which the bundled allocation MILPs
// never have, so that a run loads CBC and Cgl only when a model needs them.
#pragma once

#include <coin/OsiClpSolverInterface.hpp>

#include <vector>

#include "stream/allocate/solver.hpp"

namespace stream::allocate {

class CbcSearch {
 public:
  virtual ~CbcSearch() = default;
  /// Searches `problem` (left as it was) to its optimum; fills everything of `out` but the values
  /// and returns the best solution in the problem's columns (empty: none).
  [[nodiscard]] virtual std::vector<double> solve(const OsiClpSolverInterface& problem, const SolveOptions& options,
                                                  SolveResult& out) const = 0;
};

}  // namespace stream::allocate
