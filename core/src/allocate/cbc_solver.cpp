#include "stream/allocate/cbc_solver.hpp"

#include <coin/CbcHeuristic.hpp>
#include <coin/CbcHeuristicFPump.hpp>
#include <coin/CbcModel.hpp>
#include <coin/CglClique.hpp>
#include <coin/CglFlowCover.hpp>
#include <coin/CglGomory.hpp>
#include <coin/CglKnapsackCover.hpp>
#include <coin/CglMixedIntegerRounding2.hpp>
#include <coin/CglPreProcess.hpp>
#include <coin/CglProbing.hpp>
#include <coin/CoinPackedVector.hpp>
#include <coin/OsiClpSolverInterface.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "stream/error.hpp"

namespace stream::allocate {
namespace {

// Above these sizes a model is "large": its plain search before the full one is shorter.
constexpr int kPreprocessRows = 400;
constexpr int kPreprocessIntegers = 150;
constexpr int kQuickNodes = 100;     // the plain search a model gets before the full one
constexpr int kQuickNodesLarge = 5;  // the same for a large model, whose nodes cost more
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
  osi.loadProblem(static_cast<int>(vars.size()), static_cast<int>(rows.size()), start.data(), index.data(), value.data(),
                  collb.data(), colub.data(), obj.data(), rowlb.data(), rowub.data());
  for (std::size_t j = 0; j < vars.size(); ++j)
    if (vars[j].kind != VarKind::Continuous) osi.setInteger(static_cast<int>(j));
  osi.setObjSense(1.0);
}

// CBC works in doubles with absolute tolerances near 1e-7: coefficients far above 1e13 (tensors
// of 2^50 bits, latencies of 2^48 cycles) make its preprocessing abort the whole process (a
// CglPreProcess assertion) instead of returning a status. Such a model is rejected first, naming
// the row that holds the coefficient (a NaN coefficient too). (Right-hand sides are not limited: an off-chip
// memory of 10^16 bits is a capacity bound that CBC handles.)
constexpr double kMaxCoefficient = 70368744177664.0;  // 2^46

void check_magnitudes(const LinearModel& model, const LinExpr& objective) {
  auto fail = [](double v, const std::string& where) {
    std::ostringstream text;
    text << "the allocation model has the coefficient " << v << " in " << where << "; coefficients above 2^46 ("
         << kMaxCoefficient << ") are beyond what the MILP solver handles reliably (the workload's tensors or "
         << "latencies are too large for this hardware)";
    throw Error(text.str());
  };
  for (const auto& row : model.rows())
    for (const auto& [var, coef] : row.terms)
      if (!(std::abs(coef) <= kMaxCoefficient)) fail(coef, "constraint '" + row.name + "' (" + row.family + ")");
  for (const auto& [var, coef] : objective.terms)
    if (!(std::abs(coef) <= kMaxCoefficient)) fail(coef, "the objective");
}

void set_objective(OsiClpSolverInterface& osi, const LinExpr& objective) {
  std::vector<double> obj(static_cast<std::size_t>(osi.getNumCols()), 0.0);
  for (const auto& [v, c] : objective.terms) obj[static_cast<std::size_t>(v)] += c;
  osi.setObjective(obj.data());
}

bool is_large(const OsiSolverInterface& osi) {
  return osi.getNumRows() > kPreprocessRows || osi.getNumIntegers() > kPreprocessIntegers;
}

// The cut generators and heuristics of CBC's default (command-line) setting, for large models.
void add_search_aids(CbcModel& cbc) {
  CglProbing probing;
  probing.setUsingObjective(1);
  probing.setMaxPass(1);
  probing.setMaxPassRoot(5);
  probing.setMaxProbe(10);
  probing.setMaxProbeRoot(50);
  probing.setMaxLook(10);
  probing.setMaxLookRoot(50);
  probing.setRowCuts(3);
  cbc.addCutGenerator(&probing, -1, "Probing");
  CglGomory gomory;
  gomory.setLimit(300);
  cbc.addCutGenerator(&gomory, -98, "Gomory");
  CglKnapsackCover knapsack;
  cbc.addCutGenerator(&knapsack, -98, "KnapsackCover");
  CglClique clique;
  clique.setStarCliqueReport(false);
  clique.setRowCliqueReport(false);
  cbc.addCutGenerator(&clique, -98, "Clique");
  CglMixedIntegerRounding2 mir;
  cbc.addCutGenerator(&mir, -98, "MixedIntegerRounding2");
  CglFlowCover flow;
  cbc.addCutGenerator(&flow, -98, "FlowCover");
  CbcRounding rounding(cbc);
  cbc.addHeuristic(&rounding);
  CbcHeuristicFPump pump(cbc);
  cbc.addHeuristic(&pump);
}

void configure(CbcModel& cbc, const SolveOptions& options, bool large) {
  const int log = options.verbose ? 1 : 0;
  cbc.setLogLevel(log);
  cbc.messageHandler()->setLogLevel(log);
  cbc.solver()->messageHandler()->setLogLevel(0);
  // Exact optimality: no relative or absolute gap.
  cbc.setAllowableGap(0);
  cbc.setAllowableFractionGap(0);
  cbc.setAllowablePercentageGap(0);
  if (options.time_limit_s > 0) cbc.setMaximumSeconds(options.time_limit_s);
  if (large) add_search_aids(cbc);
}

SolveStatus status_of(const CbcModel& cbc) {
  if (cbc.isProvenOptimal()) return SolveStatus::Optimal;
  if (cbc.isProvenInfeasible()) return SolveStatus::Infeasible;
  if (cbc.isSecondsLimitReached()) return SolveStatus::TimeLimit;
  if (cbc.isContinuousUnbounded()) return SolveStatus::Unbounded;
  return SolveStatus::Error;
}

// Runs the search and fills `out` but the values; false when it found no solution.
bool search(CbcModel& cbc, SolveResult& out) {
  cbc.initialSolve();
  cbc.branchAndBound();
  out.status = status_of(cbc);
  out.nodes = cbc.getNodeCount();
  out.iterations = cbc.getIterationCount();
  out.best_bound = cbc.getBestPossibleObjValue();
  return cbc.bestSolution() != nullptr;
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

// Branch and bound on `problem` (the caller's copy is left as it was), at most `max_nodes` nodes
// (< 0: no limit); fills everything of `out` but the values, and returns the best solution in the
// problem's columns (empty: none).
std::vector<double> branch_and_bound(const OsiClpSolverInterface& problem, const SolveOptions& options, SolveResult& out,
                                     int max_nodes) {
  CbcModel cbc(problem);
  configure(cbc, options, false);
  if (max_nodes >= 0) cbc.setMaximumNodes(max_nodes);
  if (!search(cbc, out)) return {};
  return {cbc.bestSolution(), cbc.bestSolution() + problem.getNumCols()};
}

// CglPreProcess first, then branch and bound with cuts and heuristics on the reduced model.
std::vector<double> preprocessed_search(const OsiClpSolverInterface& problem, const SolveOptions& options, SolveResult& out) {
  OsiClpSolverInterface original(problem);
  original.initialSolve();
  if (original.isProvenPrimalInfeasible() || original.isProvenDualInfeasible() || !original.isProvenOptimal())
    return branch_and_bound(problem, options, out, -1);  // let CBC classify the relaxation
  CglPreProcess process;
  process.messageHandler()->setLogLevel(0);
  OsiSolverInterface* reduced = process.preProcess(original, false, 5);
  if (reduced == nullptr) {
    out.status = SolveStatus::Infeasible;
    return {};
  }
  reduced->messageHandler()->setLogLevel(0);
  CbcModel cbc(*reduced);
  configure(cbc, options, true);
  if (!search(cbc, out)) return {};
  // The solution goes back through the reductions into `original`.
  cbc.solver()->setColSolution(cbc.bestSolution());
  process.postProcess(*cbc.solver());
  const double* sol = original.getColSolution();
  return {sol, sol + original.getNumCols()};
}

// Every model first gets a short plain search: most allocation MILPs are solved at the root or
// in a few nodes, and CglPreProcess, the cut loop and the heuristics cost more than that search
// (CglPreProcess's presolve alone was 75% of a 500-node chain's run). A model the short search
// leaves open gets the full treatment: CglPreProcess, CBC's default cuts and heuristics.
std::vector<double> staged_search(const OsiClpSolverInterface& problem, const SolveOptions& options, SolveResult& out) {
  if (auto sol = integral_relaxation(problem, out); !sol.empty()) return sol;
  std::vector<double> sol = branch_and_bound(problem, options, out, is_large(problem) ? kQuickNodesLarge : kQuickNodes);
  if (out.status == SolveStatus::Optimal || out.status == SolveStatus::Infeasible) return sol;
  const long long nodes = out.nodes, iterations = out.iterations;
  sol = preprocessed_search(problem, options, out);
  out.nodes += nodes;
  out.iterations += iterations;
  return sol;
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

SolveResult trivial(const LinExpr& objective) {
  SolveResult out;
  out.status = SolveStatus::Optimal;
  out.objective = objective.constant;
  out.best_bound = objective.constant;
  return out;
}

// The model stays loaded in one OsiClpSolverInterface: a level sets its objective, a lock adds a row.
class CbcSession final : public LevelSession {
 public:
  CbcSession(LinearModel model, const SolveOptions& options) : model_(std::move(model)), options_(options) {
    if (model_.num_vars() > 0) load(osi_, model_);
  }
  SolveResult solve(const LinExpr& objective) override {
    if (model_.num_vars() == 0) return trivial(objective);
    check_magnitudes(model_, objective);
    set_objective(osi_, objective);
    return solve_loaded(osi_, model_, objective, options_);
  }
  void lock(const LinExpr& expr, double bound, const std::string&) override {
    if (model_.num_vars() == 0) return;
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

}  // namespace

SolveResult CbcSolver::solve(const LinearModel& model, const LinExpr& objective, const SolveOptions& options) const {
  if (model.num_vars() == 0) return trivial(objective);
  check_magnitudes(model, objective);
  OsiClpSolverInterface osi;
  load(osi, model);
  set_objective(osi, objective);
  return solve_loaded(osi, model, objective, options);
}

std::unique_ptr<LevelSession> CbcSolver::open_session(LinearModel model, const SolveOptions& options) const {
  return std::make_unique<CbcSession>(std::move(model), options);
}

void CbcSolver::write_mps(const LinearModel& model, const LinExpr& objective, const std::string& path) const {
  // CBC's own writer gzips its output; a plain free-format MPS file opens everywhere.
  std::ofstream f(path);
  if (!f) throw Error("cannot write " + path, Location{.file = path});
  f.precision(17);
  const auto& rows = model.rows();
  const auto& vars = model.vars();
  f << "NAME tetra\nROWS\n N obj\n";
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
