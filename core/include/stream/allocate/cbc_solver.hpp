// The CBC (COIN-OR branch and cut) backend of MilpSolver.
//
// CBC is driven through its model API (OsiClpSolverInterface + CbcModel), not the command-line
// front end. A model whose relaxation has an integral optimum is solved by Clp alone (that is the
// MILP's optimum); any other first gets a short plain branch and bound (most are solved at the
// root), and only one that leaves open gets CglPreProcess plus CBC's default cut generators and
// heuristics. Clp and CBC live in modules of their own (lib/stream/libstream_clp.so,
// libstream_cbc.so), each loaded when first needed, so that a process that solves nothing maps
// neither; a model without variables is answered, and one with a coefficient beyond 2^46 refused
// (a bad-input error naming its row), before any is loaded. A lexicographic session keeps the
// model loaded and only changes the objective and adds lock rows between levels. CBC's search is
// deterministic with one thread. Status mapping: proven optimal -> Optimal, proven infeasible ->
// Infeasible, stopped on the time limit -> TimeLimit (values kept when a solution exists).
#pragma once

#include "stream/allocate/solver.hpp"
#include "stream/export.hpp"

namespace stream::allocate {

class STREAM_API CbcSolver final : public MilpSolver {
 public:
  [[nodiscard]] std::string name() const override { return "cbc"; }
  [[nodiscard]] SolveResult solve(const LinearModel& model, const LinExpr& objective,
                                  const SolveOptions& options) const override;
  [[nodiscard]] std::unique_ptr<LevelSession> open_session(LinearModel model, const SolveOptions& options) const override;
  void prepare() const override;  ///< loads libstream_clp.so (CBC's module waits for a fractional relaxation)
};

}  // namespace stream::allocate
