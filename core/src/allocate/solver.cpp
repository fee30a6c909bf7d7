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

namespace {

// Re-solves a growing copy of the model per level: any backend, no state kept in the solver.
class ReloadingSession final : public LevelSession {
 public:
  ReloadingSession(const MilpSolver& solver, LinearModel model, const SolveOptions& options)
      : solver_(solver), model_(std::move(model)), options_(options) {}
  SolveResult solve(const LinExpr& objective) override { return solver_.solve(model_, objective, options_); }
  void lock(const LinExpr& expr, double bound, const std::string& name) override {
    model_.add_le(expr, LinExpr(bound), name, "lexicographic_lock");
  }

 private:
  const MilpSolver& solver_;
  LinearModel model_;
  SolveOptions options_;
};

}  // namespace

std::unique_ptr<LevelSession> MilpSolver::open_session(LinearModel model, const SolveOptions& options) const {
  return std::make_unique<ReloadingSession>(*this, std::move(model), options);
}

LexicographicResult solve_lexicographic(LinearModel model, const std::vector<ObjectiveLevel>& levels,
                                        const MilpSolver& solver, const SolveOptions& options) {
  LexicographicResult out;
  const auto session = solver.open_session(std::move(model), options);
  for (std::size_t i = 0; i < levels.size(); ++i) {
    SolveResult r = session->solve(levels[i].expr);
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
      session->lock(levels[i].expr, opt + 1e-9 * std::max(1.0, std::abs(opt)) + 1e-7, "lock_" + levels[i].name);
  }
  return out;
}

}  // namespace stream::allocate
