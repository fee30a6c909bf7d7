// The CBC (COIN-OR branch and cut) backend of MilpSolver.
//
// Each solve loads the model into a fresh Cbc_Model through CBC's C interface, so solves are
// independent and deterministic (CBC's search is deterministic with one thread). Status mapping:
// proven optimal -> Optimal, proven infeasible -> Infeasible, stopped on the time limit -> TimeLimit
// (values kept when a solution exists).
#pragma once

#include "stream/allocate/solver.hpp"

namespace stream::allocate {

class CbcSolver final : public MilpSolver {
 public:
  [[nodiscard]] std::string name() const override { return "cbc"; }
  [[nodiscard]] SolveResult solve(const LinearModel& model, const LinExpr& objective,
                                  const SolveOptions& options) const override;
  void write_mps(const LinearModel& model, const LinExpr& objective, const std::string& path) const override;
};

}  // namespace stream::allocate
