// The boundary between CbcSolver, in libstream_core, and libstream_clp.so (clp_backend.cpp): the
// module loads a model into Clp, solves the relaxation, keeps a lexicographic session's model
// loaded, and hands a model whose relaxation is fractional to CBC's search (cbc_search.hpp). The
// models it is given have been checked by CbcSolver (at least one variable, every coefficient
// within the solver's range).
#pragma once

#include <memory>

#include "stream/allocate/solver.hpp"

namespace stream::allocate {

class ClpBackend {
 public:
  virtual ~ClpBackend() = default;
  [[nodiscard]] virtual SolveResult solve(const LinearModel& model, const LinExpr& objective,
                                          const SolveOptions& options) const = 0;
  [[nodiscard]] virtual std::unique_ptr<LevelSession> open_session(LinearModel model, const SolveOptions& options) const = 0;
};

}  // namespace stream::allocate
