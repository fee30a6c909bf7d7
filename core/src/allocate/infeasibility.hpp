// Why an allocation MILP is infeasible, and the bound that proves it before solving.
//
// The capacity bound: each tensor whose placement is fixed adds at least its smallest reuse
// level's tiles to its core's load, a lower bound on every allocation's load. When it exceeds a
// core's capacity the model is infeasible without a solve. The diagnosis then names the constraint
// families whose removal alone makes the model feasible and the cores whose capacity row alone
// makes it infeasible (what the pipeline's memory fallback acts on).
#pragma once

#include <map>
#include <string>

#include "stream/allocate/allocation_milp.hpp"

namespace stream::allocate {

/// The smallest possible load of each core from the tensors fixed on it.
struct CapacityBound {
  std::map<int, double> min_load;
  std::map<int, std::string> biggest;  ///< the largest tensor fixed on each core
  std::map<int, double> biggest_bits;
};

[[nodiscard]] CapacityBound capacity_bound(const schedule::SteadyState& ss, const AllocationMilp& m);

/// Whether the memory-capacity rows are certainly violated (only when the family is modelled).
[[nodiscard]] bool capacity_proved_infeasible(const AllocationMilp& m, const hardware::Accelerator& acc,
                                              const CapacityBound& b);

/// Fills a.culprit_families, a.blocking_cores and a.infeasibility; each relaxation solved goes to
/// `clocks` (when given) as a kDiagnosisSolve.
void diagnose(const hardware::Accelerator& acc, const AllocationMilp& m, const MilpSolver& solver,
              const CapacityBound& bound, Diagnosis depth, Allocation& a, SolveClocks* clocks);

}  // namespace stream::allocate
