// The whole mapping pipeline on an in-memory workload and accelerator (design.md's list):
//
//   groups = split_fusion_groups(workload, cut points), every group checked before any is mapped
//   for each group:  mapping -> tiling::tile -> estimate_costs -> schedule::steady_state
//                    -> allocate::solve -> energy, memory accesses
//   total latency = sum of group latencies (groups run back to back)
//
// run() owns no modelling logic; each step is a function of its explicit inputs. Loading files
// (workload frontends, hardware YAML) is the caller's job, so that tests can hand in workloads
// built with the IR.
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
#include "stream/cost/cost_backend.hpp"
#include "stream/cost/cost_profile.hpp"
#include "stream/pipeline/layout_choice.hpp"
#include "stream/pipeline/memory_accesses.hpp"
#include "stream/pipeline/run_cache.hpp"
#include "stream/schedule/steady_state.hpp"
#include "stream/tiling/tiled_group.hpp"

namespace stream::pipeline {

enum class CutMode { None, Auto, PerLayer, Explicit };

struct RunOptions {
  std::optional<std::filesystem::path> mapping;  ///< a mapping file (one group), else automatic
  /// A mapping in memory (one group), as a mapping file would give it (the mapping search's
  /// variants); used when `mapping` is not set.
  std::shared_ptr<const mapping::Mapping> mapping_data;
  [[nodiscard]] bool has_mapping() const { return mapping || mapping_data; }
  std::vector<mapping::TileEntry> intra_core_tiling;
  /// None: the workload's FusionEdges only; Auto: determine_fusion_cut_points (the default of the
  /// automatic path); PerLayer; Explicit: `cut_points`.
  CutMode cut_mode = CutMode::Auto;
  std::vector<std::string> cut_points;
  int threads = 1;
  double time_limit_s = 0;  ///< per MILP level; 0 = none
  std::string solver = "cbc";
  /// The allocation MILP's optional families and pipelining model (constraint_selection.hpp).
  allocate::ConstraintSelection constraints;
  /// Columns whose memory cores may stage tensors (steady_state.hpp; the reference's API default
  /// 4, its AIE tests 8).
  int nb_cols_to_use = schedule::kDefaultNbColsToUse;
  /// Where each group's infeasible model goes (<dir>/group_<i>/model.mps); empty: not written.
  std::filesystem::path failure_dir;
  std::function<void(const std::string&)> progress;  ///< one line per step, may be empty
  /// Stop each group after its cost table (no schedule, no MILP): `stream core-cost --workload`.
  bool costs_only = false;
  /// Automatic mapping without a caller tiling only: when memory capacity makes a group's
  /// allocation infeasible, tile finer, then map the group again without the specialised cores
  /// whose memory blocks it, then cut it into one group per layer (beyond the reference, which
  /// stops there; docs/pipeline.md).
  bool memory_fallback = true;
  /// Automatic path only: applied to the name-ordered workload before it is split into groups,
  /// keeping its order (the reference's ExpandNormalizationStage; `stream run` sets it to the
  /// registered Softmax/LpNormalization decompositions unless --no-decompose). Empty: none.
  std::function<Workload(const Workload&)> expand;
  /// Per-core cost backends (Registries::cost_backend_list(); cost/estimate_costs.hpp). Empty: the
  /// built-in ZigZag-equivalent model costs every core.
  std::vector<CostBackend> cost_backends;
  /// Structural deduplication: a group whose steady state equals an earlier group's up to names
  /// (the MILP's whole input) reuses that group's optimal allocation instead of solving again;
  /// every result file is the same as without it (`stream run --no-dedup` turns it off).
  bool deduplicate = true;
  /// Data layouts (layout_choice.hpp): Fixed keeps the model's and prices them; Choose picks one
  /// per tensor, inserting conversion groups where cheaper, and schedules the groups again.
  LayoutMode layout = LayoutMode::Fixed;
  /// The latency of the ideal-cycle estimates (cost/cost_profile.hpp; docs/cost-model.md): the
  /// reference's rule, or also bounded by their memory traffic (`stream run --cost-profile full`).
  cost::CostProfile cost_profile = cost::CostProfile::Reference;
  /// Whose automatic path (stream/compat.hpp): Stream113 takes the reference's fusion tiling,
  /// capacity tiler and memory rows where they differ from ours (the workload's layout operators
  /// are the caller's: kept as FusionEdges by the frontend).
  Compat compat = Compat::None;
  /// Routes and costs shared with other runs (run_cache.hpp); null: the run keeps its own.
  std::shared_ptr<RunCache> cache;
  /// Automatic fusion with the memory fallback only: each solved fused group (two compute nodes
  /// or more) is also run as one group per layer, and the sum of those latencies is kept in
  /// GroupResult::per_layer_latency when it is lower. Every figure of the run stays the fused
  /// group's (the reference's rule); `stream run` sets it to print a hint (docs/pipeline.md).
  bool per_layer_check = false;
};

/// One MILP solve: an objective level of the lexicographic solve or a diagnosis solve.
struct MilpSolveTime {
  std::string what;  ///< the level's name, or "diagnosis"
  double solve_time_s = 0;
  std::string status;
};

/// One mapping a group was tried with (the memory fallback may try several), with its clocks.
struct Attempt {
  std::string change;  ///< empty for the group's first mapping, else what the fallback changed
  double fill_fraction = mapping::kDefaultFillFraction;
  std::vector<int> excluded_cores;
  bool tile_cap_reached = false;  ///< the capacity tiler stopped at the tile cap with a core still over
  bool reused = false;            ///< the allocation was an earlier identical group's (deduplication)
  bool capacity_proved = false;   ///< infeasible by the capacity bound, without a solve
  std::string status;             ///< the allocation's status ("" when costs only)
  double mapping_time_s = 0, tiling_time_s = 0, cost_time_s = 0, schedule_time_s = 0;
  double solve_time_s = 0;  ///< allocate::solve as a whole: model build, every MILP solve, diagnosis
  std::vector<MilpSolveTime> milp;
};

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
  double wall_time_s = 0;
  double cost_time_s = 0;  ///< the cost table (estimate_costs) alone; part of wall_time_s
  std::vector<Attempt> attempts;  ///< in order; the last one is the group's answer
  double results_time_s = 0;      ///< energy and memory accesses after the allocation
  /// A conversion group of `--layout choose` (layout_choice.hpp): the tensor it converts; empty
  /// for the workload's own groups.
  std::string converts;
  /// RunOptions::per_layer_check: the latency of the group's nodes as one group per layer, when
  /// lower than the group's own; -1 otherwise (not checked, not lower, or a part infeasible).
  std::int64_t per_layer_latency = -1;
};

