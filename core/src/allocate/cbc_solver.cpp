#include "stream/allocate/cbc_solver.hpp"

#include <cmath>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "address_space.hpp"
#include "clp_backend.hpp"
#include "solver_module.hpp"
#include "stream/error.hpp"

namespace stream::allocate {
namespace {

// CBC works in doubles with absolute tolerances near 1e-7: coefficients far above 1e13 (tensors
// of 2^50 bits, latencies of 2^48 cycles) make its preprocessing abort the whole process (a
// CglPreProcess assertion) instead of returning a status. Such a model is rejected first, naming
// the row that holds the coefficient (a NaN coefficient too). (Right-hand sides are not limited: an off-chip
// memory of 10^16 bits is a capacity bound that CBC handles.)
constexpr double kMaxCoefficient = 70368744177664.0;  // 2^46

[[noreturn]] void fail_magnitude(double v, const std::string& where) {
  std::ostringstream text;
  text << "the allocation model has the coefficient " << v << " in " << where << "; coefficients above 2^46 ("
       << kMaxCoefficient << ") are beyond what the MILP solver handles reliably (the workload's tensors or "
       << "latencies are too large for this hardware)";
  throw Error(text.str());
}

void check_rows(const LinearModel& model) {
  for (const auto& row : model.rows())
    for (const auto& [var, coef] : row.terms)
      if (!(std::abs(coef) <= kMaxCoefficient)) fail_magnitude(coef, "constraint '" + row.name + "' (" + row.family + ")");
}

void check_objective(const LinExpr& objective) {
  for (const auto& [var, coef] : objective.terms)
    if (!(std::abs(coef) <= kMaxCoefficient)) fail_magnitude(coef, "the objective");
}

const ClpBackend& backend() {
  // A failed load throws, and the next solve tries again.
  static const ClpBackend& loaded =
      open_solver_module<ClpBackend>(reinterpret_cast<const void*>(&backend), kClpModule, kClpEntry);
  return loaded;
}

SolveResult trivial(const LinExpr& objective) {
  SolveResult out;
  out.status = SolveStatus::Optimal;
  out.objective = objective.constant;
  out.best_bound = objective.constant;
  return out;
}

// A model without variables needs no solver; one with coefficients out of range is refused before
// CBC sees it.
class TrivialSession final : public LevelSession {
 public:
  SolveResult solve(const LinExpr& objective) override { return trivial(objective); }
  void lock(const LinExpr&, double, const std::string&) override {}
};

class CheckedSession final : public LevelSession {
 public:
  CheckedSession(std::unique_ptr<LevelSession> inner, std::size_t headroom)
      : inner_(std::move(inner)), headroom_(headroom) {}
  SolveResult solve(const LinExpr& objective) override {
    check_objective(objective);
    require_address_space(headroom_);  // each level solves a copy of the loaded model
    return inner_->solve(objective);
  }
  void lock(const LinExpr& expr, double bound, const std::string& name) override { inner_->lock(expr, bound, name); }

 private:
  std::unique_ptr<LevelSession> inner_;
  std::size_t headroom_;
};

}  // namespace

SolveResult CbcSolver::solve(const LinearModel& model, const LinExpr& objective, const SolveOptions& options) const {
  if (model.num_vars() == 0) return trivial(objective);
  check_rows(model);
  check_objective(objective);
  require_address_space(solver_headroom(model));
  return backend().solve(model, objective, options);
}

void CbcSolver::prepare() const { (void)backend(); }

std::unique_ptr<LevelSession> CbcSolver::open_session(LinearModel model, const SolveOptions& options) const {
  if (model.num_vars() == 0) return std::make_unique<TrivialSession>();
  check_rows(model);
  const std::size_t headroom = solver_headroom(model);
  require_address_space(headroom);
  return std::make_unique<CheckedSession>(backend().open_session(std::move(model), options), headroom);
}

}  // namespace stream::allocate
