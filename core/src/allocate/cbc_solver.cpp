#include "stream/allocate/cbc_solver.hpp"

#include <cmath>
#include <fstream>
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

void CbcSolver::write_mps(const LinearModel& model, const LinExpr& objective, const std::string& path) const {
  // CBC's own writer gzips its output; a plain free-format MPS file opens everywhere.
  std::ofstream f(path);
  if (!f) throw Error("cannot write " + path, Location{.file = path});
  f.precision(17);
  const auto& rows = model.rows();
  const auto& vars = model.vars();
  // FREE: CoinMpsIO (CBC's reader) guesses the format line by line otherwise and misreads the
  // first BOUNDS line of this file.
  f << "NAME tetra FREE\nROWS\n N obj\n";
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const auto& row = rows[r];
    const char* type = row.lo == row.hi ? "E" : std::isinf(row.lo) ? "L" : std::isinf(row.hi) ? "G" : "L";
    f << " " << type << " r" << r << "\n";
  }
  std::vector<std::vector<std::pair<std::size_t, double>>> cols(vars.size());
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (const auto& [v, c] : rows[r].terms) cols[static_cast<std::size_t>(v)].emplace_back(r, c);
  std::vector<double> obj(vars.size(), 0.0);
  for (const auto& [v, c] : objective.terms) obj[static_cast<std::size_t>(v)] += c;
  f << "COLUMNS\n";
  bool in_int = false;
  for (std::size_t j = 0; j < vars.size(); ++j) {
    const bool is_int = vars[j].kind != VarKind::Continuous;
    if (is_int != in_int) {
      f << " M" << j << " 'MARKER' " << (is_int ? "'INTORG'" : "'INTEND'") << "\n";
      in_int = is_int;
    }
    f << " c" << j << " obj " << obj[j] << "\n";
    for (const auto& [r, c] : cols[j]) f << " c" << j << " r" << r << " " << c << "\n";
  }
  if (in_int) f << " Mend 'MARKER' 'INTEND'\n";
  f << "RHS\n";
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const auto& row = rows[r];
    const double rhs = std::isinf(row.hi) ? row.lo : row.hi;
    if (rhs != 0) f << " rhs r" << r << " " << rhs << "\n";
  }
  f << "RANGES\n";
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const auto& row = rows[r];
    if (!std::isinf(row.lo) && !std::isinf(row.hi) && row.lo != row.hi) f << " rng r" << r << " " << row.hi - row.lo << "\n";
  }
  f << "BOUNDS\n";
  for (std::size_t j = 0; j < vars.size(); ++j) {
    const auto& v = vars[j];
    if (v.lo != 0) f << (std::isinf(v.lo) ? " MI bnd c" : " LO bnd c") << j << (std::isinf(v.lo) ? "" : " " + std::to_string(v.lo)) << "\n";
    if (!std::isinf(v.hi)) f << " UP bnd c" << j << " " << v.hi << "\n";
    // An integer column without a bound is read as a binary (the MPS convention CoinMpsIO keeps):
    // `total` and `overlap` would then make every model infeasible.
    else if (v.kind != VarKind::Continuous) f << " PL bnd c" << j << "\n";
  }
  f << "ENDATA\n";
  // Names of rows and columns, for reading the file against the model.
  f << "* rows:";
  for (std::size_t r = 0; r < rows.size(); ++r) f << "\n*  r" << r << " " << rows[r].family << " " << rows[r].name;
  f << "\n* columns:";
  for (std::size_t j = 0; j < vars.size(); ++j) f << "\n*  c" << j << " " << vars[j].name;
  f << "\n";
  f.close();  // a full disk shows only when the buffer goes out
  if (!f) throw Error("cannot write the model (is the disk full?)", Location{.file = path}, ErrorKind::Internal);
}

}  // namespace stream::allocate
