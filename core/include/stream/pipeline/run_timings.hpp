// A run's clocks, apart from its values (run.hpp's RunResult): every wall-clock reading of a run,
// for timings.yaml / timings.json (report/timings.hpp). Clock readings differ between two runs of
// the same inputs, so they never enter RunResult, which is a function of the inputs alone. A run
// fills the RunTimings its RunEnv points to: per group of the result (same order) its phases and
// attempts; the fused groups the memory fallback cut; the group runs whose results the run did
// not keep (superseded runs: `--layout choose`'s first pass and conversion pricing, the per-layer
// check's layers), each with its attempts' values and clocks.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "stream/allocate/solve_clocks.hpp"
#include "stream/pipeline/attempt.hpp"

namespace stream::pipeline {

/// One MILP solve: an objective level of the lexicographic solve or a diagnosis solve.
using MilpSolveTime = allocate::MilpSolveTime;

/// The clocks of one Attempt (attempt.hpp), in the same order.
struct AttemptClocks {
  double mapping_time_s = 0, tiling_time_s = 0, cost_time_s = 0, schedule_time_s = 0;
  double solve_time_s = 0;  ///< allocate::solve as a whole: model build, every MILP solve, diagnosis
  std::vector<MilpSolveTime> milp;
};

/// A group run with its attempts' values and clocks (one per attempt, in order).
struct GroupClocks {
  std::vector<Attempt> attempts;
  std::vector<AttemptClocks> clocks;
  double wall_time_s = 0;
  double cost_time_s = 0;     ///< the cost tables (estimate_costs) alone; part of wall_time_s
  double results_time_s = 0;  ///< energy and memory accesses after the allocation
  /// The solve that gave the group's allocation (none when it was an earlier group's, reused).
  allocate::SolveClocks allocation;
};

/// A fused group the memory fallback cut into one group per layer.
struct CutGroup {
  int split_from = 0;  ///< the automatic group's index (the parts' split_from)
  std::size_t compute_nodes = 0;
  GroupClocks run;  ///< from its first mapping to the cut, included
};

/// SupersededRun::pass of the per-layer check's runs (RunSpec::per_layer_check).
inline constexpr const char* kPerLayerCheck = "per-layer check";

/// A group run whose result is not among the run's groups: with `--layout choose` a first-pass
/// group the second pass scheduled again, or a conversion group run to price an option; a layer
/// of a fused group run alone by the per-layer check.
struct SupersededRun {
  std::string pass;  ///< "first pass", "conversion pricing" or kPerLayerCheck
  std::string name;  ///< the first pass's `group_<i>`, or the tensor a priced conversion writes
  GroupClocks run;
};

struct RunTimings {
  double wall_time_s = 0;
  double grouping_time_s = 0;  ///< splitting into fusion groups and checking them
  double layout_choice_time_s = 0;  ///< `--layout choose`: gathering and pricing options, rewriting
  std::vector<GroupClocks> groups;  ///< as RunResult::groups
  std::vector<CutGroup> cut_groups;
  std::vector<SupersededRun> superseded_runs;
};

}  // namespace stream::pipeline
