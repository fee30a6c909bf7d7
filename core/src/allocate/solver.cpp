#include "stream/allocate/solver.hpp"

#include <algorithm>
#include <cmath>

#include "stream/allocate/cbc_solver.hpp"
#include "stream/error.hpp"

namespace stream::allocate {

const char* name(SolveStatus s) {
  switch (s) {
    case SolveStatus::Optimal: return "OPTIMAL";
    case SolveStatus::Infeasible: return "INFEASIBLE";
    case SolveStatus::TimeLimit: return "TIME_LIMIT";
    case SolveStatus::Unbounded: return "UNBOUNDED";
    case SolveStatus::Error: return "ERROR";
  }
  return "ERROR";
}

std::unique_ptr<MilpSolver> make_solver(const std::string& solver_name) {
  if (solver_name == "cbc") return std::make_unique<CbcSolver>();
  throw Error("unknown MILP solver '" + solver_name + "' (available: cbc)", Location{});
}

LexicographicResult solve_lexicographic(LinearModel model, const std::vector<ObjectiveLevel>& levels,
                                        const MilpSolver& solver, const SolveOptions& options) {
  LexicographicResult out;
  for (std::size_t i = 0; i < levels.size(); ++i) {
    SolveResult r = solver.solve(model, levels[i].expr, options);
    out.total_time_s += r.solve_time_s;
    const bool usable = r.status == SolveStatus::Optimal || (r.status == SolveStatus::TimeLimit && !r.values.empty());
    if (!usable) {
      out.status = r.status;
      r.values.clear();
      out.levels.push_back(std::move(r));
      return out;
    }
    const double opt = LinearModel::value(levels[i].expr, r.values);
    out.level_objectives.push_back(opt);
    out.values = r.values;
    out.status = r.status;
    r.values.clear();
    out.levels.push_back(std::move(r));
    if (out.status != SolveStatus::Optimal) return out;
    // Lock the level at its optimum (tolerance 0 in the reference; a relative 1e-9 absorbs the
    // solver's floating-point noise without admitting a worse integer solution).
    if (i + 1 < levels.size())
      model.add_le(levels[i].expr, LinExpr(opt + 1e-9 * std::max(1.0, std::abs(opt)) + 1e-7),
                   "lock_" + levels[i].name, "lexicographic_lock");
  }
  return out;
}

}  // namespace stream::allocate
