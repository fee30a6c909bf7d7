#include "infeasibility.hpp"

#include <algorithm>
#include <set>
#include <sstream>

namespace stream::allocate {

using schedule::SsKind;
using schedule::SteadyState;

namespace {

// Whether the model becomes feasible without the rows `drop` selects (cheap for these sizes).
template <typename Drop>
bool feasible_without(const AllocationMilp& m, const MilpSolver& solver, SolveClocks* clocks, Drop drop) {
  LinearModel relaxed;
  for (const auto& v : m.model.vars()) (void)relaxed.add_var(v.name, v.kind, v.lo, v.hi);
  for (const auto& r : m.model.rows()) {
    if (drop(r)) continue;
    LinExpr e;
    for (const auto& [v, c] : r.terms) e.add(Var{v}, c);
    relaxed.add_range(e, r.lo, r.hi, r.name, r.family);
  }
  SolveOptions o;
  o.time_limit_s = 5;
  const auto r = solver.solve(relaxed, LinExpr(0.0), o);
  if (clocks != nullptr) clocks->solves.push_back({kDiagnosisSolve, r.solve_time_s, name(r.status)});
  return r.status == SolveStatus::Optimal;
}

// Whether a core other than `except` certainly cannot hold its smallest load: each tensor fixed on
// the core contributes at least its smallest reuse level's tiles (its placement is a constant and
// its reuse choice one-hot, so its capacity-row terms sum to one of the levels). The margin keeps
// the proof clear of the solver's tolerances: only a bound well above the capacity counts.
bool certainly_over_capacity(const hardware::Accelerator& acc, const std::map<int, double>& min_load, int except) {
  constexpr double kMargin = 1e-3;
  for (const auto& [c, l] : min_load) {
    const double cap = static_cast<double>(acc.core(c).memory_capacity());
    if (c != except && cap > 0 && l > cap * (1 + kMargin) + 1) return true;
  }
  return false;
}

// The families whose relaxation alone makes the model feasible.
void culprit_families(const AllocationMilp& m, const MilpSolver& solver, Diagnosis depth, SolveClocks* clocks,
                      Allocation& a, std::ostringstream& out) {
  std::set<std::string> families;
  if (depth == Diagnosis::Full)
    for (const auto& r : m.model.rows()) families.insert(r.family);
  else
    families.insert("memory_capacity");
  for (const auto& fam : families)
    if (feasible_without(m, solver, clocks, [&](const Row& r) { return r.family == fam; })) {
      a.culprit_families.push_back(fam);
      out << "constraint family '" << fam << "': without it the model is feasible\n";
    }
}

// The cores whose capacity row alone makes the model infeasible.
void blocking_cores(const hardware::Accelerator& acc, const AllocationMilp& m, const MilpSolver& solver,
                    const CapacityBound& b, Diagnosis depth, SolveClocks* clocks, Allocation& a, std::ostringstream& out) {
  for (const auto& [c, l] : b.min_load) {
    // The fallback can only move work off a specialised core: skip the others' solves.
    if (depth == Diagnosis::Memory && !acc.core(c).operator_types) continue;
    // Another core certainly over its capacity keeps the model infeasible without this row.
    if (certainly_over_capacity(acc, b.min_load, c)) continue;
    const std::string row = "capacity_core_" + std::to_string(c);
    if (feasible_without(m, solver, clocks, [&](const Row& r) { return r.name == row; })) {
      a.blocking_cores.push_back(c);
      out << "memory_capacity: core " << c << " alone makes the model infeasible (" << static_cast<long long>(l)
          << " bits at least, capacity " << acc.core(c).memory_capacity() << ")\n";
    }
  }
}

}  // namespace

CapacityBound capacity_bound(const SteadyState& ss, const AllocationMilp& m) {
  CapacityBound b;
  for (std::size_t t = 0; t < ss.tensors.size(); ++t) {
    const auto& ten = ss.tensors[t];
    if (ten.producer < 0 || ten.placements.size() != 1) continue;
    const auto kind = ss.nodes[static_cast<std::size_t>(ten.producer)].kind;
    if (kind != SsKind::Compute && kind != SsKind::Transfer) continue;
    const auto& tiles = m.reuse[t].tiles;
    const double bits = static_cast<double>(*std::min_element(tiles.begin(), tiles.end())) * static_cast<double>(ten.memory_tile_bits());
    for (int c : ten.placements.front()) {
      b.min_load[c] += bits;
      if (bits > b.biggest_bits[c]) {
        b.biggest_bits[c] = bits;
        b.biggest[c] = ten.name;
      }
    }
  }
  return b;
}

// Whether the memory-capacity rows are certainly violated (only when the family is modelled).
bool capacity_proved_infeasible(const AllocationMilp& m, const hardware::Accelerator& acc, const CapacityBound& b) {
  return std::find(m.skipped_families.begin(), m.skipped_families.end(), "memory_capacity") == m.skipped_families.end() &&
         certainly_over_capacity(acc, b.min_load, -1);
}

// Fills a.culprit_families, a.blocking_cores and a.infeasibility. When the bound proves a core
// over its capacity, memory capacity is the culprit without a solve (every other family's
// relaxation keeps the violated row, so none of them can be); the cores are still tried alone.
void diagnose(const hardware::Accelerator& acc, const AllocationMilp& m, const MilpSolver& solver, const CapacityBound& bound,
              Diagnosis depth, Allocation& a, SolveClocks* clocks) {
  std::ostringstream out;
  for (const auto& v : m.constant_violations) out << "violated before solving: " << v << "\n";
  for (const auto& [c, l] : bound.min_load) {
    const double cap = static_cast<double>(acc.core(c).memory_capacity());
    if (cap > 0 && l > cap)
      out << "memory_capacity: core " << c << " needs at least " << static_cast<long long>(l) << " bits but holds "
          << static_cast<long long>(cap) << " (largest tensor: " << bound.biggest.at(c) << ")\n";
  }
  if (m.constant_violations.empty()) {
    if (a.capacity_proved) {
      a.culprit_families.push_back("memory_capacity");
      out << "constraint family 'memory_capacity': certainly violated (a core's smallest load above exceeds its "
             "capacity), so the allocation was not solved\n";
    } else {
      culprit_families(m, solver, depth, clocks, a, out);
    }
    if (std::find(a.culprit_families.begin(), a.culprit_families.end(), "memory_capacity") != a.culprit_families.end())
      blocking_cores(acc, m, solver, bound, depth, clocks, a, out);
  }
  a.infeasibility = out.str();
  if (a.infeasibility.empty()) a.infeasibility = "the solver found no feasible allocation; no single constraint family explains it\n";
}

}  // namespace stream::allocate
