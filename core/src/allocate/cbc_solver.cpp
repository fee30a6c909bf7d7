#include "stream/allocate/cbc_solver.hpp"

#include <coin/Cbc_C_Interface.h>

#include <chrono>
#include <fstream>
#include <cmath>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "stream/error.hpp"

namespace stream::allocate {
namespace {

struct CbcDeleter {
  void operator()(Cbc_Model* m) const { Cbc_deleteModel(m); }
};
using CbcPtr = std::unique_ptr<Cbc_Model, CbcDeleter>;

double finite(double v) {
  // CBC uses +-COIN_DBL_MAX for infinity.
  if (std::isinf(v)) return v > 0 ? 1.7976931348623157e308 : -1.7976931348623157e308;
  return v;
}

CbcPtr load(const LinearModel& model, const LinExpr& objective) {
  CbcPtr m(Cbc_newModel());
  const auto& vars = model.vars();
  const auto& rows = model.rows();
  const int ncols = static_cast<int>(vars.size());
  const int nrows = static_cast<int>(rows.size());
  // Column-major copy of the rows.
  std::vector<std::vector<std::pair<int, double>>> cols(vars.size());
  for (int r = 0; r < nrows; ++r)
    for (const auto& [v, c] : rows[static_cast<std::size_t>(r)].terms) cols[static_cast<std::size_t>(v)].emplace_back(r, c);
  std::vector<CoinBigIndex> start{0};
  std::vector<int> index;
  std::vector<double> value;
  for (const auto& col : cols) {
    for (const auto& [r, c] : col) {
      index.push_back(r);
      value.push_back(c);
    }
    start.push_back(static_cast<CoinBigIndex>(index.size()));
  }
  std::vector<double> collb, colub, obj(vars.size(), 0.0), rowlb, rowub;
  for (const auto& v : vars) {
    collb.push_back(finite(v.lo));
    colub.push_back(finite(v.hi));
  }
  for (const auto& [v, c] : objective.terms) obj[static_cast<std::size_t>(v)] += c;
  for (const auto& r : rows) {
    rowlb.push_back(finite(r.lo));
    rowub.push_back(finite(r.hi));
  }
  Cbc_loadProblem(m.get(), ncols, nrows, start.data(), index.empty() ? nullptr : index.data(),
                  value.empty() ? nullptr : value.data(), collb.data(), colub.data(), obj.data(),
                  rowlb.empty() ? nullptr : rowlb.data(), rowub.empty() ? nullptr : rowub.data());
  for (int j = 0; j < ncols; ++j) {
    const auto& v = vars[static_cast<std::size_t>(j)];
    if (v.kind != VarKind::Continuous) Cbc_setInteger(m.get(), j);
    Cbc_setColName(m.get(), j, v.name.c_str());
  }
  for (int r = 0; r < nrows; ++r) Cbc_setRowName(m.get(), r, rows[static_cast<std::size_t>(r)].name.c_str());
  Cbc_setObjSense(m.get(), 1.0);
  return m;
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

}  // namespace

SolveResult CbcSolver::solve(const LinearModel& model, const LinExpr& objective, const SolveOptions& options) const {
  SolveResult out;
  if (model.num_vars() == 0) {
    out.status = SolveStatus::Optimal;
    out.objective = objective.constant;
    out.best_bound = objective.constant;
    return out;
  }
  check_magnitudes(model, objective);
  CbcPtr m = load(model, objective);
  Cbc_setLogLevel(m.get(), options.verbose ? 1 : 0);
  if (options.time_limit_s > 0) Cbc_setMaximumSeconds(m.get(), options.time_limit_s);
  // Exact optimality: no relative or absolute gap.
  Cbc_setParameter(m.get(), "ratioGap", "0");
  Cbc_setParameter(m.get(), "allowableGap", "0");
  const auto t0 = std::chrono::steady_clock::now();
  Cbc_solve(m.get());
  out.solve_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  out.nodes = Cbc_getNodeCount(m.get());
  out.iterations = Cbc_getIterationCount(m.get());
  const double* sol = Cbc_getColSolution(m.get());
  const bool has_solution = sol != nullptr && Cbc_numberSavedSolutions(m.get()) > 0;
  if (Cbc_isProvenOptimal(m.get())) {
    out.status = SolveStatus::Optimal;
  } else if (Cbc_isProvenInfeasible(m.get())) {
    out.status = SolveStatus::Infeasible;
  } else if (Cbc_isSecondsLimitReached(m.get())) {
    out.status = SolveStatus::TimeLimit;
  } else if (Cbc_isContinuousUnbounded(m.get())) {
    out.status = SolveStatus::Unbounded;
  } else {
    out.status = SolveStatus::Error;
  }
  if (sol != nullptr && (out.status == SolveStatus::Optimal || has_solution)) {
    out.values.assign(sol, sol + model.num_vars());
    // Integer columns come back with solver noise; snap them.
    for (std::size_t j = 0; j < out.values.size(); ++j)
      if (model.vars()[j].kind != VarKind::Continuous) out.values[j] = std::round(out.values[j]);
    out.objective = LinearModel::value(objective, out.values);
  }
  out.best_bound = Cbc_getBestPossibleObjValue(m.get()) + objective.constant;
  return out;
}

void CbcSolver::write_mps(const LinearModel& model, const LinExpr& objective, const std::string& path) const {
  // CBC's own writer gzips its output; a plain free-format MPS file opens everywhere.
  std::ofstream f(path);
  if (!f) throw Error("cannot write " + path, Location{path, 0, 0, "", ""});
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
}

}  // namespace stream::allocate
