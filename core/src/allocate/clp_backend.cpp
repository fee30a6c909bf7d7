// The LP side of the MILP solver, the module libstream_clp.so (clp_backend.hpp): models loaded
// into Clp, the relaxation solved, a session's model kept loaded across the lexicographic levels.
#include "clp_backend.hpp"

#include <coin/CoinPackedVector.hpp>
#include <coin/OsiClpSolverInterface.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "cbc_search.hpp"
#include "solver_module.hpp"

namespace stream::allocate {
namespace {

// An integer column of the relaxation counts as integral this close to an integer (CBC's own
// integer tolerance is 1e-7; results snap integer columns to the nearest integer).
constexpr double kIntegralTolerance = 1e-9;

double finite(double v) {
  // CBC uses +-COIN_DBL_MAX for infinity.
  if (std::isinf(v)) return v > 0 ? COIN_DBL_MAX : -COIN_DBL_MAX;
  return v;
}

void load(OsiClpSolverInterface& osi, const LinearModel& model) {
  const auto& vars = model.vars();
  const auto& rows = model.rows();
  // Column-major copy of the rows.
  std::vector<CoinBigIndex> start(vars.size() + 1, 0);
  for (const auto& r : rows)
    for (const auto& t : r.terms) ++start[static_cast<std::size_t>(t.first) + 1];
  for (std::size_t j = 0; j < vars.size(); ++j) start[j + 1] += start[j];
  std::vector<CoinBigIndex> fill(start.begin(), start.end() - 1);
  std::vector<int> index(static_cast<std::size_t>(start.back()));
  std::vector<double> value(index.size());
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (const auto& [v, c] : rows[r].terms) {
      const auto k = static_cast<std::size_t>(fill[static_cast<std::size_t>(v)]++);
      index[k] = static_cast<int>(r);
      value[k] = c;
    }
  std::vector<double> collb, colub, obj(vars.size(), 0.0), rowlb, rowub;
  for (const auto& v : vars) {
    collb.push_back(finite(v.lo));
    colub.push_back(finite(v.hi));
  }
  for (const auto& r : rows) {
    rowlb.push_back(finite(r.lo));
    rowub.push_back(finite(r.hi));
  }
  osi.messageHandler()->setLogLevel(0);
  // No SIGINT handler of Clp's: its initial solve installs one by default (signal(), process-wide)
  // pointing at a static "current model" and restores the previous one after, so concurrent
  // solves left it installed over a freed model, and a Ctrl-C in the Python module ran it (memory
  // corruption) instead of raising KeyboardInterrupt. Copies and CBC's clones keep the option.
  ClpSolve options;
  options.setSpecialOption(2, 1);
  osi.setSolveOptions(options);
  osi.loadProblem(static_cast<int>(vars.size()), static_cast<int>(rows.size()), start.data(), index.data(), value.data(),
                  collb.data(), colub.data(), obj.data(), rowlb.data(), rowub.data());
  for (std::size_t j = 0; j < vars.size(); ++j)
    if (vars[j].kind != VarKind::Continuous) osi.setInteger(static_cast<int>(j));
  osi.setObjSense(1.0);
}

void set_objective(OsiClpSolverInterface& osi, const LinExpr& objective) {
  std::vector<double> obj(static_cast<std::size_t>(osi.getNumCols()), 0.0);
  for (const auto& [v, c] : objective.terms) obj[static_cast<std::size_t>(v)] += c;
  osi.setObjective(obj.data());
}

// The relaxation's optimum when it is integral: then it is the MILP's optimum, and the search
// (CbcModel's set-up and root loop, two thirds of a small model's solve) has nothing to add. Every
// allocation MILP of the bundled examples is integral at the root. Empty otherwise: CBC decides.
std::vector<double> integral_relaxation(const OsiClpSolverInterface& problem, SolveResult& out) {
  OsiClpSolverInterface lp(problem);
  lp.messageHandler()->setLogLevel(0);
  lp.initialSolve();
  if (!lp.isProvenOptimal()) return {};
  const double* x = lp.getColSolution();
  for (int j = 0; j < lp.getNumCols(); ++j)
    if (lp.isInteger(j) && std::abs(x[j] - std::round(x[j])) > kIntegralTolerance) return {};
  out.status = SolveStatus::Optimal;
  out.nodes = 0;
  out.iterations = lp.getIterationCount();
  out.best_bound = lp.getObjValue();
  return {x, x + lp.getNumCols()};
}

// The relaxation's optimum when integral, else CBC's search (its module is loaded then).
std::vector<double> staged_search(const OsiClpSolverInterface& problem, const SolveOptions& options, SolveResult& out) {
  if (auto sol = integral_relaxation(problem, out); !sol.empty()) return sol;
  static const CbcSearch& search =
      open_solver_module<CbcSearch>(reinterpret_cast<const void*>(&staged_search), kCbcModule, kCbcEntry);
  return search.solve(problem, options, out);
}

SolveResult solve_loaded(OsiClpSolverInterface& osi, const LinearModel& model, const LinExpr& objective,
                         const SolveOptions& options) {
  SolveResult out;
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<double> sol = staged_search(osi, options, out);
  out.solve_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!sol.empty() && (out.status == SolveStatus::Optimal || out.status == SolveStatus::TimeLimit)) {
    out.values = sol;
    // Integer columns come back with solver noise; snap them.
    for (std::size_t j = 0; j < out.values.size(); ++j)
      if (model.vars()[j].kind != VarKind::Continuous) out.values[j] = std::round(out.values[j]);
    out.objective = LinearModel::value(objective, out.values);
  }
  out.best_bound += objective.constant;
  return out;
}

// The model stays loaded in one OsiClpSolverInterface: a level sets its objective, a lock adds a row.
class ClpSession final : public LevelSession {
 public:
  ClpSession(LinearModel model, const SolveOptions& options) : model_(std::move(model)), options_(options) {
    load(osi_, model_);
  }
  SolveResult solve(const LinExpr& objective) override {
    set_objective(osi_, objective);
    return solve_loaded(osi_, model_, objective, options_);
  }
  void lock(const LinExpr& expr, double bound, const std::string&) override {
    std::vector<std::pair<int, double>> t = expr.terms;
    std::sort(t.begin(), t.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    CoinPackedVector row;
    for (std::size_t k = 0; k < t.size();) {
      double c = 0;
      const int v = t[k].first;
      for (; k < t.size() && t[k].first == v; ++k) c += t[k].second;
      if (c != 0) row.insert(v, c);
    }
    osi_.addRow(row, -COIN_DBL_MAX, bound - expr.constant);
  }

 private:
  LinearModel model_;  // the variables' kinds, for snapping integer values
  SolveOptions options_;
  OsiClpSolverInterface osi_;
};

class ClpSolver final : public ClpBackend {
 public:
  [[nodiscard]] SolveResult solve(const LinearModel& model, const LinExpr& objective,
                                  const SolveOptions& options) const override {
    OsiClpSolverInterface osi;
    load(osi, model);
    set_objective(osi, objective);
    return solve_loaded(osi, model, objective, options);
  }
  [[nodiscard]] std::unique_ptr<LevelSession> open_session(LinearModel model, const SolveOptions& options) const override {
    return std::make_unique<ClpSession>(std::move(model), options);
  }
};

}  // namespace
}  // namespace stream::allocate

extern "C" __attribute__((visibility("default"))) const stream::allocate::ClpBackend* stream_clp_backend() {
  static const stream::allocate::ClpSolver backend;
  return &backend;
}