/// A fused group the memory fallback cut into one group per layer: its attempts, for timings.
struct CutGroup {
  int split_from = 0;  ///< the automatic group's index (the parts' split_from)
  std::size_t compute_nodes = 0;
  std::vector<Attempt> attempts;
  double wall_time_s = 0;  ///< from its first mapping to the cut, included
};

/// SupersededRun::pass of the per-layer check's runs (RunOptions::per_layer_check).
inline constexpr const char* kPerLayerCheck = "per-layer check";

/// A group run whose result is not among the run's groups: with `--layout choose` a first-pass
/// group the second pass scheduled again, or a conversion group run to price an option; a layer
/// of a fused group run alone by the per-layer check; its clocks are kept for timings.*.
struct SupersededRun {
  std::string pass;  ///< "first pass", "conversion pricing" or kPerLayerCheck
  std::string name;  ///< the first pass's `group_<i>`, or the tensor a priced conversion writes
  std::vector<Attempt> attempts;
  double wall_time_s = 0;
  double results_time_s = 0;  ///< energy and memory accesses after the allocation
};

/// A layout conversion done by a strided DMA alone (`--layout choose`, layout_dma_conversion.hpp):
/// it has no group; its cycles and energy add to the run's totals.
struct DmaConversion {
  std::string tensor;  ///< the tensor it reads
  std::string to;      ///< the tensor it writes, `<tensor>_as_<order>`
  std::vector<std::int64_t> shape;
  Layout from;            ///< the layout it reads
  Layout layout;          ///< the layout it writes
  int before_group = -1;  ///< the first group reading `to`: the conversion runs just before it
  DmaConversionCost cost;
};

struct STREAM_API RunResult {
  std::vector<GroupResult> groups;
  std::int64_t total_latency = 0;  ///< cycles
  double total_energy = 0;         ///< pJ
  double edp = 0;                  ///< pJ x cycles
  double wall_time_s = 0;
  std::vector<CutGroup> cut_groups;
  double grouping_time_s = 0;  ///< splitting into fusion groups and checking them
  std::size_t reused_allocations = 0;  ///< groups whose allocation deduplication reused
  /// Set by a caller that cast the workload before the run (`--cast`): the target type and how
  /// many tensors changed; the summary reports them.
  std::string cast;
  std::size_t cast_tensors = 0;
  LayoutMode layout = LayoutMode::Fixed;  ///< the run's layout mode
  /// `--layout choose`: every tensor moved off chip with its options and choice (the first
  /// pass's figures); empty under Fixed.
  std::vector<LayoutChoice> layout_choices;
  std::int64_t first_pass_latency = 0;  ///< `--layout choose`: the total latency with the model's layouts
  /// `--layout choose`: the conversions done by the DMA alone, in order (their cycles and energy
  /// are in total_latency and total_energy, in no group's).
  std::vector<DmaConversion> dma_conversions;
  /// `--layout choose`: group runs whose results were replaced (for timings.*), and the seconds
  /// spent gathering and pricing the options apart from those runs.
  std::vector<SupersededRun> superseded_runs;
  double layout_choice_time_s = 0;
  [[nodiscard]] bool solved() const;  ///< every group optimal (or time-limited with a solution)
};

/// The fusion groups run() schedules (the whole workload with a mapping file), each checked with
/// schedule::check_group_structure(): a group the schedule cannot take throws a stream::Error
/// naming the group and node here, before any group is mapped or solved. `stream validate` runs it.
[[nodiscard]] STREAM_API std::vector<Workload> checked_fusion_groups(const Workload& workload, const RunOptions& options = {});

[[nodiscard]] STREAM_API RunResult run(const Workload& workload, const hardware::Accelerator& accelerator,
                                       const RunOptions& options = {});

}  // namespace stream::pipeline
