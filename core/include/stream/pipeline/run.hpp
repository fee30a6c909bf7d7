// The whole mapping pipeline on an in-memory workload and accelerator (design.md's list):
//
//   groups = split_fusion_groups(workload, cut points), every group checked before any is mapped
//   for each group:  mapping -> tiling::tile -> estimate_costs -> schedule::steady_state
//                    -> allocate::solve -> energy, memory accesses
//   total latency = sum of group latencies (groups run back to back)
//
// run() owns no modelling logic; each step is a function of its explicit inputs. What a run
// computes is its RunSpec (values, run_spec.hpp), where it runs its RunEnv (caches, solver,
// progress, cancellation, clocks: run_env.hpp); the result holds values only, byte-identical
// across runs, and the clocks go to a RunTimings (run_timings.hpp). Loading files (workload
// frontends, hardware YAML) and preparing the workload (cast, decompositions) is the caller's
// job, so that tests can hand in workloads built with the IR.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "stream/allocate/allocation_milp.hpp"
#include "stream/compat.hpp"
#include "stream/export.hpp"
#include "stream/hardware/accelerator.hpp"
#include "stream/ir/workload.hpp"
#include "stream/mapping/auto_mapping.hpp"
#include "stream/pipeline/energy.hpp"
#include "stream/cost/cost_table.hpp"
#include "stream/layout/outcome.hpp"
#include "stream/layout/prices.hpp"
#include "stream/pipeline/memory_accesses.hpp"
#include "stream/pipeline/attempt.hpp"
#include "stream/pipeline/run_env.hpp"
#include "stream/pipeline/run_spec.hpp"
#include "stream/schedule/steady_state.hpp"
#include "stream/tiling/tiled_group.hpp"

namespace stream::pipeline {

struct GroupResult {
  int index = 0;
  Workload workload;
  mapping::GroupMapping mapping;
  tiling::TiledGroup tiled;
  cost::CostTable costs;
  schedule::SteadyState schedule;
  allocate::Allocation allocation;
  Energy energy;
  MemoryAccesses memory_accesses;   ///< after a successful solve (whole group)
  std::vector<int> excluded_cores;  ///< cores the memory fallback took out of the mapping
  /// When the memory fallback cut an automatic fusion group into one group per layer: that
  /// group's index among the groups before any cut (-1 otherwise).
  int split_from = -1;
  double fill_fraction = mapping::kDefaultFillFraction;       ///< the capacity tiler's fill fraction of the final mapping
  std::vector<Attempt> attempts;  ///< in order; the last one is the group's answer (clocks: RunTimings)
  /// Its tensors' layout prices (layout/prices.hpp, layouts.yaml), computed once it is solved
  /// where a layout can change a figure (layout::layouts_matter) or the run chooses layouts;
  /// nullopt elsewhere (no layouts.yaml).
  std::optional<std::vector<layout::TensorLayoutPrice>> layout_prices;
  /// A conversion group of `--layout choose` (layout/choice.hpp): the tensor it converts; empty
  /// for the workload's own groups.
  std::string converts;
  /// RunSpec::per_layer_check: the latency of the group's nodes as one group per layer, when
  /// lower than the group's own; -1 otherwise (not checked, not lower, or a part infeasible).
  std::int64_t per_layer_latency = -1;
};

struct STREAM_API RunResult {
  std::vector<GroupResult> groups;
  std::int64_t total_latency = 0;  ///< cycles
  double total_energy = 0;         ///< pJ
  double edp = 0;                  ///< pJ x cycles
  std::size_t reused_allocations = 0;  ///< allocations deduplication reused (any pass, any attempt)
  WorkloadCast cast;  ///< RunSpec::cast, for the summary
  /// The layout mode, and under `--layout choose` the options, the choice, the first pass's
  /// latency and the DMA conversions (whose cycles and energy are in total_latency and
  /// total_energy, in no group's).
  layout::LayoutOutcome layout;
  [[nodiscard]] bool solved() const;  ///< every group optimal (or time-limited with a solution)
};

/// The fusion groups run() schedules (the whole workload with a mapping file), each checked with
/// schedule::check_group_structure(): a group the schedule cannot take throws a stream::Error
/// naming the group and node here, before any group is mapped or solved. `stream validate` runs it.
[[nodiscard]] STREAM_API std::vector<Workload> checked_fusion_groups(const Workload& workload, const RunSpec& spec = {});

/// The run of `spec` on the workload (prepared by the caller: run_spec.hpp) in `env`; its clocks
/// go to env.timings when set.
[[nodiscard]] STREAM_API RunResult run(const Workload& workload, const hardware::Accelerator& accelerator,
                                       const RunSpec& spec = {}, const RunEnv& env = {});

}  // namespace stream::pipeline
